#!/usr/bin/env bash
# The test command (README): sets up, builds, then runs every suite and ends with one
# plain line "N passed, N failed". Exits non-zero on any failure.
#   C++:   GoogleTest, every test against every kernel; again under ASan/UBSan.
#   JS:    vitest, Node and headless Chromium projects, both wasm flavors.
#   Fuzz:  every libFuzzer target for WASMJSON_FUZZ_SECONDS (default 10) each, one per core
#          at a time: nine targets, about 50 s on two cores, built while the JS tests run
#          (scripts/fuzz.sh runs them for as long as you like). 10 s, not 25 or 15: CI took
#          960-1016 s of its 1200 with 25, and 965 s with 15 on a slow day (its C++ stages
#          a third slower than usual), the smoke test on Node 22 added.
#   Smoke: the built package on Node 20, the oldest supported (import, require, the
#          engine-dependent output routes), and on Node 22.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
mkdir -p build
passed=0
failed=0
skipped=0  # tests that did not run (../shared absent, or not for the runtime): reported, never counted as passed
# Seconds per stage, printed as each ends: CI must stay well under its 20 minutes.
stage_start=$SECONDS
stage_name="setup and build"
stage() {
  echo "-- $stage_name: $((SECONDS - stage_start)) s"
  stage_start=$SECONDS
  stage_name=$1
}

bash scripts/setup.sh || { echo "setup failed"; echo "0 passed, 1 failed"; exit 1; }
export PATH="$root/node_modules/.bin:$PATH"
bash scripts/build.sh || { echo "build failed"; echo "0 passed, 1 failed"; exit 1; }

# The GoogleTest binary runs in one shard per core (GTEST_TOTAL_SHARDS), each writing an
# XML report that the counts come from. (ctest ran each of the 289 tests in a process of
# its own: under ASan a process takes 0.17 s to start, about 50 s of the stage's CPU.)
run_gtest() {
  local dir=$1
  shift
  if ! cmake -S . -B "$dir" "$@" >/dev/null || ! cmake --build "$dir" -j2 --target wasmjson_tests >/dev/null; then
    echo "C++ build in $dir failed"
    failed=$((failed + 1))
    return
  fi
  local shards i
  shards=$(nproc)
  local pids=()
  for ((i = 0; i < shards; i++)); do
    rm -f "$dir/shard-$i.xml"
    GTEST_TOTAL_SHARDS=$shards GTEST_SHARD_INDEX=$i "$dir/wasmjson_tests" --gtest_brief=1 \
      --gtest_output="xml:$dir/shard-$i.xml" >"$dir/shard-$i.log" 2>&1 &
    pids+=($!)
  done
  for ((i = 0; i < shards; i++)); do
    local status=0
    wait "${pids[$i]}" || status=$?
    # A shard that crashed (a sanitizer's report ends the process) wrote no report.
    if [ ! -s "$dir/shard-$i.xml" ]; then
      echo "C++ tests in $dir, shard $i of $shards: exit status $status, no report"
      tail -n 40 "$dir/shard-$i.log"
      failed=$((failed + 1))
      continue
    fi
    # Passed, failed and skipped (GTEST_SKIP: ../shared absent) testcases of the report.
    local counts
    counts=$(node -e '
      const xml = require("fs").readFileSync(process.argv[1], "utf8");
      let pass = 0, fail = 0, skip = 0;
      for (const m of xml.matchAll(/<testcase\b([^>]*?)(\/>|>([\s\S]*?)<\/testcase>)/g)) {
        if (/<failure/.test(m[3] ?? "")) fail++;
        else if (/result="skipped"/.test(m[1])) skip++;
        else pass++;
      }
      console.log(pass, fail, skip);' "$dir/shard-$i.xml" 2>&1)
    if [[ "$counts" =~ ^([0-9]+)\ ([0-9]+)\ ([0-9]+)$ ]]; then
      passed=$((passed + BASH_REMATCH[1]))
      failed=$((failed + BASH_REMATCH[2]))
      skipped=$((skipped + BASH_REMATCH[3]))
      if [ "${BASH_REMATCH[2]}" -ne 0 ] || [ "$status" -ne 0 ]; then
        grep -E -B 2 -A 20 '^\[  FAILED  \]|Failure$' "$dir/shard-$i.log" | head -n 80
        [ "${BASH_REMATCH[2]}" -ne 0 ] || failed=$((failed + 1))
      fi
      echo "shard $i of $shards: ${BASH_REMATCH[1]} passed, ${BASH_REMATCH[2]} failed, ${BASH_REMATCH[3]} skipped"
    else
      echo "C++ tests in $dir, shard $i: unreadable report: $counts"
      failed=$((failed + 1))
    fi
  done
}

stage "C++ tests"
echo "== C++ tests (scalar, swar64, simd128 kernels)"
run_gtest build/native -DCMAKE_BUILD_TYPE=Release
stage "C++ tests under sanitizers"
echo "== C++ tests under AddressSanitizer + UndefinedBehaviorSanitizer"
run_gtest build/native-asan -DCMAKE_BUILD_TYPE=Debug -DWASMJSON_SANITIZE=ON

# The fuzz targets take about five minutes of CPU to compile (sanitizers, every kernel),
# and the JS tests leave a core idle much of the time (browser start-up, waits on the
# page, and the Node project's last files, which run alone): they build meanwhile, at
# the lowest priority, so that the tests are not slowed, and the fuzzing stage finds them
# built. (A failed build is reported there: fuzz.sh builds again and prints why.)
nice -n 19 bash scripts/fuzz.sh --build-only >build/fuzz-build.log 2>&1 &
fuzz_build=$!

stage "JS tests"
echo "== JS tests (vitest: node + chromium, both flavors)"
rm -f build/vitest.json
node_modules/.bin/vitest run --reporter=default --reporter=json --outputFile.json=build/vitest.json
vitest_status=$?
counts=""
if [ -f build/vitest.json ]; then
  counts=$(node -e '
    const r = JSON.parse(require("fs").readFileSync("build/vitest.json", "utf8"));
    // A spec file that fails to load has no failed tests but is a failure.
    const brokenFiles = r.testResults.filter((f) => f.status === "failed" && f.assertionResults.every((a) => a.status !== "failed")).length;
    console.log(r.numPassedTests, r.numFailedTests + brokenFiles + (r.numTotalTests === 0 ? 1 : 0), r.numPendingTests + r.numTodoTests);' 2>&1)
fi
if [[ "$counts" =~ ^([0-9]+)\ ([0-9]+)\ ([0-9]+)$ ]]; then
  passed=$((passed + BASH_REMATCH[1]))
  failed=$((failed + BASH_REMATCH[2]))
  skipped=$((skipped + BASH_REMATCH[3]))
  # Errors outside any test (an exception in a timer, an unhandled rejection) fail the
  # run without failing a test: vitest's exit status is the only sign of them.
  if [ "$vitest_status" -ne 0 ] && [ "${BASH_REMATCH[2]}" -eq 0 ]; then
    echo "vitest exited with status $vitest_status and no failed test (an error outside the tests: see above)"
    failed=$((failed + 1))
  fi
else
  echo "vitest wrote no readable results (exit status $vitest_status): ${counts:-no file}"
  failed=$((failed + 1))
fi

stage "fuzzing"
wait "$fuzz_build"
echo "fuzz targets built: waited $((SECONDS - stage_start)) s for their build after the JS tests"
echo "== libFuzzer, ${WASMJSON_FUZZ_SECONDS:=10}s per target (ASan + UBSan; scripts/fuzz.sh runs longer)"
bash scripts/fuzz.sh "$WASMJSON_FUZZ_SECONDS" | tee build/fuzz.log | sed -n '/^== summary/,$p'
while read -r target execs _ findings _; do
  if [ "$findings" = "0" ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
done < <(grep -E '^fuzz_[a-z0-9_]+ +[0-9?]+ executions +[0-9]+ finding' build/fuzz.log)
grep -qE '^fuzz_[a-z0-9_]+ +[0-9?]+ executions' build/fuzz.log || { tail -n 20 build/fuzz.log; echo "fuzzing did not run"; failed=$((failed + 1)); }

stage "smoke"
# The oldest Node the package supports (engines: >= 20): the machine's, or where the
# machine has another (Debian's own nodejs is 18), Node 20 from the npm registry.
node20=/usr/bin/node
if [ "$("$node20" -p 'process.versions.node.split(".")[0]' 2>/dev/null)" != "20" ]; then
  npm install --no-save --no-audit --no-fund --prefix build/node20 node@20 >/dev/null 2>&1
  node20=$root/build/node20/node_modules/node/bin/node
fi
echo "== Smoke test on Node $("$node20" --version 2>/dev/null || echo "20: missing") ($node20)"
for f in tests/smoke/smoke.mjs tests/smoke/smoke.cjs; do
  if "$node20" "$f"; then passed=$((passed + 1)); else echo "FAILED: $f"; failed=$((failed + 1)); fi
done
# And on Node 22 (V8 12), whose outputs take Node 20's UTF-16 route but are flattened as
# Node 26's are (js/src/utf8.ts): a combination neither of the others runs.
npm install --no-save --no-audit --no-fund --prefix build/node22 node@22 >/dev/null 2>&1
node22=$root/build/node22/node_modules/node/bin/node
echo "== Smoke test on Node $("$node22" --version 2>/dev/null || echo "22: missing") ($node22)"
if "$node22" tests/smoke/smoke.mjs; then passed=$((passed + 1)); else echo "FAILED: tests/smoke/smoke.mjs on Node 22"; failed=$((failed + 1)); fi

stage ""
echo "total: $SECONDS s"
[ "$skipped" -eq 0 ] || echo "$skipped skipped (../shared not present, or not for this runtime), not counted as passed"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
