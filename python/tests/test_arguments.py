"""Every argument of every public function: a value out of range raises a pmcount.Error that is a
ValueError, in one line naming the function, the argument and the allowed range; a value of the
wrong type raises TypeError; the limits' "none" values (0, None, inf) mean no limit."""

import math

import networkx as nx
import numpy as np
import pytest

import pmcount

SMALL = np.array([[1, 1], [1, 1]])
SYMMETRIC = np.ones((4, 4), dtype=int)
GRAPH = nx.cycle_graph(4)

# function name → a call of it on a tiny input with the given keyword arguments
CALLS = {
    "count_perfect_matchings": lambda **kw: pmcount.count_perfect_matchings(GRAPH, **kw),
    "count_cycle_covers": lambda **kw: pmcount.count_cycle_covers(SMALL, **kw),
    "permanent": lambda **kw: pmcount.permanent(SMALL, **kw),
    "hafnian": lambda **kw: pmcount.hafnian(SYMMETRIC, **kw),
    "explain": lambda **kw: pmcount.explain(SMALL, **kw),
    "estimate": lambda **kw: pmcount.estimate(SMALL, **{"samples": 64, **kw}),
    "grid": lambda **kw: pmcount.grid(**{"rows": 2, "cols": 2, **kw}),
    "torus": lambda **kw: pmcount.torus(**{"rows": 2, "cols": 2, **kw}),
    "hexagon": lambda **kw: pmcount.hexagon(**{"a": 1, "b": 1, "c": 1, **kw}),
    "aztec_diamond": lambda **kw: pmcount.aztec_diamond(**{"k": 1, **kw}),
    "complete_bipartite": lambda **kw: pmcount.complete_bipartite(**{"n": 2, **kw}),
    "random_bipartite": lambda **kw: pmcount.random_bipartite(**{"n": 2, "p": 0.5, **kw}),
    "random_regular_bipartite":
        lambda **kw: pmcount.random_regular_bipartite(**{"n": 2, "d": 1, **kw}),
    "triangular": lambda **kw: pmcount.triangular(**{"rows": 2, "cols": 2, **kw}),
    "hex_torus": lambda **kw: pmcount.hex_torus(**{"rows": 2, "cols": 2, **kw}),
    "kagome": lambda **kw: pmcount.kagome(**{"rows": 2, "cols": 2, **kw}),
    "cubic": lambda **kw: pmcount.cubic(**{"l": 2, "m": 2, "n": 2, **kw}),
    "fcc": lambda **kw: pmcount.fcc(**{"l": 1, "m": 1, "n": 1, **kw}),
    "random_regular": lambda **kw: pmcount.random_regular(**{"n": 4, "d": 2, **kw}),
}
COUNTS = ["count_perfect_matchings", "count_cycle_covers", "permanent", "hafnian", "explain"]
WITH_KERNELS = ["count_perfect_matchings", "count_cycle_covers", "permanent", "explain"]
WITH_PRECISION = ["permanent", "hafnian", "explain"]
WITH_DEVICES = COUNTS + ["estimate"]
GENERATORS = ["grid", "torus", "hexagon", "aztec_diamond", "complete_bipartite",
              "random_bipartite", "random_regular_bipartite", "triangular", "hex_torus", "kagome",
              "cubic", "fcc", "random_regular"]
SIZES = {"grid": "rows", "torus": "cols", "hexagon": "b", "aztec_diamond": "k",
         "complete_bipartite": "n", "random_bipartite": "n", "random_regular_bipartite": "d",
         "triangular": "cols", "hex_torus": "rows", "kagome": "rows", "cubic": "m", "fcc": "n",
         "random_regular": "d"}

# (function, argument, value, words of the allowed range the message must contain)
OUT_OF_RANGE = (
    [(f, "threads", v, "[0, 4096]") for f in WITH_DEVICES for v in (-1, 4097, 2**40, 2**200)]
    + [(f, "gpus", v, "[0, 1023]") for f in WITH_DEVICES for v in ([-1], [0, 1024], [2**70])]
    + [(f, "max_time", v, "[0, inf]") for f in COUNTS
       for v in (-1, -math.inf, math.nan, -(10**400))]
    + [(f, "method", v, "expected one of") for f in COUNTS for v in ("fastest", "ryser\n", "\0")]
    + [(f, "backend", "gpu", "expected one of") for f in WITH_DEVICES]
    + [(f, "precision", v, "expected one of") for f in WITH_PRECISION for v in ("quad", "")]
    + [(f, "gpu_kernels", "jit", "expected one of") for f in WITH_KERNELS]
    + [("permanent", "rows", v, "[0, 2^31 - 1]") for v in ([1, -1], [2**31, 1], [1], [[1, 1]])]
    + [("permanent", "cols", v, "[0, 2^31 - 1]") for v in ([-1, 1], [1, 2, 3])]
    + [("estimate", "samples", v, "[0, 2^64 - 1]") for v in (-5, 2**64)]
    + [("estimate", "seed", v, "[0, 2^64 - 1]") for v in (-1, 2**64)]
    + [("estimate", "time", v, "[0, inf]") for v in (-1, math.nan)]
    + [("estimate", "rel_error", v, "[0, inf)") for v in (-0.1, math.nan, math.inf)]
    + [("estimate", "confidence", v, "(0, 1)") for v in (0, 1, 1.5, -0.5, math.nan, 10**400)]
    + [("estimate", "particles", v, "[0, 2^30]") for v in (-1, 2**30 + 1)]
    + [("estimate", "resample_every", v, "[0, 2^31 - 1]") for v in (-1, 2**31)]
    + [("estimate", "estimator", v, "expected one of") for v in ("metropolis", "scaling+\t")]
    + [(f, SIZES[f], v, "[0, 2^31 - 1]") for f in GENERATORS for v in (-1, 2**31)]
    + [(f, "seed", v, "[0, 2^63 - 1]") for f in ("random_bipartite", "random_regular_bipartite")
       for v in (-1, 2**63)]
    + [("random_bipartite", "p", v, "[0, 1]") for v in (-0.1, 1.5, math.nan)]
    + [(f, "as_", "pandas", "'networkx', 'scipy', 'numpy'") for f in GENERATORS]
)


@pytest.mark.parametrize("function, argument, value, allowed", OUT_OF_RANGE)
def test_out_of_range_arguments_raise_one_line_value_errors(function, argument, value, allowed):
    with pytest.raises(pmcount.Error) as caught:
        CALLS[function](**{argument: value})
    error = caught.value
    assert isinstance(error, ValueError)
    message = str(error)
    assert "\n" not in message and "\0" not in message
    assert message.startswith(f"{function}: {argument}") or \
        message.startswith(f"{function}: each of {argument}"), message
    assert allowed in message, message


WRONG_TYPES = (
    [(f, "threads", v) for f in WITH_DEVICES for v in (1.5, 2.0, True, "2", None)]
    + [(f, "gpus", v) for f in WITH_DEVICES for v in (0, "0", [0.0], [None])]
    + [(f, "max_time", v) for f in COUNTS for v in ("10", 1j, True)]
    + [(f, "method", v) for f in COUNTS for v in (3, None, b"ryser")]
    + [(f, "backend", 0) for f in WITH_DEVICES]
    + [(f, "progress", v) for f in WITH_DEVICES for v in (3, "yes")]
    + [(f, o, v) for f in COUNTS for o in ("structure", "reductions") for v in (1, "no", None)]
    + [(f, "full", 1) for f in COUNTS if f != "explain"]
    + [("count_perfect_matchings", "general", "yes"), ("explain", "hafnian", 1)]
    + [("estimate", name, "1") for name in ("samples", "seed", "time", "rel_error",
                                             "confidence", "particles", "resample_every")]
    + [("estimate", "samples", 1e6), ("estimate", "estimator", None)]
    + [(f, SIZES[f], 2.5) for f in GENERATORS]
    + [("random_bipartite", "seed", 1.0), ("random_bipartite", "p", "0.5"), ("grid", "as_", None)]
    + [("explain", "full", True), ("explain", "rows", [1, 1])]
)


@pytest.mark.parametrize("function, argument, value", WRONG_TYPES)
def test_arguments_of_the_wrong_type_raise_type_errors(function, argument, value):
    with pytest.raises(TypeError) as caught:
        CALLS[function](**{argument: value})
    assert "\n" not in str(caught.value)
    assert argument in str(caught.value)


@pytest.mark.parametrize("function", WITH_DEVICES)
def test_arguments_at_their_limits_are_accepted(function, capsys):
    call = CALLS[function]
    if function in COUNTS:  # a 2×2 count starts one thread whatever the bound
        call(threads=4096)
    call(threads=np.int32(1), gpus=[0, 1023], backend="cpu")
    call(progress=np.False_)
    assert "%" not in capsys.readouterr().err  # no progress bar for np.False_
    if function in COUNTS:
        call(structure=np.True_, reductions=False)


@pytest.mark.parametrize("max_time", [None, 0, 0.0, math.inf, 10**400])
def test_max_time_zero_none_and_inf_mean_no_limit_as_on_the_command_line(max_time):
    # Predicted at about 0.07 s (0.1 s measured): refused under a limit of 0.001 s, counted under
    # none.
    a = np.random.default_rng(1).uniform(0, 1, (24, 24))
    assert pmcount.explain(a)["predicted_seconds"] > 0.001
    with pytest.raises(pmcount.ProblemTooLargeError):
        pmcount.permanent(a, max_time=0.001)
    assert pmcount.permanent(a, max_time=max_time) > 0


def test_estimate_limits_at_their_edges():
    e = pmcount.estimate(SMALL.astype(float) * 0.5, samples=2**64 - 1, time=0.2, seed=2**64 - 1,
                         confidence=0.999, particles=16, resample_every=2**31 - 1)
    assert e.samples > 0 and math.isclose(e.value, 0.5)
    e = pmcount.estimate(GRAPH, samples=np.uint64(1000), time=math.inf, rel_error=0, seed=0)
    assert e.samples == 1000


def test_generators_accept_numpy_integers_and_zero_sizes():
    assert pmcount.grid(np.int64(2), np.uint8(3)).number_of_nodes() == 6
    assert pmcount.grid(0, 3).number_of_nodes() == 0
    assert pmcount.random_bipartite(3, 1, seed=2**63 - 1).number_of_edges() == 9
