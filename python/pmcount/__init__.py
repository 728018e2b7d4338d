"""Exact perfect-matching counts, cycle covers, permanents and hafnians.

pmcount counts the perfect matchings of any graph and computes permanents and hafnians of
integer, real and complex matrices with the C++ library of the same name: exact integers for
integer input (multi-modular arithmetic, never a rounded double), an error bound with every
floating result, and a structure front end (Dulmage–Mendelsohn, reductions, Edmonds' blossom,
planar and frontier engines) that makes large sparse inputs small.

>>> import networkx as nx, pmcount
>>> pmcount.count_perfect_matchings(nx.grid_2d_graph(8, 8))
12988816
>>> pmcount.count_perfect_matchings(nx.petersen_graph())
6
>>> import numpy as np
>>> pmcount.permanent(np.ones((10, 10), dtype=int))
3628800
>>> p = pmcount.permanent(np.full((4, 4), 0.5))
>>> round(p, 12), p.error < 1e-12
(1.5, True)

Inputs: networkx graphs (any node labels), SciPy sparse matrices, NumPy arrays and nested lists.
Long calls release the GIL and stop with KeyboardInterrupt on Ctrl-C; ``progress=True`` draws a
progress bar (tqdm when installed).
"""

from __future__ import annotations

from . import _core, _counting, _estimating, _generators, _matchings, _photonics, _results
from ._counting import (
    count_cycle_covers,
    count_perfect_matchings,
    explain,
    hafnian,
    hafnian_repeated,
    permanent,
)
from ._errors import (
    DeviceError,
    DimensionMismatchError,
    Error,
    InternalError,
    InvalidArgumentError,
    InvalidInputError,
    NotBipartiteError,
    NotCompiledError,
    OverflowError_,
    ProblemTooLargeError,
)
from ._estimating import estimate
from ._matchings import count_matchings, estimate_matchings, matching_polynomial
from ._generators import (
    aztec_diamond,
    complete_bipartite,
    cubic,
    fcc,
    grid,
    hex_torus,
    hexagon,
    kagome,
    lattice_torus_embedding,
    random_bipartite,
    random_regular,
    random_regular_bipartite,
    torus,
    torus_embedding,
    triangular,
)
from ._photonics import hafnian_batched, permanent_batched, torontonian, torontonian_batched
from ._progress import Progress  # noqa: F401 - the type of every progress argument
from ._results import ComplexResult, Estimate, FloatResult, Result

__version__ = _core.version()

__all__ = [
    "count_perfect_matchings",
    "count_cycle_covers",
    "permanent",
    "hafnian",
    "hafnian_repeated",
    "torontonian",
    "hafnian_batched",
    "permanent_batched",
    "torontonian_batched",
    "count_matchings",
    "estimate_matchings",
    "matching_polynomial",
    "estimate",
    "explain",
    "Result",
    "FloatResult",
    "ComplexResult",
    "Estimate",
    "grid",
    "torus",
    "torus_embedding",
    "hexagon",
    "aztec_diamond",
    "complete_bipartite",
    "random_bipartite",
    "random_regular_bipartite",
    "triangular",
    "hex_torus",
    "kagome",
    "cubic",
    "fcc",
    "random_regular",
    "lattice_torus_embedding",
    "Error",
    "InvalidInputError",
    "NotBipartiteError",
    "InvalidArgumentError",
    "DimensionMismatchError",
    "ProblemTooLargeError",
    "NotCompiledError",
    "DeviceError",
    "OverflowError_",
    "InternalError",
]

# The package's functions and classes live in its modules (_counting, _estimating, _generators,
# _photonics, _results) and are pmcount's: named so, and their docstrings' examples run by
# doctest.testmod(pmcount) (which finds only the module's own functions otherwise).
for _name in __all__:
    _value = globals()[_name]
    if _value.__module__ in (_counting.__name__, _estimating.__name__, _generators.__name__,
                             _matchings.__name__, _photonics.__name__, _results.__name__):
        _value.__module__ = __name__
__test__ = {name: globals()[name] for name in __all__ if globals()[name].__module__ == __name__}
del _name, _value
