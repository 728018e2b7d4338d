"""pmcount._core binds the C++ library's option and result structs as classes, field by field:
every field of the headers' structs is an attribute (so no hand-kept list of fields can drift from
them), the package's results carry them all, the type stubs nanobind generates at build time
declare them, and the options' names before pmcount 0.2 still work, with a DeprecationWarning."""

import ast
import json
import math
import pathlib
import re
import warnings

import networkx as nx
import numpy as np
import pytest

import pmcount
from pmcount import _core

ROOT = pathlib.Path(__file__).resolve().parents[2]
STRUCTS = ["RunOptions", "CountOptions", "EstimateOptions", "CountResult", "Timings", "CountStats",
           "BlockReport", "StructureReport", "EstimateResult"]
# The progress callback is no field of the bound options: each call takes it as an argument.
CALL_ARGUMENTS = {"progress"}


def header_fields(struct):
    """The data members of `struct` as include/pmcount/*.hpp declares it, its base's first."""
    for header in sorted((ROOT / "include" / "pmcount").glob("*.hpp")):
        found = re.search(r"^struct " + struct + r"(?: : (\w+))? \{\n(.*?)^\};",
                          header.read_text(), re.MULTILINE | re.DOTALL)
        if found:
            break
    else:
        raise AssertionError(f"no header declares struct {struct}")
    base, body = found.groups()
    fields = header_fields(base) if base else []
    for statement in re.sub(r"//[^\n]*", "", body).split(";"):
        declaration = re.split(r"\s=\s|\{", statement)[0].strip()
        if declaration and not declaration.endswith((")", "const")):  # not a member function
            fields.append(re.findall(r"\w+", declaration)[-1])
    return fields


def bound_fields(cls):
    """The properties of a bound class, its bases' first."""
    return [name for klass in reversed(cls.__mro__)
            for name, attribute in vars(klass).items() if isinstance(attribute, property)]


@pytest.mark.parametrize("struct", STRUCTS)
def test_every_field_of_the_headers_structs_is_bound(struct):
    fields = [f for f in header_fields(struct) if f not in CALL_ARGUMENTS]
    assert len(fields) > 3
    assert bound_fields(getattr(_core, struct)) == fields


def test_options_take_the_names_the_command_line_takes():
    o = _core.CountOptions()
    assert (o.method, o.precision, o.backend, o.gpu_kernels) == ("auto",) * 4
    assert o.dulmage_mendelsohn and o.reductions and not o.general
    assert o.max_predicted_seconds == math.inf and o.max_memory > 0
    o.method, o.precision = "brute-force", "dd"
    copy = _core.CountOptions(o)
    copy.method = "ryser"
    assert (o.method, o.precision, copy.method) == ("brute-force", "dd", "ryser")
    with pytest.raises(pmcount.InvalidArgumentError, match="unknown method 'fastest'"):
        o.method = "fastest"
    e = _core.EstimateOptions()
    assert (e.estimator, e.layout, e.backend) == ("scaling+", "auto", "auto")
    e.estimator = "rasmussen+"
    assert e.estimator == "rasmussen+"
    r = _core.EstimateResult()
    r.stopped = "rel_error"
    assert r.stopped == "rel_error"
    with pytest.raises(pmcount.InvalidArgumentError):
        r.stopped = "boredom"


@pytest.mark.parametrize("value", [0, 1, -1, 2**64, -(2**64) + 1, 3**400, -(7**300)])
def test_exact_counts_are_python_ints_both_ways(value):
    r = _core.CountResult()
    r.exact, r.is_exact = value, True
    assert r.exact == value and type(r.exact) is int
    assert r.value_string() == str(value)


def test_results_carry_every_field_of_the_library():
    r = pmcount.count_perfect_matchings(nx.grid_2d_graph(6, 6), full=True)
    assert list(r.timings) == bound_fields(_core.Timings)
    assert list(r.stats) == bound_fields(_core.CountStats)
    assert r.stats["ranks"] == 1 and r.stats["resumed_chunks"] == 0
    assert r.timings["kernel_cache"] == "" and r.timings["compile_s"] == 0
    assert set(bound_fields(_core.StructureReport)) <= set(r.structure)
    # ... and the structure's keys before pmcount 0.2.
    assert r.structure["plan"] == r.structure["plan_text"] != ""
    assert r.structure["predicted_seconds"] == r.structure["predicted_s"]
    leaf = r.structure["leaves"][0]
    assert list(leaf)[:len(bound_fields(_core.BlockReport))] == bound_fields(_core.BlockReport)
    assert leaf["predicted_seconds"] == leaf["predicted_s"]
    e = pmcount.estimate(pmcount.grid(4, 4), samples=2000)
    assert list(e.raw) == bound_fields(_core.EstimateResult)
    assert e.raw["stopped"] == "samples" and e.raw["ranks"] == 1


def test_the_generated_stubs_declare_every_binding():
    stub = pathlib.Path(_core.__file__).with_name("_core.pyi")
    tree = ast.parse(stub.read_text())
    classes = {node.name: node for node in tree.body if isinstance(node, ast.ClassDef)}
    for struct in STRUCTS:
        declared = {node.name for node in classes[struct].body
                    if isinstance(node, ast.FunctionDef)}
        own = {name for name, attribute in vars(getattr(_core, struct)).items()
               if isinstance(attribute, property)}
        assert own and own <= declared, struct
    functions = {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}
    assert {name for name in dir(_core) if not name.startswith("_") and
            type(getattr(_core, name)).__name__ == "nb_func"} == functions


SMALL = np.array([[1, 1], [1, 1]])
COUNTS = {
    "count_perfect_matchings": lambda **kw: pmcount.count_perfect_matchings(SMALL, **kw),
    "count_cycle_covers": lambda **kw: pmcount.count_cycle_covers(SMALL, **kw),
    "permanent": lambda **kw: pmcount.permanent(SMALL, **kw),
    "hafnian": lambda **kw: pmcount.hafnian(np.ones((4, 4), dtype=int), **kw),
    "explain": lambda **kw: pmcount.explain(SMALL, **kw),
}


def plan(function, **options):
    result = COUNTS[function](**options, **({} if function == "explain" else {"full": True}))
    return result["structure"] if function == "explain" else result.structure


@pytest.mark.parametrize("function", COUNTS)
def test_old_option_names_still_work_with_a_deprecation_warning(function):
    new = plan(function, dulmage_mendelsohn=False)
    with pytest.warns(DeprecationWarning,
                      match=f"^{function}: structure is deprecated, use dulmage_mendelsohn$") \
            as caught:
        old = plan(function, structure=False)
    assert caught[0].filename == __file__  # the warning points at the caller
    assert old["dulmage_mendelsohn"] is new["dulmage_mendelsohn"] is False
    assert plan(function)["dulmage_mendelsohn"] is True
    with pytest.warns(DeprecationWarning,
                      match=f"^{function}: max_time is deprecated, use max_predicted_seconds$"):
        plan(function, max_time=60)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the new names warn of nothing
        plan(function, dulmage_mendelsohn=True, max_predicted_seconds=60)


@pytest.mark.parametrize("function", COUNTS)
def test_an_option_under_both_names_is_a_type_error(function):
    with pytest.raises(TypeError, match="structure is the deprecated name of dulmage_mendelsohn"):
        COUNTS[function](structure=False, dulmage_mendelsohn=False)
    with pytest.raises(TypeError, match="max_time is the deprecated name of max_predicted"):
        COUNTS[function](max_time=1, max_predicted_seconds=2)


@pytest.mark.parametrize("function", COUNTS)
def test_errors_name_the_option_as_the_caller_wrote_it(function):
    in_range = r"must be a number in \[0, inf\]"
    with pytest.raises(pmcount.InvalidArgumentError,
                       match=f"^{function}: max_predicted_seconds {in_range}"):
        COUNTS[function](max_predicted_seconds=-1)
    with pytest.raises(TypeError, match=f"^{function}: dulmage_mendelsohn must be True or False"):
        COUNTS[function](dulmage_mendelsohn=1)
    with pytest.warns(DeprecationWarning), \
            pytest.raises(TypeError, match=f"^{function}: structure must be True or False"):
        COUNTS[function](structure=1)


def test_max_predicted_seconds_refuses_a_count_predicted_longer():
    a = np.random.default_rng(1).uniform(0, 1, (24, 24))  # predicted at about 0.07 s
    with pytest.raises(pmcount.ProblemTooLargeError):
        pmcount.permanent(a, max_predicted_seconds=0.001)
    assert pmcount.permanent(a, max_predicted_seconds=0) > 0


def test_to_json_is_the_librarys_text_for_counts_and_estimates():
    # The library's one JSON form (pmcount::to_json), which count_matchings --json extends with
    # the input's name, shape and warnings: the value as a decimal string, keys sorted.
    big = pmcount.permanent(np.full((20, 20), 3, dtype=np.int64), full=True)
    text = big.to_json()
    j = json.loads(text)
    # Compact, keys sorted; a double's digits may be a longer round-trip form than Python's
    # shortest (the library's printer is Grisu2), so numbers are compared as the doubles they are.
    numbers = re.compile(r"(?<=[:,\[])-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?(?=[,}\]])")
    same_digits = numbers.sub(lambda m: json.dumps(json.loads(m.group())), text)
    assert same_digits == json.dumps(j, separators=(",", ":"), sort_keys=True, ensure_ascii=False)
    assert j["value"] == str(big.value) == str(3**20 * 2432902008176640000)
    assert j["exact"] is True and j["method"] == big.method and j["n"] == 20
    assert j["structure"]["leaves"][0]["engine"] == big.structure["leaves"][0]["engine"]
    assert j["timings"]["count_s"] == big.timings["count_s"]
    real = json.loads(pmcount.permanent(np.array([[0.5, 0.25], [1.0, 2.0]]), full=True).to_json())
    assert real["value"] == "1.25" and real["exact"] is False and real["rel_error"] > 0
    e = pmcount.estimate(np.ones((6, 6)), samples=64, seed=3, threads=1)
    je = json.loads(e.to_json())
    assert je["log10_value"] == e.log10 and je["samples"] == e.samples == 64
    assert je["seed"] == 3 and je["timings"]["estimate_s"] == e.seconds
