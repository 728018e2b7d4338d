"""The photonics functions (loop hafnians) against an independent oracle, closed forms, the
exact integers of big entries, SciPy input, and thewalrus where it is installed."""

import math
import random

import numpy as np
import pytest
import scipy.sparse as sp

import pmcount


def brute_loop_hafnian(a):
    """Σ over the loop matchings: the lowest remaining vertex takes its loop or a partner."""
    def rec(rest):
        if not rest:
            return 1
        u, others = rest[0], rest[1:]
        total = a[u][u] * rec(others)
        for k, v in enumerate(others):
            total += a[u][v] * rec(others[:k] + others[k + 1:])
        return total
    return rec(tuple(range(len(a))))


def involutions(n):
    before, last = 1, 1
    for k in range(2, n + 1):
        before, last = last, last + (k - 1) * before
    return last


def symmetric(n, draw):
    a = [[0] * n for _ in range(n)]
    for i in range(n):
        for j in range(i, n):
            a[i][j] = a[j][i] = draw()
    return a


def test_loop_hafnian_matches_the_oracle_on_integer_real_and_complex_matrices():
    rng = random.Random(36)
    for n in range(0, 10):
        ints = symmetric(n, lambda: rng.choice([0, 0, 1, 2, -3, 5]))
        assert pmcount.hafnian(np.array(ints, dtype=np.int64).reshape(n, n), loop=True) == \
            brute_loop_hafnian(ints)
        real = symmetric(n, lambda: rng.uniform(-1, 1))
        r = pmcount.hafnian(np.array(real).reshape(n, n), loop=True)
        truth = brute_loop_hafnian(real)
        assert abs(r - truth) <= r.error + 1e-14 * abs(truth)
        comp = symmetric(n, lambda: complex(rng.uniform(-1, 1), rng.uniform(-1, 1)))
        c = pmcount.hafnian(np.array(comp, dtype=complex).reshape(n, n), loop=True)
        c_truth = brute_loop_hafnian(comp)
        assert abs(c - c_truth) <= c.error + 1e-14 * abs(c_truth)


def test_loop_hafnian_closed_forms_big_integers_and_sparse_input():
    # All ones: the involution numbers, exactly, far beyond double's 2^53.
    assert pmcount.hafnian(np.ones((30, 30), dtype=int), loop=True) == involutions(30)
    # A zero diagonal: the hafnian; a diagonal matrix: the product of its diagonal.
    rng = random.Random(1)
    a = np.array(symmetric(8, lambda: rng.choice([1, 2])))
    np.fill_diagonal(a, 0)
    assert pmcount.hafnian(a, loop=True) == pmcount.hafnian(a)
    assert pmcount.hafnian(np.diag([2, 3, 4, 5, 7]), loop=True) == 840
    # Entries beyond int64: Python ints, counted modulo primes and rebuilt.
    big = [[10**20 if i == j else 3 for j in range(5)] for i in range(5)]
    assert pmcount.hafnian(np.array(big, dtype=object), loop=True) == brute_loop_hafnian(big)
    # SciPy sparse, two blocks and a lone loop: the product of the blocks'.
    dense = np.zeros((7, 7), dtype=np.int64)
    dense[:3, :3] = [[1, 2, 0], [2, 3, 4], [0, 4, 5]]
    dense[3:6, 3:6] = [[2, 1, 1], [1, 0, 1], [1, 1, 2]]
    dense[6, 6] = 9
    want = brute_loop_hafnian(dense.tolist())
    assert want == 29 * brute_loop_hafnian(dense[3:6, 3:6].tolist()) * 9
    r = pmcount.hafnian(sp.coo_matrix(dense), loop=True, full=True)
    assert r.value == want and r.method == "loop-hafnian"


def test_loop_hafnian_refuses_what_it_cannot_do():
    with pytest.raises(pmcount.InvalidArgumentError, match="symmetric"):
        pmcount.hafnian(np.array([[1, 2], [3, 4]]), loop=True)
    with pytest.raises(TypeError):
        pmcount.hafnian(np.eye(2), loop="yes")
    with pytest.raises(pmcount.InvalidArgumentError, match="CPU"):
        pmcount.hafnian(np.eye(2), loop=True, backend="cuda")


def test_loop_hafnian_agrees_with_thewalrus():
    thewalrus = pytest.importorskip("thewalrus")
    rng = np.random.default_rng(36)
    for n in (4, 7, 12):
        x = rng.normal(size=(n, n)) + 1j * rng.normal(size=(n, n))
        a = x + x.T
        ours = pmcount.hafnian(a, loop=True)
        theirs = thewalrus.hafnian(a, loop=True)
        assert abs(ours - theirs) <= 1e-10 * max(1.0, abs(theirs)) + ours.error
        real = a.real
        ours = pmcount.hafnian(real, loop=True)
        assert abs(ours - thewalrus.hafnian(real, loop=True)) <= \
            1e-10 * max(1.0, abs(ours)) + ours.error


def reduction(a, rows, cols=None, mu=None):
    """thewalrus's reduction: row i repeated rows[i] times, column j cols[j] times; mu on the
    diagonal of every copy."""
    cols = rows if cols is None else cols
    ri = [i for i, r in enumerate(rows) for _ in range(r)]
    ci = [j for j, c in enumerate(cols) for _ in range(c)]
    b = [[a[i][j] for j in ci] for i in ri]
    if mu is not None:
        for x, i in enumerate(ri):
            b[x][x] = mu[i]
    return b


def brute_hafnian(a):
    n = len(a)
    if n % 2:
        return 0

    def rec(rest):
        if not rest:
            return 1
        u, others = rest[0], rest[1:]
        return sum(a[u][v] * rec(others[:k] + others[k + 1:]) for k, v in enumerate(others))
    return rec(tuple(range(n)))


def test_hafnian_repeated_matches_the_reduction():
    rng = random.Random(5)
    for trial in range(40):
        k = rng.randint(1, 4)
        a = symmetric(k, lambda: rng.randint(-3, 4))
        rpt = [rng.randint(0, 3) for _ in range(k)]
        if sum(rpt) > 10:
            rpt = [1] * k
        b = reduction(a, rpt)
        assert pmcount.hafnian_repeated(np.array(a, dtype=np.int64).reshape(k, k), rpt) == \
            brute_hafnian(b), (a, rpt)
        mu = [rng.randint(-2, 3) for _ in range(k)]
        assert pmcount.hafnian_repeated(np.array(a, dtype=np.int64).reshape(k, k), rpt, mu=mu,
                                        loop=True) == brute_loop_hafnian(reduction(a, rpt, mu=mu))
        # loop=True without mu: the diagonal of A on every copy.
        diag = [a[i][i] for i in range(k)]
        assert pmcount.hafnian_repeated(np.array(a, dtype=np.int64).reshape(k, k), rpt,
                                        loop=True) == brute_loop_hafnian(reduction(a, rpt, mu=diag))
    real = np.array(symmetric(3, lambda: rng.uniform(-1, 1)))
    truth = brute_hafnian(reduction(real.tolist(), [3, 2, 3]))
    r = pmcount.hafnian_repeated(real, [3, 2, 3], full=True)  # the paired copies, in double
    assert abs(r.value - truth) <= r.error + 1e-15 * abs(truth)
    assert r.error <= 1e-12 * abs(truth) and r.error_kind == "estimate"
    r = pmcount.hafnian_repeated(real, [3, 2, 3], precision="dd", full=True)
    assert abs(r.value - truth) <= r.error + 1e-15 * abs(truth)
    assert r.error <= 1e-14 * abs(truth) and r.error_kind == "bound"
    with pytest.raises(pmcount.InvalidArgumentError, match="rpt must be 3 integers"):
        pmcount.hafnian_repeated(real, [1, 2])
    with pytest.raises(pmcount.InvalidArgumentError, match="symmetric"):
        pmcount.hafnian_repeated(np.array([[1, 2], [3, 4]]), [1, 1])


def test_permanent_with_multiplicities_is_summed_over_them_where_that_is_cheaper():
    rng = np.random.default_rng(10)
    a = rng.integers(-3, 4, size=(4, 3))
    rows, cols = [3, 0, 2, 1], [2, 2, 2]
    expanded = np.repeat(np.repeat(a, rows, axis=0), cols, axis=1)
    r = pmcount.permanent(a, rows=rows, cols=cols, full=True)
    assert r.value == pmcount.permanent(expanded)
    assert r.method == "permanent_repeated"
    # 10 modes, 30 photons: summed over Π(c + 1) = 4^10 points, not a permanent of order 30.
    u = rng.normal(size=(10, 10)) + 1j * rng.normal(size=(10, 10))
    big = pmcount.permanent(u, rows=[3] * 10, cols=[3] * 10, full=True)
    assert big.method == "permanent_repeated" and big.error <= 1e-11 * abs(big.value)
    # Unequal totals keep the rectangular permanent of the expansion.
    assert pmcount.permanent(np.ones((2, 2), dtype=int), rows=[1, 1], cols=[2, 1]) == 6


def test_hafnian_repeated_agrees_with_thewalrus():
    thewalrus = pytest.importorskip("thewalrus")
    rng = np.random.default_rng(36)
    x = rng.normal(size=(5, 5)) + 1j * rng.normal(size=(5, 5))
    a = (x + x.T) / 4
    rpt = [2, 3, 1, 2, 2]
    ours = pmcount.hafnian_repeated(a, rpt)
    assert abs(ours - thewalrus.hafnian_repeated(a, rpt)) <= 1e-10 * abs(ours)
    mu = rng.normal(size=5) + 1j * rng.normal(size=5)
    ours = pmcount.hafnian_repeated(a, rpt, mu=mu, loop=True)
    assert abs(ours - thewalrus.hafnian_repeated(a, rpt, mu=mu, loop=True)) <= 1e-10 * abs(ours)
    real = a.real.copy()
    assert abs(pmcount.permanent(real, rows=rpt, cols=rpt)
               - thewalrus.permanent_repeated(real, rpt)) <= 1e-10 * abs(
                   thewalrus.permanent_repeated(real, rpt))


def test_the_thewalrus_compat_module_is_a_one_line_switch():
    from pmcount.compat import thewalrus as tw
    a = np.array([[2, 1, 0], [1, 3, 4], [0, 4, 5]])
    assert tw.hafnian(a, loop=True) == 43
    assert tw.hafnian(a[:2, :2]) == 1
    assert tw.perm(a) == pmcount.permanent(a)
    assert tw.hafnian_repeated(a, [2, 1, 1]) == pmcount.hafnian(tw.reduction(a, [2, 1, 1]))
    assert tw.permanent_repeated(a, [1, 2, 0]) == pmcount.permanent(tw.reduction(a, [1, 2, 0]))
    with pytest.raises(ValueError, match="estimate"):
        tw.hafnian(a, approx=True)
    # thewalrus's symmetry check: within allclose, then (A + Aᵀ)/2; beyond it, its message.
    near = np.array([[0.0, 1.0, 2.0], [1.0 + 1e-15, 0.0, 3.0], [2.0, 3.0, 0.5]])
    assert abs(tw.hafnian(near, loop=True) - pmcount.hafnian((near + near.T) / 2, loop=True)) == 0
    assert abs(tw.hafnian_repeated(near, [2, 1, 1]) - tw.hafnian_repeated(near.T, [2, 1, 1])) == 0
    with pytest.raises(ValueError, match="symmetric"):
        tw.hafnian(near + np.triu(np.ones((3, 3)), 1))
    thewalrus = pytest.importorskip("thewalrus")
    rng = np.random.default_rng(8)
    x = rng.normal(size=(6, 6)) + 1j * rng.normal(size=(6, 6))
    s = x + x.T
    for ours, theirs in [(tw.hafnian(s), thewalrus.hafnian(s)),
                         (tw.hafnian(s, loop=True), thewalrus.hafnian(s, loop=True)),
                         (tw.perm(x), thewalrus.perm(x)),
                         (tw.hafnian_repeated(s, [1, 2, 0, 1, 1, 1]),
                          thewalrus.hafnian_repeated(s, [1, 2, 0, 1, 1, 1])),
                         (tw.permanent_repeated(x, [2, 1, 1, 0, 1, 1]),
                          thewalrus.permanent_repeated(x, [2, 1, 1, 0, 1, 1]))]:
        assert abs(ours - theirs) <= 1e-10 * abs(theirs)
    assert np.array_equal(tw.reduction(s, [1, 2, 0, 1, 1, 1]),
                          thewalrus.reduction(s, [1, 2, 0, 1, 1, 1]))


def gaussian_o(n_modes, rng, complex_=True, eps=0.1):
    """O = I − M for M Hermitian positive definite (smallest eigenvalue ≥ eps), xxpp order."""
    b = rng.normal(size=(2 * n_modes, 2 * n_modes))
    if complex_:
        b = b + 1j * rng.normal(size=b.shape)
    m = b @ b.conj().T / (2 * n_modes) + eps * np.eye(2 * n_modes)
    m = (m + m.conj().T) / 2
    return np.eye(2 * n_modes) - m


def mpmath_torontonian(o, gamma=None):
    """The definition at 50 digits: Σ_Z (−1)^(N−|Z|) exp(½ γ_Zᵀ M_Z⁻¹ γ_Z*) / √det M_Z."""
    mpmath = pytest.importorskip("mpmath")
    mpmath.mp.dps = 50
    n = o.shape[0] // 2
    total = mpmath.mpf(0)
    for z in range(1 << n):
        modes = [k for k in range(n) if z >> k & 1]
        rows = modes + [k + n for k in modes]
        if not rows:
            total += (-1) ** n
            continue
        m = mpmath.matrix([[(1 if i == j else 0) - mpmath.mpc(o[i, j]) for j in rows]
                           for i in rows])
        term = 1 / mpmath.sqrt(mpmath.re(mpmath.det(m)))
        if gamma is not None:
            g = mpmath.matrix([mpmath.mpc(gamma[i]) for i in rows])
            x = mpmath.lu_solve(m, g.apply(mpmath.conj))
            term *= mpmath.exp(mpmath.re(sum(g[i] * x[i] for i in range(len(rows)))) / 2)
        total += (-1) ** (n - len(modes)) * term
    return total


def test_torontonian_matches_the_definition_at_fifty_digits():
    rng = np.random.default_rng(2018)
    for n in range(0, 9):
        for complex_ in (False, True):
            o = gaussian_o(n, rng, complex_)
            gamma = (rng.normal(size=2 * n) + (1j * rng.normal(size=2 * n) if complex_ else 0)) / 3
            for loop, g in ((False, None), (True, gamma)):
                exact = mpmath_torontonian(o, g)
                for precision in ("auto", "double", "dd"):
                    r = pmcount.torontonian(o, loop=loop, mu=g, precision=precision)
                    assert isinstance(r, pmcount.FloatResult)
                    assert abs(r - float(exact)) <= r.error + 1e-300, (n, complex_, loop, precision)
                    assert r.error <= 1e-9 * max(1.0, abs(float(exact)))


def test_torontonian_closed_forms_and_refusals():
    assert pmcount.torontonian(np.zeros((6, 6))) == 0.0  # the vacuum: (1 − 1)^3
    assert pmcount.torontonian(np.zeros((0, 0))) == 1.0
    # A product state: Π_k (1/√det M_k − 1), M_k = [[a, 0], [0, d]].
    a, d = np.array([0.5, 0.25, 0.8]), np.array([0.5, 0.2, 0.9])
    o = np.diag(np.concatenate([1 - a, 1 - d]))
    assert abs(pmcount.torontonian(o) - np.prod(1 / np.sqrt(a * d) - 1)) < 1e-12
    r = pmcount.torontonian(o, full=True)
    assert r.method == "torontonian" and r.error_kind == "estimate"
    assert pmcount.torontonian(o, precision="dd", full=True).error_kind == "bound"
    assert pmcount.torontonian(o, method="brute-force", full=True).method == "brute-force"
    with pytest.raises(pmcount.InvalidArgumentError, match="even order"):
        pmcount.torontonian(np.zeros((3, 3)))
    with pytest.raises(pmcount.InvalidArgumentError, match="Hermitian"):
        pmcount.torontonian(np.array([[0, 0.1], [0.2, 0]]))
    with pytest.raises(pmcount.InvalidArgumentError, match=r"modes \{1\}"):
        pmcount.torontonian(np.diag([0.0, 2.0, 0.0, 0.0]))
    with pytest.raises(pmcount.InvalidArgumentError, match="loop=True"):
        pmcount.torontonian(o, mu=np.zeros(6))
    with pytest.raises(pmcount.InvalidArgumentError, match="mu needs 6"):
        pmcount.torontonian(o, loop=True, mu=np.zeros(5))
    with pytest.raises(pmcount.InvalidArgumentError, match="NaN"):
        pmcount.torontonian(np.full((2, 2), np.nan))
    with pytest.raises(pmcount.InvalidArgumentError, match="exact"):
        pmcount.torontonian(o, precision="exact")
    with pytest.raises(pmcount.InvalidArgumentError, match="GPU in double only"):
        pmcount.torontonian(o, precision="dd", backend="cuda")


def test_torontonian_agrees_with_thewalrus():
    thewalrus = pytest.importorskip("thewalrus")
    from thewalrus.quantum import Qmat
    from thewalrus.random import random_covariance
    from pmcount.compat import thewalrus as tw
    np.random.seed(24)
    for n in (3, 6, 10):
        q = Qmat(random_covariance(n))
        o = np.eye(2 * n) - np.linalg.inv(q)
        gamma = (np.random.normal(size=2 * n) + 1j * np.random.normal(size=2 * n)) / 4
        theirs, ours = thewalrus.tor(o), tw.tor(o)
        assert isinstance(ours, complex) and abs(ours - theirs) <= 1e-10 * abs(theirs)
        theirs = thewalrus.ltor(o, gamma)
        ours = tw.ltor(o, gamma)
        assert abs(ours - theirs) <= 1e-10 * abs(theirs)
        real = o.real if np.allclose(o.imag, 0) else None
        if real is not None:
            assert abs(tw.tor(real) - thewalrus.tor(real)) <= 1e-10 * abs(thewalrus.tor(real))


def test_batches_equal_their_functions_alone():
    rng = np.random.default_rng(409)
    x = rng.normal(size=(30, 8, 8)) + 1j * rng.normal(size=(30, 8, 8))
    s = (x + x.transpose(0, 2, 1)) / 4
    for loop in (False, True):
        got = pmcount.hafnian_batched(s, loop=loop, threads=2)
        assert [complex(g) for g in got] == [complex(pmcount.hafnian(a, loop=loop)) for a in s]
    assert [complex(g) for g in pmcount.permanent_batched(list(x))] == [
        complex(pmcount.permanent(a)) for a in x]
    ints = np.ones((5, 6, 6), dtype=np.int64)
    assert pmcount.hafnian_batched(ints) == [15] * 5
    assert pmcount.hafnian_batched(ints, loop=True) == [76] * 5
    mu = rng.normal(size=(12, 8))
    got = pmcount.hafnian_batched(s[0], loop=True, mu=mu)
    for d, g in zip(mu, got):
        b = s[0].copy()
        np.fill_diagonal(b, d)
        assert complex(g) == complex(pmcount.hafnian(b, loop=True))
    full = pmcount.hafnian_batched(s[:2], full=True)
    assert all(isinstance(r, pmcount.Result) for r in full)
    o = np.stack([np.eye(4) - (g @ g.conj().T / 4 + 0.2 * np.eye(4))
                  for g in rng.normal(size=(6, 4, 4))])
    gam = rng.normal(size=(6, 4)) / 3
    assert list(pmcount.torontonian_batched(o)) == [pmcount.torontonian(a) for a in o]
    assert list(pmcount.torontonian_batched(o, loop=True, mu=gam)) == [
        pmcount.torontonian(a, loop=True, mu=g) for a, g in zip(o, gam)]
    with pytest.raises(pmcount.InvalidArgumentError, match="item 1: "):
        bad = s[:3].copy()
        bad[1, 0, 1] += 1
        pmcount.hafnian_batched(bad)
    with pytest.raises(pmcount.InvalidArgumentError, match=r"\(B, n, n\)"):
        pmcount.hafnian_batched(np.ones((3, 4)))
    with pytest.raises(pmcount.InvalidArgumentError, match="loop=True"):
        pmcount.hafnian_batched(s[0], mu=mu)
    with pytest.raises(pmcount.InvalidArgumentError, match="one shape"):
        pmcount.permanent_batched([np.ones((2, 2)), np.ones((3, 3))])


def test_compat_hafnian_batched_matches_thewalrus():
    from pmcount.compat import thewalrus as tw
    a = np.array([[0.3, 0.5, 0.1], [0.5, 0.2, 0.4], [0.1, 0.4, 0.6]])
    t = tw.hafnian_batched(a, 4)
    assert t.shape == (4, 4, 4)
    assert abs(t[1, 1, 2] - complex(pmcount.hafnian(tw.reduction(a, [1, 1, 2])))) < 1e-14
    assert t[1, 0, 0] == 0
    thewalrus = pytest.importorskip("thewalrus")
    mu = np.array([0.2, -0.1, 0.3])
    for kwargs in ({}, {"mu": mu}, {"renorm": True}, {"mu": mu, "make_tensor": False}):
        ours = tw.hafnian_batched(a, 4, **kwargs)
        theirs = thewalrus.hafnian_batched(a, 4, **kwargs)
        assert ours.shape == theirs.shape
        assert np.allclose(ours, theirs, rtol=1e-10, atol=1e-12), kwargs
