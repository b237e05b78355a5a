// Long differential run against native JSON, on demand (the vitest specs run a seeded
// few thousand of the same cases in CI):
//
//   node tests/differential.mjs [cases=1000000] [seed=1]
//   BROWSER_ROUTES=1 node tests/differential.mjs ...
//     (browsers' routes: tests/js/support/run-codecs.ts)
//
// For each case, in both flavors: a generated JSON document (tests/js/support/random-json.ts:
// deep, wide, unicode, lone surrogates, escapes, number edge cases, whitespace) must
// parse to the same value as JSON.parse from a string and from UTF-8 bytes (or both must
// throw); a one-character mutation must agree with JSON.parse on success vs failure and
// value; the parsed value must stringify() exactly as JSON.stringify does, with and
// without indentation (and encode() to its UTF-8), and canonicalize() as the
// `canonicalize` package does (or throw a TypeError where RFC 8785 has no form); and
// parse with random checking options (duplicateKeys, protoAction, constructorAction,
// maxDepth) must give the value or the error (code and offset) of the model in
// tests/js/support/checked-parse.ts. Prints counts and exits 1 on
// the first mismatch, with the input.
import canonicalizePackage from 'canonicalize';
import { isDeepStrictEqual } from 'node:util';
import { jsonDiff, mutate, randomDocument, Rng } from './js/support/random-json.ts';
import { referenceParse } from './js/support/reference-parse.ts';
import { checkedParse, compareWithModel } from './js/support/checked-parse.ts';
import { canonicalizable } from './js/support/canonical-form.ts';
import { runCodecs } from './js/support/run-codecs.ts';

const cases = Number(process.argv[2] ?? 1_000_000);
const seed = Number(process.argv[3] ?? 1);
const { codecs } = await runCodecs();
const encoder = new TextEncoder();
const decoder = new TextDecoder();

function outcome(f) {
  try {
    return { ok: true, value: f() };
  } catch (e) {
    if (!(e instanceof SyntaxError) && !(e instanceof TypeError)) throw e;
    return { ok: false, message: e.message, error: e };
  }
}

function sameBytes(a, b) {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

// A second oracle for disagreements: an independent structural parser
// (tests/js/support/reference-parse.ts), since V8's JSON.parse has a bug of its own.
function reference(input) {
  try {
    return { ok: true, value: referenceParse(input) };
  } catch (e) {
    if (!(e instanceof SyntaxError)) throw e;
    return { ok: false };
  }
}

function same(a, b) {
  return a.ok === b.ok && (!a.ok || isDeepStrictEqual(a.value, b.value));
}

let checks = 0;
let nativeWrong = 0;
const started = Date.now();
const rng = new Rng(seed);
for (let n = 1; n <= cases; n++) {
  const { text, value: intended } = randomDocument(rng);
  const variants = [text, mutate(rng, text)];
  for (const input of variants) {
    let expected = outcome(() => JSON.parse(input));
    // Native JSON.parse has a bug of its own (V8: an escaped one-character key can come
    // back as another character, depending on the keys before it): where it disagrees
    // with the value the generator wrote, the generator's value is the truth.
    if (input === text && expected.ok && !isDeepStrictEqual(expected.value, intended)) {
      nativeWrong++;
      expected = { ok: true, value: intended };
    }
    // Bytes are compared with JSON.parse(new TextDecoder().decode(bytes)), which skips a BOM.
    const bytes = input.isWellFormed() ? encoder.encode(input) : undefined;
    let expectedBytes = bytes ? outcome(() => JSON.parse(decoder.decode(bytes))) : undefined;
    if (input === text && expectedBytes?.ok && !isDeepStrictEqual(expectedBytes.value, intended)) {
      expectedBytes = { ok: true, value: intended };
    }
    for (const c of codecs) {
      const fromString = outcome(() => c.parse(input));
      const fromBytes = bytes ? outcome(() => c.parse(bytes)) : undefined;
      checks += bytes ? 2 : 1;
      if (!same(fromString, expected) || (bytes && !same(fromBytes, expectedBytes))) {
        const ref = reference(input);
        if (same(fromString, ref) && !same(expected, ref) && (!bytes || same(fromBytes, fromString))) {
          nativeWrong++;
          continue;
        }
        console.error(`MISMATCH (${c.flavor}) in case ${n}, seed ${seed}: parse(${JSON.stringify(input).slice(0, 2000)})`);
        console.error({ expected, fromString, expectedBytes, fromBytes });
        if (fromString.ok && expected.ok) console.error('string diff:', jsonDiff(fromString.value, expected.value));
        if (fromBytes?.ok && expectedBytes?.ok) console.error('bytes diff:', jsonDiff(fromBytes.value, expectedBytes.value));
        process.exit(1);
      }
      if (expected.ok && typeof c.stringify === 'function') {
        for (const space of [undefined, 2]) {
          checks++;
          const want = JSON.stringify(expected.value, null, space);
          const got = c.stringify(expected.value, null, space);
          if (got !== want) {
            console.error(`MISMATCH (${c.flavor}) in case ${n}, seed ${seed}: stringify of ${JSON.stringify(input).slice(0, 2000)} space=${space}`);
            console.error({ want: want?.slice(0, 2000), got: got?.slice(0, 2000) });
            process.exit(1);
          }
          // encode(): the same text as UTF-8.
          checks++;
          const bytes = c.encode(expected.value, { space });
          if (!sameBytes(bytes, encoder.encode(want))) {
            console.error(`MISMATCH (${c.flavor}) in case ${n}, seed ${seed}: encode of ${JSON.stringify(input).slice(0, 2000)} space=${space}`);
            console.error({ want: want?.slice(0, 2000), got: decoder.decode(bytes).slice(0, 2000) });
            process.exit(1);
          }
        }
        // canonicalize(value): the `canonicalize` package's text, or a TypeError where
        // RFC 8785 has no form (a lone surrogate, a number that overflowed). (Not for a
        // string: canonicalize() reads one as JSON text.)
        if (typeof expected.value !== 'string') {
          checks++;
          const jcs = canonicalizable(expected.value) ? canonicalizePackage(expected.value) : undefined;
          const canon = outcome(() => c.canonicalize(expected.value));
          if (jcs === undefined ? canon.ok || !(canon.error instanceof TypeError) : !canon.ok || canon.value !== jcs) {
            console.error(`MISMATCH (${c.flavor}) in case ${n}, seed ${seed}: canonicalize of ${JSON.stringify(input).slice(0, 2000)}`);
            console.error({ want: jcs?.slice(0, 2000) ?? 'a TypeError', got: canon.ok ? canon.value?.slice(0, 2000) : String(canon.error) });
            process.exit(1);
          }
        }
      }
    }
  }
  // The checking options, on the unmutated document (valid JSON, as the model needs).
  const policy = {
    duplicateKeys: rng.pick(['last', 'error']),
    protoAction: rng.pick(['ignore', 'error', 'remove']),
    constructorAction: rng.pick(['ignore', 'error', 'remove']),
    maxDepth: rng.pick([Infinity, 1, 3, 8, 20]),
  };
  const want = checkedParse(text, policy);
  const textBytes = encoder.encode(text);
  for (const c of codecs) {
    for (const input of [text, textBytes]) {
      checks++;
      const diff = compareWithModel(() => c.parse(input, policy), want, text, typeof input !== 'string');
      if (diff) {
        console.error(`MISMATCH (${c.flavor}) in case ${n}, seed ${seed}: parse(${typeof input === 'string' ? 'string' : 'bytes'} ${JSON.stringify(text).slice(0, 2000)}, ${JSON.stringify(policy)}): ${diff}`);
        process.exit(1);
      }
    }
  }
  if (n % 10000 === 0) {
    process.stdout.write(`\r${n} cases, ${checks} checks, ${((Date.now() - started) / 1000).toFixed(0)} s`);
  }
}
console.log(`\n${cases} documents (+ one mutation each), ${checks} comparisons with native JSON, 0 mismatches (seed ${seed}, ${((Date.now() - started) / 1000).toFixed(0)} s; native JSON.parse itself was wrong on ${nativeWrong})`);
