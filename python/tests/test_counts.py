"""pmcount's Python API against closed forms, brute force over permutations and pairings, the
C++ library's answers on the bundled datasets, and every engine against the others."""

import itertools
import math
import pathlib
import random
import tracemalloc

import networkx as nx
import numpy as np
import pytest
import scipy.io
import scipy.sparse as sp

import pmcount

DATASETS = pathlib.Path(__file__).resolve().parents[2] / "datasets"


# ---- independent oracles -------------------------------------------------------------------------


def brute_permanent(a):
    n = len(a)
    return sum(math.prod(a[i][p[i]] for i in range(n)) for p in itertools.permutations(range(n)))


def brute_hafnian(a):
    """Σ over pairings: the lowest remaining vertex is paired with each other one in turn."""
    def haf(rest):
        if not rest:
            return 1
        first, others = rest[0], rest[1:]
        return sum(a[first][v] * haf(others[:k] + others[k + 1:]) for k, v in enumerate(others))

    n = len(a)
    return 0 if n % 2 else haf(tuple(range(n)))


def kasteleyn_grid(m, n):
    """Domino tilings of the m×n grid, exactly: the fourth root of Kasteleyn's product
    Π_{j≤m, k≤n} (4cos²(πj/(m+1)) + 4cos²(πk/(n+1))) in 400-digit arithmetic, rounded."""
    if m * n % 2:
        return 0
    mpmath = pytest.importorskip("mpmath")
    mpmath.mp.dps = 400
    product = mpmath.mpf(1)
    for j in range(1, m + 1):
        for k in range(1, n + 1):
            product *= (4 * mpmath.cos(mpmath.pi * j / (m + 1)) ** 2
                        + 4 * mpmath.cos(mpmath.pi * k / (n + 1)) ** 2)
    return int(mpmath.nint(mpmath.root(product, 4)))


def double_factorial(m):
    return math.prod(range(1, m, 2)) if m > 0 else 1


def derangements(n):
    return round(math.factorial(n) / math.e) if n > 0 else 1


# ---- closed forms --------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [1, 2, 5, 9, 13])
def test_complete_bipartite_has_n_factorial_matchings_in_every_input_form(n):
    expected = math.factorial(n)
    assert pmcount.count_perfect_matchings(nx.complete_bipartite_graph(n, n)) == expected
    assert pmcount.count_perfect_matchings(np.ones((n, n), dtype=np.int8)) == expected
    assert pmcount.count_perfect_matchings(sp.csr_array(np.ones((n, n)))) == expected
    assert pmcount.count_perfect_matchings([[1] * n] * n) == expected
    assert pmcount.permanent(np.ones((n, n), dtype=int)) == expected
    assert pmcount.count_perfect_matchings(pmcount.complete_bipartite(n)) == expected


@pytest.mark.parametrize("m, n", [(2, 2), (4, 7), (8, 8), (6, 13), (32, 32), (3, 5)])
def test_grids_follow_kasteleyns_formula(m, n):
    expected = kasteleyn_grid(m, n)
    assert pmcount.count_perfect_matchings(nx.grid_2d_graph(m, n)) == expected
    assert pmcount.count_perfect_matchings(pmcount.grid(m, n, as_="scipy")) == expected


def test_grid_32x32_is_exact_and_an_int():
    value = pmcount.count_perfect_matchings(nx.grid_2d_graph(32, 32))
    assert type(value) is int
    assert value == kasteleyn_grid(32, 32)
    assert len(str(value)) == 126


@pytest.mark.parametrize("m", [1, 2, 3, 5, 7])
def test_complete_graphs_have_double_factorial_matchings(m):
    assert pmcount.count_perfect_matchings(nx.complete_graph(2 * m)) == double_factorial(2 * m)
    assert pmcount.hafnian(np.ones((2 * m, 2 * m), dtype=int)) == double_factorial(2 * m)


def test_cycles_ladders_and_petersen():
    for m in range(2, 12):
        assert pmcount.count_perfect_matchings(nx.cycle_graph(2 * m)) == 2
        assert pmcount.count_perfect_matchings(nx.cycle_graph(2 * m + 1)) == 0
    fibonacci = [1, 1]
    while len(fibonacci) < 30:
        fibonacci.append(fibonacci[-1] + fibonacci[-2])
    for n in range(1, 25):  # the 2×n ladder: F(n+1)
        assert pmcount.count_perfect_matchings(nx.ladder_graph(n)) == fibonacci[n]
    assert pmcount.count_perfect_matchings(nx.petersen_graph()) == 6


@pytest.mark.parametrize("n", [2, 3, 6, 9, 12])
def test_cycle_covers_of_loopless_complete_digraphs_are_derangements(n):
    d = nx.complete_graph(n, create_using=nx.DiGraph)
    assert pmcount.count_cycle_covers(d) == derangements(n)
    assert pmcount.count_cycle_covers(np.ones((n, n), dtype=int) - np.eye(n, dtype=int)) == derangements(n)


def test_self_loops_are_fixed_points_of_cycle_covers():
    d = nx.DiGraph([(0, 0), (1, 1), (0, 1), (1, 0)])
    assert pmcount.count_cycle_covers(d) == 2


def test_an_undirected_graph_counts_as_both_arcs_for_cycle_covers():
    assert pmcount.count_cycle_covers(nx.cycle_graph(5)) == 2  # its two orientations


# ---- brute force ---------------------------------------------------------------------------------


def test_integer_permanents_match_brute_force():
    rng = random.Random(7)
    for trial in range(40):
        n = rng.randint(0, 7)
        a = [[rng.randint(-3, 3) for _ in range(n)] for _ in range(n)]
        assert pmcount.permanent(np.array(a, dtype=np.int64).reshape(n, n)) == brute_permanent(a), a


def test_integer_hafnians_match_brute_force():
    rng = random.Random(8)
    for trial in range(40):
        n = rng.randint(0, 10)
        a = [[0] * n for _ in range(n)]
        for i in range(n):
            for j in range(i + 1, n):
                a[i][j] = a[j][i] = rng.choice([0, 0, 1, 2, -1])
        assert pmcount.hafnian(np.array(a, dtype=np.int64).reshape(n, n)) == brute_hafnian(a), a


def test_real_and_complex_permanents_are_within_their_error_bounds():
    rng = np.random.default_rng(9)
    for n in range(1, 8):
        real = rng.uniform(-1, 1, (n, n))
        value = pmcount.permanent(real)
        assert isinstance(value, pmcount.FloatResult)
        assert abs(value - brute_permanent(real.tolist())) <= value.error + 1e-300
        comp = rng.uniform(-1, 1, (n, n)) + 1j * rng.uniform(-1, 1, (n, n))
        value = pmcount.permanent(comp)
        assert isinstance(value, pmcount.ComplexResult)
        assert abs(value - brute_permanent(comp.tolist())) <= value.error + 1e-300


def test_double_double_tightens_the_bound():
    a = np.random.default_rng(10).uniform(-1, 1, (14, 14))
    double = pmcount.permanent(a, precision="double")
    dd = pmcount.permanent(a, precision="dd")
    # dd's bound is down to the rounding of its double result, u·|perm|
    assert dd.error < double.error / 100
    assert dd.error <= 4 * 2.0 ** -53 * abs(dd)
    assert abs(double - dd) <= double.error + dd.error


def test_repeated_rows_and_columns_expand_the_matrix():
    a = np.array([[1, 2, 0], [3, 1, 1], [0, 2, 5]])
    expanded = a[[0, 0, 2]][:, [0, 1, 1]]
    assert pmcount.permanent(a, rows=[2, 0, 1], cols=[1, 2, 0]) == brute_permanent(expanded.tolist())
    assert pmcount.permanent(a, rows=[1, 1, 1], cols=[1, 1, 1]) == brute_permanent(a.tolist())
    # 2×1 [[1], [1]]: the rectangular permanent, that of its transpose [[1, 1]]
    assert pmcount.permanent(a, rows=[2, 0, 0], cols=[1, 0, 0]) == 2


def brute_rectangular(a):
    """Σ over the injective maps of the rows into the columns (m ≤ n), or of the transpose's."""
    m, n = len(a), len(a[0]) if a else 0
    if m > n:
        return brute_rectangular([list(column) for column in zip(*a)])
    return sum(math.prod(a[i][p[i]] for i in range(m))
               for p in itertools.permutations(range(n), m))


def test_permanent_of_a_non_square_matrix_is_rectangular():
    # The case: ones((3, 4)) was the int 0; it is 4·3·2 = 24, a float for a float input.
    p = pmcount.permanent(np.ones((3, 4)))
    assert isinstance(p, pmcount.FloatResult)
    # Order 4 counts in certified arithmetic: the figure is a proven bound, 2e-12 here.
    assert abs(p - 24) <= p.error and p.error < 1e-10
    full = pmcount.permanent(np.ones((3, 4)), full=True)
    assert ("the permanent of the 3×4 matrix is that of the 4×4 matrix made by appending 1 row of "
            "ones, divided by 1!") in full.note
    for m, n in [(1, 1), (1, 6), (2, 5), (3, 4), (4, 7), (5, 6)]:
        assert pmcount.permanent(np.ones((m, n), dtype=int)) == math.perm(n, m)
        assert pmcount.permanent(np.ones((n, m), dtype=int)) == math.perm(n, m)
    rng = random.Random(32)
    for m, n in [(1, 4), (2, 3), (2, 6), (3, 5), (4, 6), (5, 7)]:
        ints = [[rng.choice([0, rng.randint(-9, 9)]) for _ in range(n)] for _ in range(m)]
        expected = brute_rectangular(ints)
        for a in (ints, np.array(ints), sp.csr_matrix(np.array(ints)), np.array(ints).T):
            got = pmcount.permanent(a)
            assert type(got) is int and got == expected
        reals = [[rng.uniform(-1, 1) for _ in range(n)] for _ in range(m)]
        scale = 2 ** m * math.prod(sum(map(abs, r)) for r in reals)  # bounds Σ |terms|
        expected = brute_rectangular(reals)
        for a in (np.array(reals), np.array(reals).T, sp.coo_matrix(np.array(reals))):
            got = pmcount.permanent(a)
            assert isinstance(got, pmcount.FloatResult)
            assert abs(got - expected) <= got.error + 1e-14 * scale
        complexes = np.array(reals) + 1j * np.array(reals)[::-1]
        got = pmcount.permanent(complexes.T)
        assert isinstance(got, pmcount.ComplexResult)
        assert abs(got - brute_rectangular(complexes.tolist())) <= got.error + 1e-14 * scale
    # A zero row of the short side: 0; m = 0: the empty map, 1.
    assert pmcount.permanent([[0, 0, 0], [1, 2, 3]]) == 0
    assert pmcount.permanent(np.zeros((0, 5), dtype=int)) == 1
    # Counting perfect matchings of a non-square biadjacency matrix stays 0.
    assert pmcount.count_perfect_matchings(np.ones((3, 4), dtype=int)) == 0


# ---- the C++ library's answers on the bundled datasets --------------------------------------------


def read_edge_list(path):
    """The repository's edge-list format: a '# undirected N', '# directed N' or '# bipartite L R'
    header, then 'u v [weight]' lines."""
    header, rows = None, []
    for line in path.read_text().splitlines():
        if line.startswith("#"):
            words = line[1:].split()
            if header is None and words and words[0] in ("undirected", "directed", "bipartite"):
                header = words
            continue
        if line.strip():
            rows.append([int(x) for x in line.split()])
    return header, rows


def manifest():
    for line in (DATASETS / "MANIFEST.tsv").read_text().splitlines():
        if not line.startswith("#"):
            fields = line.split("\t")
            yield fields[0], fields[4]


@pytest.mark.parametrize("name, expected", list(manifest()))
def test_bundled_datasets_give_their_manifest_answers(name, expected):
    path = DATASETS / name
    if name.endswith(".mtx"):
        a = scipy.io.mmread(path)
        value = pmcount.permanent(a if sp.issparse(a) else np.asarray(a))
        if isinstance(value, int):
            assert value == int(expected)
        else:
            truth = complex(expected.replace("i", "j"))
            assert abs(value - truth) <= value.error + 1e-12 * abs(truth)
        return
    header, rows = read_edge_list(path)
    weighted = any(len(r) == 3 for r in rows)
    if header and header[0] == "directed":
        d = nx.DiGraph()
        d.add_nodes_from(range(int(header[1])))
        d.add_edges_from((u, v) for u, v, *_ in rows)
        assert pmcount.count_cycle_covers(d) == int(expected)
    elif header and header[0] == "bipartite":
        b = np.zeros((int(header[1]), int(header[2])), dtype=np.int64)
        for u, v, *_ in rows:
            b[u, v] = 1
        assert pmcount.count_perfect_matchings(b) == int(expected)
    elif weighted:
        n = int(header[1])
        a = np.zeros((n, n), dtype=np.int64)
        for u, v, w in rows:
            a[u, v] = a[v, u] = w
        assert pmcount.hafnian(a) == int(expected)
    else:
        g = nx.Graph()
        if header:
            g.add_nodes_from(range(int(header[1])))
        g.add_edges_from((u, v) for u, v, *_ in rows)
        assert pmcount.count_perfect_matchings(g) == int(expected)


# ---- every engine against the others -------------------------------------------------------------


def test_engines_agree_on_random_bipartite_graphs():
    for seed in range(12):
        b = pmcount.random_bipartite(11, 0.4, seed=seed, as_="numpy")
        answers = {m: pmcount.count_perfect_matchings(b, method=m)
                   for m in ("auto", "ryser", "sparyser", "skipper", "hafnian", "brute-force")}
        answers["general"] = pmcount.count_perfect_matchings(b, general=True)
        assert len(set(answers.values())) == 1, (seed, answers)


def test_engines_agree_on_random_general_graphs():
    for seed in range(12):
        g = nx.gnp_random_graph(16, 0.4, seed=seed)
        answers = {m: pmcount.count_perfect_matchings(g, method=m)
                   for m in ("auto", "hafnian", "brute-force")}
        a = nx.to_numpy_array(g, dtype=np.int64)
        answers["hafnian(matrix)"] = pmcount.hafnian(a)
        answers["brute"] = brute_hafnian(a.tolist()) if seed < 3 else answers["auto"]
        assert len(set(answers.values())) == 1, (seed, answers)


def test_sparse_and_dense_inputs_agree():
    rng = np.random.default_rng(11)
    a = rng.integers(-2, 3, (12, 12)) * (rng.random((12, 12)) < 0.4)
    assert pmcount.permanent(sp.coo_array(a)) == pmcount.permanent(a)
    s = np.triu(a, 1)
    s = s + s.T
    assert pmcount.hafnian(sp.csr_array(s)) == pmcount.hafnian(s)


def test_multigraph_edges_count_with_multiplicity():
    g = nx.MultiGraph([(0, 1), (0, 1), (2, 3), (1, 2), (0, 3)])
    # matchings {01, 23} twice (two 0-1 edges) and {12, 03} once
    assert pmcount.count_perfect_matchings(g) == 3
    assert pmcount.count_perfect_matchings(g, general=True, method="hafnian") == 3


def multiplicity_matrix(graph):
    """The matrix of edge (arc) multiplicities: an undirected edge in both entries, a directed
    self-loop once."""
    nodes = list(graph.nodes())
    index = {v: i for i, v in enumerate(nodes)}
    a = [[0] * len(nodes) for _ in nodes]
    for u, v in graph.edges():
        a[index[u]][index[v]] += 1
        if not graph.is_directed() and u != v:
            a[index[v]][index[u]] += 1
    return a


def random_multigraph(seed, directed):
    rng = random.Random(seed)
    g = nx.MultiDiGraph() if directed else nx.MultiGraph()
    n = rng.choice([4, 6, 8])
    g.add_nodes_from(f"v{k}" for k in range(n))  # isolated nodes too
    for _ in range(rng.randint(0, 3 * n)):
        if directed and rng.random() < 0.2:
            u = v = rng.randrange(n)  # a fixed point
        else:
            u, v = rng.sample(range(n), 2)
        g.add_edge(f"v{u}", f"v{v}", weight=rng.choice([0.5, "heavy", None]))
    return g


@pytest.mark.parametrize("seed", range(20))
def test_parallel_edges_are_summed_into_multiplicities(seed):
    # Against brute force over pairings (permutations) of the multiplicity matrix; weights of
    # any type are not read.
    g = random_multigraph(seed, directed=False)
    assert pmcount.count_perfect_matchings(g) == brute_hafnian(multiplicity_matrix(g))
    assert pmcount.hafnian(np.array(multiplicity_matrix(g))) == \
        brute_hafnian(multiplicity_matrix(g))
    d = random_multigraph(seed, directed=True)
    assert pmcount.count_cycle_covers(d) == brute_permanent(multiplicity_matrix(d))
    # An undirected multigraph counts as both arcs of each edge.
    assert pmcount.count_cycle_covers(g) == brute_permanent(multiplicity_matrix(g.to_directed()))


def test_a_multigraph_without_parallel_edges_is_the_graph_it_equals():
    g = nx.grid_2d_graph(6, 6)
    simple = pmcount.count_perfect_matchings(g, full=True)
    multi = pmcount.count_perfect_matchings(nx.MultiGraph(g), full=True)
    assert (multi.value, multi.method, multi.structure["plan"]) == \
        (simple.value, simple.method, simple.structure["plan"])
    d = nx.complete_graph(6, create_using=nx.DiGraph)
    assert pmcount.count_cycle_covers(nx.MultiDiGraph(d)) == pmcount.count_cycle_covers(d) == 265


def test_multigraphs_are_converted_sparsely():
    # A 5000-vertex cycle with every edge doubled: 2 perfect matchings of 2500 doubled edges
    # each, and one cycle cover of 5000 doubled arcs. A dense matrix of multiplicities would take
    # 200 MB of int64 (the 100×100 grid's took 1.66 GB); Python's allocations stay far below.
    n = 5000
    g = nx.MultiGraph(nx.cycle_graph(n))
    g.add_edges_from(nx.cycle_graph(n).edges())
    d = nx.MultiDiGraph(nx.cycle_graph(n, create_using=nx.DiGraph))
    d.add_edges_from(list(d.edges()))
    tracemalloc.start()
    try:
        assert pmcount.count_perfect_matchings(g) == 2 * 2 ** (n // 2)
        assert pmcount.count_cycle_covers(d) == 2**n
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 20e6, f"{peak / 1e6:.0f} MB allocated by Python"


class LabelledGraph(nx.Graph):
    """A user's subclass, as applications write them (another module, extra state)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.source = "user"


class LabelledDiGraph(nx.DiGraph):
    pass


class LabelledMultiGraph(nx.MultiGraph):
    pass


def test_subclasses_and_views_of_networkx_graphs_are_graphs():
    grid = LabelledGraph(nx.grid_2d_graph(4, 4))
    assert pmcount.count_perfect_matchings(grid) == 36
    assert pmcount.explain(grid)["structure"]["leaves"]
    assert pmcount.estimate(grid, samples=2000, seed=1).ci[0] < 36
    assert pmcount.count_cycle_covers(LabelledDiGraph(nx.complete_graph(4).to_directed())) == 9
    multi = LabelledMultiGraph([(0, 1), (0, 1), (2, 3), (1, 2), (0, 3)])
    assert pmcount.count_perfect_matchings(multi) == 3
    # Views: a subgraph, a frozen graph, a reversed digraph.
    big = nx.grid_2d_graph(6, 6)
    corner = big.subgraph([(i, j) for i in range(4) for j in range(4)])
    assert pmcount.count_perfect_matchings(corner) == 36
    assert pmcount.count_perfect_matchings(nx.freeze(nx.Graph(big))) == 6728
    assert pmcount.count_cycle_covers(nx.reverse_view(nx.DiGraph([(0, 1), (1, 2), (2, 0)]))) == 1
    with pytest.raises(TypeError, match="count_cycle_covers"):
        pmcount.count_perfect_matchings(LabelledDiGraph([(0, 1)]))


def test_estimates_of_multigraphs_count_parallel_edges():
    g = nx.MultiGraph(nx.grid_2d_graph(4, 4))
    g.add_edges_from(list(nx.grid_2d_graph(4, 4).edges())[:6])
    truth = pmcount.count_perfect_matchings(g)
    assert truth > 36
    e = pmcount.estimate(g, samples=20000, seed=2)
    assert e.ci[0] < truth < e.ci[1], (truth, e)
    with pytest.raises(TypeError, match="adjacency matrix"):
        pmcount.estimate(nx.MultiDiGraph([(0, 1), (1, 0)]))


# ---- networkx labels ----------------------------------------------------------------------------


def test_arbitrary_node_labels():
    g = nx.relabel_nodes(nx.grid_2d_graph(4, 4), {(i, j): f"cell-{i}-{j}" for i in range(4) for j in range(4)})
    assert pmcount.count_perfect_matchings(g) == 36
    h = nx.Graph([("a", (1, 2)), ((1, 2), 3.5), (3.5, frozenset({1})), (frozenset({1}), "a")])
    assert pmcount.count_perfect_matchings(h) == 2
    isolated = nx.Graph([("x", "y")])
    isolated.add_node("lonely")
    assert pmcount.count_perfect_matchings(isolated) == 0


def test_full_result_reports_what_ran():
    r = pmcount.count_perfect_matchings(nx.petersen_graph(), full=True)
    assert isinstance(r, pmcount.Result)
    assert r.value == 6 and r.exact and r.error == 0
    assert r.structure["general"] is True
    triangle = pmcount.count_perfect_matchings(nx.Graph([(0, 1), (1, 2), (2, 0), (3, 4), (4, 5), (5, 3)]), full=True)
    assert triangle.value == 0
    witness = triangle.structure["tutte_set"]
    assert triangle.structure["tutte_odd_components"] > len(witness)


def test_explain_returns_the_plan_without_counting():
    plan = pmcount.explain(nx.grid_2d_graph(6, 6))
    assert "permanent" in plan["structure"]["plan"]
    assert plan["predicted_seconds"] >= 0
    assert plan["structure"]["leaves"]
    plan = pmcount.explain(np.ones((4, 4)), hafnian=True)
    assert plan["method"] or plan["structure"]["plan"]


def test_estimates_cover_the_truth():
    for seed in (1, 2, 3):
        e = pmcount.estimate(pmcount.grid(8, 8), rel_error=0.03, seed=seed)
        assert e.ci[0] < 12988816 < e.ci[1], e
        assert e.samples > 0 and 0 < e.rel_std_error < 0.05
    # All ones: every sample of the scaled estimator is 8! itself (a zero-width interval).
    e = pmcount.estimate(np.ones((8, 8)), samples=2000)
    assert e.ci[0] <= 40320 * (1 + 1e-12) and e.ci[1] >= 40320 * (1 - 1e-12)
    # A graph with labels, its sides found by pmcount (nodes in mixed order), uniform sampling.
    g = nx.relabel_nodes(pmcount.random_bipartite(12, 0.4, seed=5), lambda v: f"v{(7 * v) % 24}")
    truth = pmcount.count_perfect_matchings(g)
    assert truth > 1000
    for seed in (1, 2):
        e = pmcount.estimate(g, samples=20000, estimator="rasmussen", seed=seed)
        assert e.ci[0] < truth < e.ci[1], (truth, e)


def test_weighted_sparse_matrices_are_estimated_sparse():
    # 2·I of order 20000 (perm = 2^20000): a dense copy would take 3.2 GB.
    n = 20000
    tracemalloc.start()
    try:
        e = pmcount.estimate(sp.diags(np.full(n, 2.0)).tocsr(), samples=64, seed=1)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert math.isclose(e.log10, n * math.log10(2), rel_tol=1e-9)
    assert peak < 20e6, f"{peak / 1e6:.0f} MB allocated by Python"
    # Integer weights, sparse, against the truth.
    a = sp.random(10, 10, density=0.5, random_state=3,
                  data_rvs=lambda k: np.arange(1, k + 1) % 3 + 1)
    a = (a + sp.eye(10)).astype(np.int64).tocsr()
    truth = pmcount.permanent(a)
    e = pmcount.estimate(a, samples=20000, seed=4)
    assert e.ci[0] < truth < e.ci[1], (truth, e)


def test_generators_in_every_form():
    assert pmcount.count_perfect_matchings(pmcount.grid(4, 4)) == 36
    assert pmcount.count_perfect_matchings(pmcount.grid(4, 4, as_="scipy")) == 36
    assert pmcount.count_perfect_matchings(pmcount.grid(4, 4, as_="numpy")) == 36
    assert pmcount.count_perfect_matchings(pmcount.aztec_diamond(5)) == 2 ** 15
    assert pmcount.count_perfect_matchings(pmcount.hexagon(2, 2, 2)) == 20
    assert pmcount.count_perfect_matchings(pmcount.torus(4, 4)) == 272
    g = pmcount.random_regular_bipartite(10, 3, seed=4)
    assert all(d == 3 for _, d in g.degree())


def test_general_lattices_in_every_form():
    # Not bipartite: triangular and kagome patches, fcc cells, random regular graphs.
    assert pmcount.count_perfect_matchings(pmcount.triangular(4, 4)) == 56
    # The matrices are adjacency matrices: their hafnian counts the perfect matchings (as a
    # biadjacency matrix, count_perfect_matchings would read another graph).
    assert pmcount.hafnian(pmcount.triangular(4, 4, as_="scipy")) == 56
    assert pmcount.hafnian(pmcount.triangular(4, 4, as_="numpy")) == 56
    assert pmcount.count_perfect_matchings(pmcount.fcc(1, 1, 1)) == 3  # K4
    assert pmcount.count_perfect_matchings(pmcount.cubic(2, 2, 2)) == 9  # the cube
    assert pmcount.kagome(2, 3, periodic=True).number_of_edges() == 36
    g = pmcount.random_regular(20, 3, seed=4)
    assert all(d == 3 for _, d in g.degree()) and g.number_of_nodes() == 20
    assert not nx.is_bipartite(pmcount.triangular(3, 3))
    a = pmcount.hex_torus(4, 4, as_="numpy")
    assert (a == a.T).all() and a.sum(axis=0).tolist() == [3] * 16
    # The kagome torus of N sites has 2^(N/3 + 1) dimer coverings, counted as four Pfaffians on
    # the torus with its drawing; the triangular torus agrees with the hafnian engine.
    k = pmcount.kagome(4, 4, periodic=True)
    r = pmcount.count_perfect_matchings(
        k, embedding=pmcount.lattice_torus_embedding("kagome", 4, 4), full=True)
    assert r.value == 2 ** 17 and r.method == "pfaffian-surface"
    t = pmcount.triangular(4, 6, periodic=True)
    drawn = pmcount.count_perfect_matchings(
        t, embedding=pmcount.lattice_torus_embedding("tri", 4, 6))
    assert drawn == pmcount.count_perfect_matchings(t, method="hafnian")
    with pytest.raises(pmcount.InvalidArgumentError):
        pmcount.lattice_torus_embedding("tri", 2, 6)
    with pytest.raises(pmcount.InvalidInputError, match="even"):
        pmcount.random_regular(5, 3)
    with pytest.raises(TypeError, match="periodic"):
        pmcount.triangular(3, 3, periodic=1)


def test_certified_precision_reports_a_bound():
    a = np.array([[0.5, 0.25], [0.125, 1.0]])
    r = pmcount.permanent(a, precision="certified", full=True)
    assert r.error_kind == "bound"
    assert abs(r.value - 0.53125) <= r.error
    assert pmcount.permanent(a, full=True).error_kind == "estimate"
    assert pmcount.permanent(a, full=True).escalated_from == ""
    # The terms are 10^12 times the permanent: the default precision counts again, certified.
    c = np.array([[1.0, 1.0], [1.0, -0.999999999999]])
    e = pmcount.permanent(c, full=True)
    assert e.escalated_from == "double" and e.error_kind == "bound"
    assert "cancellation" in e.note
    assert abs(e.value - 1.000088900582341e-12) <= e.error
    assert pmcount.permanent(np.ones((3, 3), dtype=int), full=True).error_kind == "none"
    with pytest.raises(ValueError):
        pmcount.permanent(a, precision="certified", method="sparyser")


def test_a_torus_with_its_embedding_is_four_pfaffians():
    # torus:16x16: no engine fits without the drawing (the frontier DP would need ~69 GiB);
    # with it, Kasteleyn's four Pfaffians, in milliseconds.
    g = pmcount.torus(16, 16)
    r = pmcount.count_perfect_matchings(g, embedding=pmcount.torus_embedding(16, 16), full=True)
    assert r.value == 630665326543010382995142219988992
    assert r.method == "pfaffian-surface"
    # Any labels: the drawing follows the nodes.
    names = {v: f"v{v}" for v in g}
    relabelled = nx.relabel_nodes(g, names)
    drawing = {names[v]: [names[w] for w in around]
               for v, around in pmcount.torus_embedding(16, 16).items()}
    assert pmcount.count_perfect_matchings(relabelled, embedding=drawing) == r.value


def test_embeddings_that_do_not_fit_are_refused():
    g = pmcount.torus(6, 6)
    drawing = pmcount.torus_embedding(6, 6)
    with pytest.raises(pmcount.InvalidInputError, match="no such edge"):
        pmcount.count_perfect_matchings(g, embedding={**drawing, 0: drawing[0][:3] + [5]})
    with pytest.raises(pmcount.InvalidInputError, match="neighbours once"):
        pmcount.count_perfect_matchings(g, embedding={**drawing, 0: drawing[0][:3]})
    with pytest.raises(pmcount.InvalidInputError, match="not in the graph"):
        pmcount.count_perfect_matchings(g, embedding={**drawing, "x": []})
    with pytest.raises(TypeError, match="dict"):
        pmcount.count_perfect_matchings(g, embedding=[drawing[v] for v in g])
    with pytest.raises(TypeError, match="networkx graph"):
        pmcount.count_perfect_matchings(np.ones((2, 2)), embedding={})
    # One rotation out of order: the double torus, 16 Pfaffians and the same count; two far
    # apart: genus 3, refused rather than ignored.
    def swap(d, v):
        return {**d, v: [d[v][1], d[v][0]] + d[v][2:]}
    assert (pmcount.count_perfect_matchings(g, embedding=swap(drawing, 0))
            == pmcount.count_perfect_matchings(g, embedding=drawing))
    with pytest.raises(pmcount.InvalidArgumentError, match="genus 3"):
        pmcount.count_perfect_matchings(g, embedding=swap(swap(drawing, 0), 21))
    with pytest.raises(pmcount.InvalidArgumentError):
        pmcount.torus_embedding(2, 6)
