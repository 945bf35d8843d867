#!/usr/bin/env bash
# Builds the site, then runs every suite (tools/run-tests.mjs), which builds each test target
# (native, ASan+UBSan, WASM, libFuzzer) in its lane while the browser suites run.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/build.sh site
node tools/run-tests.mjs "$@"
