#!/usr/bin/env bash
# Builds dist/wasmjson-simd128.wasm and dist/wasmjson-swar64.wasm with Emscripten.
set -euo pipefail
cd "$(dirname "$0")/.."

want=$(tr -d '[:space:]' < emsdk.lock)
have=$(emcc --version | sed -n 1p | sed -E 's/.* ([0-9]+\.[0-9]+\.[0-9]+).*/\1/')
if [ "$have" != "$want" ]; then
  echo "build-wasm: WARNING: emcc is $have but emsdk.lock pins $want; output may differ" >&2
fi

# The profile the core is compiled with (scripts/pgo/), or none.
profile=$(bash scripts/pgo/profile.sh)

# emcc's JS optimizer needs Debian's acorn.
export NODE_PATH=/usr/share/nodejs
emcmake cmake -S . -B build/wasm -DCMAKE_BUILD_TYPE=Release -DWASMJSON_PROFILE="$profile" >/dev/null
cmake --build build/wasm -j2
ls -l dist/*.wasm
