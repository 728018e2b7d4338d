#!/usr/bin/env bash
# Redraws the module figure of docs/architecture.md from the layer graph that the configure step
# writes (cmake/PmcountLayers.cmake -> build/layers/graph.txt): docs/architecture_modules.dot,
# and its SVG when Graphviz is installed. The test layers.Includes fails while the .dot is stale.
# Usage: scripts/architecture-figure.sh [build folder]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
cmake -S . -B "$build" >/dev/null
python3 tests/layers/check_includes.py "$build/layers/graph.txt" . \
    --write-figure docs/architecture_modules.dot
if command -v dot >/dev/null; then
    dot -Tsvg docs/architecture_modules.dot -o docs/architecture_modules.svg
else
    echo "architecture-figure: Graphviz (dot) is not installed; the SVG was not redrawn" >&2
fi
