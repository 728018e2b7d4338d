"""Graphs of the generator specs the CLI reads (grid:RxC, torus:RxC, hexagon:A,B,C, ...), as
networkx graphs or SciPy or NumPy biadjacency matrices; the lattices that are not bipartite
(tri:RxC, kagome:RxC, fcc:LxMxN, ...) and random regular general graphs as networkx graphs or
SciPy or NumPy adjacency matrices."""

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


# ---- General graphs: lattices that are not bipartite, random regular graphs -----------------------


def _general(where: str, shape: str, sizes: Dict[str, Any], as_: Any,
             seed: Optional[Any] = None) -> Any:
    """The general graph of the spec "<shape with the sizes>[,seed]", as `as_`: a networkx Graph
    on nodes 0…n−1, or its symmetric 0-1 adjacency matrix (SciPy CSR or NumPy), whose hafnian
    (:func:`hafnian`) counts the perfect matchings."""
    as_ = _arguments.choice(as_, where, "as_", ["networkx", "scipy", "numpy"])
    spec = shape.format(**{name: _arguments.integer(v, where, name, 0, _arguments.INT32_MAX)
                           for name, v in sizes.items()})
    if seed is not None:
        spec += f",{_arguments.integer(seed, where, 'seed', 0, 2**63 - 1)}"
    n, edges = _core.generate_general(spec)
    if as_ == "networkx":
        import networkx as nx

        g = nx.Graph()
        g.add_nodes_from(range(n))
        g.add_edges_from(edges)
        return g
    pairs = _pairs(edges)
    rows = np.concatenate([pairs[:, 0], pairs[:, 1]])
    cols = np.concatenate([pairs[:, 1], pairs[:, 0]])
    if as_ == "scipy":
        import scipy.sparse as sp

        return sp.csr_array((np.ones(len(rows), dtype=np.int8), (rows, cols)), shape=(n, n))
    a = np.zeros((n, n), dtype=np.int8)
    a[rows, cols] = 1
    return a


def _periodic(where: str, periodic: Any) -> str:
    """The spec's suffix for a periodic lattice."""
    return "-torus" if _arguments.flag(periodic, where, "periodic") else ""


def triangular(rows: int, cols: int, periodic: bool = False, as_: str = "networkx") -> Any:
    """The triangular lattice of rows × cols vertices (spec ``tri:RxC``, with ``periodic=True``
    ``tri-torus:RxC``): node (i, j) is i·cols + j, joined to (i, j+1), (i+1, j) and (i+1, j+1),
    indices taken mod the sides when periodic (sides of at least 2). As a networkx Graph or a SciPy
    or NumPy adjacency matrix (``as_``; count a matrix's perfect matchings with :func:`hafnian`).

    >>> count_perfect_matchings(triangular(4, 4))
    56
    >>> hafnian(triangular(4, 4, as_="numpy"))
    56
    """
    suffix = _periodic("triangular", periodic)
    return _general("triangular", "tri" + suffix + ":{rows}x{cols}",
                    {"rows": rows, "cols": cols}, as_)


def hex_torus(rows: int, cols: int, as_: str = "networkx") -> Any:
    """The brick-wall (honeycomb) lattice on the torus (``hex-torus:RxC``, even sides): node (i, j)
    is i·cols + j, horizontal edges (i, j)–(i, j+1) for every j, vertical (i, j)–(i+1, j) where
    i + j is even."""
    return _general("hex_torus", "hex-torus:{rows}x{cols}", {"rows": rows, "cols": cols}, as_)


def kagome(rows: int, cols: int, periodic: bool = False, as_: str = "networkx") -> Any:
    """The kagome lattice of rows × cols cells of three sites (``kagome:RxC``,
    ``kagome-torus:RxC``): sites A, B, C of cell (i, j) are 3(i·cols + j) + 0, 1, 2; up-triangles
    A–B–C in each cell, down-triangles B(i, j), A(i, j+1), C(i−1, j+1)."""
    suffix = _periodic("kagome", periodic)
    return _general("kagome", "kagome" + suffix + ":{rows}x{cols}",
                    {"rows": rows, "cols": cols}, as_)


def cubic(l: int, m: int, n: int, periodic: bool = False, as_: str = "networkx") -> Any:
    """The simple cubic lattice of l × m × n sites (``cubic:LxMxN``, ``cubic-torus:LxMxN``):
    (x, y, z) is (x·m + y)·n + z."""
    suffix = _periodic("cubic", periodic)
    return _general("cubic", "cubic" + suffix + ":{l}x{m}x{n}", {"l": l, "m": m, "n": n}, as_)


def fcc(l: int, m: int, n: int, periodic: bool = False, as_: str = "networkx") -> Any:
    """The face-centred cubic lattice of l × m × n conventional cells of 4 sites (``fcc:LxMxN``,
    ``fcc-torus:LxMxN``): site b of cell (x, y, z) is 4((x·m + y)·n + z) + b, at offsets (0,0,0),
    (½,½,0), (½,0,½), (0,½,½); each joined to its 12 nearest neighbours."""
    suffix = _periodic("fcc", periodic)
    return _general("fcc", "fcc" + suffix + ":{l}x{m}x{n}", {"l": l, "m": m, "n": n}, as_)


def random_regular(n: int, d: int, seed: int = 1, as_: str = "networkx") -> Any:
    """A random d-regular graph on n vertices, not forced bipartite (``regular-general:N,D``; n·d
    even, d < n)."""
    return _general("random_regular", "regular-general:{n},{d}", {"n": n, "d": d}, as_,
                    seed=seed)


def lattice_torus_embedding(lattice: str, rows: int, cols: int) -> Dict[int, List[int]]:
    """The drawing on the torus of ``triangular(rows, cols, periodic=True)`` (``lattice="tri"``),
    ``hex_torus`` (``"hex"``) or ``kagome(..., periodic=True)`` (``"kagome"``), for
    ``count_perfect_matchings(..., embedding=)``: each node's neighbours counter-clockwise."""
    where = "lattice_torus_embedding"
    name = _arguments.choice(lattice, where, "lattice", ["tri", "hex", "kagome"])
    rotation = _core.lattice_torus_embedding(
        name + "-torus",
        _arguments.integer(rows, where, "rows", 0, _arguments.INT32_MAX),
        _arguments.integer(cols, where, "cols", 0, _arguments.INT32_MAX))
    return {v: list(around) for v, around in enumerate(rotation)}
