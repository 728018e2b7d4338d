#!/usr/bin/env bash
# Installs, with apt-get, whatever pmcount needs to build and test that is not already present.
# Nothing is installed when everything is there (the GPU machine has no network and needs nothing).
# Usage: scripts/install-deps.sh            (as root, or with sudo available)
set -euo pipefail

# Debian/Ubuntu package → a file or command whose presence proves it is installed.
declare -A probe=(
    [cmake]="cmd:cmake"
    [g++]="cmd:g++"
    [make]="cmd:make"
    [libboost-dev]="file:/usr/include/boost/multiprecision/cpp_int.hpp"
    [libeigen3-dev]="file:/usr/include/eigen3/Eigen/Core"
    [libgtest-dev]="file:/usr/include/gtest/gtest.h"
    [libcli11-dev]="file:/usr/include/CLI/CLI.hpp"
    [nlohmann-json3-dev]="file:/usr/include/nlohmann/json.hpp"
    [libopenmpi-dev]="cmd:mpicxx"
    [openmpi-bin]="cmd:mpirun"
)

missing=()
for pkg in "${!probe[@]}"; do
    kind=${probe[$pkg]%%:*}
    what=${probe[$pkg]#*:}
    if [[ $kind == cmd ]]; then
        command -v "$what" >/dev/null 2>&1 || missing+=("$pkg")
    else
        [[ -e $what ]] || missing+=("$pkg")
    fi
done

# OpenMP ships with g++ (libgomp); check that the compiler can use it before asking for more.
if command -v g++ >/dev/null 2>&1; then
    if ! echo 'int main(){return 0;}' | g++ -fopenmp -x c++ - -o /dev/null >/dev/null 2>&1; then
        missing+=(libgomp1)
    fi
fi

# The Python package (scripts/python-tests.sh): an interpreter with venv/pip and the headers.
if ! command -v python3 >/dev/null 2>&1; then
    missing+=(python3 python3-venv python3-dev)
else
    python3 -c "import ensurepip, venv" >/dev/null 2>&1 || missing+=(python3-venv)
    python3 -c "import os, sysconfig; raise SystemExit(not os.path.exists(
        os.path.join(sysconfig.get_paths()['include'], 'Python.h')))" >/dev/null 2>&1 ||
        missing+=(python3-dev)
fi

if ((${#missing[@]} == 0)); then
    echo "install-deps: everything pmcount needs is present"
    exit 0
fi

echo "install-deps: installing ${missing[*]}"
sudo_cmd=()
if [[ $(id -u) -ne 0 ]]; then
    if command -v sudo >/dev/null 2>&1; then
        sudo_cmd=(sudo)
    else
        echo "install-deps: need root (or sudo) to install: ${missing[*]}" >&2
        exit 1
    fi
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -q
"${sudo_cmd[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
