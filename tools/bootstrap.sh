#!/usr/bin/env bash
# Installs what GRPO Lab needs on a fresh Debian machine, and only what is missing:
# Debian packages (compilers, Emscripten, Eigen, Catch2, the three browsers) and the npm packages.
set -euo pipefail
cd "$(dirname "$0")/.."

# Browsers: Chromium (playwright-core; chromium-headless-shell, its headless build, for the
# browser-chromium suite: tools/run-tests.mjs), Firefox ESR (puppeteer-core over WebDriver BiDi), WebKit
# (webkit2gtk-driver: WebKitWebDriver and MiniBrowser, run under xvfb-run from xvfb).
PACKAGES=(cmake g++ clang libclang-rt-14-dev clang-format emscripten libeigen3-dev catch2
          nlohmann-json3-dev ccache chromium chromium-headless-shell firefox-esr webkit2gtk-driver
          xvfb xauth nodejs)

missing=()
for package in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done

if ((${#missing[@]})); then
  if [[ $(id -u) -ne 0 ]]; then
    echo "bootstrap: missing Debian packages: ${missing[*]}" >&2
    echo "bootstrap: run as root:  apt-get update && apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
  echo "bootstrap: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# npm packages: reinstall when the lock file changed since the last install.
if [[ ! -f node_modules/.package-lock.json || package-lock.json -nt node_modules/.package-lock.json ]]; then
  echo "bootstrap: npm ci"
  npm ci --no-audit --no-fund --loglevel=error
fi
