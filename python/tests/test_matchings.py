"""Matchings of every size from Python: closed forms (Fibonacci, Lucas, telephone numbers),
Z(x) as exact fractions, every input kind (networkx graphs and multigraphs, weights, matrices
as biadjacency or adjacency), prime sets, and the errors."""

from fractions import Fraction

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp

import pmcount


def brute_force(graph, weight=None):
    """m_0 … m_⌊n/2⌋ by enumerating the edge subsets that are matchings (small graphs)."""
    edges = list(graph.edges(data=weight, default=1)) if weight else [
        (u, v, 1) for u, v in graph.edges()]
    m = [0] * (graph.number_of_nodes() // 2 + 1)

    def go(k, used, size, w):
        if k == len(edges):
            m[size] += w
            return
        go(k + 1, used, size, w)
        u, v, x = edges[k]
        if u not in used and v not in used:
            go(k + 1, used | {u, v}, size + 1, w * x)

    go(0, frozenset(), 0, 1)
    return m


def test_closed_forms():
    a, b = 1, 1
    for n in range(1, 40):
        assert pmcount.count_matchings(nx.path_graph(n)) == b
        a, b = b, a + b
    lucas = [2, 1]
    for n in range(2, 40):
        lucas.append(lucas[-1] + lucas[-2])
    for n in range(3, 40):
        assert pmcount.count_matchings(nx.cycle_graph(n)) == lucas[n]
    t = [1, 1]
    for n in range(2, 22):
        t.append(t[-1] + (n - 1) * t[-2])
        assert pmcount.count_matchings(nx.complete_graph(n)) == t[n]


def test_polynomial_sizes_and_monomer_weights_against_brute_force():
    rng = np.random.default_rng(7)
    for trial in range(30):
        g = nx.gnp_random_graph(int(rng.integers(2, 11)), 0.4, seed=int(rng.integers(1 << 30)))
        for u, v in g.edges():
            g[u][v]["w"] = int(rng.integers(-3, 4)) or 2
        m = brute_force(g, "w")
        assert pmcount.matching_polynomial(g, weight="w") == m
        assert pmcount.count_matchings(g, weight="w") == sum(m)
        k = int(rng.integers(0, len(m) + 1))
        assert pmcount.count_matchings(g, size=k, weight="w") == (m[k] if k < len(m) else 0)
        x = Fraction(int(rng.integers(-4, 5)), int(rng.integers(1, 5)))
        n = g.number_of_nodes()
        z = sum(c * x ** (n - 2 * j) for j, c in enumerate(m))
        got = pmcount.count_matchings(g, monomer_weight=x, weight="w")
        assert got == z and type(got) is (int if z.denominator == 1 else Fraction)
        for method in ("frontier", "hafnian"):
            assert pmcount.matching_polynomial(g, weight="w", method=method) == m


def test_monomer_weight_spellings():
    p3 = nx.path_graph(3)   # x³ + 2x
    for x in ("1/2", "0.5", 0.5, Fraction(1, 2), "5e-1"):
        assert pmcount.count_matchings(p3, monomer_weight=x) == Fraction(9, 8)
    assert pmcount.count_matchings(p3, monomer_weight=0.1) == Fraction(1, 1000) + Fraction(2, 10)
    assert pmcount.count_matchings(p3, monomer_weight=3) == 33


def test_inputs():
    # K_{3,3} from a matrix (rows and columns): Σ_k C(3,k)² k! = 34.
    assert pmcount.count_matchings(np.ones((3, 3), dtype=int)) == 34
    assert pmcount.count_matchings(sp.csr_matrix(np.ones((3, 3), dtype=int))) == 34
    # The same matrix as an adjacency: K3 with loops ignored → 1 + 3.
    assert pmcount.count_matchings(np.ones((3, 3), dtype=int), adjacency=True) == 4
    a = np.array([[0, 5, 0], [5, 0, 7], [0, 7, 0]])
    assert pmcount.matching_polynomial(a, adjacency=True) == [1, 12]
    # A multigraph's parallel edges add up.
    mg = nx.MultiGraph([(0, 1), (0, 1), (1, 2)])
    assert pmcount.matching_polynomial(mg) == [1, 3]
    # Labels of any kind; C60-like cubic graphs through both prime sets.
    g = nx.relabel_nodes(nx.dodecahedral_graph(), {i: f"v{i}" for i in range(20)})
    assert pmcount.count_matchings(g) == pmcount.count_matchings(g, prime_set=3)
    assert pmcount.matching_polynomial(g)[-1] == pmcount.count_perfect_matchings(g)


def test_errors():
    g = nx.path_graph(4)
    with pytest.raises(TypeError):
        pmcount.count_matchings(nx.DiGraph([(0, 1)]))
    with pytest.raises(TypeError):
        pmcount.count_matchings(g, size=1, monomer_weight=2)
    with pytest.raises(ValueError):
        pmcount.count_matchings(g, size=-1)
    with pytest.raises(pmcount.InvalidArgumentError, match="monomer weight 'abc'"):
        pmcount.count_matchings(g, monomer_weight="abc")
    with pytest.raises(ValueError):
        pmcount.count_matchings(g, monomer_weight=float("nan"))
    with pytest.raises(TypeError):
        pmcount.count_matchings(np.full((2, 2), 0.5))
    with pytest.raises(ValueError, match="not symmetric"):
        pmcount.count_matchings(np.array([[0, 1], [2, 0]]), adjacency=True)
    g[0][1]["w"] = 1.5
    with pytest.raises(TypeError, match="not an integer"):
        pmcount.count_matchings(g, weight="w")
    with pytest.raises(pmcount.InvalidArgumentError):
        pmcount.count_matchings(nx.path_graph(4), method="ryser")


def test_estimates_cover_the_exact_counts():
    # All matchings of a general graph, a bipartite matrix's both sides, a weighted graph at
    # x = 0.7 with real weights: each interval covers the exact value.
    tri = nx.triangular_lattice_graph(4, 6)
    e = pmcount.estimate_matchings(tri, rel_error=0.01, seed=5)
    truth = pmcount.count_matchings(tri)
    assert e.ci[0] <= truth <= e.ci[1]
    assert e.raw["estimator"] == "monomer-dimer"
    m = np.array([[1, 1, 0], [1, 1, 1], [0, 1, 1]])
    e = pmcount.estimate_matchings(m, samples=200000, particles=1)
    assert e.ci[0] <= pmcount.count_matchings(m) <= e.ci[1]
    g = nx.cycle_graph(9)
    for k, (u, v) in enumerate(g.edges()):
        g[u][v]["w"] = 1 + k % 3
    exact = pmcount.count_matchings(g, monomer_weight=Fraction(7, 10), weight="w")
    e = pmcount.estimate_matchings(g, 0.7, weight="w", samples=100000, seed=2)
    assert e.ci[0] <= float(exact) <= e.ci[1]
    for x in ("7/10", Fraction(7, 10)):
        assert pmcount.estimate_matchings(g, x, weight="w", samples=100000, seed=2).value == \
            e.value
    for u, v in g.edges():
        g[u][v]["w"] = 0.5 * g[u][v]["w"]
    half = pmcount.estimate_matchings(g, 0.7, weight="w", samples=100000, seed=2)
    assert half.value < e.value


def test_estimate_errors():
    with pytest.raises(pmcount.InvalidArgumentError):
        pmcount.estimate_matchings(nx.path_graph(4), 0)
    with pytest.raises(pmcount.InvalidArgumentError):
        pmcount.estimate_matchings(nx.path_graph(4), -1.5)
    with pytest.raises(ValueError):
        pmcount.estimate_matchings(nx.path_graph(4), "x")
    with pytest.raises(TypeError):
        pmcount.estimate_matchings(nx.DiGraph([(0, 1)]))
    with pytest.raises(pmcount.InvalidArgumentError):
        pmcount.estimate_matchings(np.array([[0.0, -1.0], [-1.0, 0.0]]), adjacency=True)
