"""The ``progress`` argument of every long call: False or None (nothing), True (a tqdm bar, or a
plain line without tqdm) or a callable(fraction, elapsed_seconds)."""

from __future__ import annotations

import sys
from typing import Any, Callable, Tuple, Union

Progress = Union[bool, Callable[[float, float], Any], None]


def _progress_callback(progress: Progress) -> Tuple[Any, Callable[[], None]]:
    """(callable for the C++ side or None, closer) for the ``progress`` argument."""
    if progress is None or progress is False:
        return None, lambda: None
    if callable(progress):
        return progress, lambda: None
    try:
        from tqdm import tqdm  # type: ignore[import-not-found]

        bar = tqdm(total=1000, unit="‰", leave=False)

        def update(fraction: float, elapsed: float) -> None:
            bar.n = int(1000 * min(max(fraction, 0.0), 1.0))
            bar.refresh()

        return update, bar.close
    except ImportError:

        def line(fraction: float, elapsed: float) -> None:
            sys.stderr.write(f"\r{100 * fraction:5.1f}%  {elapsed:7.1f} s")
            sys.stderr.flush()

        return line, lambda: sys.stderr.write("\n")
