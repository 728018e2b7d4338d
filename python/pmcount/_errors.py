"""pmcount's exceptions: every one is a ``pmcount.Error`` and also the built-in exception a Python
user would catch for that kind of problem (``ValueError`` for bad input, ``OverflowError``, …)."""


class Error(Exception):
    """Base of every exception pmcount raises (besides ``TypeError`` for wrong argument types)."""


class InvalidInputError(Error, ValueError):
    """Malformed input (a file's line, a generator spec, a graph with a self-loop)."""


class NotBipartiteError(InvalidInputError):
    """A graph given as bipartite has an odd cycle."""


class InvalidArgumentError(Error, ValueError):
    """An argument that cannot be honoured (an unknown method, NaN entries, an engine asked for a
    problem it cannot do, an asymmetric matrix given to ``hafnian``)."""


class DimensionMismatchError(Error, ValueError):
    """Sizes that do not fit together (a non-square matrix where a square one is needed)."""


class ProblemTooLargeError(Error, RuntimeError):
    """Too large for the chosen engine, or predicted to take longer than ``max_time``."""


class NotCompiledError(Error, RuntimeError):
    """A feature this build does not contain (the CUDA backend in a build without CUDA)."""


class DeviceError(Error, RuntimeError):
    """A failure reported by a GPU runtime."""


class OverflowError_(Error, OverflowError):  # noqa: N801 - exported as pmcount.OverflowError_
    """A value that does not fit the requested representation."""


class InternalError(Error, RuntimeError):
    """A self-check inside pmcount failed (e.g. the spare CRT prime disagreed): a bug or a
    hardware fault, never a property of the input."""
