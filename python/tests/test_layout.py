"""The package is split into modules by concern (_counting, _estimating, _generators, _convert,
_results, ...), and `import pmcount` is what it was: the same names, each still pmcount's, and
every example of their docstrings run by doctest.testmod(pmcount)."""

import doctest
import pathlib

import pmcount


def test_every_docstring_example_of_the_package_runs():
    package = pathlib.Path(pmcount.__file__).parent
    examples = sum(line.lstrip().startswith(">>> ")
                   for path in package.glob("*.py") for line in path.read_text().splitlines())
    failures, tried = doctest.testmod(pmcount, optionflags=doctest.ELLIPSIS)
    assert (failures, tried) == (0, examples) and examples >= 20


def test_the_public_names_are_pmcounts():
    for name in pmcount.__all__:
        value = getattr(pmcount, name)
        assert value.__module__ in ("pmcount", "pmcount._errors"), name
    assert repr(pmcount.Result) == "<class 'pmcount.Result'>"
