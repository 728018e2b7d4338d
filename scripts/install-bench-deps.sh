#!/usr/bin/env bash
# Installs thewalrus (and with it numpy and numba), which pmcount-bench times next to pmcount when
# it is importable. Optional: nothing in the build or the tests needs it, and pmcount-bench runs
# without it (--thewalrus auto notes its absence and goes on).
# Usage: scripts/install-bench-deps.sh [python interpreter, default python3]
set -euo pipefail

python=${1:-python3}

if ! command -v "$python" >/dev/null 2>&1; then
    echo "install-bench-deps: $python not found; install Python 3 first (scripts/install-deps.sh)" >&2
    exit 1
fi

if "$python" -c "import thewalrus" >/dev/null 2>&1; then
    version=$("$python" -c "import thewalrus; print(thewalrus.__version__)")
    echo "install-bench-deps: thewalrus $version is already installed"
    exit 0
fi

if ! "$python" -m pip --version >/dev/null 2>&1; then
    echo "install-bench-deps: $python has no pip; install it (e.g. apt-get install python3-pip)" >&2
    exit 1
fi

# Inside a virtual environment --user is refused; outside one, it avoids needing root. Newer
# Debian/Ubuntu Pythons refuse both unless told that the system packages may be mixed with pip's.
if "$python" -c "import sys; sys.exit(0 if sys.prefix != sys.base_prefix else 1)"; then
    pip_args=()
else
    pip_args=(--user)
fi
echo "install-bench-deps: $python -m pip install ${pip_args[*]} thewalrus"
if ! "$python" -m pip install "${pip_args[@]}" thewalrus; then
    echo "install-bench-deps: retrying with --break-system-packages (externally managed Python)"
    "$python" -m pip install "${pip_args[@]}" --break-system-packages thewalrus
fi
"$python" -c "import thewalrus; print('install-bench-deps: thewalrus', thewalrus.__version__)"
