#!/usr/bin/env python3
"""Fuzz harness for the Python package's converters: NumPy arrays of any dtype, shape, strides and
values (NaN, inf, huge), SciPy sparse matrices of every format, networkx graphs of every class
(odd node labels, attributes and weights of odd types, self-loops, isolated nodes) and nested
lists, each given with drawn options (valid or not) to a public entry point.

The only exceptions allowed out are pmcount.Error and TypeError (the documented one for values
of the wrong type); anything else — another exception, a RuntimeWarning, a crash, a hang — is a
finding. Inputs
stay tiny (order 8 at most, multiplicities that keep permanents below order 20, a few dozen
samples) so that no call is exponential in practice, and small exact answers are checked
against brute force: a wrong number is a finding too.

Run with atheris (pip install atheris; libFuzzer's flags after the script):
    python python/tests/fuzz_converters.py -max_total_time=1800 -timeout=30 -rss_limit_mb=4096
test_fuzz_replay.py replays a fixed, seeded set of inputs through the same one_input() without
atheris.
"""

import fractions
import itertools
import math
import sys
import warnings

import networkx as nx
import numpy as np
import scipy.sparse as sp

import pmcount

MAX_ORDER = 8


class Draw:
    """Values drawn from the fuzzer's bytes; when the bytes run out every draw is 0 (the first
    choice), so any byte string is an input."""

    def __init__(self, data: bytes):
        self.data = data
        self.at = 0

    def byte(self) -> int:
        if self.at >= len(self.data):
            return 0
        self.at += 1
        return self.data[self.at - 1]

    def below(self, n: int) -> int:
        """An integer in [0, n)."""
        value = 0
        for _ in range((max(n - 1, 1).bit_length() + 7) // 8):
            value = value * 256 + self.byte()
        return value % n

    def pick(self, options):
        return options[self.below(len(options))]

    def flag(self) -> bool:
        return self.byte() % 2 == 1

    def number(self, kind: str):
        """A value of the kind ("int", "float", "complex"), odd ones often."""
        ints = [0, 1, -1, 2, 3, 7, -5, 2**31, 2**53 + 1, 2**62, 2**63 - 1, -(2**63), 2**63,
                2**64 - 1, 2**64, 10**30]
        floats = [0.0, -0.0, 1.0, 0.5, -2.25, 1e-300, 5e-324, 1e300, 1.7976931348623157e308,
                  math.nan, math.inf, -math.inf, 1 / 3]
        if kind == "int":
            return self.pick(ints) if self.flag() else self.below(7) - 3
        if kind == "float":
            return self.pick(floats) if self.flag() else (self.below(9) - 4) / 2
        return complex(self.number("float"), self.number("float"))


DTYPES = [np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32,
          np.uint64, np.float16, np.float32, np.float64, np.longdouble, np.complex64,
          np.complex128, np.clongdouble, object, np.str_, "datetime64[s]", "V8"]


def kind_of(dtype) -> str:
    d = np.dtype(dtype)
    if d.kind == "c":
        return "complex"
    if d.kind == "f":
        return "float"
    return "int"


def values(draw: Draw, count: int, dtype) -> list:
    kind = kind_of(dtype)
    if draw.flag():  # mostly small entries, where answers can be checked
        return [draw.below(3) - (draw.below(2) if kind != "int" or draw.flag() else 0)
                for _ in range(count)]
    return [draw.number(kind) for _ in range(count)]


def array(draw: Draw):
    """A NumPy array: any dtype, 0 to 3 dimensions, strided, reversed, Fortran-ordered or
    read-only; object arrays of mixed Python numbers; subclasses (np.matrix, masked)."""
    ndim = draw.pick([2, 2, 2, 2, 0, 1, 3])
    shape = tuple(draw.below(MAX_ORDER + 1) for _ in range(ndim))
    if ndim == 2 and draw.flag():
        shape = (shape[0], shape[0])
    dtype = draw.pick(DTYPES)
    size = int(np.prod(shape)) if shape else 1
    raw = values(draw, size, dtype)
    if dtype == object:
        extra = [fractions.Fraction(1, 3), True, None, "1", 1 + 0j, 2**70, np.float32(0.5), []]
        raw = [draw.pick(extra) if draw.below(8) == 0 else x for x in raw]
        a = np.empty(size, dtype=object)
        for k, x in enumerate(raw):
            a[k] = x
        a = a.reshape(shape)
    else:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                a = np.array(raw, dtype=object).astype(dtype).reshape(shape)
            except (OverflowError, ValueError, TypeError):
                a = np.zeros(shape, dtype=dtype)
    layout = draw.below(7)
    if layout == 1 and ndim == 2:
        a = np.asfortranarray(a)
    elif layout == 2 and ndim == 2:
        a = a.T
    elif layout == 3 and ndim >= 1:
        a = a[::-1]
    elif layout == 4 and ndim == 2:  # every second row and column of a larger array
        big = np.zeros((2 * a.shape[0], 2 * a.shape[1]), dtype=a.dtype)
        big[::2, ::2] = a
        a = big[::2, ::2]
    elif layout == 5:
        a.flags.writeable = False
    elif layout == 6 and ndim == 2 and a.dtype != object:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", PendingDeprecationWarning)  # np.matrix's
            a = np.matrix(a) if draw.flag() else np.ma.masked_array(a, mask=a == 0)
    return a


SPARSE = [sp.csr_array, sp.csc_array, sp.coo_array, sp.bsr_array, sp.dia_array, sp.lil_array,
          sp.dok_array, sp.csr_matrix, sp.csc_matrix, sp.coo_matrix, sp.bsr_matrix,
          sp.dia_matrix, sp.lil_matrix, sp.dok_matrix]


def sparse(draw: Draw):
    """A SciPy sparse matrix or array of any format, with duplicate (unsummed) entries, explicit
    zeros and unsorted indices; now and then a 1-dimensional COO array."""
    rows, cols = draw.below(MAX_ORDER + 1), draw.below(MAX_ORDER + 1)
    if draw.flag():
        cols = rows
    dtype = draw.pick([np.int8, np.int32, np.int64, np.uint64, np.float32, np.float64,
                       np.complex128, np.bool_])
    count = draw.below(2 * rows * cols + 1) if rows and cols else 0
    r = [draw.below(rows) for _ in range(count)]
    c = [draw.below(cols) for _ in range(count)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            data = np.array(values(draw, count, dtype), dtype=object).astype(dtype)
        except (OverflowError, ValueError, TypeError):
            data = np.ones(count, dtype=dtype)
        if draw.below(8) == 7:
            return sp.coo_array((data, (r,)), shape=(max(rows, max(r, default=0) + 1),))
        coo = sp.coo_array((data, (r, c)), shape=(rows, cols))
        fmt = draw.pick(SPARSE)
        if fmt in (sp.coo_array, sp.coo_matrix):
            return fmt((data, (r, c)), shape=(rows, cols))  # duplicates kept
        m = fmt(coo)
        if fmt in (sp.csr_array, sp.csc_array, sp.csr_matrix, sp.csc_matrix) and draw.flag():
            for k in range(len(m.indptr) - 1):  # each row's (column's) indices reversed
                span = slice(m.indptr[k], m.indptr[k + 1])
                m.indices[span], m.data[span] = m.indices[span][::-1], m.data[span][::-1]
            m.has_sorted_indices = False
        return m


class UserGraph(nx.Graph):
    pass


class UserMultiDiGraph(nx.MultiDiGraph):
    pass


LABELS = [0, 1, 2, "a", "b", (0, 1), (1, 0), 2.5, math.nan, frozenset({1}), "", -7, 10**40,
          True, b"x", ("nested", (1, 2)), 3, 4, 5, 6, 7, 8, "c", "d"]
WEIGHTS = [1, 0, -1, 2.5, math.nan, math.inf, "heavy", None, 1j, [1, 2], {"w": 1}, 10**30,
           np.float32(0.25)]


def graph(draw: Draw):
    """A networkx graph of any class (a user's subclass too) with odd labels, self-loops,
    isolated nodes, parallel edges and weights of odd types."""
    cls = draw.pick([nx.Graph, nx.DiGraph, nx.MultiGraph, nx.MultiDiGraph, UserGraph,
                     UserMultiDiGraph])
    g = cls()
    labels = [draw.pick(LABELS) for _ in range(draw.below(MAX_ORDER + 1))]
    g.add_nodes_from(labels)
    nodes = list(g.nodes())
    for _ in range(draw.below(3 * len(nodes) + 1) if nodes else 0):
        u, v = draw.pick(nodes), draw.pick(nodes)
        if u == v and draw.below(4):
            continue  # self-loops now and then
        attrs = {draw.pick(["weight", "capacity", "w"]): draw.pick(WEIGHTS)} if draw.flag() else {}
        g.add_edge(u, v, **attrs)
    view = draw.below(6)
    if view == 1:
        g = g.subgraph(nodes[: max(1, len(nodes) - 1)])
    elif view == 2:
        g = nx.freeze(g)
    elif view == 3 and g.is_directed():
        g = nx.reverse_view(g)
    return g


def nested_lists(draw: Draw):
    """Lists of lists: ragged, deeper, empty, of mixed Python numbers and non-numbers."""
    rows = draw.below(MAX_ORDER + 1)
    cols = draw.below(MAX_ORDER + 1)
    kinds = ["int", "int", "float", "complex"]
    out = []
    for _ in range(rows):
        width = draw.below(MAX_ORDER + 1) if draw.below(6) == 5 else cols  # ragged now and then
        row = []
        for _ in range(width):
            pick = draw.below(12)
            if pick == 11:
                row.append(draw.pick([None, "x", [1], fractions.Fraction(2, 3), True, ()]))
            else:
                row.append(draw.number(draw.pick(kinds)) if pick == 10 else draw.below(3))
        out.append(tuple(row) if draw.below(8) == 7 else row)
    return tuple(out) if draw.below(8) == 7 else out


# Each option: (valid values, values out of range or of the wrong type).
OPTIONS = {
    "method": (["auto", "ryser", "sparyser", "skipper", "planar", "frontier", "hafnian",
                "brute-force"], ["fastest", "", 3, "ryser\n"]),
    "precision": (["auto", "exact", "double", "dd", "certified", "plain-double"], ["quad", None]),
    "backend": (["auto", "cpu"], ["cuda", "gpu", 0]),
    "threads": ([0, 1, 2, np.int8(1)], [-1, 4097, 2**40, 1.5, True]),
    "gpus": ([None, [], [0]], [[-1], [2**70], 0, "0"]),
    "gpu_kernels": (["auto", "tables", "generated"], ["jit"]),
    "max_time": ([None, 0, 1e9, math.inf, 10**400], [-1, math.nan, "1", -(10**400)]),
    "structure": ([True, False], [1, None]),
    "reductions": ([True, False], ["no"]),
    "general": ([False, True], [0]),
    "full": ([False, True], [1]),
    "progress": ([False, None, lambda fraction, elapsed: None], [3, "bar"]),
    "hafnian": ([False, True], [None]),
    # estimate's
    "samples": ([16, 64, np.uint16(20)], [-5, 2**64, 1.5]),
    "seed": ([1, 0, 2**64 - 1], [-1, 2**64, "1"]),
    "estimator": (["scaling+", "scaling", "rasmussen", "rasmussen+", "bethe"], ["bogus", None]),
    "particles": ([0, 1, 4], [-1, 2**30 + 1]),
    "confidence": ([0.95, 0.5], [0, 1, math.nan, 10**400]),
    "rel_error": ([None, 0.5, 0], [-1, math.inf]),
    "resample_every": ([0, 1, 3], [-1, 2**31]),
    "time": ([0.05], [-1, math.nan]),
}
COUNT = ["method", "backend", "threads", "gpus", "gpu_kernels", "structure", "reductions",
         "max_time", "progress", "full"]
TAKES = {
    "count_perfect_matchings": COUNT + ["general"],
    "count_cycle_covers": COUNT,
    "permanent": COUNT + ["precision"],
    "hafnian": [o for o in COUNT if o != "gpu_kernels"] + ["precision"],
    "explain": [o for o in COUNT if o != "full"] + ["precision", "general", "hafnian"],
    "estimate": ["samples", "seed", "estimator", "particles", "confidence", "rel_error",
                 "resample_every", "time", "backend", "threads", "gpus", "progress"],
}


def options(draw: Draw, function: str) -> dict:
    """Options of `function`, each given now and then, seldom out of range."""
    out = {}
    for name in TAKES[function]:
        if draw.below(4) == 3:  # (when the bytes run out: no option, as every draw is 0)
            valid, invalid = OPTIONS[name]
            out[name] = draw.pick(invalid if draw.below(8) == 7 else valid)
    return out


# ---- oracles ------------------------------------------------------------------------------------


def exact_permanent(a) -> fractions.Fraction:
    n = len(a)
    return sum((math.prod((fractions.Fraction(a[i][p[i]]) for i in range(n)), start=1)
                for p in itertools.permutations(range(n))), start=fractions.Fraction(0))


def reference(x):
    """The square matrix of order 6 at most that x is, as lists of Python ints or floats summed
    exactly (a sparse matrix's repeated entries too), or None where brute force cannot judge."""
    if type(x) is np.ndarray and x.ndim == 2 and x.dtype.kind in "biuf":
        shape, triplets = x.shape, [(i, j, v) for (i, j), v in np.ndenumerate(x)]
    elif sp.issparse(x) and len(x.shape) == 2 and x.dtype.kind in "biuf":
        coo = x.tocoo(copy=True)
        shape, triplets = x.shape, list(zip(coo.row.tolist(), coo.col.tolist(), coo.data.tolist()))
    else:
        return None
    if shape[0] != shape[1] or shape[0] > 6:
        return None
    rows = [[0] * shape[1] for _ in range(shape[0])]
    for i, j, v in triplets:
        v = int(v) if x.dtype.kind in "biu" else float(v)
        if isinstance(v, float) and (not math.isfinite(v) or abs(v) > 1e30
                                     or (v != 0 and abs(v) < 1e-30)):
            return None  # beyond the range where a double's sum of terms can be judged simply
        rows[i][j] += v
    return rows  # integers of any size: pmcount counts them exactly


def check_permanent(x, result) -> None:
    """A small permanent against brute force in exact rational arithmetic."""
    rows = reference(x)
    if rows is None:
        return
    truth = exact_permanent(rows)
    value = result.value if isinstance(result, pmcount.Result) else result
    if isinstance(value, int):
        assert value == truth, f"permanent {value} of {rows}, truth {truth}"
        return
    # A floating result: within its error figure, or within what cancellation among the terms
    # could cost (perm |A| times a few units in the last place).
    magnitude = exact_permanent([[abs(v) for v in row] for row in rows])
    error = float(result.error)  # a Result's or a FloatResult's
    slack = 4 * error + 1e-13 * float(magnitude) + 1e-300
    assert abs(fractions.Fraction(float(value)) - truth) <= slack, \
        f"permanent {float(value)!r} ± {error} of {rows}, truth {float(truth)!r}"


# ---- the harness --------------------------------------------------------------------------------


ALLOWED = (pmcount.Error, TypeError)


def inputs(draw: Draw):
    return draw.pick([array, array, sparse, graph, nested_lists])(draw)


def call(draw: Draw, x) -> None:
    function = draw.pick(list(TAKES))
    opts = options(draw, function)
    if function == "permanent":
        if draw.below(4) == 0 and len(getattr(x, "shape", ())) == 2:
            opts["rows"] = [draw.below(3) for _ in range(x.shape[0])]
            opts["cols"] = [draw.below(3) for _ in range(x.shape[1])]
        result = pmcount.permanent(x, **opts)
        if "rows" not in opts:
            check_permanent(x, result)
    elif function == "estimate":
        # A time limit bounds the draws whatever `samples` says.
        pmcount.estimate(x, **{"samples": 32, "time": 0.05, "threads": 1, **opts})
    else:
        getattr(pmcount, function)(x, **opts)


def one_input(data: bytes) -> None:
    draw = Draw(data)
    try:
        x = inputs(draw)
    except (ValueError, TypeError, OverflowError, MemoryError):
        return  # an input NumPy, SciPy or networkx itself refuses to build
    try:
        with warnings.catch_warnings():
            # A NumPy warning (an overflow while converting) escaping to the user is a finding.
            warnings.simplefilter("error", RuntimeWarning)
            call(draw, x)
    except ALLOWED as e:
        message = str(e)
        assert "\n" not in message, f"a message of more than one line: {message!r}"
        if isinstance(e, pmcount.Error) and not isinstance(e, (pmcount.ProblemTooLargeError,
                                                                pmcount.NotCompiledError,
                                                                pmcount.DeviceError)):
            assert message, "an error without a message"


if __name__ == "__main__":
    import atheris

    # Coverage from every Python function loaded: pmcount's, this harness's (so that new kinds
    # of input count as progress) and the NumPy, SciPy and networkx code the converters reach.
    atheris.instrument_all()
    atheris.Setup(sys.argv, one_input)
    atheris.Fuzz()
