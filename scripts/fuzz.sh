#!/usr/bin/env bash
# Fuzzes one reader with libFuzzer (clang): builds the harnesses in build-fuzz (sanitizers on,
# CUDA and MPI off) and runs tests/fuzz/<reader>_fuzz.cpp for the given number of seconds,
# starting from the seed corpus and the regression inputs. New inputs go to
# build-fuzz/corpus/<reader>, crashes, hangs and blow-ups to build-fuzz/artifacts/<reader>/
# (copy each into tests/fuzz/regressions/<reader>/ once fixed: docs/robustness.md).
# Usage: scripts/fuzz.sh edge_list|matrix_market|checkpoint [SECONDS (default 60)] [libFuzzer flags]
# Environment: PMCOUNT_FUZZ_BUILD (default build-fuzz), CXX (default clang++).
set -euo pipefail
cd "$(dirname "$0")/.."
reader=${1:?usage: scripts/fuzz.sh edge_list|matrix_market|checkpoint [SECONDS] [flags]}
seconds=${2:-60}
shift $(($# < 2 ? $# : 2))
case $reader in
    edge_list | matrix_market | checkpoint) ;;
    *) echo "fuzz.sh: unknown reader '$reader' (edge_list, matrix_market or checkpoint)" >&2; exit 1 ;;
esac
build=${PMCOUNT_FUZZ_BUILD:-build-fuzz}
# libFuzzer comes with clang (Debian/Ubuntu: the clang package); installed when missing, as root.
if ! command -v "${CXX:-clang++}" > /dev/null; then
    if [[ $(id -u) == 0 ]] && command -v apt-get > /dev/null; then
        apt-get update -q > /dev/null
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q clang > /dev/null
    else
        echo "fuzz.sh: needs ${CXX:-clang++} (libFuzzer): install clang" >&2
        exit 1
    fi
fi
launcher=()
if command -v ccache > /dev/null; then
    launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
if [[ ! -f $build/CMakeCache.txt ]]; then
    cmake -S . -B "$build" -DCMAKE_CXX_COMPILER="${CXX:-clang++}" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DPMCOUNT_FUZZ=ON -DPMCOUNT_ENABLE_CUDA=OFF -DPMCOUNT_ENABLE_MPI=OFF "${launcher[@]}"
fi
cmake --build "$build" -j"$(nproc)" --target "fuzz_$reader"
mkdir -p "$build/corpus/$reader" "$build/artifacts/$reader"
# Limits: a file of at most 4 KiB, 500 MB, and 10 s for the harness's six readings with their
# plans and round trips (0.02 s for the slowest input found in a plain build: the coverage
# instrumentation and the sanitizers slow the planner 20-50 times); reports of either sanitizer end the run like a crash, and a small
# quarantine keeps AddressSanitizer's own memory from reaching that limit over a long run.
export ASAN_OPTIONS=${ASAN_OPTIONS:-halt_on_error=1:abort_on_error=1:quarantine_size_mb=32}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
exec "$build/tests/fuzz_$reader" -max_len=4096 -timeout=10 -rss_limit_mb=500 -malloc_limit_mb=500 \
    -max_total_time="$seconds" -print_final_stats=1 -artifact_prefix="$build/artifacts/$reader/" \
    "$@" "$build/corpus/$reader" "tests/fuzz/corpus/$reader" "tests/fuzz/regressions/$reader"
