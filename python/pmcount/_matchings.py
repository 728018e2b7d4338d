"""Matchings of every size, not only perfect ones: the Hosoya index (all matchings, the empty one
included), the matchings of one size, the monomer–dimer partition function Z(x) and the matching
polynomial's coefficients, exact (pmcount/matchings.hpp in the C++ library)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any, List, Optional, Sequence, Union

import numpy as np

from . import _arguments, _core
from ._convert import _indexed_edges, _is_networkx, _matrix, _multiplicities, _reject_self_loops
from ._counting import _call, _count_options
from ._estimating import _as_estimate, _estimate_options
from ._progress import Progress, _progress_callback
from ._results import Estimate


def _weighted_graph(G: Any, where: str, weight: Optional[str], adjacency: bool,
                    real: bool = False) -> tuple:
    """(n, edges (k, 2) int64, weights (k,) int64) of G: a networkx graph (a MultiGraph's parallel
    edges add up; `weight` names an integer edge attribute), or a matrix: the bipartite graph of
    its rows and columns, or with `adjacency` the general graph of a symmetric matrix. With
    `real`, weights may be real numbers too (float64 weights)."""
    dtype = np.float64 if real else np.int64
    if _is_networkx(G):
        if G.is_directed():
            raise TypeError(f"{where} takes an undirected graph, not a directed one")
        nodes, edges = _indexed_edges(G)
        _reject_self_loops(nodes, edges, where)
        if weight is None:
            distinct, counts = _multiplicities(edges, directed=False)
            return len(nodes), distinct.reshape(-1, 2), counts
        index = {node: i for i, node in enumerate(nodes)}
        pairs, values = [], []
        for u, v, w in G.edges(data=weight, default=1):
            numbers = (int, np.integer, float, np.floating) if real else (int, np.integer)
            if isinstance(w, bool) or not isinstance(w, numbers):
                raise TypeError(f"{where}: edge ({u!r}, {v!r}) has {weight}={w!r}, not "
                                f"{'a real number' if real else 'an integer'}")
            pairs.append((index[u], index[v]))
            values.append(w if real else int(w))
        return (len(nodes), np.array(pairs, dtype=np.int64).reshape(-1, 2),
                np.array(values, dtype=dtype))
    kind, m = _matrix(G, where)
    if real and m.dtype == np.int64:
        m = m.astype(np.float64)
    if m.dtype != dtype:
        raise TypeError(f"{where}: {'the estimate takes real' if real else 'matchings of every size take integer'} "
                        f"weights, got {m.dtype} entries")
    coo = m if kind == "sparse" else None
    if coo is None:
        rows, cols = np.nonzero(m)
        values = m[rows, cols]
    else:
        keep = coo.data != 0
        rows, cols, values = coo.row[keep], coo.col[keep], coo.data[keep]
    rows = np.asarray(rows, dtype=np.int64)
    cols = np.asarray(cols, dtype=np.int64)
    values = np.asarray(values, dtype=dtype)
    if adjacency:
        if m.shape[0] != m.shape[1]:
            raise ValueError(f"{where}: an adjacency matrix is square, got shape {m.shape}")
        upper = rows < cols
        lower = {(int(c), int(r)): w for r, c, w in zip(rows[~upper], cols[~upper],
                                                        values[~upper]) if r != c}
        for r, c, w in zip(rows[upper], cols[upper], values[upper]):
            if lower.pop((int(r), int(c)), None) != w:
                raise ValueError(f"{where}: the adjacency matrix is not symmetric at "
                                 f"({int(r)}, {int(c)})")
        if lower:
            r, c = next(iter(lower))
            raise ValueError(f"{where}: the adjacency matrix is not symmetric at ({c}, {r})")
        edges = np.stack([rows[upper], cols[upper]], axis=1)
        return m.shape[0], np.ascontiguousarray(edges), np.ascontiguousarray(values[upper])
    edges = np.stack([rows, cols + m.shape[0]], axis=1)
    return m.shape[0] + m.shape[1], np.ascontiguousarray(edges), np.ascontiguousarray(values)


def _monomer_text(x: Any, where: str) -> str:
    if isinstance(x, bool):
        raise TypeError(f"{where}: monomer_weight must be a number, not a bool")
    if isinstance(x, (int, np.integer)):
        return str(int(x))
    if isinstance(x, Fraction):
        return f"{x.numerator}/{x.denominator}"
    if isinstance(x, (float, np.floating)):
        if not np.isfinite(x):
            raise ValueError(f"{where}: monomer_weight must be finite, got {x!r}")
        return repr(float(x))  # its shortest decimal: 0.1 is 1/10
    if isinstance(x, str):
        return x
    raise TypeError(f"{where}: monomer_weight must be an int, a Fraction, a float or a string, "
                    f"not {type(x).__name__}")


def _run(G: Any, where: str, query: str, size: int, monomer: str, weight: Optional[str],
         adjacency: bool, method: str, threads: int, prime_set: int, progress: Progress) -> dict:
    n, edges, weights = _weighted_graph(G, where, weight, adjacency)
    options = _count_options(where, method=method, threads=threads)
    if isinstance(prime_set, bool) or not isinstance(prime_set, (int, np.integer)):
        raise TypeError(f"{where}: prime_set must be an int")
    options.prime_set = int(prime_set)
    return _call(_core.count_matchings_general,
                 (n, edges.astype(np.int64), weights.astype(np.int64), query, size, monomer),
                 options, progress)


def count_matchings(
    G: Any,
    size: Optional[int] = None,
    monomer_weight: Any = None,
    *,
    weight: Optional[str] = None,
    adjacency: bool = False,
    method: str = "auto",
    threads: int = 0,
    prime_set: int = 0,
    progress: Progress = False,
) -> Union[int, Fraction]:
    """The exact number of matchings of G of every size, the empty one included (the Hosoya
    index), as a Python ``int``; with ``size=K`` those of K edges; with ``monomer_weight=x`` the
    monomer–dimer partition function Z(x) = Σ_k m_k x^(n−2k) (an ``int``, or a ``Fraction`` when
    x is not an integer; x an int, a Fraction, a string such as "1/3" or "1e-3", or a float read
    by its shortest decimal, 0.1 being 1/10).

    G: a networkx ``Graph`` or ``MultiGraph`` (parallel edges add up; ``weight`` names an
    integer edge attribute to weigh each matching by the product of its edges'), or a matrix
    (SciPy sparse, NumPy, nested lists; integer entries, the weights): the bipartite graph of
    its rows and columns, or with ``adjacency=True`` the general graph of a symmetric matrix (its
    diagonal ignored). method: "auto", "frontier" (the frontier DP) or "hafnian" (the loop
    hafnian of y·A + x·I, ≤ 64 vertices). prime_set: which disjoint set of 62-bit primes to count
    modulo (two that agree check a count independently).

    >>> import networkx as nx
    >>> count_matchings(nx.path_graph(10))             # Fibonacci F(11)
    89
    >>> count_matchings(nx.complete_graph(6), size=3)  # 5!! perfect matchings
    15
    >>> count_matchings(nx.path_graph(3), monomer_weight="1/2")   # x³ + 2x
    Fraction(9, 8)
    """
    where = "count_matchings"
    if size is not None and monomer_weight is not None:
        raise TypeError(f"{where}: give size or monomer_weight, not both")
    if size is not None:
        if isinstance(size, bool) or not isinstance(size, (int, np.integer)):
            raise TypeError(f"{where}: size must be an int")
        if size < 0:
            raise ValueError(f"{where}: size must be 0 or more, got {size}")
        r = _run(G, where, "size", int(size), "1", weight, adjacency, method, threads,
                 prime_set, progress)
        return r["numerator"]
    if monomer_weight is not None:
        r = _run(G, where, "monomer_dimer", 0, _monomer_text(monomer_weight, where), weight,
                 adjacency, method, threads, prime_set, progress)
        value = Fraction(r["numerator"], r["denominator"])
        return value.numerator if value.denominator == 1 else value
    return _run(G, where, "all", 0, "1", weight, adjacency, method, threads, prime_set,
                progress)["numerator"]


def matching_polynomial(
    G: Any,
    *,
    weight: Optional[str] = None,
    adjacency: bool = False,
    method: str = "auto",
    threads: int = 0,
    prime_set: int = 0,
    progress: Progress = False,
) -> List[int]:
    """The coefficients m_0 … m_⌊n/2⌋ of the matching polynomial (m_k: the matchings of k edges,
    weighted by the product of their edges' weights), exact Python ints; G as for
    :func:`count_matchings`.

    >>> import networkx as nx
    >>> matching_polynomial(nx.complete_graph(4))
    [1, 6, 3]
    """
    return _run(G, "matching_polynomial", "polynomial", 0, "1", weight, adjacency, method,
                threads, prime_set, progress)["coefficients"]


def estimate_matchings(
    G: Any,
    monomer_weight: Any = 1,
    *,
    weight: Optional[str] = None,
    adjacency: bool = False,
    rel_error: Optional[float] = None,
    time: Optional[float] = None,
    samples: Optional[int] = None,
    seed: int = 1,
    confidence: float = 0.95,
    particles: int = 0,
    resample_every: int = 0,
    backend: str = "auto",
    threads: int = 0,
    gpus: Optional[Sequence[int]] = None,
    progress: Progress = False,
) -> Estimate:
    """An unbiased estimate, with a confidence interval, of the monomer–dimer partition function
    Z(x) = Σ_k m_k x^(n−2k) of G at a monomer weight x > 0 — with x = 1 (the default) the number
    of all matchings, the Hosoya index — for graphs beyond exact counting (lattices with 10^4
    vertices): sequential importance sampling along the frontier DP's sweep order, guided by
    belief propagation, with the populations, stopping rules and interval of :func:`estimate`
    (docs/matchings.md). G as for :func:`count_matchings`, real nonnegative weights allowed;
    x an int, a float, a Fraction or a string ("1/3", "2.5e-3"). Stopping rules, seed,
    confidence, particles, resample_every, backend ("cpu", "cuda", "auto"), threads, gpus and
    progress as for :func:`estimate`.

    >>> e = estimate_matchings(grid(8, 8), rel_error=0.02)
    >>> e.ci[0] < count_matchings(grid(8, 8)) < e.ci[1]
    True
    """
    where = "estimate_matchings"
    text = _monomer_text(monomer_weight, where)
    try:
        x = float(Fraction(text))
    except (ValueError, ZeroDivisionError, OverflowError):
        raise ValueError(f"{where}: monomer_weight {text!r} is not a number") from None
    opts = _estimate_options(where, rel_error=rel_error, time=time, samples=samples, seed=seed,
                             confidence=confidence, particles=particles,
                             resample_every=resample_every, backend=backend, threads=threads,
                             gpus=gpus)
    n, edges, weights = _weighted_graph(G, where, weight, adjacency, real=True)
    progress = _arguments.progress(progress, where)
    callback, close = _progress_callback(progress)
    try:
        r = _core.estimate_matchings_general(
            n, np.ascontiguousarray(edges, dtype=np.int64),
            np.ascontiguousarray(weights, dtype=np.float64), x, opts,
            callback)
    finally:
        close()
    return _as_estimate(r)
