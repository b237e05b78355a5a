// Long differential run of the operations on JSON text, on demand (the vitest specs run a
// seeded few hundred of the same kind in CI):
//
//   node tests/differential-text.mjs [cases=100000] [seed=1]
//   BROWSER_ROUTES=1 node tests/differential-text.mjs ...   (browsers' routes:
//                                                            tests/js/support/run-codecs.ts)
//
// For each case, in both flavors, from a string and from its UTF-8 bytes: a generated
// document (tests/js/support/random-json.ts) and a one-character mutation of it.
//   minify, prettify   the text of a token-level model below (strings and numbers
//                      verbatim; prettify with an indent picked from INDENTS), or a
//                      SyntaxError where the text is not JSON
//   canonicalize       the `canonicalize` package's text for the value; a TypeError
//                      where RFC 8785 has no form (lone surrogates, numbers that overflow)
//   at, lazy().at      RFC 6901 on the value (tests/js/support/json-pointer.ts), for
//                      pointers to every value, missing ones and invalid ones
//   lazy(...).toJS()   the value; the root's keys() and length as Object.keys() has them
//   validate           whether the text is JSON
// The value is an independent parser's (tests/js/support/reference-parse.ts), where
// native JSON.parse has a bug of its own.
// Prints counts and exits 1 on the first mismatch, with the input.
import canonicalizePackage from 'canonicalize';
import { isDeepStrictEqual } from 'node:util';
import { writeFileSync } from 'node:fs';
import { evaluatePointer, INVALID_POINTER, pointerToken } from './js/support/json-pointer.ts';
import { jsonTokens, layoutOf } from './js/support/layout-model.ts';
import { attempt } from './js/support/outcome.ts';
import { jsonDiff, mutate, randomChars, randomDocument, Rng, stringLiteral } from './js/support/random-json.ts';
import { referenceParse } from './js/support/reference-parse.ts';
import { canonicalizable } from './js/support/canonical-form.ts';
import { runCodecs } from './js/support/run-codecs.ts';

const cases = Number(process.argv[2] ?? 100_000);
const seed = Number(process.argv[3] ?? 1);
// (Debugging aid: cases before this one are generated but not run.)
const from = Number(process.env.FROM_CASE ?? 1);
let caseNo = 0;
const { codecs, LazyNode } = await runCodecs();
const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder();

/** The indents tried, and the gap JSON.stringify makes of each. */
const INDENTS = [2, 4, 10, 11, 0, '\t', '', ' - ', 'abcdefghijkl', '\u00e9'];
const gapOf = (indent) => (typeof indent === 'number' ? ' '.repeat(Math.min(10, indent)) : indent.slice(0, 10));

/** Pointers to every value of v (RFC 6901, escaped), and some that lead nowhere. */
function pointers(v) {
  const out = [''];
  const stack = [[v, '']];
  while (stack.length) {
    const [x, p] = stack.pop();
    if (typeof x !== 'object' || x === null) continue;
    const names = Array.isArray(x) ? x.map((_, i) => String(i)) : Object.keys(x);
    for (const k of names) {
      const q = `${p}/${pointerToken(k)}`;
      out.push(q);
      stack.push([x[k], q]);
    }
    out.push(`${p}/${Array.isArray(x) ? x.length : 'missing~2'}`, `${p}/-`, `${p}/01`);
  }
  return out;
}

/** A lazy node's whole value; other values as they are. */
function wholeValue(v) {
  return v instanceof LazyNode ? v.toJS() : v;
}

/**
 * Every LARGE_EVERY-th case is a large document: two generated ones around a long string
 * (thousands to hundreds of thousands of units), past the sizes where the library takes
 * other routes (strings read as narrowed units from 2,048 units, sampled from 64K,
 * output made in pieces from 256 KB, at() on growing heads of the input).
 */
const LARGE_EVERY = 25;
function largeDocument(rng) {
  const pad = stringLiteral(randomChars(rng, rng.pick([3000, 40000, 70000, 140000])), rng, rng.pick([0, 0.01]));
  const [a, b] = [randomDocument(rng).text, randomDocument(rng).text];
  return rng.chance(0.5) ? `{"head":${a},"pad":${pad},"doc":${b}}` : `[${a},${pad},${b}]`;
}
/** At most this many pointers are looked up in a large document (each reads it whole). */
const LARGE_POINTERS = 30;

let checks = 0;
function fail(what, input, detail) {
  if (process.env.FAIL_OUT) writeFileSync(process.env.FAIL_OUT, input);
  console.error(`\nMISMATCH (${what}) in case ${caseNo} after ${checks} checks\ninput: ${JSON.stringify(input)}\n${detail}`);
  process.exit(1);
}
function expectSame(what, input, got, want) {
  checks++;
  if (!isDeepStrictEqual(got, want)) {
    const where = got.ok && want.ok ? `differs: ${jsonDiff(got.value, want.value)}\n` : '';
    fail(what, input, `${where}got:  ${JSON.stringify(got)}\nwant: ${JSON.stringify(want)}`);
  }
}
function expectThrows(what, input, got, Kind) {
  checks++;
  if (got.ok || !(got.error instanceof Kind)) fail(what, input, `got: ${got.ok ? JSON.stringify(got.value) : got.error}\nwant: a ${Kind.name}`);
}

const started = Date.now();
const rng = new Rng(seed);
for (let n = 1; n <= cases; n++) {
  caseNo = n;
  const text = n % LARGE_EVERY === 0 ? largeDocument(rng) : randomDocument(rng).text;
  const mutated = mutate(rng, text);
  if (n < from) continue;
  for (const input of [text, mutated]) {
    // Bytes only where the text is well-formed (TextEncoder would replace lone
    // surrogates); their model skips one leading BOM, as TextDecoder does.
    const sources = [[input, input]];
    if (input.isWellFormed()) sources.push([utf8.encode(input), input.startsWith('\ufeff') ? input.slice(1) : input]);
    for (const [src, model] of sources) {
      // The value from an independent parser: V8's JSON.parse can give an escaped
      // one-character key as another character, depending on the keys it saw before
      // (tests/differential.mjs).
      const parsed = attempt(() => referenceParse(model));
      const toks = parsed.ok ? jsonTokens(model) : undefined;
      const canonical = parsed.ok && canonicalizable(parsed.value) ? canonicalizePackage(parsed.value) : undefined;
      let ptrs = parsed.ok ? pointers(parsed.value) : [];
      if (model.length > 2048 && ptrs.length > LARGE_POINTERS) ptrs = Array.from({ length: LARGE_POINTERS }, () => rng.pick(ptrs));
      for (const c of codecs) {
        const asText = (r) => (typeof r === 'string' ? r : fromUtf8.decode(r));
        const what = (op) => `${op} ${c.flavor} ${typeof src === 'string' ? 'string' : 'bytes'}`;
        const minified = attempt(() => asText(c.minify(src)));
        const indent = rng.pick(INDENTS);
        const pretty = attempt(() => asText(c.prettify(src, { indent })));
        const canon = attempt(() => asText(c.canonicalize(src)));
        const lazyValue = attempt(() => {
          const doc = c.lazy(src);
          if (!(doc instanceof LazyNode)) return doc;
          try {
            return doc.toJS();
          } finally {
            doc.free();
          }
        });
        expectSame(what('validate'), input, c.validate(src), parsed.ok);
        if (!parsed.ok) {
          expectThrows(what('minify'), input, minified, SyntaxError);
          expectThrows(what('prettify'), input, pretty, SyntaxError);
          expectThrows(what('canonicalize'), input, canon, SyntaxError);
          expectThrows(what('lazy'), input, lazyValue, SyntaxError);
          continue;
        }
        expectSame(what('minify'), input, minified, { ok: true, value: toks.join('') });
        expectSame(what(`prettify ${JSON.stringify(indent)}`), input, pretty, { ok: true, value: layoutOf(toks, gapOf(indent)) });
        if (canonical === undefined) expectThrows(what('canonicalize'), input, canon, TypeError);
        else expectSame(what('canonicalize'), input, canon, { ok: true, value: canonical });
        expectSame(what('lazy'), input, lazyValue, { ok: true, value: parsed.value });
        // at() on the input, and the same pointers on one lazy document (its lookups
        // list containers as they go), in a random order.
        const doc = c.lazy(src);
        try {
          for (let i = ptrs.length - 1; i > 0; i--) {
            const j = rng.int(i + 1);
            [ptrs[i], ptrs[j]] = [ptrs[j], ptrs[i]];
          }
          if (doc instanceof LazyNode) {
            // The root's listing: its keys (or indices) and length, in JS's order.
            const v = parsed.value;
            expectSame(what('lazy keys'), input, doc.keys(), Array.isArray(v) ? [] : Object.keys(v));
            expectSame(what('lazy length'), input, doc.length, Array.isArray(v) ? v.length : Object.keys(v).length);
          }
          for (const p of ptrs) {
            const want = evaluatePointer(parsed.value, p);
            const got = attempt(() => c.at(src, p));
            const lazyGot = doc instanceof LazyNode ? attempt(() => wholeValue(doc.at(p))) : undefined;
            if (want === INVALID_POINTER) {
              expectThrows(what(`at ${p}`), input, got, SyntaxError);
              if (lazyGot) expectThrows(what(`lazy at ${p}`), input, lazyGot, SyntaxError);
            } else {
              expectSame(what(`at ${p}`), input, got, { ok: true, value: want });
              if (lazyGot) expectSame(what(`lazy at ${p}`), input, lazyGot, { ok: true, value: want });
            }
          }
        } finally {
          if (doc instanceof LazyNode) doc.free();
        }
      }
    }
  }
  if (n % 10000 === 0) process.stdout.write(`${n} cases, ${checks} checks, ${Math.round((Date.now() - started) / 1000)} s\n`);
}
console.log(`${cases} cases, ${checks} checks: no mismatch (seed ${seed})`);
