"""Exact permanents and hafnians of matrices with integers beyond int64: counted modulo primes
below 2^31, each an exact int64 count, and rebuilt by the Chinese remainder theorem with a spare
prime as a check."""

from __future__ import annotations

import dataclasses
import math
from typing import Any, Callable, Iterable

import numpy as np

from . import _core
from ._convert import _as_floats
from ._errors import InternalError
from ._progress import Progress
from ._results import Result


def _is_prime(n: int) -> bool:
    """Deterministic Miller–Rabin below 2^32 (bases 2, 7, 61 suffice: Jaeschke 1993)."""
    if n < 2:
        return False
    for p in (2, 7, 61):
        if n % p == 0:
            return n == p
    d, r = n - 1, 0
    while d % 2 == 0:
        d, r = d // 2, r + 1
    for a in (2, 7, 61):
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(r - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


def _primes_below(limit: int) -> Iterable[int]:
    """Primes below `limit`, largest first."""
    candidate = limit - 1 if limit % 2 == 0 else limit - 2
    while candidate > 2:
        if _is_prime(candidate):
            yield candidate
        candidate -= 2


# The moduli of _big_integer_call: below 2^31, so that a reduced entry (in (-p/2, p/2)) needs 30
# bits and every count modulo p is an exact int64 count of small entries.
_BIG_MODULUS_LIMIT = 2**31


def _big_bound(name: str, kind: str, m: Any) -> int:
    """A proven bound on |perm(A)|, |haf(A)| or |lhaf(A)| for Python-int entries. perm: the product of the
    row 1-norms (each permutation's term is one of their expansion's terms; columns when there
    are more rows, and the smaller product for a square matrix). haf: haf(|A|)² ≤ perm(|A|) for
    a symmetric nonnegative matrix (two perfect matchings make a cycle cover of the same weight,
    one to one), so the square root of that product, the diagonal left out (haf does not use
    it)."""
    rows, cols = m.shape
    row_norms, col_norms = [0] * rows, [0] * cols
    if kind == "sparse":
        triples = zip(m.row.tolist(), m.col.tolist(), m.data.tolist())
    else:
        triples = ((i, j, m[i, j]) for i, j in zip(*np.nonzero(m)))
    if name == "loop_hafnian":
        # |a_ij| ≤ √(c_i·c_j) with c_i = max_j |a_ij|: each of the T(n) loop matchings (T the
        # involution numbers) weighs at most Π c_i.
        largest = [0] * rows
        for i, _, x in triples:
            largest[i] = max(largest[i], abs(int(x)))
        before, involutions = 1, 1
        for k in range(2, rows + 1):
            before, involutions = involutions, involutions + (k - 1) * before
        return involutions * math.prod(largest) + 1
    for i, j, x in triples:
        if name == "hafnian" and i == j:
            continue
        row_norms[i] += abs(int(x))
        col_norms[j] += abs(int(x))
    by_rows, by_cols = math.prod(row_norms), math.prod(col_norms)
    bound = min(by_rows, by_cols) if rows == cols else (by_rows if rows < cols else by_cols)
    return math.isqrt(bound) + 1 if name == "hafnian" else bound


def _reduced(kind: str, m: Any, p: int) -> Any:
    """The matrix of Python ints with each entry reduced to (-p/2, p/2], as int64."""
    values = m.data if kind == "sparse" else m
    r = np.array([((int(x) + p // 2) % p) - p // 2 for x in values.ravel()],
                 dtype=np.int64).reshape(values.shape)
    if kind == "dense":
        return r
    out = m.copy()
    out.data = r
    return out


def _big_integer_call(count: Callable[..., Result], name: str, kind: str, m: Any,
                      options: _core.CountOptions, progress: Progress) -> Result:
    """perm(A), haf(A) or lhaf(A) of a matrix with Python ints beyond int64, exactly: each is an
    integer polynomial in the entries, so the count of A reduced modulo a prime p (an exact int64 count)
    is the answer modulo p. Enough primes below 2^31 for twice the bound (_big_bound), and one
    spare that must agree, rebuild it by the Chinese remainder theorem. Each prime costs one
    exact count of the reduced matrix (entries of 30 bits), count(name, kind, matrix, options,
    progress). A floating precision counts the entries as doubles instead, as asked."""
    if options.precision not in ("auto", "exact"):
        return count(name, kind, _as_floats(kind, m, name), options, progress)
    if options.explain_only:
        return count(name, kind, _reduced(kind, m, next(_primes_below(
            _BIG_MODULUS_LIMIT))), options, progress)
    exact = _core.CountOptions(options)
    exact.precision = "exact"
    needed = 2 * _big_bound(name, kind, m) + 1  # the product of the moduli must exceed this
    value, modulus, primes, last = 0, 1, 0, None
    for p in _primes_below(_BIG_MODULUS_LIMIT):
        last = count(name, kind, _reduced(kind, m, p), exact, progress)
        residue = last.value % p
        primes += 1
        if modulus >= needed:
            if value > modulus // 2:  # the symmetric range holds the signed answer
                value -= modulus
            if value % p != residue:
                raise InternalError(f"{name}: the spare prime {p} disagrees with the Chinese "
                                    "remainder of the others (a bug or a hardware fault)")
            break
        # value ≡ residue (mod p), value unchanged modulo the primes before.
        value += modulus * ((residue - value) * pow(modulus, -1, p) % p)
        modulus *= p
    note = (f"entries beyond int64: counted modulo {primes} primes below 2^31 (the last a "
            "check), each an exact count of the reduced matrix, rebuilt by CRT")
    return dataclasses.replace(
        last, value=value, log10_abs=_log10_abs(value),
        arithmetic=f"modular ({primes} primes of 31 bits, each counted exactly) + CRT",
        note=f"{last.note}; {note}" if last.note else note)


def _log10_abs(value: int) -> float:
    return math.log10(abs(value)) if value else -math.inf
