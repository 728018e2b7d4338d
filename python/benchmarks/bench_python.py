#!/usr/bin/env python3
"""Times the Python API on the cases of docs/python.md, one JSON object per line.

    python3 python/benchmarks/bench_python.py [--n 28] [--repeat 3] [--threads 2] [--out FILE]

- permanent: random real n×n NumPy matrices (uniform in [0, 1), fixed seeds), pmcount.permanent
  with --threads threads against thewalrus.perm with its defaults, on the same matrix in the same
  run; a ratio line with the speed-up and the relative difference of the values, and each
  value's error against pmcount's double-double result (whose bound is about u·|perm|);
- grid: pmcount.count_perfect_matchings(networkx.grid_2d_graph(32, 32)), conversion included,
  checked against Kasteleyn's formula (mpmath).
Seconds are medians over --repeat runs (thewalrus's numba kernels are compiled before timing).
"""

import argparse
import json
import platform
import statistics
import sys
import time

import networkx as nx
import numpy as np

import pmcount


def timed(call, repeat):
    samples, value = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        value = call()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples), samples, value


def json_lines(path):
    """emit(obj) printing one JSON line (and appending it to `path` when given), and close()."""
    out = open(path, "a") if path else None

    def emit(obj):
        line = json.dumps(obj)
        print(line, flush=True)
        if out:
            out.write(line + "\n")

    return emit, (out.close if out else (lambda: None))


def kasteleyn_grid(m, n):
    import mpmath

    mpmath.mp.dps = 400
    product = mpmath.mpf(1)
    for j in range(1, m + 1):
        for k in range(1, n + 1):
            product *= (4 * mpmath.cos(mpmath.pi * j / (m + 1)) ** 2
                        + 4 * mpmath.cos(mpmath.pi * k / (n + 1)) ** 2)
    return int(mpmath.nint(mpmath.root(product, 4)))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, nargs="+", default=[28])
    parser.add_argument("--matrices", type=int, default=2, help="random matrices per n")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--out", help="also append the lines to this file")
    args = parser.parse_args()
    emit, close = json_lines(args.out)

    try:
        import thewalrus
    except ImportError:
        thewalrus = None
    emit({"context": {"tool": "bench_python.py", "pmcount": pmcount.__version__,
                      "thewalrus": getattr(thewalrus, "__version__", None),
                      "python": platform.python_version(), "machine": platform.processor(),
                      "threads": args.threads, "repeat": args.repeat}})
    if thewalrus is not None:
        thewalrus.perm(np.random.default_rng(0).random((8, 8)))  # compile its numba kernels

    for n in args.n:
        for k in range(args.matrices):
            a = np.random.default_rng(1000 * n + k).random((n, n))
            ours_s, ours_samples, ours = timed(
                lambda: pmcount.permanent(a, threads=args.threads), args.repeat)
            # The reference both are measured against: double-double (bound ~u·|perm|).
            reference = pmcount.permanent(a, precision="dd", threads=args.threads)
            emit({"case": "permanent-real", "n": n, "matrix": k, "engine": "pmcount",
                  "threads": args.threads, "seconds": ours_s, "samples": ours_samples,
                  "value": float(ours), "error_bound": ours.error, "method": ours.details.method,
                  "rel_error_vs_dd": abs(float(ours) - float(reference)) / abs(float(reference))})
            if thewalrus is None:
                emit({"note": "thewalrus not importable: no comparison"})
                continue
            walrus_s, walrus_samples, walrus = timed(lambda: thewalrus.perm(a), args.repeat)
            emit({"case": "permanent-real", "n": n, "matrix": k, "engine": "thewalrus.perm",
                  "threads": 1, "seconds": walrus_s, "samples": walrus_samples,
                  "value": float(walrus),
                  "rel_error_vs_dd": abs(float(walrus) - float(reference)) / abs(float(reference))})
            emit({"case": "permanent-real", "n": n, "matrix": k,
                  "ratio": f"pmcount(threads={args.threads}) vs thewalrus.perm (default)",
                  "speedup": walrus_s / ours_s,
                  "rel_difference": abs(float(ours) - float(walrus)) / abs(float(ours))})

    graph = nx.grid_2d_graph(32, 32)
    seconds, samples, value = timed(lambda: pmcount.count_perfect_matchings(graph), args.repeat)
    expected = kasteleyn_grid(32, 32)
    emit({"case": "grid-32x32-networkx", "engine": "pmcount", "seconds": seconds,
          "samples": samples, "digits": len(str(value)), "exact": value == expected,
          "method": pmcount.count_perfect_matchings(graph, full=True).method})
    close()
    return 0 if value == expected else 2


if __name__ == "__main__":
    sys.exit(main())
