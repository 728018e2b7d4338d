"""The fuzz harness (fuzz_converters.py) without atheris: a fixed, seeded set of byte strings and
the corpus an atheris run left (fuzz_corpus/, minimised), each through the harness's
one_input(), which fails on any exception but a pmcount.Error or a TypeError, on a message of
more than one line and on a small permanent that disagrees with brute force."""

import importlib.util
import pathlib
import random

import pytest

HERE = pathlib.Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location("fuzz_converters", HERE / "fuzz_converters.py")
harness = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(harness)

CORPUS = sorted((HERE / "fuzz_corpus").glob("*"))


@pytest.mark.parametrize("seed", range(8))
def test_seeded_inputs_through_the_harness(seed):
    rng = random.Random(seed)
    for _ in range(400):
        harness.one_input(rng.randbytes(rng.randrange(0, 256)))


def test_the_saved_corpus_through_the_harness():
    assert len(CORPUS) >= 100, "fuzz_corpus/ is missing"
    for path in CORPUS:
        harness.one_input(path.read_bytes())


def test_the_harness_fails_on_an_exception_of_another_kind(monkeypatch):
    # The harness must be able to fail: a ValueError that is no pmcount.Error is a finding.
    def broken(*args, **kwargs):
        raise ValueError("not a pmcount.Error")

    for name in harness.TAKES:
        monkeypatch.setattr(harness.pmcount, name, broken)
    with pytest.raises(ValueError, match="not a pmcount.Error"):
        harness.one_input(bytes(64))
