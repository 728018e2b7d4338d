#!/usr/bin/env bash
# Builds and installs the Python package (python/) into a virtual environment and runs its tests:
# `pip install ./python && pytest python/tests`, without touching the system's Python. thewalrus
# (the agreement test's reference) is installed too when PyPI has a build of it for this Python.
# Usage: scripts/python-tests.sh [pytest arguments]     (PMCOUNT_VENV: the environment's folder)
set -euo pipefail
cd "$(dirname "$0")/.."
venv=${PMCOUNT_VENV:-build/python-venv}
python3 -m venv "$venv"
"$venv/bin/python" -m pip install -q --upgrade pip
"$venv/bin/python" -m pip install -q "./python[test]"
if ! "$venv/bin/python" -m pip install -q thewalrus; then
    echo "python-tests: thewalrus could not be installed; its agreement test is skipped" >&2
fi
"$venv/bin/python" -m pytest -q -p no:cacheprovider python/tests "$@"
