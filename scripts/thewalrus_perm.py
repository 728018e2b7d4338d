#!/usr/bin/env python3
"""Times thewalrus's permanent on one matrix, for pmcount-bench.

Usage:
    thewalrus_perm.py MATRIX_FILE [REPEAT]   time perm(A, "bbfg") and perm(A, "ryser")
    thewalrus_perm.py --probe                report whether thewalrus can be imported

MATRIX_FILE holds the square matrix as whitespace-separated rows of decimal numbers (pmcount-bench
writes them with 17 significant digits, so the doubles are the same on both sides).

Prints exactly one JSON object on stdout:
    {"bbfg": {"seconds": median, "samples": [...], "value": v},
     "ryser": {...}, "n": 28, "version": "<thewalrus>", "numba": "<numba>"}
or, with --probe, {"version": ..., "numba": ...}. When thewalrus (or numpy) cannot be imported it
prints {"error": "..."} and exits with status 2, so that the caller can tell "not installed" from
a failure while timing (status 1).
"""

import json
import sys

from thewalrus_common import EXIT_FAILURE, import_thewalrus, parse_arguments, time_call


def time_method(perm, matrix, method, repeat):
    seconds, samples, value = time_call(lambda: perm(matrix, method=method), repeat)
    # The caller compares values to full double precision: send the repr, which round-trips.
    return {"seconds": seconds, "samples": samples, "value": float(value)}


def main(argv):
    path, repeat = parse_arguments(argv, "perm")
    numpy, perm, versions = import_thewalrus("perm")
    matrix = numpy.loadtxt(path, dtype=numpy.float64, ndmin=2)
    if matrix.shape[0] != matrix.shape[1]:
        print(json.dumps({"error": f"matrix is {matrix.shape[0]}x{matrix.shape[1]}, not square"}))
        return EXIT_FAILURE

    # thewalrus's kernels are numba functions compiled on first call; compile both, for float64
    # input, on a tiny matrix so that the timings below measure the permanent, not the JIT.
    # Order 6 because perm() answers orders below 4 itself without calling the kernels.
    warm_up = numpy.random.default_rng(0).random((6, 6))
    perm(warm_up, method="bbfg")
    perm(warm_up, method="ryser")

    result = {
        "bbfg": time_method(perm, matrix, "bbfg", repeat),
        "ryser": time_method(perm, matrix, "ryser", repeat),
        "n": int(matrix.shape[0]),
    }
    result.update(versions)
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
