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
