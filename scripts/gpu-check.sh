#!/usr/bin/env bash
# On a machine with a GPU: configure with CUDA required, build, run the gpu-labelled tests, and
# time the dense GPU engine on a few matrices (JSON lines on stdout). Usage:
#   scripts/gpu-check.sh [build-dir] [orders...]     e.g. scripts/gpu-check.sh build-gpu 30 36 40
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-gpu}
shift || true
orders=("${@:-30 36}")
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DPMCOUNT_REQUIRE_CUDA=ON >/dev/null
cmake --build "$build" -j"$(nproc)" >/dev/null
"$build/bin/count_matchings" --version
ctest --test-dir "$build" -L gpu --output-on-failure
work=$(mktemp -d)
for n in ${orders[*]}; do
    python3 - "$n" "$work" <<'PY'
import random, sys
n, work = int(sys.argv[1]), sys.argv[2]
rng = random.Random(n)
with open(f"{work}/real_{n}.mtx", "w") as f:
    f.write(f"%%MatrixMarket matrix array real general\n{n} {n}\n")
    f.writelines(f"{rng.random()!r}\n" for _ in range(n * n))
with open(f"{work}/binary_{n}.mtx", "w") as f:
    f.write(f"%%MatrixMarket matrix array integer general\n{n} {n}\n")
    f.writelines(f"{int(rng.random() < 0.8)}\n" for _ in range(n * n))
PY
    for precision in double plain-double; do
        "$build/bin/count_matchings" --backend cuda --precision "$precision" --no-dm --no-reduce \
            --max-time 0 --json "$work/real_$n.mtx"
    done
    "$build/bin/count_matchings" --backend cuda --no-dm --no-reduce --max-time 0 --json \
        "$work/binary_$n.mtx"
done
rm -rf "$work"
