#!/usr/bin/env bash
# A cache for the WASM modules' links (CMakeLists.txt grpo_core_module: CXX_LINKER_LAUNCHER),
# ccache's twin for the step ccache cannot keep: each -O3 link of web/core's modules costs ~20
# CPU-s of binaryen, and a fresh clone links three (~25 s before npm test's first suite starts).
# Usage (CMake's): link-cache.sh LINKER ARGS... -o OUT ARGS...
# The key: the linker's command line (the output named by its file name only, @response files
# expanded), the bytes of every file it names, the toolchain's package versions and EMCC_*
# variables. A hit copies the outputs the link wrote then (OUT's stem: .js, .wasm, .worker.js)
# beside OUT; a miss links and keeps them. GRPO_LINK_CACHE=off always links.
set -euo pipefail

cache=${GRPO_LINK_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/grpo-lab/links}
out=
args=("$@")
for ((i = 0; i < ${#args[@]} - 1; i++)); do
  [[ ${args[i]} == -o ]] && out=${args[i + 1]}
done
if [[ $cache == off || -z $out ]]; then exec "$@"; fi

dir=$(dirname "$out")
stem=$(basename "${out%.*}")
# What the link reads: each argument, a response file's words in its place, and the bytes of the
# files they name (objects, archives); the output's own path by its file name.
key_text() {
  local arg word
  for arg in "${args[@]}"; do
    if [[ $arg == "$out" ]]; then
      echo "out $(basename "$out")"
    elif [[ $arg == @* && -f ${arg#@} ]]; then
      for word in $(<"${arg#@}"); do
        echo "arg $word"
        [[ -f $word ]] && echo "bytes $(sha256sum <"$word")"
      done
    else
      echo "arg $arg"
      [[ -f $arg ]] && echo "bytes $(sha256sum <"$arg")"
    fi
  done
  dpkg-query -W emscripten binaryen clang-14 lld-14 llvm-14 2>/dev/null || true
  env | grep '^EMCC_' | sort || true
}
key=$(key_text | sha256sum | cut -c1-32)
entry=$cache/$key

if [[ -f $entry/done ]]; then
  while read -r name; do cp "$entry/$name" "$dir/$name"; done <"$entry/done"
  touch "$entry" # recently used: kept by the pruning below
  exit 0
fi

marker=$(mktemp)
trap 'rm -f "$marker"' EXIT
"$@"
mkdir -p "$cache"
staging=$(mktemp -d "$cache/.new-XXXXXX")
find "$dir" -maxdepth 1 -type f -name "$stem.*" -newer "$marker" -printf '%f\n' | sort >"$staging/names"
while read -r name; do cp "$dir/$name" "$staging/$name"; done <"$staging/names"
mv "$staging/names" "$staging/done"
# Another clone may have linked the same meanwhile: its entry is the same bytes.
mv -T "$staging" "$entry" 2>/dev/null || rm -rf "$staging"
# The 24 entries used last (~3 clones' worth of each module, ~40 MB).
ls -1t "$cache" | tail -n +25 | while read -r old; do rm -rf "${cache:?}/$old"; done
