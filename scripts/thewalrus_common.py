"""What the thewalrus timing scripts for pmcount-bench share (thewalrus_perm.py,
thewalrus_hafnian.py): importing thewalrus with its versions, the command line, timing a call."""

import json
import statistics
import sys
import time

EXIT_FAILURE = 1
EXIT_UNAVAILABLE = 2


def import_thewalrus(function_name):
    """Returns (numpy, thewalrus.<function_name>, versions); when thewalrus (or numpy) cannot be
    imported, prints {"error": ...} and exits with EXIT_UNAVAILABLE."""
    try:
        import numpy
        import thewalrus
        function = getattr(thewalrus, function_name)
    except (ImportError, AttributeError) as error:
        print(json.dumps({"error": f"cannot import thewalrus: {error}"}))
        sys.exit(EXIT_UNAVAILABLE)
    versions = {"version": getattr(thewalrus, "__version__", "unknown")}
    try:
        import numba

        versions["numba"] = numba.__version__
        versions["numba_threads"] = numba.get_num_threads()
    except ImportError:
        versions["numba"] = None
    return numpy, function, versions


def parse_arguments(argv, function_name):
    """(matrix path, repeat) from `SCRIPT MATRIX_FILE [REPEAT]`; answers `SCRIPT --probe` itself
    (prints the versions and exits 0) and exits with EXIT_FAILURE on a usage error."""
    if len(argv) == 2 and argv[1] == "--probe":
        _, _, versions = import_thewalrus(function_name)
        print(json.dumps(versions))
        sys.exit(0)
    if len(argv) not in (2, 3):
        print(json.dumps({"error": f"usage: {argv[0]} MATRIX_FILE [REPEAT]"}))
        sys.exit(EXIT_FAILURE)
    repeat = int(argv[2]) if len(argv) == 3 else 1
    if repeat < 1:
        print(json.dumps({"error": "REPEAT must be at least 1"}))
        sys.exit(EXIT_FAILURE)
    return argv[1], repeat


def time_call(call, repeat):
    """Median seconds, all samples, and the last value of `repeat` calls of call()."""
    samples = []
    value = None
    for _ in range(repeat):
        start = time.perf_counter()
        value = call()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples), samples, value
