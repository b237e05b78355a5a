// Long randomized reentrancy run, on demand (tests/js/reentrancy.test.ts runs a seeded
// few of the same cases in CI):
//
//   node tests/reentrancy.mjs [cases=20000] [seed=1]
//   BROWSER_ROUTES=1 node tests/reentrancy.mjs ...   (browsers' routes:
//                                                     tests/js/support/run-codecs.ts)
//
// Each case (tests/js/support/reentrancy-cases.ts) is one outer call whose user code (a
// reviver, replacer, toJSON, getter, valueOf or toString) calls back into the library at
// random moments, down to depth 3, on small, medium and (one case in LARGE_EVERY, on
// fresh codecs, so wasm memory grows mid-call) large documents, valid and invalid; every
// call, outer and nested, is checked against an expectation made without the library.
// Both flavors run each case. Prints counts and exits 1 on the first mismatch, with what
// reproduces it. ONLY_CASE=n runs case n alone (its documents and calls are the same;
// the codecs' caches are not as the earlier cases left them).
import { Rng } from './js/support/random-json.ts';
import { isLargeCase, Mismatch, runCase } from './js/support/reentrancy-cases.ts';
import { routes, runCodecs } from './js/support/run-codecs.ts';

const cases = Number(process.argv[2] ?? 20_000);
const seed = Number(process.argv[3] ?? 1);
const only = process.env.ONLY_CASE === undefined ? undefined : Number(process.env.ONLY_CASE);
const route = routes.name;
let { codecs, LazyNode } = await runCodecs();
const counts = { outer: 0, nested: 0, checks: 0, large: 0 };
const started = Date.now();
const seconds = () => ((Date.now() - started) / 1000).toFixed(0);
// Each case draws its own seed: any case can be run alone.
const rng = new Rng(seed);
for (let n = 1; n <= cases; n++) {
  const caseSeed = rng.int(2 ** 31);
  if (only !== undefined && n !== only) continue;
  const large = isLargeCase(n);
  // A large case starts on fresh codecs (2 MiB of wasm memory), which it then leaves to
  // the cases after it: its large document grows memory in the middle of the outer call.
  if (large) ({ codecs, LazyNode } = await runCodecs());
  for (const codec of codecs) {
    try {
      runCase({ codec, LazyNode }, caseSeed, large, counts);
    } catch (e) {
      const what = e instanceof Mismatch ? 'MISMATCH' : 'UNEXPECTED ERROR';
      const replay = `${routes.env}ONLY_CASE=${n} node tests/reentrancy.mjs ${n} ${seed}`;
      console.error(`\n${what} (${codec.flavor}, ${route}) in case ${n} of seed ${seed} (${replay} runs it alone):`);
      console.error(e instanceof Mismatch ? e.message : e);
      process.exit(1);
    }
  }
  if (n % 1000 === 0) {
    process.stdout.write(`${n} cases: ${counts.outer} outer calls, ${counts.nested} nested (${counts.large} large), ${counts.checks} checks, ${seconds()} s\n`);
  }
}
console.log(
  `${only !== undefined ? `case ${only}` : `${cases} cases`} of seed ${seed}, ${route}: ${counts.outer} outer calls, ${counts.nested} nested calls ` +
    `(${counts.large} on large documents), ${counts.checks} checks, no mismatch (${seconds()} s)`,
);
