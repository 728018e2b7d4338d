"""Graphs of the generator specs the CLI reads (grid:RxC, torus:RxC, hexagon:A,B,C, ...), as
networkx graphs or SciPy or NumPy biadjacency matrices."""

from __future__ import annotations

from typing import Any, Dict, List, Optional

import numpy as np

from . import _arguments, _core
from ._convert import _pairs


# Sizes are checked here for their type and sign; the C++ generator refuses a graph beyond its
# vertex and edge limits and says which.


def _generated(where: str, shape: str, sizes: Dict[str, Any], as_: Any,
               seed: Optional[Any] = None, p: Optional[Any] = None) -> Any:
    """The graph of the generator spec "<where>:<shape with the sizes>[,p][,seed]", as `as_`."""
    as_ = _arguments.choice(as_, where, "as_", ["networkx", "scipy", "numpy"])
    spec = shape.format(**{name: _arguments.integer(v, where, name, 0, _arguments.INT32_MAX)
                           for name, v in sizes.items()})
    if p is not None:
        spec += f",{_arguments.real(p, where, 'p', 0, 1)!r}"
    if seed is not None:
        # The spec's seed is read as a signed 64-bit count, as on the command line.
        spec += f",{_arguments.integer(seed, where, 'seed', 0, 2**63 - 1)}"
    n_left, n_right, edges = _core.generate(spec)
    if as_ == "networkx":
        import networkx as nx

        g = nx.Graph()
        g.add_nodes_from(range(n_left), bipartite=0)
        g.add_nodes_from(range(n_left, n_left + n_right), bipartite=1)
        g.add_edges_from((u, n_left + v) for u, v in edges)
        return g
    pairs = _pairs(edges)
    if as_ == "scipy":
        import scipy.sparse as sp

        data = np.ones(len(pairs), dtype=np.int8)
        return sp.csr_array((data, (pairs[:, 0], pairs[:, 1])), shape=(n_left, n_right))
    a = np.zeros((n_left, n_right), dtype=np.int8)
    a[pairs[:, 0], pairs[:, 1]] = 1
    return a


def grid(rows: int, cols: int, as_: str = "networkx") -> Any:
    """The rows × cols grid graph (its perfect matchings are the domino tilings), as a networkx
    Graph (nodes 0…, attribute ``bipartite`` 0 or 1), a SciPy biadjacency matrix (``as_="scipy"``)
    or a NumPy one (``as_="numpy"``). Sizes are nonnegative integers; every generator refuses a
    graph of more than 2^22 vertices or edges (InvalidInputError)."""
    return _generated("grid", "grid:{rows}x{cols}", {"rows": rows, "cols": cols}, as_)


def torus(rows: int, cols: int, as_: str = "networkx") -> Any:
    """The rows × cols torus (even sides), as for :func:`grid`."""
    return _generated("torus", "torus:{rows}x{cols}", {"rows": rows, "cols": cols}, as_)


def torus_embedding(rows: int, cols: int) -> Dict[int, List[int]]:
    """The drawing of :func:`torus` (networkx form; even sides of at least 4) on the torus, for
    ``count_perfect_matchings(..., embedding=)``: each node's neighbours right, below, left and
    above it."""
    where = "torus_embedding"
    rotation = _core.torus_embedding(
        _arguments.integer(rows, where, "rows", 0, _arguments.INT32_MAX),
        _arguments.integer(cols, where, "cols", 0, _arguments.INT32_MAX))
    return {v: list(around) for v, around in enumerate(rotation)}


def hexagon(a: int, b: int, c: int, as_: str = "networkx") -> Any:
    """The honeycomb graph of the a×b×c hexagon (its matchings are lozenge tilings)."""
    return _generated("hexagon", "hexagon:{a},{b},{c}", {"a": a, "b": b, "c": c}, as_)


def aztec_diamond(k: int, as_: str = "networkx") -> Any:
    """The Aztec diamond of order k (2^(k(k+1)/2) domino tilings)."""
    return _generated("aztec_diamond", "aztec:{k}", {"k": k}, as_)


def complete_bipartite(n: int, as_: str = "networkx") -> Any:
    """K_{n,n} (n! perfect matchings)."""
    return _generated("complete_bipartite", "complete:{n}", {"n": n}, as_)


def random_bipartite(n: int, p: float, seed: int = 1, as_: str = "networkx") -> Any:
    """A random bipartite graph with n vertices per side, each edge present with probability p
    (in [0, 1]); seed 0 to 2^63 - 1."""
    return _generated("random_bipartite", "random:{n}", {"n": n}, as_, seed=seed, p=p)


def random_regular_bipartite(n: int, d: int, seed: int = 1, as_: str = "networkx") -> Any:
    """A random d-regular bipartite graph with n vertices per side (0 ≤ d ≤ n)."""
    return _generated("random_regular_bipartite", "regular:{n},{d}", {"n": n, "d": d}, as_,
                      seed=seed)
