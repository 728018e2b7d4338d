#!/usr/bin/env python3
"""Times thewalrus's hafnian on one symmetric matrix, for `pmcount-bench hafnians`.

Usage:
    thewalrus_hafnian.py [--loop] MATRIX_FILE [REPEAT]   time hafnian(A) (with --loop:
                                                hafnian(A, loop=True)) with its default method
    thewalrus_hafnian.py --probe                report whether thewalrus can be imported

MATRIX_FILE holds the real symmetric matrix as whitespace-separated rows of decimal numbers
(pmcount-bench writes them with 17 significant digits, so the doubles are the same on both sides);
a complex matrix has twice as many columns, each entry written as its real and imaginary part.

thewalrus.hafnian(A) with no other argument: its default method ("glynn", the finite-difference
sieve over pairs; numba, parallel over the available cores), as a user who calls it gets.

Prints exactly one JSON object on stdout:
    {"hafnian": {"seconds": median, "samples": [...], "value": re, "value_im": im},
     "n": 40, "method": "default", "version": "<thewalrus>", "numba": "<numba>",
     "numba_threads": T}
or, with --probe, {"version": ..., "numba": ...}. When thewalrus (or numpy) cannot be imported it
prints {"error": "..."} and exits with status 2, so that the caller can tell "not installed" from
a failure while timing (status 1).
"""

import json
import sys

from thewalrus_common import EXIT_FAILURE, import_thewalrus, parse_arguments, time_call


def main(argv):
    loop = "--loop" in argv[1:]
    argv = [a for a in argv if a != "--loop"]
    path, repeat = parse_arguments(argv, "hafnian")
    numpy, hafnian, versions = import_thewalrus("hafnian")
    table = numpy.loadtxt(path, dtype=numpy.float64, ndmin=2)
    n = table.shape[0]
    if table.shape[1] == 2 * n:
        matrix = table[:, 0::2] + 1j * table[:, 1::2]
    elif table.shape[1] == n:
        matrix = table
    else:
        print(json.dumps({"error": f"matrix is {table.shape[0]}x{table.shape[1]}, not square"}))
        return EXIT_FAILURE

    # thewalrus's kernels are numba functions compiled on first call (and cached); compile them
    # for this dtype on a small matrix so that the timing measures the hafnian, not the JIT.
    # Order 8 because hafnian() answers orders up to 4 itself without calling the kernels.
    warm_up = numpy.random.default_rng(0).random((8, 8)).astype(matrix.dtype)
    hafnian(warm_up + warm_up.T, loop=loop)

    seconds, samples, value = time_call(lambda: hafnian(matrix, loop=loop), repeat)
    value = complex(value)
    result = {
        "hafnian": {"seconds": seconds, "samples": samples, "value": value.real,
                    "value_im": value.imag},
        "n": int(n),
        "method": "default, loop=True" if loop else "default",
    }
    result.update(versions)
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
