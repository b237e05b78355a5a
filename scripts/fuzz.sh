#!/usr/bin/env bash
# Fuzzes the C++ core with libFuzzer: every tests/fuzz/*.cpp target, each for the given
# number of seconds (default 60), as many at a time as there are cores, under
# AddressSanitizer and UndefinedBehaviorSanitizer.
#
#   bash scripts/fuzz.sh [seconds-per-target]
#
# Builds build/fuzz with clang++-14 and -DWASMJSON_FUZZ=ON, assembles a seed corpus at
# run time in build/fuzz/seeds/ (JSONTestSuite and the benchmark corpus from ../shared
# when present -- small files whole, big ones as their first 4 KB -- plus a few of the
# project's own cases), then runs each target with -max_len=65536 and any options its
# source names in a line "// fuzz.sh options: ..." (given last, so they win). New interesting
# inputs accumulate in build/fuzz/corpus/<target>/; crash inputs (and a minimized copy)
# go to build/fuzz/crashes/. Prints executions and findings per target and exits
# non-zero if any target crashed.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

# --build-only: configure and build the targets, run nothing (test.sh builds them early).
build_only=0
if [ "${1:-}" = "--build-only" ]; then
  build_only=1
  shift
fi
secs=${1:-60}
if ! [[ "$secs" =~ ^[0-9]+$ ]] || [ "$secs" -lt 1 ]; then
  echo "usage: bash scripts/fuzz.sh [--build-only] [seconds-per-target]" >&2
  exit 2
fi

CXX=${WASMJSON_FUZZ_CXX:-clang++-14}
build=build/fuzz
seeds=$build/seeds
crashes=$build/crashes
mkdir -p "$build" "$crashes"

# ---- build ----
targets=()
for src in tests/fuzz/*.cpp; do
  [ -e "$src" ] && targets+=("$(basename "$src" .cpp)")
done
if [ ${#targets[@]} -eq 0 ]; then
  echo "fuzz: no targets in tests/fuzz/" >&2
  exit 2
fi
echo "== building ${targets[*]} with $CXX in $build"
if ! cmake -S . -B "$build" -DCMAKE_CXX_COMPILER="$CXX" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DWASMJSON_FUZZ=ON \
    >"$build/configure.log" 2>&1; then
  cat "$build/configure.log"
  echo "fuzz: configure failed (clang's fuzzer runtime is in Debian's libclang-rt-14-dev)" >&2
  exit 2
fi
if ! cmake --build "$build" -j"$(nproc)" --target "${targets[@]}" >"$build/build.log" 2>&1; then
  tail -n 40 "$build/build.log"
  echo "fuzz: build failed (clang's fuzzer runtime is in Debian's libclang-rt-14-dev)" >&2
  exit 2
fi
[ "$build_only" -eq 1 ] && exit 0

# ---- seed corpus (rebuilt every run; ../shared is read, never copied into the repo) ----
rm -rf "$seeds"
mkdir -p "$seeds"
small=16384  # bytes: files up to this size are seeds as they are
add_seed() {  # add_seed <file> <name>
  local size
  size=$(stat -c %s "$1")
  if [ "$size" -le "$small" ]; then
    cp "$1" "$seeds/$2"
  else
    head -c 4096 "$1" >"$seeds/$2.head4k"
  fi
}
shared=$(cd .. && pwd)/shared
if [ -d "$shared" ]; then
  for f in "$shared"/conformance/JSONTestSuite-parsing/* "$shared"/corpus/*; do
    [ -f "$f" ] && add_seed "$f" "shared-$(basename "$(dirname "$f")")-$(basename "$f")"
  done
else
  echo "fuzz: ../shared not present; seeding with the project's own cases only"
fi
own=(
  '{"a":{"b":[null,{}]}}' ' [ 1 , 2 ] ' '-0.0e-0' '123456789012345678901234567890' '1.5e+10'
  '"a\u00e9\n\"\\\/\b\f\r\t"' '\t\r\n 7 \n' '[1,,2]' '{"a":1,}' '{"a" 1}' '"\u12g4"' '01' '1.e5'
  'tru' 'falsy' '[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]' '{"key": "a long string value crossing several 16-byte chunks"}'
)
i=0
for s in "${own[@]}"; do
  printf '%b' "$s" >"$seeds/own-$i.json"
  i=$((i + 1))
done
# Non-ASCII and byte-level cases.
printf '"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80"' >"$seeds/own-utf8-valid.json"
printf '"\xed\xa0\x80"' >"$seeds/own-utf8-surrogate.json"
printf '"\xc0\xaf\xf4\x90\x80\x80\xc3"' >"$seeds/own-utf8-invalid.json"
printf '\xef\xbb\xbf{"bom":true}' >"$seeds/own-bom.json"
printf '[1]\x00' >"$seeds/own-nul.json"
printf '"a\x01"' >"$seeds/own-control.json"
echo "== $(find "$seeds" -type f | wc -l) seeds in $seeds"

# ---- fuzz ----
# Targets run side by side, one per core (each is one libFuzzer process): the same
# seconds per target in a fraction of the wall time. Each writes its summary line (and a
# report when it failed) to files, gathered below in target order.
run_target() {  # run_target <target>
  local t=$1 corpus=$build/corpus/$1 log=$build/$1.log stamp=$build/$1.stamp
  local before after rc execs findings f
  mkdir -p "$corpus"
  touch "$stamp"
  before=$(find "$crashes" -maxdepth 1 -type f -name "$t-*" | wc -l)
  read -r -a extra < <(sed -n 's|^// fuzz.sh options: ||p' "tests/fuzz/$t.cpp" | head -n1)
  echo "== $t: ${secs}s ${extra[*]}"
  ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1} \
    "$build/$t" "$corpus" "$seeds" -max_len=65536 -max_total_time="$secs" -timeout=20 -rss_limit_mb=4096 \
    -print_final_stats=1 -artifact_prefix="$crashes/$t-" "${extra[@]}" >"$log" 2>&1
  rc=$?
  execs=$(grep -E '^stat::number_of_executed_units:' "$log" | tail -n1 | awk '{print $2}')
  after=$(find "$crashes" -maxdepth 1 -type f -name "$t-*" | wc -l)
  findings=$((after - before))
  if [ "$rc" -ne 0 ] || [ "$findings" -gt 0 ]; then
    [ "$findings" -eq 0 ] && findings=1  # crashed without writing an artifact
    {
      echo "-- $t failed (exit $rc); the report:"
      grep -E -A 30 '^(==[0-9]+==ERROR|fuzz_|.*runtime error|SUMMARY)' "$log" | head -n 60
      # Minimize each new crash input (time-limited), keeping the original.
      for f in $(find "$crashes" -maxdepth 1 -type f -name "$t-crash-*" ! -name '*.min*' -newer "$stamp"); do
        "$build/$t" -minimize_crash=1 -max_total_time=60 -exact_artifact_path="$f.min" "$f" >"$f.minimize.log" 2>&1
        [ -f "$f.min" ] && echo "   minimized: $f.min ($(stat -c %s "$f.min") bytes): $(od -An -tx1 -v "$f.min" | tr -s ' \n' ' ' | head -c 600)"
      done
    } >"$build/$t.report"
  fi
  printf '%-16s %12s executions  %d finding(s)\n' "$t" "${execs:-?}" "$findings" >"$build/$t.summary"
}

parallel=$(nproc)
for t in "${targets[@]}"; do
  rm -f "$build/$t.summary" "$build/$t.report"
  while [ "$(jobs -rp | wc -l)" -ge "$parallel" ]; do wait -n; done
  run_target "$t" &
done
wait

status=0
summary=()
for t in "${targets[@]}"; do
  [ -f "$build/$t.report" ] && cat "$build/$t.report"
  if [ -f "$build/$t.summary" ]; then
    line=$(cat "$build/$t.summary")
    summary+=("$line")
    # A failed target has at least one finding (a crash without an artifact counts as one).
    [[ "$line" =~ \ 0\ finding ]] || status=1
  else
    summary+=("$(printf '%-16s %12s executions  %d finding(s)' "$t" "?" 1)")
    status=1
  fi
done

echo "== summary (${secs}s per target; log per target in $build/<target>.log)"
for line in "${summary[@]}"; do echo "$line"; done
if [ "$status" -ne 0 ]; then
  echo "fuzz: crashes found; inputs in $crashes/"
fi
exit $status
