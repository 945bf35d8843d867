#!/usr/bin/env bash
# Fails when a C++ file differs from what clang-format (.clang-format) would write.
set -euo pipefail
cd "$(dirname "$0")/.."
files=$(git ls-files 'cpp/*.cpp' 'cpp/*.h' 'tests/cpp/*.cpp' 'tests/cpp/*.h' 'fuzz/*.cpp' 2>/dev/null || true)
[[ -n $files ]] || files=$(find cpp tests/cpp fuzz -name '*.cpp' -o -name '*.h')
# shellcheck disable=SC2086
clang-format --dry-run --Werror $files
echo "format: $(wc -w <<<"$files") C++ files follow .clang-format"
