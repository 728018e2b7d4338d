"""The examples in pmcount's docstrings run and print what they say."""

import doctest
import pathlib

import pmcount


def test_docstring_examples():
    failures, tried = doctest.testmod(pmcount, optionflags=doctest.ELLIPSIS)
    assert tried >= 10
    assert failures == 0


def test_the_examples_of_docs_python_md():
    path = pathlib.Path(__file__).resolve().parents[2] / "docs" / "python.md"
    failures, tried = doctest.testfile(str(path), module_relative=False,
                                       optionflags=doctest.ELLIPSIS)
    assert tried >= 15
    assert failures == 0
