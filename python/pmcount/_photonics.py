"""Photonics functions beyond the (loop) hafnian and the repeated rows: torontonians."""

from __future__ import annotations

from typing import Any, Union

import numpy as np

from . import _arguments, _core, _errors
from ._convert import _check_finite
from ._counting import _count_options, _run
from ._progress import Progress
from ._results import FloatResult, Result


def torontonian(
    O: Any,  # noqa: E741 - thewalrus's name for the matrix
    loop: bool = False,
    mu: Any = None,
    precision: str = "auto",
    method: str = "auto",
    threads: int = 0,
    *,
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

    >>> import numpy as np
    >>> round(torontonian(np.zeros((4, 4))), 12)   # the vacuum never clicks: (1 − 1)²
    0.0
    >>> O = np.diag([0.5, 0.5])   # one mode: 1/√det(I − O) − 1 = 1/0.5 − 1
    >>> round(torontonian(O), 12)
    1.0
    """
    where = "torontonian"
    options = _count_options(where, method=method, precision=precision, threads=threads)
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
        if not np.all(np.isfinite(gamma)):
            raise _errors.InvalidArgumentError(f"{where}: mu has NaN or infinite entries")
        gamma = gamma.astype(dense.dtype).tolist()
    call = getattr(_core, "torontonian_complex" if np.iscomplexobj(dense) else "torontonian_float")
    return _run(call, (dense, gamma), options, progress)._public(full)
