#!/usr/bin/env bash
# Builds the unit, CLI and fuzz-replay tests with AddressSanitizer and UndefinedBehaviorSanitizer
# (PMCOUNT_SANITIZE) in their own folder, CUDA and MPI off, and runs them; any sanitizer report
# fails the run. Built with -O1 -g1 (line tables are all the reports need), which CI's two cores
# build faster than -O2 -g. The oracle tests (the same engines at larger sizes), GPU tests,
# benchmarks and the tests named below stay with the plain build.
# Usage: scripts/sanitizer-tests.sh [ctest arguments]
# Environment: PMCOUNT_SANITIZER_BUILD (default build-asan), PMCOUNT_SANITIZER_EXCLUDE (a ctest
# regular expression of tests to skip; default below), PMCOUNT_SANITIZER_JOBS (default nproc).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${PMCOUNT_SANITIZER_BUILD:-build-asan}
jobs=${PMCOUNT_SANITIZER_JOBS:-$(nproc)}
launcher=()
if command -v ccache > /dev/null; then
    launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" \
    -DPMCOUNT_SANITIZE=ON \
    -DPMCOUNT_ENABLE_CUDA=OFF -DPMCOUNT_ENABLE_MPI=OFF "${launcher[@]}"
targets=(count_matchings pmcount-gen numeric_test exact_test run_test generate_test planar_test approx_test
         graph_test io_test cli_test datasets_test interop_test structure_test
         fuzz_edge_list_replay fuzz_matrix_market_replay fuzz_checkpoint_replay)
cmake --build "$build" -j"$jobs" --target "${targets[@]}"
# Every report ends its program with a failure status (UndefinedBehaviorSanitizer's too:
# -fno-sanitize-recover=all), and leaks are reported at exit.
export ASAN_OPTIONS=${ASAN_OPTIONS:-halt_on_error=1:abort_on_error=1:detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
# Left to the plain build: tests that assert a time (the 32×32 grid in 5 s, an estimate's time
# budget), the estimators' statistical coverage and budget tests (a minute each plainly), and
# runs that count for minutes under the sanitizers (counts stopped and resumed by the CLI,
# the README's examples). Each of these takes 20-130 s here; the rest together about 10 min.
default_exclude='CoverTheTruthInMostRuns|Estimators\.(UnderATimeLimit|TheDefaultDraws|TemperedPotential'
default_exclude+='|PopulationsMatchKasteleyn|PopulationIntervalCovers|ConfidenceIntervalCovers'
default_exclude+='|PopulationsAreUnbiased)'
default_exclude+='|CountMatchingsCli\.(SigintWritesTheCheckpoint|ARunKilledWithSigkill|AnEstimateStoppedBySigint)'
default_exclude+='|^cli\.ReadmeExamples$'
exclude=${PMCOUNT_SANITIZER_EXCLUDE-$default_exclude}
ctest --test-dir "$build" -L 'unit|cli|fuzz' -LE 'gpu|bench|mpi|install' \
    ${exclude:+-E "$exclude"} --output-on-failure -j"$jobs" "$@"
