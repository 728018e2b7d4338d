#!/usr/bin/env python3
"""Times pmcount's photonics functions against thewalrus's, one JSON object per line.

    python3 python/benchmarks/bench_photonics.py [--repeat 3] [--threads 2] [--out FILE]
        [--tor-modes 24] [--only CASE ...]

- hafnian-repeated: a random complex symmetric 12×12 matrix (entries of size about 1/4) with
  multiplicities summing to 40 photons, pmcount.hafnian_repeated against
  thewalrus.hafnian_repeated with its defaults, on the same matrix in the same run, and once
  in double-double with a bound (the reference both are compared with);
- permanent-repeated: a random 10×10 unitary, every row and column repeated 3 times (30
  photons), pmcount.permanent(U, rows=, cols=) against thewalrus.permanent_repeated(U, rpt);
- torontonian: O = I − Q⁻¹ of a random 24-mode Gaussian state (thewalrus.random.random_covariance,
  complex 48×48), pmcount.torontonian(O) against thewalrus.tor(O) (--tor-modes to change N);
- loop-hafnian-batch: 10^4 random complex symmetric 16×16 matrices, pmcount.hafnian_batched(As,
  loop=True) against a Python loop of thewalrus.hafnian(A, loop=True) (--batch to change 10^4);
  the ratio line gives the largest relative difference over the items;
- loop-hafnian-diagonals: one such matrix with 10^4 random complex diagonals,
  pmcount.hafnian_batched(A, loop=True, mu=mus) against the same Python loop on the matrices.
Each pair gets a ratio line with the speed-up and the relative difference of the values.
Seconds are medians over --repeat runs (thewalrus's numba kernels are compiled first).
"""

import argparse
import platform
import sys

import numpy as np

import pmcount
from bench_python import json_lines, timed


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--out", help="also append the lines to this file")
    parser.add_argument("--tor-modes", type=int, default=24)
    parser.add_argument("--only", action="append", help="run only this case (repeatable)")
    parser.add_argument("--batch", type=int, default=10000)
    args = parser.parse_args()
    emit, close = json_lines(args.out)

    import thewalrus

    emit({"context": {"tool": "bench_photonics.py", "pmcount": pmcount.__version__,
                      "thewalrus": thewalrus.__version__, "python": platform.python_version(),
                      "machine": platform.processor(), "threads": args.threads,
                      "repeat": args.repeat}})
    rng = np.random.default_rng(36)
    small = rng.normal(size=(3, 3)) + 1j * rng.normal(size=(3, 3))
    thewalrus.hafnian_repeated(small + small.T, [2, 2, 2])  # compile the numba kernels
    thewalrus.permanent_repeated(small, [2, 2, 2])

    x = rng.normal(size=(12, 12)) + 1j * rng.normal(size=(12, 12))
    a = (x + x.T) / 8
    rpt = [4, 3, 4, 3, 4, 3, 4, 3, 3, 3, 3, 3]
    cases = [("hafnian-repeated", "12 modes, 40 photons",
              lambda: pmcount.hafnian_repeated(a, rpt, threads=args.threads, full=True),
              lambda: thewalrus.hafnian_repeated(a, rpt),
              # the reference: double-double with a bound (the sum over the multiplicities)
              lambda: pmcount.hafnian_repeated(a, rpt, precision="dd", threads=args.threads,
                                               full=True))]
    q, _ = np.linalg.qr(rng.normal(size=(10, 10)) + 1j * rng.normal(size=(10, 10)))
    reps = [3] * 10
    cases.append(("permanent-repeated", "10 modes, 30 photons",
                  lambda: pmcount.permanent(q, rows=reps, cols=reps, threads=args.threads,
                                            full=True),
                  lambda: thewalrus.permanent_repeated(q, reps), None))
    from thewalrus.quantum import Qmat
    from thewalrus.random import random_covariance
    np.random.seed(36)
    thewalrus.tor(np.eye(4) - np.linalg.inv(Qmat(random_covariance(2))))  # compile
    n = args.tor_modes
    o = np.eye(2 * n) - np.linalg.inv(Qmat(random_covariance(n)))
    cases.append(("torontonian", f"{n} modes ({2 * n}×{2 * n}, complex)",
                  lambda: pmcount.torontonian(o, threads=args.threads, full=True),
                  lambda: thewalrus.tor(o), None))
    for case, size, ours_call, theirs_call, reference_call in cases:
        if args.only and case not in args.only:
            continue
        ours_s, ours_samples, ours = timed(ours_call, args.repeat)
        emit({"case": case, "size": size, "engine": "pmcount", "threads": args.threads,
              "seconds": ours_s, "samples": ours_samples, "value": str(ours.value),
              "error_bound": ours.error, "method": ours.method, "arithmetic": ours.arithmetic})
        theirs_s, theirs_samples, theirs = timed(theirs_call, args.repeat)
        emit({"case": case, "size": size, "engine": "thewalrus", "seconds": theirs_s,
              "samples": theirs_samples, "value": str(complex(theirs))})
        emit({"case": case, "size": size,
              "ratio": f"pmcount(threads={args.threads}) vs thewalrus (default)",
              "speedup": theirs_s / ours_s,
              "rel_difference": abs(complex(ours.value) - complex(theirs)) / abs(ours.value)})
        if reference_call is not None:
            reference_s, _, reference = timed(reference_call, 1)
            truth = complex(reference.value)
            emit({"case": case, "size": size, "engine": "pmcount reference (once)",
                  "seconds": reference_s, "value": str(reference.value),
                  "error_bound": reference.error, "arithmetic": reference.arithmetic,
                  "pmcount_rel_difference": abs(complex(ours.value) - truth) / abs(truth),
                  "thewalrus_rel_difference": abs(complex(theirs) - truth) / abs(truth)})
    if not args.only or "loop-hafnian-batch" in args.only:
        batch_case(args, emit, rng, thewalrus)
    if not args.only or "loop-hafnian-diagonals" in args.only:
        batch_case(args, emit, rng, thewalrus, shared=True)
    close()
    return 0


def batch_case(args, emit, rng, thewalrus, shared=False):
    x = rng.normal(size=(args.batch, 16, 16)) + 1j * rng.normal(size=(args.batch, 16, 16))
    many = (x + x.transpose(0, 2, 1)) / 4
    thewalrus.hafnian(many[0], loop=True)  # compile
    if shared:  # one matrix, args.batch diagonals
        case, size = "loop-hafnian-diagonals", f"one complex matrix of order 16, {args.batch} diagonals"
        mus = rng.normal(size=(args.batch, 16)) + 1j * rng.normal(size=(args.batch, 16))
        for b, mu in zip(many, mus):
            b[...] = many[0]
            np.fill_diagonal(b, mu)
        ours_call = lambda: pmcount.hafnian_batched(many[0], loop=True, mu=mus,  # noqa: E731
                                                    threads=args.threads)
    else:
        case, size = "loop-hafnian-batch", f"{args.batch} matrices of order 16, complex"
        ours_call = lambda: pmcount.hafnian_batched(many, loop=True,  # noqa: E731
                                                    threads=args.threads)
    ours_s, ours_samples, ours = timed(ours_call, args.repeat)
    emit({"case": case, "size": size, "engine": "pmcount", "threads": args.threads,
          "seconds": ours_s, "samples": ours_samples, "method": ours[0].details.method,
          "arithmetic": ours[0].details.arithmetic})
    theirs_s, theirs_samples, theirs = timed(
        lambda: [thewalrus.hafnian(a, loop=True) for a in many], args.repeat)
    emit({"case": case, "size": size, "engine": "thewalrus (a Python loop)", "seconds": theirs_s,
          "samples": theirs_samples})
    worst = max(abs(complex(o) - complex(t)) / abs(t) for o, t in zip(ours, theirs))
    emit({"case": case, "size": size,
          "ratio": f"pmcount batch (threads={args.threads}) vs a loop over thewalrus",
          "speedup": theirs_s / ours_s, "rel_difference": worst})


if __name__ == "__main__":
    sys.exit(main())
