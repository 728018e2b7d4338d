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

import dataclasses
import math
import numbers
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple, Union

import numpy as np

from . import _arguments, _core
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

__version__ = _core.version()

__all__ = [
    "count_perfect_matchings",
    "count_cycle_covers",
    "permanent",
    "hafnian",
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

Progress = Union[bool, Callable[[float, float], Any], None]


# ---- results ------------------------------------------------------------------------------------


class FloatResult(float):
    """A float with its error bound: ``abs(result - true) <= result.error``.

    ``rel_error`` is the same bound relative to the value; ``details`` is the full
    :class:`Result`.
    """

    error: float
    rel_error: float
    details: "Result"

    def __new__(cls, value: float, details: "Result") -> "FloatResult":
        obj = super().__new__(cls, value)
        obj.error = details.error
        obj.rel_error = details.rel_error
        obj.details = details
        return obj


class ComplexResult(complex):
    """A complex number with its error bound (``error`` bounds ``abs(result - true)``)."""

    error: float
    rel_error: float
    details: "Result"

    def __new__(cls, value: complex, details: "Result") -> "ComplexResult":
        obj = super().__new__(cls, value.real, value.imag)
        obj.error = details.error
        obj.rel_error = details.rel_error
        obj.details = details
        return obj


@dataclass
class Result:
    """Everything one count reports (what ``full=True`` returns).

    value: the exact ``int`` when ``exact`` is true, else a float or complex.
    error, rel_error: bounds on |value − true| (0 for exact results); error_kind says what
    they are: "none" (exact), "estimate" (double, dd) or "bound" (precision="certified":
    value ± error provably holds the exact permanent).
    escalated_from: "double" when the default precision found the double result's digits lost
    to cancellation and counted again (certified, else double-double; the note says so), else "".
    log10_abs: log10 |value| (useful when a floating value overflows a double).
    method, backend, arithmetic, device, note: what ran and why.
    timings, stats, structure: the C++ library's CountResult fields, as dicts keyed by the C++
    names (pmcount._core.Timings, CountStats, StructureReport; the structure's leaves as dicts of
    BlockReport), the structure's and each leaf's ``predicted_s`` also as ``predicted_seconds``
    and its ``plan_text`` as ``plan``, their names before pmcount 0.2.
    """

    value: Union[int, float, complex]
    exact: bool
    error: float
    rel_error: float
    log10_abs: float
    kind: str
    error_kind: str
    escalated_from: str
    method: str
    backend: str
    arithmetic: str
    device: str
    note: str
    explained_only: bool
    timings: Dict[str, float] = field(default_factory=dict)
    stats: Dict[str, Any] = field(default_factory=dict)
    structure: Dict[str, Any] = field(default_factory=dict)

    @staticmethod
    def _from(r: _core.CountResult) -> "Result":
        if r.is_exact:
            value: Union[int, float, complex] = r.exact
        elif r.kind == "complex":
            value = complex(r.complex_value)
        else:
            value = float(r.value)
        return Result(
            value=value,
            exact=r.is_exact,
            error=r.abs_error,
            rel_error=r.rel_error,
            log10_abs=r.log10_abs,
            kind=r.kind,
            error_kind=r.error_kind,
            escalated_from=r.escalated_from,
            method=r.method,
            backend=r.backend,
            arithmetic=r.arithmetic,
            device=r.device,
            note=r.note,
            explained_only=r.explained_only,
            timings=_fields(r.timings),
            stats=_fields(r.stats),
            structure=_structure(r.structure),
        )

    def _public(self, full: bool) -> Any:
        if full:
            return self
        if isinstance(self.value, int):
            return self.value
        if isinstance(self.value, complex):
            return ComplexResult(self.value, self)
        return FloatResult(self.value, self)


def _fields(struct: Any) -> Dict[str, Any]:
    """The fields of a pmcount._core struct as a dict by their C++ names (its properties, in the
    order the binding declares them), nested structs and lists of them as dicts too."""
    def plain(value: Any) -> Any:
        if isinstance(value, list):
            return [plain(item) for item in value]
        return _fields(value) if type(value).__module__ == _core.__name__ else value

    return {name: plain(getattr(struct, name)) for name, attribute in vars(type(struct)).items()
            if isinstance(attribute, property)}


# StructureReport's and BlockReport's fields by their names in pmcount 0.1's dicts.
_OLD_STRUCTURE_KEYS = {"predicted_s": "predicted_seconds", "plan_text": "plan"}


def _structure(report: _core.StructureReport) -> Dict[str, Any]:
    """Result.structure: the report's fields, and under their old names too."""
    def with_old_keys(d: Dict[str, Any]) -> Dict[str, Any]:
        d.update({old: d[name] for name, old in _OLD_STRUCTURE_KEYS.items() if name in d})
        return d

    d = with_old_keys(_fields(report))
    d["leaves"] = [with_old_keys(leaf) for leaf in d["leaves"]]
    return d


@dataclass
class Estimate:
    """An estimate with its confidence interval (all of the C++ EstimateResult in ``raw``, a dict
    by the C++ names).

    value: the estimate (a float; ``inf`` when it overflows a double: use ``log10``).
    ci: (low, high) at ``confidence`` (default 95%); ``log10_ci`` the same in log10.
    rel_std_error: the estimated relative standard error; samples: samples drawn.
    """

    value: float
    log10: float
    ci: Tuple[float, float]
    log10_ci: Tuple[float, float]
    confidence: float
    rel_std_error: float
    samples: int
    seconds: float
    note: str
    raw: Dict[str, Any] = field(default_factory=dict)

# ---- helpers ------------------------------------------------------------------------------------


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


def _count_options(
    where: str,
    *,
    method: Any = "auto",
    precision: Any = "auto",
    backend: Any = "auto",
    threads: Any = 0,
    gpus: Any = None,
    gpu_kernels: Any = "auto",
    dulmage_mendelsohn: Any = True,
    reductions: Any = True,
    general: Any = False,
    explain_only: bool = False,
    max_predicted_seconds: Any = None,
    structure: Any = _arguments.NOT_GIVEN,
    max_time: Any = _arguments.NOT_GIVEN,
) -> _core.CountOptions:
    """The options of a count, each checked (pmcount._arguments) and named after `where`;
    `structure` and `max_time` are the deprecated names of `dulmage_mendelsohn` and
    `max_predicted_seconds`."""
    o = _core.CountOptions()
    o.method = _arguments.choice(method, where, "method")
    o.precision = _arguments.choice(precision, where, "precision")
    o.backend = _arguments.choice(backend, where, "backend")
    o.threads = _arguments.threads(threads, where)
    o.gpus = _arguments.devices(gpus, where)
    o.gpu_kernels = _arguments.choice(gpu_kernels, where, "gpu_kernels")
    name, value = _arguments.renamed(where, "structure", structure, "dulmage_mendelsohn",
                                     dulmage_mendelsohn, True)
    o.dulmage_mendelsohn = _arguments.flag(value, where, name)
    o.reductions = _arguments.flag(reductions, where, "reductions")
    o.general = _arguments.flag(general, where, "general")
    o.explain_only = explain_only
    name, value = _arguments.renamed(where, "max_time", max_time, "max_predicted_seconds",
                                     max_predicted_seconds, None)
    limit = _arguments.limit(value, where, name, "seconds")
    o.max_predicted_seconds = limit if limit > 0 else math.inf
    o.progress_interval_s = 0.1
    return o


def _run(call: Callable[..., _core.CountResult], args: Tuple[Any, ...],
         options: _core.CountOptions, progress: Progress) -> Result:
    callback, close = _progress_callback(progress)
    try:
        return Result._from(call(*args, options, callback))
    finally:
        close()


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


def _sparse_call(name: str, shape: Tuple[int, int], rows: np.ndarray, cols: np.ndarray,
                 values: np.ndarray, options: _core.CountOptions, progress: Progress) -> Result:
    """permanent / hafnian of the matrix with entries values[k] at (rows[k], cols[k])."""
    call = getattr(_core, f"{name}_sparse_{_suffix(values.dtype)}")
    return _run(call, _triplets(shape, rows, cols, values), options, progress)


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


def _is_prime(n: int) -> bool:
    """Deterministic Miller–Rabin below 2^32 (bases 2, 7, 61 suffice: Jaeschke 1993)."""
    if n < 2:
        return False
    for p in (2, 7, 61):
        if n % p == 0:
            return n == p
    d, r = n - 1, 0
    while d % 2 == 0:
        d, r = d // 2, r + 1
    for a in (2, 7, 61):
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(r - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


def _primes_below(limit: int) -> Iterable[int]:
    """Primes below `limit`, largest first."""
    candidate = limit - 1 if limit % 2 == 0 else limit - 2
    while candidate > 2:
        if _is_prime(candidate):
            yield candidate
        candidate -= 2


# The moduli of _big_integer_call: below 2^31, so that a reduced entry (in (-p/2, p/2)) needs 30
# bits and every count modulo p is an exact int64 count of small entries.
_BIG_MODULUS_LIMIT = 2**31


def _big_bound(name: str, kind: str, m: Any) -> int:
    """A proven bound on |perm(A)| or |haf(A)| for Python-int entries. perm: the product of the
    row 1-norms (each permutation's term is one of their expansion's terms; columns when there
    are more rows, and the smaller product for a square matrix). haf: haf(|A|)² ≤ perm(|A|) for
    a symmetric nonnegative matrix (two perfect matchings make a cycle cover of the same weight,
    one to one), so the square root of that product, the diagonal left out (haf does not use
    it)."""
    rows, cols = m.shape
    row_norms, col_norms = [0] * rows, [0] * cols
    if kind == "sparse":
        triples = zip(m.row.tolist(), m.col.tolist(), m.data.tolist())
    else:
        triples = ((i, j, m[i, j]) for i, j in zip(*np.nonzero(m)))
    for i, j, x in triples:
        if name == "hafnian" and i == j:
            continue
        row_norms[i] += abs(int(x))
        col_norms[j] += abs(int(x))
    by_rows, by_cols = math.prod(row_norms), math.prod(col_norms)
    bound = min(by_rows, by_cols) if rows == cols else (by_rows if rows < cols else by_cols)
    return math.isqrt(bound) + 1 if name == "hafnian" else bound


def _reduced(kind: str, m: Any, p: int) -> Any:
    """The matrix of Python ints with each entry reduced to (-p/2, p/2], as int64."""
    values = m.data if kind == "sparse" else m
    r = np.array([((int(x) + p // 2) % p) - p // 2 for x in values.ravel()],
                 dtype=np.int64).reshape(values.shape)
    if kind == "dense":
        return r
    out = m.copy()
    out.data = r
    return out


def _big_integer_call(name: str, kind: str, m: Any, options: _core.CountOptions,
                      progress: Progress) -> Result:
    """perm(A) or haf(A) of a matrix with Python ints beyond int64, exactly: both are integer
    polynomials in the entries, so the count of A reduced modulo a prime p (an exact int64 count)
    is the answer modulo p. Enough primes below 2^31 for twice the bound (_big_bound), and one
    spare that must agree, rebuild it by the Chinese remainder theorem. Each prime costs one
    exact count of the reduced matrix (entries of 30 bits). A floating precision counts the
    entries as doubles instead, as asked."""
    if options.precision not in ("auto", "exact"):
        return _matrix_call(name, kind, _as_floats(kind, m, name), options, progress)
    if options.explain_only:
        return _matrix_call(name, kind, _reduced(kind, m, next(_primes_below(
            _BIG_MODULUS_LIMIT))), options, progress)
    exact = _core.CountOptions(options)
    exact.precision = "exact"
    needed = 2 * _big_bound(name, kind, m) + 1  # the product of the moduli must exceed this
    value, modulus, primes, last = 0, 1, 0, None
    for p in _primes_below(_BIG_MODULUS_LIMIT):
        last = _matrix_call(name, kind, _reduced(kind, m, p), exact, progress)
        residue = last.value % p
        primes += 1
        if modulus >= needed:
            if value > modulus // 2:  # the symmetric range holds the signed answer
                value -= modulus
            if value % p != residue:
                raise InternalError(f"{name}: the spare prime {p} disagrees with the Chinese "
                                    "remainder of the others (a bug or a hardware fault)")
            break
        # value ≡ residue (mod p), value unchanged modulo the primes before.
        value += modulus * ((residue - value) * pow(modulus, -1, p) % p)
        modulus *= p
    note = (f"entries beyond int64: counted modulo {primes} primes below 2^31 (the last a "
            "check), each an exact count of the reduced matrix, rebuilt by CRT")
    return dataclasses.replace(
        last, value=value, log10_abs=_log10_abs(value),
        arithmetic=f"modular ({primes} primes of 31 bits, each counted exactly) + CRT",
        note=f"{last.note}; {note}" if last.note else note)


def _log10_abs(value: int) -> float:
    return math.log10(abs(value)) if value else -math.inf


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


def _matrix_call(name: str, kind: str, m: Any, options: _core.CountOptions,
                 progress: Progress) -> Result:
    if _is_big(kind, m):
        return _big_integer_call(name, kind, m, options, progress)
    if kind == "sparse":
        return _sparse_call(name, m.shape, m.row, m.col, m.data, options, progress)
    return _run(getattr(_core, f"{name}_dense_{_suffix(m.dtype)}"), (m,), options, progress)


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


def _graph_result(graph: Any, where: str, options: _core.CountOptions, progress: Progress,
                  embedding: Any = None) -> Result:
    """Perfect matchings of a networkx graph, or of the bipartite graph of a 0-1 matrix."""
    if embedding is not None and not _is_networkx(graph):
        raise TypeError(f"{where}: an embedding names the nodes of a networkx graph")
    if _is_networkx(graph):
        if graph.is_directed():
            raise TypeError(f"{where} takes an undirected graph; for a directed one use "
                            "pmcount.count_cycle_covers")
        nodes, edges = _indexed_edges(graph)
        _reject_self_loops(nodes, edges, where)
        if embedding is not None:
            if graph.is_multigraph():
                raise TypeError(f"{where}: an embedding draws a simple graph, not a MultiGraph")
            return _run(_core.count_embedded,
                        (len(nodes), edges, _rotation(graph, nodes, embedding, where)), options,
                        progress)
        if graph.is_multigraph():
            distinct, counts = _multiplicities(edges, directed=False)
            if np.any(counts > 1):
                # The hafnian of the symmetric matrix of multiplicities, kept sparse.
                return _sparse_call(
                    "hafnian", (len(nodes), len(nodes)),
                    np.concatenate([distinct[:, 0], distinct[:, 1]]),
                    np.concatenate([distinct[:, 1], distinct[:, 0]]),
                    np.concatenate([counts, counts]), options, progress)
            edges = distinct
        return _run(_core.count_general, (len(nodes), edges), options, progress)
    kind, m = _matrix(graph, where)
    return _bipartite_result(kind, m, where, options, progress)


def _bipartite_result(kind: str, m: Any, where: str, options: _core.CountOptions,
                      progress: Progress) -> Result:
    """Perfect matchings of the bipartite graph of a 0-1 matrix."""
    edges = _binary_edges(kind, m, where)
    return _run(_core.count_bipartite, (m.shape[0], m.shape[1], edges), options, progress)


# ---- counting -----------------------------------------------------------------------------------


def count_perfect_matchings(
    G: Any,
    *,
    method: str = "auto",
    backend: str = "auto",
    threads: int = 0,
    gpus: Optional[Sequence[int]] = None,
    gpu_kernels: str = "auto",
    general: bool = False,
    dulmage_mendelsohn: bool = True,
    reductions: bool = True,
    max_predicted_seconds: Optional[float] = None,
    progress: Progress = False,
    full: bool = False,
    embedding: Optional[Mapping] = None,
    structure: Any = _arguments.NOT_GIVEN,
    max_time: Any = _arguments.NOT_GIVEN,
) -> Union[int, Result]:
    """The exact number of perfect matchings of ``G``, as a Python ``int``.

    G: a networkx ``Graph`` or ``MultiGraph`` (or a subclass or view of one; any node labels;
    bipartite or not), or the 0-1 biadjacency matrix of a bipartite graph (SciPy sparse, NumPy
    array or nested lists; rows one side, columns the other, not necessarily square). Parallel
    edges of a MultiGraph are distinct edges: their multiplicities are summed and the count is
    the hafnian of the matrix of multiplicities, built sparse. Edge attributes (weights) are not
    read; for a weighted sum use :func:`hafnian` of ``networkx.to_scipy_sparse_array(G)``. A
    self-loop raises InvalidInputError.

    method: "auto", "ryser", "sparyser", "skipper", "planar", "frontier", "hafnian",
    "brute-force". backend: "auto", "cpu", "cuda". threads: CPU threads, 0 to 4096 (0: all
    cores). gpus: GPU indices, each 0 to 1023 (default: all). gpu_kernels: how the sparse GPU
    engines get the matrix: "auto", "tables" (one kernel per order) or "generated" (a kernel
    compiled for this matrix; docs/gpu.md).
    general: count through the general-graph path even when G is bipartite (for checking).
    dulmage_mendelsohn, reductions: the structure front end's split (Dulmage–Mendelsohn blocks;
    for a general graph the matching, component and block split) and its reductions (switch off
    only to measure them).
    max_predicted_seconds: raise ProblemTooLargeError instead of starting a count predicted to
    take longer than this many seconds (None, 0 or inf: no limit, as the CLI's
    ``--max-predicted-seconds 0``).
    progress: True for a progress bar, or a callable(fraction, elapsed_seconds).
    full: return the :class:`Result` (method, timings, structure) instead of the int.
    embedding: G's drawing on a surface, for a networkx ``Graph``: a dict from each node with an
    edge to its neighbours in the cyclic order in which their edges leave it (every node turning
    the same way), such as :func:`torus_embedding` gives for :func:`torus`. A graph of genus ≤ 1
    (the torus) is then also countable as four Pfaffians in polynomial time (method
    "pfaffian-surface"); a drawing that does not fit G raises InvalidInputError, one of higher
    genus InvalidArgumentError.
    structure, max_time: the names of dulmage_mendelsohn and max_predicted_seconds before
    pmcount 0.2, deprecated (DeprecationWarning); they still work.
    An argument out of its range raises InvalidArgumentError (a ValueError) naming the range; one
    of the wrong type, TypeError.

    >>> import networkx as nx
    >>> count_perfect_matchings(torus(16, 16), embedding=torus_embedding(16, 16))
    630665326543010382995142219988992
    >>> count_perfect_matchings(nx.complete_graph(6))   # 5!! = 15
    15
    >>> count_perfect_matchings(nx.cycle_graph(7))      # odd: none
    0
    >>> count_perfect_matchings([[1, 1], [1, 1]])       # K_{2,2} as a biadjacency matrix
    2
    >>> count_perfect_matchings(nx.MultiGraph([(0, 1), (0, 1), (1, 2), (2, 3), (3, 0)]))
    3
    """
    where = "count_perfect_matchings"
    options = _count_options(
        where, method=method, precision="exact", backend=backend, threads=threads, gpus=gpus,
        gpu_kernels=gpu_kernels, dulmage_mendelsohn=dulmage_mendelsohn, reductions=reductions,
        general=general, max_predicted_seconds=max_predicted_seconds, structure=structure,
        max_time=max_time)
    full = _arguments.flag(full, where, "full")
    progress = _arguments.progress(progress, where)
    return _graph_result(G, where, options, progress, embedding)._public(full)


def count_cycle_covers(
    D: Any,
    *,
    method: str = "auto",
    backend: str = "auto",
    threads: int = 0,
    gpus: Optional[Sequence[int]] = None,
    gpu_kernels: str = "auto",
    dulmage_mendelsohn: bool = True,
    reductions: bool = True,
    max_predicted_seconds: Optional[float] = None,
    progress: Progress = False,
    full: bool = False,
    structure: Any = _arguments.NOT_GIVEN,
    max_time: Any = _arguments.NOT_GIVEN,
) -> Union[int, Result]:
    """The exact number of cycle covers of a directed graph, as a Python ``int``.

    D: a networkx ``DiGraph`` or ``MultiDiGraph`` (or a subclass or view of one; a self-loop is
    a fixed point; parallel arcs are distinct arcs, their multiplicities summed, as for
    :func:`count_perfect_matchings`; an undirected graph counts as the digraph with both arcs of
    each edge), or the square 0-1 adjacency matrix (row u, column v ⇔ arc u → v). This is the
    permanent of the adjacency matrix (of multiplicities). Options as for
    :func:`count_perfect_matchings`.

    >>> import networkx as nx
    >>> count_cycle_covers(nx.complete_graph(4).to_directed())   # derangements of 4
    9
    """
    where = "count_cycle_covers"
    options = _count_options(
        where, method=method, precision="exact", backend=backend, threads=threads, gpus=gpus,
        gpu_kernels=gpu_kernels, dulmage_mendelsohn=dulmage_mendelsohn, reductions=reductions,
        max_predicted_seconds=max_predicted_seconds, structure=structure, max_time=max_time)
    full = _arguments.flag(full, where, "full")
    progress = _arguments.progress(progress, where)
    if _is_networkx(D):
        nodes, arcs = _indexed_edges(D)
        n = len(nodes)
        if not D.is_directed():
            # Both arcs of each edge; a self-loop is one arc, a fixed point (as D.to_directed()
            # has it, without copying the graph and its attributes).
            arcs = np.concatenate([arcs, arcs[arcs[:, 0] != arcs[:, 1]][:, ::-1]])
        if D.is_multigraph():
            distinct, counts = _multiplicities(arcs, directed=True)
            if np.any(counts > 1):
                return _sparse_call("permanent", (n, n), distinct[:, 0], distinct[:, 1], counts,
                                    options, progress)._public(full)
            arcs = distinct
        return _run(_core.count_cycle_covers, (n, np.ascontiguousarray(arcs)), options,
                    progress)._public(full)
    kind, m = _matrix(D, where)
    if m.shape[0] != m.shape[1]:
        raise DimensionMismatchError(
            f"{where}: an adjacency matrix is square, got {m.shape[0]}×{m.shape[1]}")
    arcs = _binary_edges(kind, m, where)
    return _run(_core.count_cycle_covers, (m.shape[0], arcs), options, progress)._public(full)


# A matrix with repeated rows and columns is built before it is counted: a few multiplicities
# can ask for any size, so the stored entries (every one for a dense A, the nonzeros for a
# sparse one) are bounded at 2^27 (1 GiB of doubles, copied once more by the C++ side).
_MAX_REPEATED_ENTRIES = 2**27


def _repeated(kind: str, m: Any, rows: Any, cols: Any) -> Tuple[str, Any]:
    """A with row i repeated rows[i] times and column j repeated cols[j] times."""
    def counts(spec: Any, size: int, what: str) -> np.ndarray:
        if spec is None:
            return np.ones(size, dtype=np.int64)
        c = np.asarray(spec)
        if c.shape != (size,) or not (c.dtype == object or np.issubdtype(c.dtype, np.integer)):
            raise InvalidArgumentError(
                f"permanent: {what} must be {size} integers (one per {what[:-1]}) in "
                f"[0, {_arguments.bound(_arguments.INT32_MAX)}], got {_arguments.show(spec)}")
        return np.array([_arguments.integer(x, "permanent", f"each of {what}", 0,
                                            _arguments.INT32_MAX) for x in c], dtype=np.int64)

    r = counts(rows, m.shape[0], "rows")
    c = counts(cols, m.shape[1], "cols")
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


def permanent(
    A: Any,
    precision: str = "auto",
    method: str = "auto",
    backend: str = "auto",
    threads: int = 0,
    *,
    rows: Optional[Sequence[int]] = None,
    cols: Optional[Sequence[int]] = None,
    gpus: Optional[Sequence[int]] = None,
    gpu_kernels: str = "auto",
    dulmage_mendelsohn: bool = True,
    reductions: bool = True,
    max_predicted_seconds: Optional[float] = None,
    progress: Progress = False,
    full: bool = False,
    structure: Any = _arguments.NOT_GIVEN,
    max_time: Any = _arguments.NOT_GIVEN,
) -> Union[int, FloatResult, ComplexResult, Result]:
    """perm(A) = Σ over permutations σ of Π_i a_{i,σ(i)}.

    A: NumPy array (bool/int → exact ``int``; float → :class:`FloatResult`; complex →
    :class:`ComplexResult`, each a float/complex with ``.error``), SciPy sparse matrix or nested
    lists. 0×0 has permanent 1. An m×n matrix with m < n has the rectangular permanent, the sum
    over the injective maps σ of its rows into its columns of Π_i a_{i,σ(i)} (1 when m = 0);
    m > n: the permanent of the transpose. It is computed as the square permanent of A with
    its zero columns dropped and rows of ones appended, divided by the factorial of their number
    (the note in ``full=True`` says so): a permanent of order n or less.
    Integers of any size are counted exactly (beyond int64: modulo primes, rebuilt by CRT; about
    n times slower); NaN or inf entries raise InvalidArgumentError.
    precision: "auto" (exact for integers, double otherwise; the double result is counted again,
    certified or in double-double, when fewer than six digits were left), "exact",
    "double", "dd" (double-double), "plain-double" (GPU, uncompensated), "certified" (dense
    Ryser, CPU or GPU; ``.error`` is then a proven bound: value ± error holds the exact
    permanent). rows, cols: multiplicities, each 0 to 2^31 - 1 — row i repeated rows[i] times,
    column j cols[j] times (as photonics codes write repeated modes); the repeated matrix may
    store at most 2^27 entries. Other options as for :func:`count_perfect_matchings`.

    >>> import numpy as np
    >>> permanent(np.array([[1, 2], [3, 4]]))
    10
    >>> permanent(np.array([[1, 2], [3, 4]]), rows=[2, 0], cols=[1, 1])   # [[1, 2], [1, 2]]
    4
    >>> permanent([[1, 2, 3], [4, 5, 6]])   # 1·5 + 1·6 + 2·4 + 2·6 + 3·4 + 3·5
    58
    """
    where = "permanent"
    options = _count_options(
        where, method=method, precision=precision, backend=backend, threads=threads, gpus=gpus,
        gpu_kernels=gpu_kernels, dulmage_mendelsohn=dulmage_mendelsohn, reductions=reductions,
        max_predicted_seconds=max_predicted_seconds, structure=structure, max_time=max_time)
    full = _arguments.flag(full, where, "full")
    progress = _arguments.progress(progress, where)
    kind, m = _matrix(A, where)
    if rows is not None or cols is not None:
        kind, m = _repeated(kind, m, rows, cols)
    _check_finite(kind, m, where)
    return _matrix_call("permanent", kind, m, options, progress)._public(full)


def hafnian(
    A: Any,
    precision: str = "auto",
    method: str = "auto",
    backend: str = "auto",
    threads: int = 0,
    *,
    gpus: Optional[Sequence[int]] = None,
    dulmage_mendelsohn: bool = True,
    reductions: bool = True,
    max_predicted_seconds: Optional[float] = None,
    progress: Progress = False,
    full: bool = False,
    structure: Any = _arguments.NOT_GIVEN,
    max_time: Any = _arguments.NOT_GIVEN,
) -> Union[int, FloatResult, ComplexResult, Result]:
    """haf(A) = Σ over the perfect matchings M of the complete graph of Π_{uv ∈ M} a_uv, for a
    symmetric matrix (the diagonal is not used): the weighted number of perfect matchings of the
    graph of A. Types, results and options as for :func:`permanent`; an asymmetric matrix raises
    InvalidArgumentError naming the first entry that differs from its mirror.

    >>> import numpy as np
    >>> hafnian(np.ones((6, 6), dtype=int))   # 5!! = 15
    15
    """
    where = "hafnian"
    options = _count_options(
        where, method=method, precision=precision, backend=backend, threads=threads, gpus=gpus,
        dulmage_mendelsohn=dulmage_mendelsohn, reductions=reductions,
        max_predicted_seconds=max_predicted_seconds, structure=structure, max_time=max_time)
    full = _arguments.flag(full, where, "full")
    progress = _arguments.progress(progress, where)
    kind, m = _matrix(A, where)
    _check_finite(kind, m, where)
    return _matrix_call("hafnian", kind, m, options, progress)._public(full)


_EXPLAIN_OPTIONS = ("method", "precision", "backend", "threads", "gpus", "gpu_kernels",
                    "dulmage_mendelsohn", "reductions", "general", "max_predicted_seconds")


def explain(G: Any, *, hafnian: bool = False, progress: Progress = False,
            **options: Any) -> Dict[str, Any]:
    """The plan pmcount would run for ``G``, without counting: a dict with the structure front
    end's findings (``structure``), the leaves with their engines and predicted seconds, the plan
    as text (``structure["plan"]``) and the predicted total (``predicted_seconds``).

    G: anything :func:`count_perfect_matchings` takes, or a matrix (its permanent; with
    ``hafnian=True`` its hafnian). Options (method, precision, backend, threads, gpus,
    gpu_kernels, dulmage_mendelsohn, reductions, general, max_predicted_seconds; the deprecated
    structure and max_time) as for :func:`permanent`.
    """
    where = "explain"
    for name in options:
        if name not in _EXPLAIN_OPTIONS and name not in ("structure", "max_time"):
            raise TypeError(f"explain() got an unexpected keyword argument {name!r} (it takes "
                            f"{', '.join(_EXPLAIN_OPTIONS)})")
    opts = _count_options(where, explain_only=True, **options)
    hafnian = _arguments.flag(hafnian, where, "hafnian")
    progress = _arguments.progress(progress, where)
    if _is_networkx(G):
        r = _graph_result(G, where, opts, progress)
    else:
        kind, m = _matrix(G, where)
        _check_finite(kind, m, where)
        if not hafnian and _is_binary(kind, m):
            r = _bipartite_result(kind, m, where, opts, progress)
        else:
            r = _matrix_call("hafnian" if hafnian else "permanent", kind, m, opts, progress)
    return {
        "method": r.method,
        "backend": r.backend,
        "predicted_seconds": r.structure.get("predicted_seconds", 0.0),
        "note": r.note,
        "structure": r.structure,
    }


def _is_binary(kind: str, m: Any) -> bool:
    values = m.data if kind == "sparse" else m
    return bool(np.all((values == 0) | (values == 1)))


# ---- estimating ---------------------------------------------------------------------------------


def estimate(
    G: Any,
    *,
    rel_error: Optional[float] = None,
    time: Optional[float] = None,
    samples: Optional[int] = None,
    seed: int = 1,
    confidence: float = 0.95,
    estimator: str = "scaling+",
    particles: int = 0,
    resample_every: int = 0,
    backend: str = "auto",
    threads: int = 0,
    gpus: Optional[Sequence[int]] = None,
    progress: Progress = False,
) -> Estimate:
    """An unbiased estimate of the number of perfect matchings of a bipartite graph (or of a
    nonnegative matrix's permanent), with a confidence interval.

    G: a bipartite networkx ``Graph`` or ``MultiGraph`` (or a subclass or view of one; parallel
    edges are distinct edges, as for :func:`count_perfect_matchings`), a 0-1 biadjacency
    matrix, or a nonnegative real matrix (NumPy, SciPy sparse, nested lists). A complex matrix
    raises InvalidArgumentError: the estimators draw each row's partner with probability
    proportional to its entry, which needs nonnegative real entries. A non-square weighted
    matrix raises DimensionMismatchError (its rectangular permanent, which :func:`permanent`
    computes exactly, is not 0); a non-square 0-1 one has no perfect matching: an exact 0.
    Stopping: rel_error (the confidence interval's relative half-width, ≥ 0), time (seconds,
    ≥ 0), samples (0 to 2^64 - 1); the first reached stops, and None or 0 leaves one out (none
    given: a 1% half-width or 120 s). seed: 0 to 2^64 - 1. confidence: in (0, 1). estimator:
    "rasmussen", "rasmussen+", "scaling", "scaling+". particles: 0 to 2^30; 0 chooses
    populations from the graph's order and the budget (about 8 particles per row, resampled
    every 16 steps), 1 draws independent samples, P > 1 populations of P resampled every
    ``resample_every`` steps (0 to 2^31 - 1; 0: 16; see docs/estimators.md). backend, threads,
    gpus, progress as for :func:`count_perfect_matchings`.

    >>> e = estimate(grid(8, 8), rel_error=0.05, seed=3)
    >>> e.ci[0] < 12988816 < e.ci[1]
    True
    """
    where = "estimate"
    opts = _core.EstimateOptions()
    opts.estimator = _arguments.choice(estimator, where, "estimator")
    opts.backend = _arguments.choice(backend, where, "backend")
    opts.threads = _arguments.threads(threads, where)
    opts.gpus = _arguments.devices(gpus, where)
    opts.samples = _arguments.count_or_none(samples, where, "samples", " (0 or None: no limit)")
    opts.time_s = _arguments.limit(time, where, "time", "seconds")
    opts.rel_error = 0.0 if rel_error is None else _arguments.real(
        rel_error, where, "rel_error", 0, math.inf, open_high=True,
        meaning=" (the interval's relative half-width; 0 or None: no target)")
    opts.confidence = _arguments.real(confidence, where, "confidence", 0, 1, open_low=True,
                                      open_high=True)
    opts.seed = _arguments.integer(seed, where, "seed", 0, _arguments.UINT64_MAX)
    opts.particles = _arguments.integer(particles, where, "particles", 0, 2**30,
                                        " (0: automatic, 1: independent samples)")
    opts.resample_every = _arguments.integer(resample_every, where, "resample_every", 0,
                                             _arguments.INT32_MAX, " (0: every 16 steps)")
    progress = _arguments.progress(progress, where)
    callback, close = _progress_callback(progress)
    try:
        r = _graph_estimate(G, opts, callback) if _is_networkx(G) else \
            _matrix_estimate(G, opts, callback)
    finally:
        close()
    return Estimate(
        value=r.value,
        log10=r.log10_value,
        ci=(_power10(r.log10_ci_low), _power10(r.log10_ci_high)),
        log10_ci=(r.log10_ci_low, r.log10_ci_high),
        confidence=r.confidence,
        rel_std_error=r.rel_std_error,
        samples=r.samples,
        seconds=r.seconds,
        note=r.note,
        raw=_fields(r),
    )


def _graph_estimate(G: Any, opts: _core.EstimateOptions,
                    callback: Any) -> _core.EstimateResult:
    """estimate() of a networkx graph: its sides found by pmcount, parallel edges summed."""
    if G.is_directed():
        raise TypeError("estimate takes an undirected bipartite graph; for the cycle covers of a "
                        "directed one, estimate the permanent of its adjacency matrix "
                        "(networkx.to_scipy_sparse_array)")
    nodes, edges = _indexed_edges(G)
    _reject_self_loops(nodes, edges, "estimate")
    counts = None
    if G.is_multigraph():
        edges, counts = _multiplicities(edges, directed=False)
    sides = _core.bipartition(len(nodes), edges)
    if sides is None:
        raise NotBipartiteError(
            "estimate: the graph has an odd cycle; the estimators count perfect "
            "matchings of bipartite graphs (use count_perfect_matchings for an exact "
            "count of any graph)")
    left, right = sides
    position = np.empty(len(nodes), dtype=np.int64)
    position[left] = np.arange(len(left))
    position[right] = np.arange(len(right))
    is_left = np.zeros(len(nodes), dtype=bool)
    is_left[left] = True
    lr = np.where(is_left[edges[:, 0]][:, None], edges, edges[:, ::-1])
    pairs = np.stack([position[lr[:, 0]], position[lr[:, 1]]], axis=1).astype(np.int64)
    if counts is not None and np.any(counts > 1):
        return _core.estimate_sparse_int(
            *_triplets((len(left), len(right)), pairs[:, 0], pairs[:, 1], counts), opts,
            callback)
    return _core.estimate_bipartite(len(left), len(right), np.ascontiguousarray(pairs), opts,
                                    callback)


def _matrix_estimate(G: Any, opts: _core.EstimateOptions,
                     callback: Any) -> _core.EstimateResult:
    """estimate() of a matrix: the bipartite graph of a 0-1 one, else the permanent, dense or
    sparse as given."""
    kind, m = _matrix(G, "estimate")
    if m.dtype == np.complex128:
        raise InvalidArgumentError(
            "estimate: the estimators need a nonnegative real matrix, not a complex one (they "
            "draw each row's partner with probability proportional to its entry)")
    _check_finite(kind, m, "estimate")
    if _is_big(kind, m):  # the estimators draw in floating point anyway
        m = _as_floats(kind, m, "estimate")
    if _is_binary(kind, m):
        edges = _binary_edges(kind, m, "estimate")
        return _core.estimate_bipartite(m.shape[0], m.shape[1], edges, opts, callback)
    suffix = _suffix(m.dtype)
    if kind == "sparse":
        return getattr(_core, f"estimate_sparse_{suffix}")(
            *_triplets(m.shape, m.row, m.col, m.data), opts, callback)
    return getattr(_core, f"estimate_dense_{suffix}")(m, opts, callback)


def _power10(x: float) -> float:
    if math.isinf(x) and x < 0:
        return 0.0
    try:
        return 10.0 ** x
    except OverflowError:
        return math.inf


# ---- generators ---------------------------------------------------------------------------------
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
    rotation = _core.torus_embedding(_arguments.integer(rows, where, "rows", 0, _arguments.INT32_MAX),
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
