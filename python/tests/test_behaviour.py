"""Bad inputs raise clear Python exceptions; long calls release the GIL and report progress
(Ctrl-C: test_interrupts.py); results agree with thewalrus where both apply."""

import itertools
import math
import random
import threading
import time
import warnings

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp

import pmcount

# A dense real permanent of order 38 takes minutes on two cores: long enough to interrupt.
LONG = np.random.default_rng(1).uniform(0, 1, (38, 38))


# ---- bad input ----------------------------------------------------------------------------------


def test_exceptions_are_pmcount_errors_and_builtin_kinds():
    assert issubclass(pmcount.InvalidArgumentError, pmcount.Error)
    assert issubclass(pmcount.InvalidArgumentError, ValueError)
    assert issubclass(pmcount.NotBipartiteError, pmcount.InvalidInputError)
    assert issubclass(pmcount.ProblemTooLargeError, RuntimeError)


@pytest.mark.parametrize("bad, error, words", [
    (np.array([[1.0, np.nan], [0.0, 1.0]]), pmcount.InvalidArgumentError, "NaN"),
    (np.array([[1.0, np.inf], [0.0, 1.0]]), pmcount.InvalidArgumentError, "infinite"),
    (np.ones((2, 2, 2)), pmcount.DimensionMismatchError, "2-dimensional"),
    (np.array([["a", "b"], ["c", "d"]]), TypeError, "not numbers"),
    (np.array([[1, None], [2, 3]], dtype=object), TypeError, "not numbers"),
    ([[1, 2], [3]], pmcount.DimensionMismatchError, "differ in length"),
    ({"a": 1}, TypeError, "expected a matrix"),
    (nx.path_graph(3), TypeError, "networkx"),
])
def test_malformed_matrices(bad, error, words):
    with pytest.raises(error, match=words):
        pmcount.permanent(bad)


ONE_DIMENSIONAL_SPARSE = sp.coo_array((np.array([1, 2]), (np.array([0, 3]),)), shape=(4,))


@pytest.mark.parametrize("function", ["permanent", "hafnian", "count_perfect_matchings",
                                      "count_cycle_covers", "estimate", "explain"])
@pytest.mark.parametrize("bad, error, words", [
    # Found by the fuzz harness on the code before it: IndexError, and a nanobind TypeError of
    # four lines, from estimate.
    (ONE_DIMENSIONAL_SPARSE, pmcount.DimensionMismatchError, "2-dimensional"),
    # ValueError from NumPy ("inhomogeneous shape"), not a pmcount.Error.
    ([[1, 0], [1]], pmcount.DimensionMismatchError, "differ in length"),
])
def test_malformed_matrices_in_every_function(function, bad, error, words):
    with pytest.raises(error, match=words) as caught:
        getattr(pmcount, function)(bad)
    assert "\n" not in str(caught.value)


def test_repeated_sparse_entries_add_up_in_the_wide_type():
    # Found by the fuzz harness's replay: SciPy sums a COO matrix's repeated entries in its own
    # dtype, so two int8 100s were -56 and the permanent silently wrong.
    def coo(values, rows, cols, n, dtype):
        return sp.coo_array((np.array(values, dtype=dtype), (rows, cols)), shape=(n, n))

    assert pmcount.permanent(coo([100, 100], [0, 0], [0, 0], 1, np.int8)) == 200
    assert pmcount.hafnian(coo([100] * 4, [0, 0, 1, 1], [1, 1, 0, 0], 2, np.int8)) == 200
    assert pmcount.permanent(coo([200, 200], [0, 0], [0, 0], 1, np.uint8)) == 400
    # Beyond int64 they add up in Python ints, and are counted exactly.
    assert pmcount.permanent(coo([2**62, 2**62], [0, 0], [0, 0], 1, np.int64)) == 2**63
    assert pmcount.permanent(coo([2**63, 2**63, 3], [0, 0, 0], [0, 0, 0], 1, np.uint64)) == \
        2**64 + 3
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # inf is refused in one line, without a RuntimeWarning
        with pytest.raises(pmcount.InvalidArgumentError, match="infinite"):
            pmcount.permanent(coo([1e308, 1e308], [0, 0], [0, 0], 1, np.float64))


def test_non_square_inputs():
    # The rectangular permanent: 3·2 injective maps of the rows into the columns.
    p = pmcount.permanent(np.ones((2, 3)))
    assert isinstance(p, pmcount.FloatResult) and abs(p - 6) <= p.error
    r = pmcount.permanent(np.ones((2, 3), dtype=int), full=True)
    assert r.value == 6 and "2×3 matrix" in r.note
    # The estimators sample permutations: a weighted one is refused, a 0-1 one has no perfect
    # matching.
    with pytest.raises(pmcount.DimensionMismatchError, match="square"):
        pmcount.estimate(np.full((2, 3), 0.5))
    assert pmcount.estimate(np.ones((2, 3), dtype=int)).value == 0
    with pytest.raises(pmcount.DimensionMismatchError, match="square"):
        pmcount.hafnian(np.ones((2, 4)))
    with pytest.raises(pmcount.DimensionMismatchError, match="square"):
        pmcount.count_cycle_covers(np.ones((2, 3), dtype=int))


def test_asymmetric_hafnian_names_the_entry():
    a = np.ones((4, 4), dtype=int)
    a[1, 3] = 2
    with pytest.raises(pmcount.InvalidArgumentError, match=r"entry \(1, 3\)"):
        pmcount.hafnian(a)


def test_graph_errors():
    with pytest.raises(pmcount.InvalidInputError, match="self-loop at node 'b'"):
        pmcount.count_perfect_matchings(nx.Graph([("a", "b"), ("b", "b")]))
    with pytest.raises(TypeError, match="count_cycle_covers"):
        pmcount.count_perfect_matchings(nx.DiGraph([(0, 1)]))
    with pytest.raises(pmcount.InvalidArgumentError, match="0-1 entries, found 2"):
        pmcount.count_perfect_matchings(np.array([[1, 2], [1, 1]]))
    # A general graph is estimated (its perfect matchings); five vertices have none.
    odd = pmcount.estimate(nx.cycle_graph(5), samples=10)
    assert odd.value == 0 and "no perfect matching" in odd.note


def test_estimate_general_graphs_cover_the_exact_count():
    # Triangular patch (not bipartite), a multigraph's parallel edges as weights, and a graph
    # with no perfect matching.
    g = pmcount.triangular(4, 6)
    exact = pmcount.count_perfect_matchings(g)
    for estimator in ("rasmussen", "rasmussen+", "bethe"):
        e = pmcount.estimate(g, samples=4000, seed=5, estimator=estimator)
        assert e.ci[0] <= exact <= e.ci[1], (estimator, e)
        assert e.raw["estimator"] == estimator
    assert pmcount.estimate(g, samples=100).raw["estimator"] == "bethe"  # the default
    m = nx.MultiGraph(nx.complete_graph(4))
    m.add_edge(0, 1)  # K4 with edge 01 doubled: 3 matchings, one of weight 2 → 4
    e = pmcount.estimate(m, samples=2000, seed=1, estimator="rasmussen+")
    assert abs(e.value - 4) < 1e-9  # every sample is exact here: 4 = 3·(4/3)
    e = pmcount.estimate(m, samples=20000, seed=1)
    assert e.ci[0] <= 4 <= e.ci[1], e
    p = pmcount.estimate(g, samples=64 * 100, seed=2, particles=64)
    assert p.ci[0] <= exact <= p.ci[1], p
    with pytest.raises(pmcount.InvalidArgumentError, match="CPU threads"):
        pmcount.estimate(g, samples=10, backend="cuda", estimator="rasmussen+")


@pytest.mark.parametrize("a", [np.ones((3, 3)) * (1 + 1j), sp.csr_array(np.eye(3) * 1j),
                               [[1, 2j], [3, 4]]])
def test_estimate_refuses_complex_matrices_in_one_line(a):
    # The estimators draw each row's partner with probability proportional to its entry.
    with pytest.raises(pmcount.InvalidArgumentError, match="not a complex one") as caught:
        pmcount.estimate(a, samples=10)
    assert "\n" not in str(caught.value)


def test_gpu_kernels_choices_are_accepted_on_every_backend():
    # The CPU backend ignores the choice: the same count, whichever is named.
    a = np.array([[1, 1, 0], [0, 1, 1], [1, 0, 1]])
    for kernels in ("auto", "tables", "generated"):
        assert pmcount.permanent(a, backend="cpu", gpu_kernels=kernels) == 2
        assert pmcount.count_cycle_covers(a, backend="cpu", gpu_kernels=kernels) == 2
        assert pmcount.count_perfect_matchings(nx.cycle_graph(8), backend="cpu",
                                               gpu_kernels=kernels) == 2
    assert pmcount.explain(nx.cycle_graph(8), gpu_kernels="tables")["backend"] in ("cpu", "")


def test_option_errors():
    with pytest.raises(pmcount.InvalidArgumentError, match="method"):
        pmcount.permanent(np.ones((3, 3)), method="fastest")
    with pytest.raises(pmcount.InvalidArgumentError, match="precision"):
        pmcount.permanent(np.ones((3, 3)), precision="quad")
    with pytest.raises(pmcount.InvalidArgumentError, match="unknown GPU kernels 'jit'"):
        pmcount.count_perfect_matchings(nx.cycle_graph(6), gpu_kernels="jit")
    with pytest.raises(pmcount.InvalidArgumentError, match="threads"):
        pmcount.permanent(np.ones((3, 3)), threads=-1)
    with pytest.raises(pmcount.InvalidArgumentError, match="exact"):
        pmcount.permanent(np.full((3, 3), 0.5), precision="exact")
    with pytest.raises(pmcount.InvalidArgumentError, match="rows"):
        pmcount.permanent(np.ones((2, 2)), rows=[1, -1])
    with pytest.raises(pmcount.ProblemTooLargeError):
        pmcount.permanent(LONG, max_time=0.01)


def test_integers_beyond_a_double_stay_exact():
    # 30! needs 108 bits; a double would round it.
    assert pmcount.permanent(np.ones((30, 30), dtype=np.int8), method="auto") == 265252859812191058636308480000000
    big = np.diag(np.full(40, 3**39, dtype=np.int64))
    assert pmcount.permanent(big) == 3 ** (39 * 40)


def brute_permanent(a):
    n = len(a)
    return sum(math.prod(a[i][p[i]] for i in range(n)) for p in itertools.permutations(range(n)))


def brute_hafnian(a):
    if not a:
        return 1
    rest = range(1, len(a))
    return sum(a[0][j] * brute_hafnian([[a[r][c] for c in rest if c != j] for r in rest if r != j])
               for j in rest)


def test_python_ints_of_any_size_are_exact():
    # Once a float (2**63) or a TypeError (2**70): Python ints are exact integers of any size.
    for a, truth in (([[2**63, 1], [1, 1]], 2**63 + 1), ([[2**70, 1], [1, 1]], 2**70 + 1),
                     ([[-(2**200), 3], [5, 2**100]], -(2**300) + 15)):
        value = pmcount.permanent(a)
        assert type(value) is int and value == truth, (a, value)
    rng = random.Random(32)
    for n in (3, 4, 5):
        a = [[rng.choice([0, rng.randint(-2**100, 2**100)]) for _ in range(n)] for _ in range(n)]
        a[0][0] = 2**64
        assert pmcount.permanent(a) == brute_permanent(a)
        assert pmcount.permanent(np.array(a, dtype=object)) == brute_permanent(a)
        assert pmcount.permanent(np.array(a, dtype=object).T) == brute_permanent(a)
    for n in (2, 4, 6):
        h = [[0] * n for _ in range(n)]
        for i, j in itertools.combinations(range(n), 2):
            h[i][j] = h[j][i] = rng.randint(-2**90, 2**90)
        h[0][0] = 2**80  # not used by the hafnian, nor by its bound
        assert pmcount.hafnian(h) == brute_hafnian([[x if i != j else 0 for j, x in enumerate(row)]
                                                    for i, row in enumerate(h)])
    uint = np.array([[2**64 - 1, 1], [1, 1]], dtype=np.uint64)
    assert pmcount.permanent(uint) == 2**64
    assert pmcount.permanent(sp.coo_array(uint)) == 2**64
    assert pmcount.permanent([[2**70, 1], [1, 1]], rows=[2, 0], cols=[1, 1]) == 2**71
    assert pmcount.permanent(sp.coo_array(uint), rows=[1, 1], cols=[2, 0]) == 2 * (2**64 - 1)
    r = pmcount.permanent([[2**70, 1], [1, 1]], full=True)
    assert r.exact and r.value == 2**70 + 1 and r.error == 0
    assert "CRT" in r.arithmetic and "beyond int64" in r.note
    # A floating precision takes them as doubles, as asked; an explanation plans a reduced copy.
    assert pmcount.permanent([[2**70, 1], [1, 1]], precision="double") == pytest.approx(2.0**70)
    assert pmcount.explain([[2**70, 1], [1, 1]])["method"]
    assert pmcount.estimate([[2**70, 1], [1, 1]], samples=64, time=1).value == \
        pytest.approx(2.0**70, rel=1e-6)


@pytest.mark.parametrize("function", ["count_perfect_matchings", "count_cycle_covers"])
def test_big_ints_in_a_0_1_matrix_are_named(function):
    with pytest.raises(pmcount.InvalidArgumentError,
                       match=f"0-1 entries, found {2**64}"):
        getattr(pmcount, function)([[1, 0], [0, 2**64]])


# ---- the GIL, progress, Ctrl-C ------------------------------------------------------------------


def test_progress_callable_sees_fractions_rising_to_one():
    seen = []
    pmcount.permanent(np.random.default_rng(2).uniform(0, 1, (28, 28)), threads=1,
                      progress=lambda fraction, elapsed: seen.append((fraction, elapsed)))
    assert seen, "no progress reported"
    fractions = [f for f, _ in seen]
    assert fractions == sorted(fractions) and 0 <= fractions[0] and fractions[-1] <= 1


def test_progress_true_draws_a_bar_or_a_line_and_returns_the_same_value(capsys):
    a = np.random.default_rng(2).uniform(0, 1, (27, 27))
    assert pmcount.permanent(a, threads=1, progress=True) == pmcount.permanent(a, threads=1)
    assert "%" in capsys.readouterr().err  # tqdm's bar or the plain line, on stderr


def test_an_exception_in_the_progress_callable_stops_the_count():
    def stop(fraction, elapsed):
        raise RuntimeError("enough")

    started = time.monotonic()
    with pytest.raises(RuntimeError, match="enough"):
        pmcount.permanent(LONG, progress=stop)
    assert time.monotonic() - started < 10


def test_long_calls_release_the_gil():
    ticks = []
    done = threading.Event()

    def ticker():
        while not done.is_set():
            ticks.append(time.monotonic())
            time.sleep(0.01)

    t = threading.Thread(target=ticker)
    t.start()
    try:
        pmcount.permanent(np.random.default_rng(3).uniform(0, 1, (30, 30)))
    finally:
        done.set()
        t.join()
    assert len(ticks) > 20, "the Python thread did not run while pmcount counted"


def test_concurrent_calls_from_threads_give_the_same_answers():
    a = np.random.default_rng(4).integers(0, 2, (22, 22))
    expected = pmcount.permanent(a)
    results = [None] * 4

    def work(k):
        results[k] = pmcount.permanent(a, threads=1)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [expected] * 4


# ---- thewalrus ----------------------------------------------------------------------------------


def test_agreement_with_thewalrus_on_random_real_and_complex_matrices():
    thewalrus = pytest.importorskip("thewalrus")
    rng = np.random.default_rng(5)
    for n in (6, 10, 14):
        real = rng.uniform(-1, 1, (n, n))
        ours = pmcount.permanent(real)
        assert abs(ours - thewalrus.perm(real)) <= 1e-10 * max(1.0, abs(ours)) + ours.error
        comp = rng.uniform(-1, 1, (n, n)) + 1j * rng.uniform(-1, 1, (n, n))
        ours = pmcount.permanent(comp)
        assert abs(ours - thewalrus.perm(comp)) <= 1e-10 * max(1.0, abs(ours)) + ours.error
        sym = real + real.T
        ours = pmcount.hafnian(sym)
        assert abs(ours - thewalrus.hafnian(sym)) <= 1e-10 * max(1.0, abs(ours)) + ours.error
    graph = nx.to_numpy_array(nx.gnp_random_graph(20, 0.5, seed=6))
    assert pmcount.hafnian(graph.astype(int)) == round(thewalrus.hafnian(graph).real)
