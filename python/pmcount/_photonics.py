"""Photonics functions beyond the (loop) hafnian and the repeated rows: torontonians."""

from __future__ import annotations

from typing import Any, Union

import numpy as np

from . import _arguments, _core, _errors
from ._convert import _check_finite
from ._counting import _call, _count_options, _run
from ._progress import Progress
from ._results import FloatResult, Result


def _finite_mu(mu: np.ndarray, where: str) -> None:
    if mu.dtype.kind in "fc" and not np.all(np.isfinite(mu)):
        raise _errors.InvalidArgumentError(f"{where}: mu has NaN or infinite entries")


def torontonian(
    O: Any,  # noqa: E741 - thewalrus's name for the matrix
    loop: bool = False,
    mu: Any = None,
    precision: str = "auto",
    method: str = "auto",
    threads: int = 0,
    *,
    backend: str = "auto",
    gpus: Any = None,
    progress: Progress = False,
    full: bool = False,
) -> Union[FloatResult, Result]:
    """The torontonian of the 2N×2N matrix O (thewalrus's ``tor(O)``): in xxpp order, mode k
    owning rows and columns k and k + N, with I − O Hermitian positive definite (O = I − Q⁻¹ for
    the Q-matrix of a Gaussian state),

        Tor(O) = Σ over the sets Z of modes of (−1)^(N−|Z|) / √det(I − O_Z).

    With loop=True the loop torontonian (thewalrus's ``ltor(O, mu)``): each term times
    exp(½ γ_Zᵀ (I − O_Z)⁻¹ γ_Z*), γ = mu (one entry per row of O; zeros when None). The value is
    real (a :class:`FloatResult`) for real and complex O alike. The 2^N sets are walked as a
    tree, each child's determinant from its parent's Schur complement (about 12·2^N multiply-adds,
    CPU threads). precision: "auto" (double, whose ``.error`` tracks its rounding error to first
    order; counted again in double-double when that exceeds 10⁻⁶ of the value), "double", or "dd"
    (double-double, ``.error`` a bound). method="brute-force": the definition, set by set (N ≤ 12).
    backend="cuda": the same walk on GPUs (``gpus``, or every visible one, the chunks split
    evenly), in double, a thread per chunk of sets (36 modes took 27 s on one H200, 13.8 s on
    two; each further mode doubles it).

    >>> import numpy as np
    >>> round(torontonian(np.zeros((4, 4))), 12)   # the vacuum never clicks: (1 − 1)²
    0.0
    >>> O = np.diag([0.5, 0.5])   # one mode: 1/√det(I − O) − 1 = 1/0.5 − 1
    >>> round(torontonian(O), 12)
    1.0
    """
    where = "torontonian"
    options = _count_options(where, method=method, precision=precision, threads=threads,
                             backend=backend, gpus=gpus)
    full = _arguments.flag(full, where, "full")
    loop = _arguments.flag(loop, where, "loop")
    progress = _arguments.progress(progress, where)
    a = np.asarray(O)
    if a.ndim != 2 or a.shape[0] != a.shape[1]:
        raise _errors.InvalidArgumentError(
            f"{where} needs a square matrix, got shape {a.shape}")
    if a.dtype.kind not in "biufc":
        raise _errors.InvalidArgumentError(f"{where} needs a numeric matrix, got {a.dtype}")
    gamma = None
    if loop:
        g = np.zeros(a.shape[0]) if mu is None else np.asarray(mu)
        if g.shape != (a.shape[0],) or g.dtype.kind not in "biufc":
            raise _errors.InvalidArgumentError(
                f"{where}: mu needs {a.shape[0]} numbers (one per row of O), got "
                f"{_arguments.show(mu)}")
        if np.iscomplexobj(g):
            a = a.astype(complex)
        gamma = g.astype(a.dtype if np.iscomplexobj(a) else float)
    elif mu is not None:
        raise _errors.InvalidArgumentError(f"{where}: mu is the loop torontonian's; pass loop=True")
    dense = np.ascontiguousarray(a, dtype=complex if np.iscomplexobj(a) else float)
    _check_finite("dense", dense, where)
    if gamma is not None:
        _finite_mu(gamma, where)
        gamma = gamma.astype(dense.dtype).tolist()
    call = getattr(_core, "torontonian_complex" if np.iscomplexobj(dense) else "torontonian_float")
    return _run(call, (dense, gamma), options, progress)._public(full)


def _stack(As: Any, where: str, square: bool = True) -> np.ndarray:
    """A (B, n, m) array of the matrices in As (a 3-D array, or a sequence of equal-shaped 2-D
    arrays), as int64, float or complex."""
    try:
        a = np.asarray(As)
    except ValueError as e:  # ragged
        raise _errors.InvalidArgumentError(
            f"{where}: the matrices must all have one shape ({e})") from None
    if a.ndim != 3 or (square and a.shape[1] != a.shape[2]):
        raise _errors.InvalidArgumentError(
            f"{where} needs a (B, n, n) array of matrices (or a list of n×n arrays), got shape "
            f"{a.shape}")
    if a.dtype.kind in "bu" or a.dtype.kind == "i":
        return np.ascontiguousarray(a, dtype=np.int64)
    if a.dtype.kind not in "fc":
        raise _errors.InvalidArgumentError(
            f"{where} needs numeric matrices (entries beyond int64: pass them one by one), got "
            f"{a.dtype}")
    a = np.ascontiguousarray(a, dtype=complex if a.dtype.kind == "c" else float)
    _check_finite("dense", a, where)
    return a


def _suffix_of(a: np.ndarray) -> str:
    return {"i": "int", "f": "float", "c": "complex"}[a.dtype.kind]


def _batch_run(call: Any, args: tuple, options: Any, progress: Progress, full: bool) -> list:
    return [Result._from(r)._public(full) for r in _call(call, args, options, progress)]


def permanent_batched(As: Any, precision: str = "auto", threads: int = 0, *,
                      progress: Progress = False, full: bool = False) -> list:
    """The permanents of many matrices in one call: As is a (B, n, n) array (or a list of n×n
    arrays); the items are spread over the CPU threads, each counted as :func:`permanent` would
    count it alone; a list of B results in order (exact ``int`` for integer matrices).

    >>> import numpy as np
    >>> permanent_batched(np.ones((3, 4, 4), dtype=int))   # 4! each
    [24, 24, 24]
    """
    where = "permanent_batched"
    options = _count_options(where, precision=precision, threads=threads)
    a = _stack(As, where)
    call = getattr(_core, f"batch_{_suffix_of(a)}")
    return _batch_run(call, ("permanent", a), options, _arguments.progress(progress, where),
                      _arguments.flag(full, where, "full"))


def hafnian_batched(As: Any, loop: bool = False, mu: Any = None, precision: str = "auto",
                    threads: int = 0, *, progress: Progress = False, full: bool = False) -> list:
    """The hafnians (loop=True: loop hafnians) of many symmetric matrices in one call: As is a
    (B, n, n) array or a list of n×n arrays; items spread over the CPU threads, each counted as
    :func:`hafnian` would count it alone; a list of B results in order.

    One matrix with many loop weights: As a single n×n matrix, loop=True and mu a (B, n) array
    of diagonals (the displacements of a Gaussian state): the loop hafnian of As with each row
    of mu on its diagonal.

    >>> import numpy as np
    >>> hafnian_batched([np.ones((4, 4), dtype=int)] * 2, loop=True)   # involutions of 4
    [10, 10]
    >>> hafnian_batched(np.ones((2, 2), dtype=int), loop=True, mu=np.array([[0, 0], [2, 3]]))
    [1, 7]
    """
    where = "hafnian_batched"
    options = _count_options(where, precision=precision, threads=threads)
    loop = _arguments.flag(loop, where, "loop")
    full = _arguments.flag(full, where, "full")
    progress = _arguments.progress(progress, where)
    if mu is not None:
        if not loop:
            raise _errors.InvalidArgumentError(f"{where}: mu gives loop weights; pass loop=True")
        a = np.asarray(As)
        d = np.asarray(mu)
        if a.ndim != 2 or a.shape[0] != a.shape[1] or d.ndim != 2 or d.shape[1] != a.shape[0]:
            raise _errors.InvalidArgumentError(
                f"{where}: with mu, As is one n×n matrix and mu a (B, n) array of diagonals; got "
                f"shapes {a.shape} and {d.shape}")
        kind = "c" if "c" in (a.dtype.kind, d.dtype.kind) else (
            "f" if "f" in (a.dtype.kind, d.dtype.kind) else "i")
        dtype = {"c": complex, "f": float, "i": np.int64}[kind]
        a = _stack(a[None, :, :].astype(dtype), where)[0]
        d = np.ascontiguousarray(d, dtype=dtype)
        _finite_mu(d, where)
        call = getattr(_core, f"loop_hafnian_diagonals_{_suffix_of(a)}")
        return _batch_run(call, (a, d), options, progress, full)
    a = _stack(As, where)
    call = getattr(_core, f"batch_{_suffix_of(a)}")
    return _batch_run(call, ("loop_hafnian" if loop else "hafnian", a), options, progress, full)


def torontonian_batched(Os: Any, loop: bool = False, mu: Any = None, precision: str = "auto",
                        threads: int = 0, *, progress: Progress = False,
                        full: bool = False) -> list:
    """The torontonians of many 2N×2N matrices in one call (each as :func:`torontonian`); with
    loop=True the loop torontonians, mu a (B, 2N) array (one gamma per matrix; zeros when None).

    >>> import numpy as np
    >>> [round(t, 12) for t in torontonian_batched([np.diag([0.5, 0.5]), np.zeros((2, 2))])]
    [1.0, 0.0]
    """
    where = "torontonian_batched"
    options = _count_options(where, precision=precision, threads=threads)
    loop = _arguments.flag(loop, where, "loop")
    full = _arguments.flag(full, where, "full")
    progress = _arguments.progress(progress, where)
    a = _stack(Os, where)
    gammas = None
    if loop:
        g = np.zeros(a.shape[:2]) if mu is None else np.asarray(mu)
        if g.shape != a.shape[:2] or g.dtype.kind not in "biufc":
            raise _errors.InvalidArgumentError(
                f"{where}: mu needs shape {a.shape[:2]} (one gamma per matrix), got "
                f"{np.shape(mu)}")
        if g.dtype.kind == "c":
            a = a.astype(complex)
        gammas = np.ascontiguousarray(g, dtype=complex if a.dtype.kind == "c" else float)
        _finite_mu(gammas, where)
    elif mu is not None:
        raise _errors.InvalidArgumentError(f"{where}: mu is the loop torontonian's; pass loop=True")
    if a.dtype.kind == "i":
        a = a.astype(float)
    call = getattr(_core, f"torontonian_batch_{_suffix_of(a)}")
    return _batch_run(call, (a, gammas), options, progress, full)
