#!/usr/bin/env bash
# Builds GRPO Lab. No argument: the WASM module and everything the page serves.
# (site: the core, web/vendor, web/data, then the service worker web/sw.js.)
# Arguments pick builds: wasm (module + WASM tests + WASM bench), native (tests + bench), all,
# asan (the Catch2 tests under ASan + UBSan) and fuzz (the libFuzzer targets): both in the one
# sanitizer build, build/fuzz (clang; run them one after the other, never at once),
# native-tests and wasm-tests (the Catch2 tests only: tools/run-tests.mjs builds these),
# package (the site, then the LMS kit in dist/: SCORM zips, single-file pages; tools/package.mjs).
set -euo pipefail
cd "$(dirname "$0")/.."
export NODE_PATH=/usr/share/nodejs  # Emscripten 3.1.6's optimizer needs Debian's acorn.
JOBS=${JOBS:-$(nproc)}
# ccache (CMakeLists.txt) keys on paths relative to the clone, so another clone hits the cache.
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$PWD} CCACHE_NOHASHDIR=true

build_preset() {
  local preset=$1 dir=build/$1
  shift
  # Configure again when CMakeLists.txt changed: `cmake --build --target` names a target the old
  # Makefiles may not have yet (a pull that adds one), before cmake would regenerate them.
  if [[ ! -f $dir/CMakeCache.txt || CMakeLists.txt -nt $dir/CMakeCache.txt ]]; then
    cmake --preset "$preset" >/dev/null
  fi
  cmake --build "$dir" -j "$JOBS" "$@"
}

targets=("$@")
((${#targets[@]})) || targets=(site)
for target in "${targets[@]}"; do
  case $target in
    site)
      build_preset wasm --target grpo_core --target grpo_core_reference --target grpo_core_mt
      node tools/vendor.mjs
      if [[ -f tools/precompute.mjs ]]; then node tools/precompute.mjs; fi
      node tools/site-docs.mjs
      # Last: the service worker's manifest hashes every file the steps above wrote.
      node tools/service-worker.mjs
      ;;
    wasm) build_preset wasm ;;
    wasm-tests) build_preset wasm --target grpo_tests ;;
    native) build_preset native ;;
    native-tests) build_preset native --target grpo_tests ;;
    asan) build_preset fuzz --target grpo_tests ;;
    fuzz) build_preset fuzz --target fuzzers ;;
    package) "$0" site && node tools/package.mjs ;;
    all) "$0" site wasm native asan ;;
    *) echo "build.sh: unknown target '$target' (site, wasm, wasm-tests, native, native-tests, asan, fuzz, package, all)" >&2; exit 2 ;;
  esac
done
