#!/usr/bin/env bash
# On a machine with a GPU: configure with CUDA required, build, run the gpu-labelled tests, and
# time the dense GPU engine on all-ones, random real and random 0-1 matrices (one JSON line per
# run on stdout). Usage:
#   scripts/gpu-check.sh [build-dir] [orders...]     e.g. scripts/gpu-check.sh build-gpu 30 36 40
set -uo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-gpu}
shift || true
orders=("${@:-30 36}")
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DPMCOUNT_REQUIRE_CUDA=ON >/dev/null || exit 1
cmake --build "$build" -j"$(nproc)" >/dev/null || exit 1
"$build/bin/count_matchings" --version
ctest --test-dir "$build" -L gpu --output-on-failure
tests=$?
work=$(mktemp -d)
run() {  # label, then count_matchings arguments
    local label=$1
    shift
    "$build/bin/count_matchings" --no-dulmage-mendelsohn --no-reductions --max-predicted-seconds 0 --json "$@" |
        python3 -c "import json, sys; d = json.load(sys.stdin); print(json.dumps({'run': '$label',
            'n': d['n'], 'value': d['value'], 'arithmetic': d['arithmetic'], 'backend': d['backend'],
            'count_s': d['timings']['count_s'], 'rel_error': d.get('rel_error'),
            'device': d.get('device', '')}))"
}
for n in ${orders[*]}; do
    python3 - "$n" "$work" <<'PY'
import random, sys
n, work = int(sys.argv[1]), sys.argv[2]
rng = random.Random(n)
with open(f"{work}/ones_{n}.mtx", "w") as f:
    f.write(f"%%MatrixMarket matrix array real general\n{n} {n}\n" + "1.0\n" * (n * n))
with open(f"{work}/real_{n}.mtx", "w") as f:
    f.write(f"%%MatrixMarket matrix array real general\n{n} {n}\n")
    f.writelines(f"{rng.random()!r}\n" for _ in range(n * n))
with open(f"{work}/binary_{n}.mtx", "w") as f:
    f.write(f"%%MatrixMarket matrix array integer general\n{n} {n}\n")
    f.writelines(f"{int(rng.random() < 0.8)}\n" for _ in range(n * n))
PY
    for precision in double plain-double; do
        run "ones $precision" --backend cuda --precision "$precision" "$work/ones_$n.mtx"
        run "real $precision" --backend cuda --precision "$precision" "$work/real_$n.mtx"
    done
    run "binary exact" --backend cuda "$work/binary_$n.mtx"
done
rm -rf "$work"
exit $tests
