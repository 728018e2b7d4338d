#!/usr/bin/env bash
# Builds the exact and floating engine tests for instruction sets narrower than this machine's
# (x86-64-v3: AVX2 without AVX-512, as on many AMD and older Intel machines; x86-64: SSE2 only,
# the scalar fallbacks of the vector code) and runs them, so that one machine checks every
# vector width its users have (the default build uses -march=native). Run by .ci/run.
# Usage: scripts/vector-width-tests.sh [march ...]     (default: x86-64-v3 x86-64)
#        folders build-<march>/, CUDA and MPI off (the engines' host code is what differs).
set -euo pipefail
cd "$(dirname "$0")/.."
targets=(numeric_test exact_test planar_test oracle_test approx_test)
# The engines' tests; the estimators' statistical coverage runs once, in the native build.
exclude='Estimators\.(TheAutomaticPopulations|PopulationsAreUnbiased|UnderATimeLimit|PopulationsMatchKasteleyn|TemperedPotential|TheDefaultDraws|PopulationIntervalCovers|ConfidenceIntervalCovers)'
launcher=()
if command -v ccache >/dev/null 2>&1; then
    launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
marches=("$@")
if ((${#marches[@]} == 0)); then
    marches=(x86-64-v3 x86-64)
fi
regex=$(IFS='|'; echo "^(${targets[*]})\\.")
for m in "${marches[@]}"; do
    dir=build-$m
    echo "vector-width-tests: -march=$m in $dir"
    cmake -S . -B "$dir" -DPMCOUNT_MARCH="$m" -DPMCOUNT_ENABLE_CUDA=OFF -DPMCOUNT_ENABLE_MPI=OFF \
        "${launcher[@]}" >/dev/null
    cmake --build "$dir" -j"$(nproc)" --target "${targets[@]}"
    ctest --test-dir "$dir" --output-on-failure -j"$(nproc)" -R "$regex" -E "$exclude"
done
