#!/usr/bin/env bash
# Builds every test target (native, ASan+UBSan, WASM, libFuzzer) and runs every suite (tools/run-tests.mjs).
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/build.sh site wasm native asan fuzz
node tools/run-tests.mjs "$@"
