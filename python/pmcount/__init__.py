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

import math
import sys
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple, Union

import numpy as np

from . import _core
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
    timings, stats, structure: the C++ library's CountResult fields, as dicts.
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
    def _from(d: Dict[str, Any]) -> "Result":
        if d["is_exact"]:
            magnitude = int.from_bytes(d["exact_magnitude"], "little")
            value: Union[int, float, complex] = -magnitude if d["exact_negative"] else magnitude
        elif d["kind"] == "complex":
            value = complex(d["complex_value"])
        else:
            value = float(d["value"])
        return Result(
            value=value,
            exact=bool(d["is_exact"]),
            error=float(d["abs_error"]),
            rel_error=float(d["rel_error"]),
            log10_abs=float(d["log10_abs"]),
            kind=d["kind"],
            error_kind=d["error_kind"],
            escalated_from=d["escalated_from"],
            method=d["method"],
            backend=d["backend"],
            arithmetic=d["arithmetic"],
            device=d["device"],
            note=d["note"],
            explained_only=bool(d["explained_only"]),
            timings=dict(d["timings"]),
            stats=dict(d["stats"]),
            structure=dict(d["structure"]),
        )

    def _public(self, full: bool) -> Any:
        if full:
            return self
        if isinstance(self.value, int):
            return self.value
        if isinstance(self.value, complex):
            return ComplexResult(self.value, self)
        return FloatResult(self.value, self)


@dataclass
class Estimate:
    """An estimate with its confidence interval (all of the C++ EstimateResult in ``raw``).

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
    method: str = "auto",
    precision: str = "auto",
    backend: str = "auto",
    threads: int = 0,
    gpus: Optional[Sequence[int]] = None,
    structure: bool = True,
    reductions: bool = True,
    general: bool = False,
    explain_only: bool = False,
    max_time: Optional[float] = None,
    progress: Any = None,
    gpu_kernels: str = "auto",
) -> Dict[str, Any]:
    if not isinstance(threads, (int, np.integer)) or threads < 0:
        raise InvalidArgumentError(f"threads must be a nonnegative integer, got {threads!r}")
    if max_time is not None and not max_time > 0:
        raise InvalidArgumentError(f"max_time must be a positive number of seconds, got {max_time!r}")
    return {
        "method": str(method),
        "precision": str(precision),
        "backend": str(backend),
        "threads": int(threads),
        "gpus": [int(g) for g in (gpus or [])],
        "gpu_kernels": str(gpu_kernels),
        "structure": bool(structure),
        "reductions": bool(reductions),
        "general": bool(general),
        "explain_only": bool(explain_only),
        "max_time": float(max_time) if max_time is not None else 0.0,
        "progress": progress,
    }


def _run(call: Callable[..., Dict[str, Any]], args: Tuple[Any, ...], options: Dict[str, Any],
         progress: Progress) -> Result:
    callback, close = _progress_callback(progress)
    options = dict(options, progress=callback)
    try:
        return Result._from(call(*args, options))
    finally:
        close()


def _is_networkx(obj: Any) -> bool:
    return type(obj).__module__.split(".")[0] == "networkx" and hasattr(obj, "is_directed")


def _is_sparse(obj: Any) -> bool:
    return type(obj).__module__.split(".")[0] == "scipy" and hasattr(obj, "tocoo")


def _pairs(pairs: Iterable[Tuple[int, int]]) -> np.ndarray:
    array = np.asarray(list(pairs), dtype=np.int64)
    return array.reshape(-1, 2) if array.size else np.zeros((0, 2), dtype=np.int64)


def _indexed_edges(graph: Any) -> Tuple[List[Any], np.ndarray]:
    """The graph's nodes in its order, and its edges as pairs of their indices."""
    nodes = list(graph.nodes())
    index = {node: i for i, node in enumerate(nodes)}
    return nodes, _pairs((index[u], index[v]) for u, v in graph.edges())


def _reject_self_loops(graph: Any) -> None:
    for u, v in graph.edges():
        if u == v:
            raise InvalidInputError(
                f"self-loop at node {u!r}: no perfect matching can use it (remove it)"
            )


def _matrix(a: Any, what: str) -> Tuple[str, Any]:
    """('dense', ndarray) or ('sparse', coo) with dtype int64, float64 or complex128."""
    if _is_sparse(a):
        coo = a.tocoo()
        coo.sum_duplicates()
        return "sparse", coo.astype(_entry_dtype(coo.dtype, what))
    if _is_networkx(a):
        raise TypeError(f"{what}: expected a matrix, got a networkx graph")
    array = np.asarray(a)
    if array.ndim != 2:
        raise DimensionMismatchError(f"{what}: expected a 2-dimensional matrix, got shape {array.shape}")
    return "dense", np.ascontiguousarray(array, dtype=_entry_dtype(array.dtype, what))


def _entry_dtype(dtype: np.dtype, what: str) -> type:
    if dtype == np.bool_ or np.issubdtype(dtype, np.signedinteger):
        return np.int64
    if np.issubdtype(dtype, np.unsignedinteger):
        if dtype.itemsize >= 8:
            raise TypeError(f"{what}: unsigned 64-bit entries may exceed int64; convert first")
        return np.int64
    if np.issubdtype(dtype, np.floating):
        return np.float64
    if np.issubdtype(dtype, np.complexfloating):
        return np.complex128
    raise TypeError(f"{what}: entries of type {dtype} are not numbers pmcount takes "
                    "(bool, integer, float or complex)")


def _suffix(dtype: np.dtype) -> str:
    return {np.dtype(np.int64): "int", np.dtype(np.float64): "float",
            np.dtype(np.complex128): "complex"}[np.dtype(dtype)]


def _check_finite(kind: str, m: Any, what: str) -> None:
    values = m.data if kind == "sparse" else m
    if values.dtype != np.int64 and not np.all(np.isfinite(values)):
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
        raise InvalidArgumentError(
            f"{what}: a (bi)adjacency matrix has 0-1 entries, found {bad.flat[0].item()!r}; use "
            "pmcount.permanent or pmcount.hafnian for weighted matrices")
    keep = values == 1
    return np.ascontiguousarray(
        np.stack([np.asarray(rows)[keep], np.asarray(cols)[keep]], axis=1).astype(np.int64))


def _matrix_call(name: str, kind: str, m: Any, options: Dict[str, Any],
                 progress: Progress) -> Result:
    suffix = _suffix(m.dtype)
    if kind == "sparse":
        call = getattr(_core, f"{name}_sparse_{suffix}")
        args = (m.shape[0], m.shape[1], m.row.astype(np.int64), m.col.astype(np.int64),
                np.ascontiguousarray(m.data))
    else:
        call = getattr(_core, f"{name}_dense_{suffix}")
        args = (m,)
    return _run(call, args, options, progress)


def _graph_result(graph: Any, options: Dict[str, Any], progress: Progress) -> Result:
    """Perfect matchings of a networkx graph, or of the bipartite graph of a 0-1 matrix."""
    if _is_networkx(graph):
        if graph.is_directed():
            raise TypeError("count_perfect_matchings takes an undirected graph; for a directed "
                            "one use pmcount.count_cycle_covers")
        _reject_self_loops(graph)
        nodes, edges = _indexed_edges(graph)
        if graph.is_multigraph():
            # Parallel edges are distinct edges: the count is the hafnian of the multiplicities.
            a = np.zeros((len(nodes), len(nodes)), dtype=np.int64)
            np.add.at(a, (edges[:, 0], edges[:, 1]), 1)
            np.add.at(a, (edges[:, 1], edges[:, 0]), 1)
            return _matrix_call("hafnian", "dense", a, options, progress)
        return _run(_core.count_general, (len(nodes), edges), options, progress)
    kind, m = _matrix(graph, "count_perfect_matchings")
    edges = _binary_edges(kind, m, "count_perfect_matchings")
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
    structure: bool = True,
    reductions: bool = True,
    max_time: Optional[float] = None,
    progress: Progress = False,
    full: bool = False,
) -> Union[int, Result]:
    """The exact number of perfect matchings of ``G``, as a Python ``int``.

    G: a networkx Graph or MultiGraph (any node labels; bipartite or not; parallel edges count
    as distinct edges), or the 0-1 biadjacency matrix of a bipartite graph (SciPy sparse, NumPy
    array or nested lists; rows one side, columns the other, not necessarily square).

    method: "auto", "ryser", "sparyser", "skipper", "planar", "frontier", "hafnian",
    "brute-force". backend: "auto", "cpu", "cuda". threads: CPU threads (0: all cores).
    gpus: GPU indices (default: all). gpu_kernels: how the sparse GPU engines get the matrix:
    "auto", "tables" (one kernel per order) or "generated" (a kernel compiled for this matrix;
    docs/gpu.md).
    general: count through the general-graph path even when G is bipartite (for checking).
    structure, reductions: the structure front end (switch off only to measure it).
    max_time: raise ProblemTooLargeError instead of starting a count predicted to take longer.
    progress: True for a progress bar, or a callable(fraction, elapsed_seconds).
    full: return the :class:`Result` (method, timings, structure) instead of the int.

    >>> import networkx as nx
    >>> count_perfect_matchings(nx.complete_graph(6))   # 5!! = 15
    15
    >>> count_perfect_matchings(nx.cycle_graph(7))      # odd: none
    0
    >>> count_perfect_matchings([[1, 1], [1, 1]])       # K_{2,2} as a biadjacency matrix
    2
    """
    options = _count_options(method, "exact", backend, threads, gpus, structure, reductions,
                             general, False, max_time, gpu_kernels=gpu_kernels)
    return _graph_result(G, options, progress)._public(full)


def count_cycle_covers(
    D: Any,
    *,
    method: str = "auto",
    backend: str = "auto",
    threads: int = 0,
    gpus: Optional[Sequence[int]] = None,
    gpu_kernels: str = "auto",
    structure: bool = True,
    reductions: bool = True,
    max_time: Optional[float] = None,
    progress: Progress = False,
    full: bool = False,
) -> Union[int, Result]:
    """The exact number of cycle covers of a directed graph, as a Python ``int``.

    D: a networkx DiGraph or MultiDiGraph (a self-loop is a fixed point; parallel arcs count as
    distinct arcs; an undirected graph counts as the digraph with both arcs of each edge), or the
    square 0-1 adjacency matrix (row u, column v ⇔ arc u → v). This is the permanent of the
    adjacency matrix. Options as for :func:`count_perfect_matchings`.

    >>> import networkx as nx
    >>> count_cycle_covers(nx.complete_graph(4).to_directed())   # derangements of 4
    9
    """
    options = _count_options(method, "exact", backend, threads, gpus, structure, reductions,
                             False, False, max_time, gpu_kernels=gpu_kernels)
    if _is_networkx(D):
        digraph = D if D.is_directed() else D.to_directed()
        nodes, arcs = _indexed_edges(digraph)
        if digraph.is_multigraph():
            a = np.zeros((len(nodes), len(nodes)), dtype=np.int64)
            np.add.at(a, (arcs[:, 0], arcs[:, 1]), 1)
            return _matrix_call("permanent", "dense", a, options, progress)._public(full)
        return _run(_core.count_cycle_covers, (len(nodes), arcs), options,
                    progress)._public(full)
    kind, m = _matrix(D, "count_cycle_covers")
    if m.shape[0] != m.shape[1]:
        raise DimensionMismatchError(
            f"count_cycle_covers: an adjacency matrix is square, got {m.shape[0]}×{m.shape[1]}")
    arcs = _binary_edges(kind, m, "count_cycle_covers")
    return _run(_core.count_cycle_covers, (m.shape[0], arcs), options, progress)._public(full)


def _repeated(m: np.ndarray, rows: Optional[Sequence[int]], cols: Optional[Sequence[int]]) -> np.ndarray:
    """A with row i repeated rows[i] times and column j repeated cols[j] times."""
    def counts(spec: Optional[Sequence[int]], size: int, what: str) -> Optional[np.ndarray]:
        if spec is None:
            return None
        c = np.asarray(spec)
        if c.shape != (size,) or not np.issubdtype(c.dtype, np.integer) or np.any(c < 0):
            raise InvalidArgumentError(
                f"permanent: {what} must be {size} nonnegative integers (one per {what[:-1]}), "
                f"got {spec!r}")
        return c.astype(np.int64)

    r = counts(rows, m.shape[0], "rows")
    c = counts(cols, m.shape[1], "cols")
    if r is not None:
        m = np.repeat(m, r, axis=0)
    if c is not None:
        m = np.repeat(m, c, axis=1)
    return np.ascontiguousarray(m)


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
    structure: bool = True,
    reductions: bool = True,
    max_time: Optional[float] = None,
    progress: Progress = False,
    full: bool = False,
) -> Union[int, FloatResult, ComplexResult, Result]:
    """perm(A) = Σ over permutations σ of Π_i a_{i,σ(i)}.

    A: NumPy array (bool/int → exact ``int``; float → :class:`FloatResult`; complex →
    :class:`ComplexResult`, each a float/complex with ``.error``), SciPy sparse matrix or nested
    lists. A non-square matrix has permanent 0 (with a note in ``full=True``), 0×0 has 1.
    precision: "auto" (exact for integers, double otherwise), "exact", "double", "dd"
    (double-double), "plain-double" (GPU), "certified" (dense Ryser, CPU or GPU; ``.error`` is
    then a proven bound). rows, cols: multiplicities — row i repeated rows[i]
    times, column j cols[j] times (as photonics codes write repeated modes). Other options as
    for :func:`count_perfect_matchings`.

    >>> import numpy as np
    >>> permanent(np.array([[1, 2], [3, 4]]))
    10
    >>> permanent(np.array([[1, 2], [3, 4]]), rows=[2, 0], cols=[1, 1])   # [[1, 2], [1, 2]]
    4
    """
    options = _count_options(method, precision, backend, threads, gpus, structure, reductions,
                             False, False, max_time, gpu_kernels=gpu_kernels)
    kind, m = _matrix(A, "permanent")
    if rows is not None or cols is not None:
        if kind == "sparse":
            m = m.toarray()
            kind = "dense"
        m = _repeated(m, rows, cols)
    _check_finite(kind, m, "permanent")
    return _matrix_call("permanent", kind, m, options, progress)._public(full)


def hafnian(
    A: Any,
    precision: str = "auto",
    method: str = "auto",
    backend: str = "auto",
    threads: int = 0,
    *,
    gpus: Optional[Sequence[int]] = None,
    structure: bool = True,
    reductions: bool = True,
    max_time: Optional[float] = None,
    progress: Progress = False,
    full: bool = False,
) -> Union[int, FloatResult, ComplexResult, Result]:
    """haf(A) = Σ over the perfect matchings M of the complete graph of Π_{uv ∈ M} a_uv, for a
    symmetric matrix (the diagonal is not used): the weighted number of perfect matchings of the
    graph of A. Types, results and options as for :func:`permanent`; an asymmetric matrix raises
    InvalidArgumentError naming the first entry that differs from its mirror.

    >>> import numpy as np
    >>> hafnian(np.ones((6, 6), dtype=int))   # 5!! = 15
    15
    """
    options = _count_options(method, precision, backend, threads, gpus, structure, reductions,
                             False, False, max_time)
    kind, m = _matrix(A, "hafnian")
    _check_finite(kind, m, "hafnian")
    return _matrix_call("hafnian", kind, m, options, progress)._public(full)


def explain(G: Any, *, hafnian: bool = False, **options: Any) -> Dict[str, Any]:
    """The plan pmcount would run for ``G``, without counting: a dict with the structure front
    end's findings (``structure``), the leaves with their engines and predicted seconds, the plan
    as text (``structure["plan"]``) and the predicted total (``predicted_seconds``).

    G: anything :func:`count_perfect_matchings` takes, or a matrix (its permanent; with
    ``hafnian=True`` its hafnian). Options as for :func:`permanent`.
    """
    progress = options.pop("progress", False)
    opts = _count_options(explain_only=True, **options)
    if _is_networkx(G) or (not hafnian and _is_binary_matrix(G)):
        r = _graph_result(G, opts, progress)
    else:
        kind, m = _matrix(G, "explain")
        _check_finite(kind, m, "explain")
        r = _matrix_call("hafnian" if hafnian else "permanent", kind, m, opts, progress)
    return {
        "method": r.method,
        "backend": r.backend,
        "predicted_seconds": r.structure.get("predicted_seconds", 0.0),
        "note": r.note,
        "structure": r.structure,
    }


def _is_binary_matrix(a: Any) -> bool:
    try:
        kind, m = _matrix(a, "explain")
    except (TypeError, ValueError):
        return False
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

    G: a bipartite networkx Graph, a 0-1 biadjacency matrix, or a nonnegative real matrix.
    Stopping: rel_error (the confidence interval's relative half-width), time (seconds),
    samples; the first reached stops (none given: a 1% half-width or 120 s). estimator:
    "rasmussen", "rasmussen+", "scaling", "scaling+". particles: 0 chooses populations from the
    graph's order and the budget (about 8 particles per row, resampled every 16 steps), 1 draws
    independent samples, P > 1 populations of P resampled every ``resample_every`` steps (0: 16;
    see docs/estimators.md).

    >>> e = estimate(grid(8, 8), rel_error=0.05, seed=3)
    >>> e.ci[0] < 12988816 < e.ci[1]
    True
    """
    opts = {
        "estimator": str(estimator),
        "backend": str(backend),
        "threads": int(threads),
        "gpus": [int(g) for g in (gpus or [])],
        "samples": int(samples or 0),
        "time": float(time or 0.0),
        "rel_error": float(rel_error or 0.0),
        "confidence": float(confidence),
        "seed": int(seed),
        "particles": int(particles),
        "resample_every": int(resample_every),
    }
    callback, close = _progress_callback(progress)
    opts["progress"] = callback
    try:
        if _is_networkx(G):
            if G.is_directed() or G.is_multigraph():
                raise TypeError("estimate takes a simple undirected bipartite graph")
            _reject_self_loops(G)
            nodes, edges = _indexed_edges(G)
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
            u, v = edges[:, 0], edges[:, 1]
            lr = np.where(is_left[u][:, None], edges, edges[:, ::-1])
            pairs = np.stack([position[lr[:, 0]], position[lr[:, 1]]], axis=1).astype(np.int64)
            raw = _core.estimate_bipartite(len(left), len(right), np.ascontiguousarray(pairs), opts)
        else:
            kind, m = _matrix(G, "estimate")
            _check_finite(kind, m, "estimate")
            if _is_binary_matrix(G):
                edges = _binary_edges(kind, m, "estimate")
                raw = _core.estimate_bipartite(m.shape[0], m.shape[1], edges, opts)
            else:
                dense = m.toarray() if kind == "sparse" else m
                raw = getattr(_core, f"estimate_dense_{_suffix(dense.dtype)}")(
                    np.ascontiguousarray(dense), opts)
    finally:
        close()
    return Estimate(
        value=float(raw["value"]),
        log10=float(raw["log10_value"]),
        ci=(_power10(raw["log10_ci_low"]), _power10(raw["log10_ci_high"])),
        log10_ci=(float(raw["log10_ci_low"]), float(raw["log10_ci_high"])),
        confidence=float(raw["confidence"]),
        rel_std_error=float(raw["rel_std_error"]),
        samples=int(raw["samples"]),
        seconds=float(raw["seconds"]),
        note=str(raw["note"]),
        raw=dict(raw),
    )


def _power10(x: float) -> float:
    if math.isinf(x) and x < 0:
        return 0.0
    try:
        return 10.0 ** x
    except OverflowError:
        return math.inf


# ---- generators ---------------------------------------------------------------------------------


def _generated(spec: str, as_: str) -> Any:
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
    if as_ == "numpy":
        a = np.zeros((n_left, n_right), dtype=np.int8)
        a[pairs[:, 0], pairs[:, 1]] = 1
        return a
    raise InvalidArgumentError(f'as_ must be "networkx", "scipy" or "numpy", got {as_!r}')


def grid(rows: int, cols: int, as_: str = "networkx") -> Any:
    """The rows × cols grid graph (its perfect matchings are the domino tilings), as a networkx
    Graph (nodes 0…, attribute ``bipartite`` 0 or 1), a SciPy biadjacency matrix (``as_="scipy"``)
    or a NumPy one (``as_="numpy"``)."""
    return _generated(f"grid:{int(rows)}x{int(cols)}", as_)


def torus(rows: int, cols: int, as_: str = "networkx") -> Any:
    """The rows × cols torus (even sides), as for :func:`grid`."""
    return _generated(f"torus:{int(rows)}x{int(cols)}", as_)


def hexagon(a: int, b: int, c: int, as_: str = "networkx") -> Any:
    """The honeycomb graph of the a×b×c hexagon (its matchings are lozenge tilings)."""
    return _generated(f"hexagon:{int(a)},{int(b)},{int(c)}", as_)


def aztec_diamond(k: int, as_: str = "networkx") -> Any:
    """The Aztec diamond of order k (2^(k(k+1)/2) domino tilings)."""
    return _generated(f"aztec:{int(k)}", as_)


def complete_bipartite(n: int, as_: str = "networkx") -> Any:
    """K_{n,n} (n! perfect matchings)."""
    return _generated(f"complete:{int(n)}", as_)


def random_bipartite(n: int, p: float, seed: int = 1, as_: str = "networkx") -> Any:
    """A random bipartite graph with n vertices per side, each edge present with probability p."""
    return _generated(f"random:{int(n)},{float(p)!r},{int(seed)}", as_)


def random_regular_bipartite(n: int, d: int, seed: int = 1, as_: str = "networkx") -> Any:
    """A random d-regular bipartite graph with n vertices per side."""
    return _generated(f"regular:{int(n)},{int(d)},{int(seed)}", as_)
