"""Bad inputs raise clear Python exceptions; long calls release the GIL and report progress
(Ctrl-C: test_interrupts.py); results agree with thewalrus where both apply."""

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
    (np.full((2, 2), 2**64 - 1, dtype=np.uint64), pmcount.InvalidArgumentError, "64-bit"),
    ([[2**63, 0], [0, 1]], pmcount.InvalidArgumentError, "64-bit"),
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
    ([[1, 0], [0, 2**64]], pmcount.InvalidArgumentError, "64-bit"),
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
    with pytest.raises(pmcount.InvalidArgumentError, match=r"\(0, 0\) add up .* 64-bit"):
        pmcount.permanent(coo([2**62, 2**62], [0, 0], [0, 0], 1, np.int64))
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
    with pytest.raises(pmcount.NotBipartiteError, match="odd cycle"):
        pmcount.estimate(nx.cycle_graph(5), samples=10)


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
