#!/usr/bin/env bash
# Builds the two .wasm flavors and the JS package into dist/.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build-wasm.sh
node scripts/build-js.mjs
node_modules/.bin/tsc -p js/tsconfig.json
node scripts/cjs-types.mjs
