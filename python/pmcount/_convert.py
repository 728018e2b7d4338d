"""Inputs as the C++ library takes them: networkx graphs as vertex counts and edge arrays, NumPy
arrays, SciPy sparse matrices and nested lists as dense int64, float64 or complex128 arrays or
COO triplets (integers beyond int64 as Python ints, for the exact path of _big_integers), each
refused in one line when it is no matrix or graph pmcount can count."""

from __future__ import annotations

import numbers
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Dict, Iterable, List, Tuple

import numpy as np

from . import _arguments
from ._errors import DimensionMismatchError, InvalidArgumentError, InvalidInputError


def _is_networkx(obj: Any) -> bool:
    """A networkx graph of any class: Graph, DiGraph, MultiGraph, MultiDiGraph, their views and
    the user's subclasses. networkx is optional: without it imported no object can be one."""
    nx = sys.modules.get("networkx")
    return nx is not None and isinstance(obj, nx.Graph)


def _is_sparse(obj: Any) -> bool:
    """A SciPy sparse matrix or array of any format (or a subclass of one)."""
    sparse = sys.modules.get("scipy.sparse")
    return sparse is not None and bool(sparse.issparse(obj))


def _pairs(pairs: Iterable[Tuple[int, int]]) -> np.ndarray:
    array = np.asarray(list(pairs), dtype=np.int64)
    return array.reshape(-1, 2) if array.size else np.zeros((0, 2), dtype=np.int64)


def _indexed_edges(graph: Any) -> Tuple[List[Any], np.ndarray]:
    """The graph's nodes in its order, and its edges as pairs of their indices (a MultiGraph's
    parallel edges once each; edge attributes are not read)."""
    nodes = list(graph.nodes())
    index = {node: i for i, node in enumerate(nodes)}
    return nodes, _pairs((index[u], index[v]) for u, v in graph.edges())


def _reject_self_loops(nodes: List[Any], edges: np.ndarray, where: str) -> None:
    loops = np.flatnonzero(edges[:, 0] == edges[:, 1])
    if loops.size:
        node = _arguments.show(nodes[edges[loops[0], 0]])
        raise InvalidInputError(
            f"{where}: self-loop at node {node}: no perfect matching can use it (remove it)")


def _multiplicities(edges: np.ndarray, directed: bool) -> Tuple[np.ndarray, np.ndarray]:
    """The distinct edges (arcs) of a multigraph, (k, 2), with how often each occurs (k,):
    parallel edges are distinct edges, so a count is that of the matrix of multiplicities."""
    if not directed:
        edges = np.sort(edges, axis=1)
    if not edges.size:
        return edges, np.zeros(0, dtype=np.int64)
    distinct, counts = np.unique(edges, axis=0, return_counts=True)
    return np.ascontiguousarray(distinct), counts.astype(np.int64)


def _triplets(shape: Tuple[int, int], rows: np.ndarray, cols: np.ndarray,
              values: np.ndarray) -> Tuple[Any, ...]:
    """The arguments of _core's NAME_sparse_SUFFIX functions before their options: the matrix
    with entries values[k] at (rows[k], cols[k])."""
    return (shape[0], shape[1], np.ascontiguousarray(rows, dtype=np.int64),
            np.ascontiguousarray(cols, dtype=np.int64), np.ascontiguousarray(values))


def _matrix(a: Any, what: str) -> Tuple[str, Any]:
    """('dense', ndarray) or ('sparse', coo) with dtype int64, float64 or complex128."""
    if _is_sparse(a):
        if len(a.shape) != 2:
            raise DimensionMismatchError(
                f"{what}: expected a 2-dimensional matrix, got a sparse array of shape {a.shape}")
        coo = a.tocoo(copy=True)
        # Repeated entries add up: in the wide type, not the input's (two int8 100s are 200,
        # not -56), and in Python ints where they may pass int64.
        data = _entries(coo.data, what)
        if data.dtype == object or _sums_may_pass_int64(coo, data):
            return "sparse", _summed_coo(coo, data)
        coo.data = data
        with np.errstate(over="ignore"):  # floats summed to inf are refused below, in one line
            coo.sum_duplicates()
        return "sparse", coo
    if _is_networkx(a):
        raise TypeError(f"{what}: expected a matrix, got a networkx graph")
    try:
        # Nested lists as Python objects: NumPy would round an int beyond int64 to a float.
        array = np.asarray(a, dtype=object if isinstance(a, (list, tuple)) else None)
    except ValueError as e:  # an array-like NumPy cannot read as one array
        raise DimensionMismatchError(f"{what}: not a matrix ({str(e).splitlines()[0]})") from None
    if array.dtype == object and array.ndim == 1 and \
            any(isinstance(x, (list, tuple, np.ndarray)) for x in array):
        raise DimensionMismatchError(f"{what}: the rows of the matrix differ in length")
    if array.dtype == object and array.ndim == 0:
        raise TypeError(f"{what}: expected a matrix (NumPy array, SciPy sparse matrix or nested "
                        f"lists), got {type(a).__name__}")
    if array.ndim != 2:
        raise DimensionMismatchError(
            f"{what}: expected a 2-dimensional matrix, got shape {array.shape}")
    return "dense", np.ascontiguousarray(_entries(array, what))


_INT64_MAX = 2**63 - 1


def _sums_may_pass_int64(coo: Any, data: np.ndarray) -> bool:
    """True when repeated int64 entries of a COO matrix may add up beyond int64 (their sums in
    doubles reach 2^62: an int64 sum would wrap around silently)."""
    if data.dtype != np.int64 or not coo.nnz:
        return False
    key = coo.row.astype(np.int64) * coo.shape[1] + coo.col
    distinct, position = np.unique(key, return_inverse=True)
    if len(distinct) == coo.nnz:
        return False
    sums = np.zeros(len(distinct))
    np.add.at(sums, position, data.astype(np.float64))
    return bool(np.any(np.abs(sums) >= 2.0**62))


@dataclass
class _BigCoo:
    """A COO matrix of Python ints, some beyond int64 (SciPy takes no object data)."""

    shape: Tuple[int, int]
    row: np.ndarray
    col: np.ndarray
    data: np.ndarray  # object: Python ints

    @property
    def nnz(self) -> int:
        return len(self.data)

    def copy(self) -> "_BigCoo":
        return _BigCoo(self.shape, self.row.copy(), self.col.copy(), self.data.copy())


def _summed_coo(coo: Any, data: np.ndarray) -> Any:
    """The entries of `coo` with the integer values `data`, repeated ones summed exactly in Python
    ints: a SciPy int64 COO matrix when every sum fits in int64, else a _BigCoo."""
    import scipy.sparse as sp

    sums: Dict[Tuple[int, int], int] = {}
    for i, j, x in zip(coo.row.tolist(), coo.col.tolist(), data.tolist()):
        sums[(i, j)] = sums.get((i, j), 0) + int(x)
    positions = sorted(sums)
    rows = np.array([i for i, _ in positions], dtype=np.int64)
    cols = np.array([j for _, j in positions], dtype=np.int64)
    values = [sums[k] for k in positions]
    if all(-_INT64_MAX - 1 <= v <= _INT64_MAX for v in values):
        return sp.coo_array((np.array(values, dtype=np.int64), (rows, cols)), shape=coo.shape)
    big = np.empty(len(values), dtype=object)
    big[:] = values
    return _BigCoo(tuple(coo.shape), rows, cols, big)


def _entries(values: np.ndarray, what: str) -> np.ndarray:
    """The entries as int64 (bool, integers), float64 (floats) or complex128 (complex), the kinds
    the C++ library takes, or, when an integer is beyond int64, an object array of Python ints
    (counted exactly by _big_integer_call); any other kind of entry is a TypeError."""
    dtype = values.dtype
    if dtype == object:
        return _object_entries(values, what)
    if dtype == np.bool_ or np.issubdtype(dtype, np.signedinteger):
        return values.astype(np.int64, copy=False)
    if np.issubdtype(dtype, np.unsignedinteger):
        if values.size and dtype.itemsize >= 8 and values.max() > _INT64_MAX:
            return _python_ints(values)
        return values.astype(np.int64, copy=False)
    if np.issubdtype(dtype, np.floating):
        return values.astype(np.float64, copy=False)
    if np.issubdtype(dtype, np.complexfloating):
        return values.astype(np.complex128, copy=False)
    raise TypeError(f"{what}: entries of type {dtype} are not numbers pmcount takes "
                    "(bool, integer, float or complex)")


def _object_entries(values: np.ndarray, what: str) -> np.ndarray:
    """Entries held as Python objects (nested lists with ints beyond int64, Fractions, mixed
    kinds): integers stay exact, other real numbers become floats, complex numbers complex."""
    flat = values.ravel()
    if all(isinstance(x, (numbers.Integral, np.bool_)) for x in flat):
        if all(-_INT64_MAX - 1 <= int(x) <= _INT64_MAX for x in flat):
            return np.array([int(x) for x in flat], dtype=np.int64).reshape(values.shape)
        return _python_ints(values)
    for kind, dtype in ((numbers.Real, np.float64), (numbers.Complex, np.complex128)):
        if all(isinstance(x, kind) for x in flat):
            try:
                return np.array([dtype(x) for x in flat], dtype=dtype).reshape(values.shape)
            except OverflowError:  # an int beyond a double
                raise InvalidArgumentError(
                    f"{what}: an integer entry does not fit in a double") from None
    odd = next(x for x in flat if not isinstance(x, numbers.Complex))
    raise TypeError(f"{what}: entries such as {_arguments.show(odd)} ({type(odd).__name__}) are "
                    "not numbers pmcount takes (bool, integer, float or complex)")


def _python_ints(values: np.ndarray) -> np.ndarray:
    """The integer entries as an object array of Python ints (some are beyond int64)."""
    out = np.empty(values.shape, dtype=object)
    out.ravel()[:] = [int(x) for x in values.ravel()]
    return out


def _is_big(kind: str, m: Any) -> bool:
    """True for a matrix of Python ints beyond int64 (an object array, or sparse data of one)."""
    return (m.data if kind == "sparse" else m).dtype == object


def _as_floats(kind: str, m: Any, what: str) -> Any:
    """A matrix of big Python ints as float64 (for floating precisions and the estimators)."""
    values = m.data if kind == "sparse" else m
    try:
        floats = np.array([float(x) for x in values.ravel()]).reshape(values.shape)
    except OverflowError:  # an int beyond a double
        raise InvalidArgumentError(f"{what}: an integer entry does not fit in a double") from None
    if kind == "dense":
        return floats
    out = m.copy()
    out.data = floats
    return out


def _suffix(dtype: np.dtype) -> str:
    return {np.dtype(np.int64): "int", np.dtype(np.float64): "float",
            np.dtype(np.complex128): "complex"}[np.dtype(dtype)]


def _check_finite(kind: str, m: Any, what: str) -> None:
    values = m.data if kind == "sparse" else m
    if values.dtype not in (np.int64, object) and not np.all(np.isfinite(values)):
        raise InvalidArgumentError(f"{what}: the matrix has NaN or infinite entries")


def _binary_edges(kind: str, m: Any, what: str) -> np.ndarray:
    """Edges (row, column) of a 0-1 matrix (of any dtype: networkx and SciPy often hand out
    floats); any value other than 0 and 1 is an error."""
    if kind == "sparse":
        values, rows, cols = m.data, m.row, m.col
    else:
        rows, cols = np.nonzero(m)
        values = m[rows, cols]
    bad = values[(values != 0) & (values != 1)]
    if bad.size:
        first = bad.flat[0]  # a NumPy scalar, or a Python int beyond int64
        raise InvalidArgumentError(
            f"{what}: a (bi)adjacency matrix has 0-1 entries, found "
            f"{first.item() if isinstance(first, np.generic) else first!r}; use "
            "pmcount.permanent or pmcount.hafnian for weighted matrices")
    keep = values == 1
    return np.ascontiguousarray(
        np.stack([np.asarray(rows)[keep], np.asarray(cols)[keep]], axis=1).astype(np.int64))


def _is_binary(kind: str, m: Any) -> bool:
    values = m.data if kind == "sparse" else m
    return bool(np.all((values == 0) | (values == 1)))




# A matrix with repeated rows and columns is built before it is counted: a few multiplicities
# can ask for any size, so the stored entries (every one for a dense A, the nonzeros for a
# sparse one) are bounded at 2^27 (1 GiB of doubles, copied once more by the C++ side).
_MAX_REPEATED_ENTRIES = 2**27


def _counts(spec: Any, size: int, where: str, what: str) -> List[int]:
    """`size` multiplicities, each an integer in [0, 2^31 − 1] (None: all 1)."""
    if spec is None:
        return [1] * size
    values = list(spec) if not isinstance(spec, (str, bytes)) and hasattr(spec, "__iter__") \
        else None
    if values is None or len(values) != size:
        one = "mode" if what == "rpt" else what[:-1]
        raise InvalidArgumentError(
            f"{where}: {what} must be {size} integers (one per {one}) in "
            f"[0, {_arguments.bound(_arguments.INT32_MAX)}], got {_arguments.show(spec)}")
    return [_arguments.integer(x, where, f"each of {what}", 0, _arguments.INT32_MAX)
            for x in values]


def _repeated(kind: str, m: Any, rows: Any, cols: Any) -> Tuple[str, Any]:
    """A with row i repeated rows[i] times and column j repeated cols[j] times."""
    r = np.array(_counts(rows, m.shape[0], "permanent", "rows"), dtype=np.int64)
    c = np.array(_counts(cols, m.shape[1], "permanent", "cols"), dtype=np.int64)
    shape = (int(r.sum()), int(c.sum()))  # each below 2^31, so no sum overflows
    if kind == "sparse":
        stored = float(np.sum(r[m.row].astype(np.float64) * c[m.col]))
    else:
        stored = float(shape[0]) * float(shape[1])
    if max(shape) > _arguments.INT32_MAX or stored > _MAX_REPEATED_ENTRIES:
        raise InvalidArgumentError(
            f"permanent: rows and cols repeat the matrix into a {shape[0]}×{shape[1]} one with "
            f"{stored:.3g} stored entries; at most {_arguments.bound(_MAX_REPEATED_ENTRIES)} "
            "entries and 2^31 - 1 rows and columns are taken")
    if kind == "dense":
        return kind, np.ascontiguousarray(np.repeat(np.repeat(m, r, axis=0), c, axis=1))
    # Sparse: select the repeated rows and columns with 0-1 matrices, R·A·Cᵀ.
    import scipy.sparse as sp

    def repeat(a: Any) -> Any:
        def selection(k: np.ndarray) -> Any:
            total = int(k.sum())
            return sp.csr_array((np.ones(total, dtype=a.dtype),
                                 (np.arange(total), np.repeat(np.arange(len(k)), k))),
                                shape=(total, len(k)))

        out = (selection(r) @ sp.csr_array(a) @ selection(c).T).tocoo()
        out.sum_duplicates()
        return out

    if isinstance(m, _BigCoo):
        # SciPy takes no Python ints: repeat the entries' numbers (each output entry is a copy of
        # one input entry), then put their values back.
        numbers = repeat(sp.coo_array((np.arange(1, m.nnz + 1), (m.row, m.col)), shape=m.shape))
        return kind, _BigCoo(numbers.shape, numbers.row, numbers.col, m.data[numbers.data - 1])
    return kind, repeat(m)


def _rotation(graph: Any, nodes: List[Any], embedding: Any, where: str) -> List[List[int]]:
    """The embedding (node → its neighbours in cyclic order) as index lists in node order,
    checked against the graph: each node with an edge lists every neighbour once."""
    if not isinstance(embedding, Mapping):
        raise TypeError(f"{where}: embedding must map each node to its neighbours in cyclic "
                        f"order (a dict), got {type(embedding).__name__}")
    index = {node: i for i, node in enumerate(nodes)}
    for node in embedding:
        if node not in index:
            raise InvalidInputError(f"{where}: the embedding names node "
                                    f"{_arguments.show(node)}, which is not in the graph")
    rotation = []
    for node in nodes:
        around = list(embedding.get(node, ()))
        neighbours = set(graph.adj[node])
        for other in around:
            if other not in neighbours:
                raise InvalidInputError(
                    f"{where}: the embedding lists {_arguments.show(other)} around node "
                    f"{_arguments.show(node)}, but the graph has no such edge")
        if len(set(around)) != len(around) or len(around) != len(neighbours):
            raise InvalidInputError(
                f"{where}: the embedding must list each of node {_arguments.show(node)}'s "
                f"{len(neighbours)} neighbours once, got {len(around)} entries")
        rotation.append([index[other] for other in around])
    return rotation
