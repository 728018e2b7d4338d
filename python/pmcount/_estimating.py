"""Estimates of the number of perfect matchings (the permanent of a nonnegative matrix) with a
confidence interval."""

from __future__ import annotations

import math
from typing import Any, Optional, Sequence

import numpy as np

from . import _arguments, _core
from ._convert import (
    _as_floats,
    _binary_edges,
    _check_finite,
    _indexed_edges,
    _is_big,
    _is_binary,
    _is_networkx,
    _matrix,
    _multiplicities,
    _reject_self_loops,
    _suffix,
    _triplets,
)
from ._errors import InvalidArgumentError
from ._progress import Progress, _progress_callback
from ._results import Estimate, _fields


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
    """An unbiased estimate of the number of perfect matchings of a graph (or of a nonnegative
    matrix's permanent), with a confidence interval.

    G: a networkx ``Graph`` or ``MultiGraph`` (or a subclass or view of one; parallel edges are
    distinct edges, as for :func:`count_perfect_matchings`), bipartite or not, a 0-1
    biadjacency matrix, or a nonnegative real matrix (NumPy, SciPy sparse, nested lists). A
    graph that is not bipartite is sampled along a sweep with a belief-propagation guide
    ("bethe", on CPU threads or GPUs; the default) or, with "rasmussen" or "rasmussen+", by the
    blossom-pruned sampler on CPU threads (backend "cuda" raises InvalidArgumentError for those;
    docs/estimators.md). A complex matrix raises
    InvalidArgumentError: the estimators draw each row's partner with probability
    proportional to its entry, which needs nonnegative real entries. A non-square weighted
    matrix raises DimensionMismatchError (its rectangular permanent, which :func:`permanent`
    computes exactly, is not 0); a non-square 0-1 one has no perfect matching: an exact 0.
    Stopping: rel_error (the confidence interval's relative half-width, ≥ 0), time (seconds,
    ≥ 0), samples (0 to 2^64 - 1); the first reached stops, and None or 0 leaves one out (none
    given: a 1% half-width or 120 s). seed: 0 to 2^64 - 1. confidence: in (0, 1). estimator:
    "rasmussen", "rasmussen+", "scaling", "scaling+", "bethe" (any graph). particles: 0 to 2^30; 0 chooses
    populations from the graph's order and the budget (about 8 particles per row, resampled
    every 16 steps), 1 draws independent samples, P > 1 populations of P resampled every
    ``resample_every`` steps (0 to 2^31 - 1; 0: 16; see docs/estimators.md). backend, threads,
    gpus, progress as for :func:`count_perfect_matchings`.

    >>> e = estimate(grid(8, 8), rel_error=0.05, seed=3)
    >>> e.ci[0] < 12988816 < e.ci[1]
    True
    """
    where = "estimate"
    opts = _estimate_options(where, rel_error=rel_error, time=time, samples=samples, seed=seed,
                             confidence=confidence, particles=particles,
                             resample_every=resample_every, backend=backend, threads=threads,
                             gpus=gpus)
    opts.estimator = _arguments.choice(estimator, where, "estimator")
    progress = _arguments.progress(progress, where)
    callback, close = _progress_callback(progress)
    try:
        r = _graph_estimate(G, opts, callback) if _is_networkx(G) else \
            _matrix_estimate(G, opts, callback)
    finally:
        close()
    return _as_estimate(r)


def _estimate_options(where: str, *, rel_error: Optional[float], time: Optional[float],
                      samples: Optional[int], seed: int, confidence: float, particles: int,
                      resample_every: int, backend: str, threads: int,
                      gpus: Optional[Sequence[int]]) -> _core.EstimateOptions:
    """The stopping rules, seed, populations and devices of an estimate, checked."""
    opts = _core.EstimateOptions()
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
    return opts


def _as_estimate(r: _core.EstimateResult) -> Estimate:
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
        _json=r.to_json(),
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
    if sides is None:  # a general graph: its (weighted) perfect matchings as a hafnian
        n = len(nodes)
        weights = np.ones(len(edges), dtype=np.int64) if counts is None else \
            np.asarray(counts, dtype=np.int64)
        rows = np.concatenate([edges[:, 0], edges[:, 1]])
        cols = np.concatenate([edges[:, 1], edges[:, 0]])
        return _core.estimate_hafnian_sparse_int(
            *_triplets((n, n), rows, cols, np.concatenate([weights, weights])), opts, callback)
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
