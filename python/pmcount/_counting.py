"""The exact counts: perfect matchings, cycle covers, permanents, hafnians, and the plan of one
(explain), each checking its arguments (pmcount._arguments), converting its input
(pmcount._convert) and running the C++ library without the GIL."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, Callable, Dict, Optional, Sequence, Tuple, Union

import numpy as np

from . import _arguments, _core
from ._big_integers import _big_integer_call
from ._convert import (
    _binary_edges,
    _check_finite,
    _counts,
    _indexed_edges,
    _is_big,
    _is_binary,
    _is_networkx,
    _matrix,
    _multiplicities,
    _reject_self_loops,
    _repeated,
    _rotation,
    _suffix,
    _triplets,
)
from . import _errors
from ._errors import DimensionMismatchError
from ._progress import Progress, _progress_callback
from ._results import ComplexResult, FloatResult, Result


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


def _call(call: Callable[..., Any], args: Tuple[Any, ...], options: _core.CountOptions,
          progress: Progress) -> Any:
    """call(*args, options, progress callback): what the binding returns."""
    callback, close = _progress_callback(progress)
    try:
        return call(*args, options, callback)
    finally:
        close()


def _run(call: Callable[..., _core.CountResult], args: Tuple[Any, ...],
         options: _core.CountOptions, progress: Progress) -> Result:
    return Result._from(_call(call, args, options, progress))


def _sparse_call(name: str, shape: Tuple[int, int], rows: np.ndarray, cols: np.ndarray,
                 values: np.ndarray, options: _core.CountOptions, progress: Progress) -> Result:
    """permanent / hafnian of the matrix with entries values[k] at (rows[k], cols[k])."""
    call = getattr(_core, f"{name}_sparse_{_suffix(values.dtype)}")
    return _run(call, _triplets(shape, rows, cols, values), options, progress)


def _matrix_call(name: str, kind: str, m: Any, options: _core.CountOptions,
                 progress: Progress) -> Result:
    if _is_big(kind, m):
        return _big_integer_call(_matrix_call, name, kind, m, options, progress)
    if kind == "sparse":
        return _sparse_call(name, m.shape, m.row, m.col, m.data, options, progress)
    return _run(getattr(_core, f"{name}_dense_{_suffix(m.dtype)}"), (m,), options, progress)


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
    the same way), such as :func:`torus_embedding` gives for :func:`torus`. A graph of genus
    g ≤ 2 (the torus, the double torus) is then also countable as 4^g Pfaffians in polynomial
    time (method "pfaffian-surface"); a drawing that does not fit G raises InvalidInputError, one
    of higher genus InvalidArgumentError.
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
        grouped = _grouped_permanent(kind, m, rows, cols, options, progress)
        if grouped is not None:
            return grouped._public(full)
        kind, m = _repeated(kind, m, rows, cols)
    _check_finite(kind, m, where)
    return _matrix_call("permanent", kind, m, options, progress)._public(full)


def _grouped_permanent(kind: str, m: Any, rows: Any, cols: Any, options: _core.CountOptions,
                       progress: Progress) -> Optional[Result]:
    """perm of A with repeated rows and columns summed over the multiplicities (Ryser grouped:
    Π(c_j + 1) points) where that beats expanding the matrix (a permanent of order N = Σ r_i,
    about 2^N·N steps); None when the expansion is to be counted instead (unequal totals: the
    rectangular permanent; options only the planner has; entries beyond int64)."""
    r = _counts(rows, m.shape[0], "permanent", "rows")
    c = _counts(cols, m.shape[1], "permanent", "cols")
    n = sum(r)
    if (n != sum(c) or options.method != "auto" or options.backend == "cuda"
            or options.precision in ("certified", "plain-double") or _is_big(kind, m)):
        return None
    points = min(math.prod(x + 1 for x in r), math.prod(x + 1 for x in c))
    if math.log2(points) + math.log2(len(r) + len(c) + n + 1) >= n + math.log2(n + 1):
        return None
    dense = np.ascontiguousarray(m.toarray() if kind == "sparse" else m)
    _check_finite("dense", dense, "permanent")
    call = getattr(_core, f"permanent_repeated_{_suffix(dense.dtype)}")
    return _run(call, (dense, r, c), options, progress)


def hafnian_repeated(
    A: Any,
    rpt: Sequence[int],
    mu: Any = None,
    loop: bool = False,
    precision: str = "auto",
    threads: int = 0,
    *,
    progress: Progress = False,
    full: bool = False,
) -> Union[int, FloatResult, ComplexResult, Result]:
    """The hafnian of the symmetric matrix A with row and column i repeated rpt[i] times, as
    thewalrus's ``hafnian_repeated(A, rpt, mu=None, loop=False)``: B[(i,a),(j,b)] = a_ij, so a_ii
    joins two copies of mode i. With loop=True the loop hafnian of B, whose diagonal is mu_i on
    every copy of i (mu defaults to A's diagonal). The copies are paired (about Π(count + 1)
    points over the pair types, each a characteristic polynomial's series), or summed over the
    multiplicities (Π(rpt_i + 1) points), or B is expanded, whichever is predicted fastest: exact
    ``int`` for integer A; otherwise a :class:`FloatResult` / :class:`ComplexResult`, in double
    over the paired copies with an estimated ``.error`` (``error_kind`` "estimate": two runs with
    different roundings; counted again with a bound when it exceeds 1e-6 of the value), or in
    double-double with a bound (``error_kind`` "bound"). precision: "auto", "exact" (integers),
    "double" (as "auto") or "dd" (double-double, a bound).

    >>> import numpy as np
    >>> hafnian_repeated(np.array([[1, 2], [2, 3]]), [2, 2])   # 1·3 + 2·2 + 2·2
    11
    """
    where = "hafnian_repeated"
    options = _count_options(where, precision=precision, threads=threads)
    full = _arguments.flag(full, where, "full")
    loop = _arguments.flag(loop, where, "loop")
    progress = _arguments.progress(progress, where)
    kind, m = _matrix(A, where)
    if _is_big(kind, m):
        raise _errors.InvalidArgumentError(
            f"{where}: entries beyond int64 are not supported; pass them as floats")
    dense = np.ascontiguousarray(m.toarray() if kind == "sparse" else m)
    _check_finite("dense", dense, where)
    if dense.shape[0] != dense.shape[1]:
        raise _errors.InvalidArgumentError(
            f"{where} needs a square matrix, got {dense.shape[0]}×{dense.shape[1]}")
    r = _counts(rpt, dense.shape[0], where, "rpt")
    loops = None
    if loop:
        loops = np.diagonal(dense).copy() if mu is None else np.asarray(mu)
        if loops.shape != (dense.shape[0],):
            raise _errors.InvalidArgumentError(
                f"{where}: mu must have {dense.shape[0]} entries, got {_arguments.show(mu)}")
        if np.iscomplexobj(loops) and not np.iscomplexobj(dense):
            dense = dense.astype(complex)
        elif not np.iscomplexobj(dense) and loops.dtype.kind == "f" and dense.dtype.kind != "f":
            dense = dense.astype(float)
        loops = loops.astype(dense.dtype).tolist()
    call = getattr(_core, f"hafnian_repeated_{_suffix(dense.dtype)}")
    return _run(call, (dense, r, loops), options, progress)._public(full)


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
    loop: bool = False,
    structure: Any = _arguments.NOT_GIVEN,
    max_time: Any = _arguments.NOT_GIVEN,
) -> Union[int, FloatResult, ComplexResult, Result]:
    """haf(A) = Σ over the perfect matchings M of the complete graph of Π_{uv ∈ M} a_uv, for a
    symmetric matrix (the diagonal is not used): the weighted number of perfect matchings of the
    graph of A. Types, results and options as for :func:`permanent`; an asymmetric matrix raises
    InvalidArgumentError naming the first entry that differs from its mirror.

    loop: the loop hafnian instead (thewalrus's ``hafnian(A, loop=True)``): Σ over the partitions
    of the vertices into pairs and singletons of Π_pairs a_uv · Π_singletons a_vv, the diagonal
    as loops; any order. Split into the connected components of the off-diagonal entries, each by
    the hafnian recursion with loops (method "loop-hafnian"), on CPU threads: exact integers for
    integer matrices, double (or precision="dd") for real ones, complex double.

    >>> import numpy as np
    >>> hafnian(np.ones((6, 6), dtype=int))   # 5!! = 15
    15
    >>> hafnian(np.ones((4, 4), dtype=int), loop=True)   # the involutions of 4 points
    10
    """
    where = "hafnian"
    options = _count_options(
        where, method=method, precision=precision, backend=backend, threads=threads, gpus=gpus,
        dulmage_mendelsohn=dulmage_mendelsohn, reductions=reductions,
        max_predicted_seconds=max_predicted_seconds, structure=structure, max_time=max_time)
    full = _arguments.flag(full, where, "full")
    loop = _arguments.flag(loop, where, "loop")
    progress = _arguments.progress(progress, where)
    kind, m = _matrix(A, where)
    _check_finite(kind, m, where)
    name = "loop_hafnian" if loop else "hafnian"
    return _matrix_call(name, kind, m, options, progress)._public(full)


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
