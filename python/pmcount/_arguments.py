"""Checks of the public functions' arguments, before anything reaches the C++ library.

Each check returns the value in the type the C++ side takes, raises ``TypeError`` for a value of
the wrong type and :class:`InvalidArgumentError` (a ``pmcount.Error`` and a ``ValueError``) for
one out of range, in one line that names the function, the argument and the allowed range. The
C++ side would otherwise see a Python int that does not fit its type (``std::bad_cast``), or a
number of threads that no machine can start.
"""

from __future__ import annotations

import math
import numbers
import warnings
from typing import Any, List, Optional, Tuple

import numpy as np

from . import _core
from ._errors import InvalidArgumentError

UINT64_MAX = 2**64 - 1
INT32_MAX = 2**31 - 1
# Thread counts: the library's bound (pmcount::kMaxThreads; OpenMP crashed starting 100 000).
MAX_THREADS = _core.max_threads
# GPU device indices, as the CLI's --gpus takes them.
MAX_GPU = 1023


class _NotGiven:
    """The default of a deprecated keyword: the caller did not give it."""

    def __repr__(self) -> str:
        return "<not given>"


NOT_GIVEN = _NotGiven()


def renamed(where: str, old: str, old_value: Any, new: str, new_value: Any,
            default: Any) -> Tuple[str, Any]:
    """(name, value) of an option given under its new name or its deprecated old one: the old
    keyword still works, with a DeprecationWarning pointing at the caller of the public function,
    and the checks' messages then name it as the caller wrote it. Both at once is a TypeError
    (unless the new one has its default, which giving the old one overrides)."""
    if old_value is NOT_GIVEN:
        return new, new_value
    if new_value is not default:
        raise TypeError(f"{where}: {old} is the deprecated name of {new}; give one of them")
    # The caller of renamed → _count_options → the public function → its caller.
    warnings.warn(f"{where}: {old} is deprecated, use {new}", DeprecationWarning, stacklevel=4)
    return old, old_value


def show(value: Any) -> str:
    """``repr(value)``, shortened so that an error message stays one line: a huge int (whose
    repr Python refuses beyond 4300 digits) by its size, a long repr by its ends."""
    if isinstance(value, numbers.Integral) and not isinstance(value, bool) and \
            abs(int(value)) >= 2**128:
        return f"an integer of {abs(int(value)).bit_length()} bits"
    try:
        text = repr(value)
    except Exception:  # a user object whose __repr__ fails still gets a message
        text = f"<{type(value).__name__}>"
    text = text.replace("\n", "\\n")
    return text if len(text) <= 80 else text[:60] + " … " + text[-15:]


def bound(x: float) -> str:
    """2^k or 2^k - 1 for the large bounds, the number otherwise."""
    if isinstance(x, int) and x >= 2**20:
        if (x + 1) & x == 0:
            return f"2^{(x + 1).bit_length() - 1} - 1"
        if x & (x - 1) == 0:
            return f"2^{x.bit_length() - 1}"
    return str(x)


def integer(value: Any, where: str, name: str, low: int, high: int, meaning: str = "") -> int:
    """An integer (Python or NumPy; not bool, not float) in [low, high]."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{where}: {name} must be an integer, got {show(value)} "
                        f"({type(value).__name__})")
    v = int(value)
    if not low <= v <= high:
        raise InvalidArgumentError(f"{where}: {name} must be an integer in [{bound(low)}, "
                                   f"{bound(high)}]{meaning}, got {show(v)}")
    return v


def real(value: Any, where: str, name: str, low: float, high: float, *, open_low: bool = False,
         open_high: bool = False, meaning: str = "") -> float:
    """A real number (int, float or NumPy; not bool, not complex) in the given interval; NaN is
    out of every range."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{where}: {name} must be a number, got {show(value)} "
                        f"({type(value).__name__})")
    try:
        v = float(value)
    except OverflowError:  # an int beyond a double's range
        v = math.inf if value > 0 else -math.inf
    inside = (low < v if open_low else low <= v) and (v < high if open_high else v <= high)
    if not inside:
        interval = ("(" if open_low else "[") + f"{bound(low)}, {bound(high)}" + \
                   (")" if open_high else "]")
        raise InvalidArgumentError(f"{where}: {name} must be a number in {interval}{meaning}, "
                                   f"got {show(value)}")
    return v


def limit(value: Any, where: str, name: str, what: str) -> float:
    """A limit where None, 0 and inf all mean none (as the CLI's --max-time 0 and --time 0):
    0.0 for none, else the positive finite number."""
    if value is None:
        return 0.0
    v = real(value, where, name, 0, math.inf, meaning=f" ({what}; 0, inf or None: no limit)")
    return 0.0 if math.isinf(v) else v


def count_or_none(value: Any, where: str, name: str, meaning: str) -> int:
    """A nonnegative 64-bit count where None means 0 (none)."""
    return 0 if value is None else integer(value, where, name, 0, UINT64_MAX, meaning)


def choice(value: Any, where: str, name: str, names: Optional[List[str]] = None) -> str:
    """One of `names`, or without them a name such as "auto" checked by the C++ library's own
    parser, whose message lists the accepted names."""
    if not isinstance(value, str):
        raise TypeError(f"{where}: {name} must be a str, got {show(value)} "
                        f"({type(value).__name__})")
    if names is not None:
        if value not in names:
            raise InvalidArgumentError(f"{where}: {name} must be one of "
                                       f"{', '.join(map(repr, names))}, got {show(value)}")
        return value
    # A name that would not print on one line (a newline; a NUL, which would end the C++
    # message) is on no list: it is refused with its characters escaped.
    shown = value if value.isprintable() else show(value)[1:-1]
    try:
        _core.check_name(name, shown)
    except InvalidArgumentError as e:
        raise InvalidArgumentError(f"{where}: {name}: {e}") from None
    return value


def flag(value: Any, where: str, name: str) -> bool:
    """True or False (Python or NumPy)."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{where}: {name} must be True or False, got {show(value)}")
    return bool(value)


def devices(value: Any, where: str) -> List[int]:
    """GPU indices: None (every visible GPU) or a sequence of integers in [0, MAX_GPU]."""
    if value is None:
        return []
    if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
        raise TypeError(f"{where}: gpus must be a sequence of GPU indices such as [0, 1], "
                        f"got {show(value)}")
    return [integer(g, where, "each of gpus", 0, MAX_GPU) for g in value]


def threads(value: Any, where: str) -> int:
    return integer(value, where, "threads", 0, MAX_THREADS, " (0: every core)")


def progress(value: Any, where: str) -> Optional[Any]:
    """None, a bool or a callable(fraction, elapsed_seconds)."""
    if isinstance(value, (bool, np.bool_)):
        return bool(value)  # np.False_ is no `False` to an identity test
    if value is None or callable(value):
        return value
    raise TypeError(f"{where}: progress must be True, False, None or a callable(fraction, "
                    f"elapsed_seconds), got {show(value)}")

