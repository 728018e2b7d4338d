"""thewalrus's names and signatures over pmcount: ``from pmcount.compat import thewalrus as tw``.

The functions take thewalrus's arguments in its order, follow its conventions (the diagonal of A
as loops when ``loop=True``; ``reduction`` repeats row and column i rpt[i] times; ``mu`` defaults to
the diagonal) and return what pmcount returns: an exact ``int`` for integer matrices, a float or
complex (with ``.error``) otherwise. Arguments that only tune thewalrus's own algorithms
(``method``, ``glynn``, ``recursive``, ``num_samples``) are accepted and do not change the
result: pmcount picks its own engine. Symmetry is checked as thewalrus checks it
(``np.allclose(A, A.T, rtol, atol)``), and a floating matrix that passes is taken as
(A + Aᵀ)/2. Not provided: ``approx=True`` (use :func:`pmcount.estimate`).
"""

from __future__ import annotations

import math
from typing import Any, Sequence

import numpy as np

from .. import _counting, _photonics
from .._results import ComplexResult

__all__ = ["hafnian", "hafnian_batched", "hafnian_repeated", "ltor", "perm", "permanent_repeated",
           "reduction", "tor"]


def _symmetric(A: Any, rtol: float, atol: float) -> np.ndarray:
    """A as thewalrus takes it: symmetric within ``np.allclose(A, A.T, rtol, atol)`` (its
    message otherwise); floating matrices are then made exactly symmetric, (A + Aᵀ)/2, since
    pmcount's own functions read an asymmetric matrix as an error."""
    a = np.asarray(A)
    if a.ndim != 2 or a.shape[0] != a.shape[1]:
        raise ValueError("Input matrix must be square.")
    if a.dtype.kind in "fc" and np.isnan(a).any():
        raise ValueError("Input matrix must not contain NaNs.")
    if not np.allclose(a, a.T, rtol=rtol, atol=atol):
        raise ValueError("Input matrix must be symmetric.")
    if a.dtype.kind in "fc":
        return (a + a.T) / 2
    return a


def hafnian(A: Any, loop: bool = False, rtol: float = 1e-05, atol: float = 1e-08,
            approx: bool = False, num_samples: int = 1000, method: str = "glynn") -> Any:
    """thewalrus.hafnian: the hafnian of the symmetric matrix A, or with ``loop=True`` its loop
    hafnian (the diagonal as loops).

    >>> import numpy as np
    >>> hafnian(np.ones((4, 4), dtype=int)), hafnian(np.ones((4, 4), dtype=int), loop=True)
    (3, 10)
    """
    del num_samples, method  # thewalrus's own tuning
    if approx:
        raise ValueError("hafnian(approx=True) is not provided here: pmcount.estimate estimates "
                         "the hafnian of a nonnegative matrix with a confidence interval")
    return _counting.hafnian(_symmetric(A, rtol, atol), loop=loop)


def hafnian_repeated(A: Any, rpt: Sequence[int], mu: Any = None, loop: bool = False,
                     rtol: float = 1e-05, atol: float = 1e-08, glynn: bool = True) -> Any:
    """thewalrus.hafnian_repeated: the (loop) hafnian of ``reduction(A, rpt)``, mu on the copies'
    diagonal (A's diagonal when None).

    >>> import numpy as np
    >>> hafnian_repeated(np.array([[1, 2], [2, 3]]), [2, 2])
    11
    """
    del glynn
    return _counting.hafnian_repeated(_symmetric(A, rtol, atol), list(rpt), mu=mu, loop=loop)


def perm(A: Any, method: str = "bbfg") -> Any:
    """thewalrus.perm: the permanent of the square matrix A.

    >>> import numpy as np
    >>> perm(np.array([[1, 2], [3, 4]]))
    10
    """
    del method
    a = np.asarray(A)
    if a.ndim != 2 or a.shape[0] != a.shape[1]:
        raise ValueError(f"perm needs a square matrix, got shape {a.shape}")
    return _counting.permanent(a)


def permanent_repeated(A: Any, rpt: Sequence[int]) -> Any:
    """thewalrus.permanent_repeated: the permanent of A with row and column i repeated rpt[i]
    times.

    >>> import numpy as np
    >>> permanent_repeated(np.array([[1, 2], [3, 4]]), [2, 1])   # [[1, 1, 2], [1, 1, 2], [3, 3, 4]]
    32
    """
    r = list(rpt)
    return _counting.permanent(np.asarray(A), rows=r, cols=r)


def reduction(A: Any, rpt: Sequence[int]) -> np.ndarray:
    """thewalrus.reduction: A with row and column i repeated rpt[i] times.

    >>> import numpy as np
    >>> reduction(np.array([[1, 2], [3, 4]]), [2, 0]).tolist()
    [[1, 1], [1, 1]]
    """
    r = np.asarray(rpt, dtype=int)
    a = np.asarray(A)
    return np.repeat(np.repeat(a, r, axis=0), r, axis=1)


def tor(A: Any, recursive: bool = True) -> Any:
    """thewalrus.tor: the torontonian of the 2N×2N matrix A (xxpp order, I − A Hermitian positive
    definite). As thewalrus, a complex A gives a complex value (its imaginary part 0).

    >>> import numpy as np
    >>> round(tor(np.diag([0.5, 0.5])), 12)
    1.0
    """
    del recursive
    a = np.asarray(A)
    if not np.iscomplexobj(a):
        return _photonics.torontonian(a)
    r = _photonics.torontonian(a, full=True)
    return ComplexResult(complex(r.value), r)


def ltor(A: Any, gamma: Any, recursive: bool = True) -> ComplexResult:
    """thewalrus.ltor: the loop torontonian of A and the vector gamma; complex, as thewalrus's.

    >>> import numpy as np
    >>> round(ltor(np.diag([0.5, 0.5]), np.zeros(2)).real, 12)
    1.0
    """
    del recursive
    r = _photonics.torontonian(np.asarray(A), loop=True, mu=np.asarray(gamma), full=True)
    return ComplexResult(complex(r.value), r)


def hafnian_batched(A: Any, cutoff: int, mu: Any = None, rtol: float = 1e-05,
                    atol: float = 1e-08, renorm: bool = False,
                    make_tensor: bool = True) -> np.ndarray:
    """thewalrus.hafnian_batched: haf(reduction(A, k)) for every k with 0 ≤ k_i < cutoff — with
    mu, the loop hafnian of reduction(A, k) with reduction(mu, k) on its diagonal — as a complex
    tensor of shape (cutoff,)*n (flat with make_tensor=False); renorm divides by √Π k_i!.
    Each pattern is summed over its multiplicities (:func:`pmcount.hafnian_repeated`).

    >>> import numpy as np
    >>> hafnian_batched(np.array([[0, 1], [1, 0]]), 3).real.astype(int).tolist()
    [[1, 0, 0], [0, 1, 0], [0, 0, 2]]
    """
    a = _symmetric(A, rtol, atol)
    n = a.shape[0]
    if not isinstance(cutoff, (int, np.integer)) or cutoff < 1:
        raise ValueError(f"hafnian_batched: cutoff must be a positive integer, got {cutoff!r}")
    loop = mu is not None
    out = np.zeros((cutoff,) * n, dtype=complex)
    for k in np.ndindex(*out.shape):
        if not loop and sum(k) % 2:
            continue  # an odd number of photons has no perfect matching
        value = _counting.hafnian_repeated(a, list(k), mu=mu, loop=loop)
        if renorm:
            value = complex(value) / np.sqrt(float(np.prod([math.factorial(x) for x in k])))
        out[k] = complex(value)
    return out if make_tensor else out.ravel()
