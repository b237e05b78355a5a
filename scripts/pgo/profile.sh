#!/usr/bin/env bash
# Makes the profile the wasm build is compiled with (scripts/pgo/train.cpp says what and
# why) and prints its path; prints nothing when it cannot be made (no corpus, no clang,
# or WASMJSON_PGO=0), and the build goes on without one.
#
# Training data: the JSON files of ../shared/corpus (twitter, citm_catalog, canada and
# the rest). The profile is kept in build/pgo/ under a hash of everything it depends on
# (the C++ sources, this directory, the corpus listing), so a rebuild reuses it until
# one of them changes.
set -euo pipefail
cd "$(dirname "$0")/../.."

[ "${WASMJSON_PGO:-1}" = "0" ] && exit 0
corpus=../shared/corpus
files=("$corpus"/*.json)
if [ ! -e "${files[0]}" ]; then
  echo "pgo: no $corpus: building without a profile" >&2
  exit 0
fi
cxx=$(command -v clang++-14 || true)
profdata=$(command -v llvm-profdata-14 || true)
# The directory that holds simde/ (an empty search would otherwise pass for ".").
simde_h=$(find /usr/include -path '*/simde/wasm/simd128.h' -print -quit 2>/dev/null || true)
simde=${simde_h%/simde/wasm/simd128.h}
if [ -z "$cxx" ] || [ -z "$profdata" ] || [ -z "$simde_h" ]; then
  echo "pgo: clang++-14, llvm-profdata-14 or SIMDe missing: building without a profile" >&2
  exit 0
fi

key=$( (find cpp scripts/pgo -type f | sort | xargs cat; ls -l "${files[@]}") | sha1sum | cut -c1-16)
out=build/pgo/$key.profdata
if [ -f "$out" ]; then
  echo "$PWD/$out"
  exit 0
fi

work=build/pgo/work
rm -rf "$work"
mkdir -p "$work"
# One training binary per kernel (their reader instantiations are different functions),
# built side by side.
pids=()
for k in SIMD128 SWAR64; do
  "$cxx" -std=c++20 -O2 -march=x86-64-v2 -DWASMJSON_KERNEL_$k -I"$simde" \
    -fprofile-instr-generate -fprofile-list=scripts/pgo/functions.list \
    scripts/pgo/train.cpp cpp/boundary/exports.cpp -o "$work/train-$k" &
  pids+=($!)
done
for pid in "${pids[@]}"; do wait "$pid"; done
for k in SIMD128 SWAR64; do
  LLVM_PROFILE_FILE="$work/$k.profraw" "$work/train-$k" "${files[@]}"
done
"$profdata" merge -o "$work/merged.profdata" "$work"/*.profraw
rm -f build/pgo/*.profdata
mv "$work/merged.profdata" "$out"
rm -rf "$work"
echo "$PWD/$out"
