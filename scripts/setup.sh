#!/usr/bin/env bash
# Installs what wasmjson needs on a fresh Debian machine. Idempotent and quick when
# everything is already there, so the test and bench commands run it first.
set -euo pipefail
cd "$(dirname "$0")/.."

APT_PACKAGES=(
  emscripten          # emcc 3.1.6 (pinned in emsdk.lock)
  chromium            # real headless browser for the browser tests and benchmark
  cmake g++ clang     # native build of the core and its tests; clang for libFuzzer
  libclang-rt-14-dev  # clang's fuzzer, sanitizer and profile runtimes (scripts/pgo/)
  libgtest-dev        # C++ tests
  libsimde-dev        # runs the SIMD128 kernel natively
  libfast-float-dev   # string -> double
  libdragonbox-dev    # double -> shortest string
  wabt                # wasm-validate: proves the SWAR64 file has no SIMD opcode
)

missing=()
for p in "${APT_PACKAGES[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
# npm runs everything below; a machine without Node's own packages gets Debian's.
command -v npm >/dev/null 2>&1 || missing+=(npm)
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
fi

# npm ci when node_modules is missing or older than the lock file. This also brings
# Node 26 (devDependency "node"), which npm scripts then find first on PATH.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "setup: npm ci"
  npm ci --no-audit --no-fund
fi
