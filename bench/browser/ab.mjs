// A/B of two builds of the JS package in headless Chromium, interleaved in one page: a
// developer tool for deciding whether a change to js/src is faster in browsers (the
// product's numbers come from bench/browser/run.mjs; bench/ab.mjs does the same for two
// .wasm builds in Node). Separate runs differ by more than most changes do on a shared
// machine; here every round times OLD, NEW, native, NEW, OLD back to back on the same
// documents, and the per-round ratios' median is reported.
//
//   node bench/browser/ab.mjs OLD_DIST [--ops LIST] [--rounds N] [--no-builtin] [--no-shared] [files...]
//
// OLD_DIST: a copy of an earlier build's dist/ (npm run build:js, then copy the folder);
// NEW is this checkout's dist/. Both must have the same .wasm files' exports. Operations:
// parse (string), parse-bytes, validate (string), minify (string), prettify (string,
// indent 2), stringify, encode, at (string, the deep pointer of bench/run.mjs).
// Default: parse, on the built-in corpus and ../shared/corpus. Prints, per operation and
// file, NEW's speed over OLD's (> 1: NEW is faster) and NEW's over native JSON, then the
// geomeans.
import { cpSync, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../scripts/chromium.mjs';
import { takeFlag, takeOption } from '../cli-args.mjs';
import { startServer } from './server.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const args = process.argv.slice(2);
const ops = takeOption(args, '--ops', 'parse').split(',');
const rounds = Number(takeOption(args, '--rounds', 9));
const builtin = !takeFlag(args, '--no-builtin');
const shared = !takeFlag(args, '--no-shared');
const [oldDist, ...files] = args;
const OPS = ['parse', 'parse-bytes', 'validate', 'minify', 'prettify', 'stringify', 'encode', 'at'];
if (!oldDist || !existsSync(join(oldDist, 'browser.mjs')) || ops.some((o) => !OPS.includes(o))) {
  console.error(`usage: node bench/browser/ab.mjs OLD_DIST [--ops ${OPS.join(',')}] [--rounds N] [--no-builtin] [--no-shared] [files...]`);
  process.exit(2);
}

// The page can load only what the server serves: the repository. The old build goes
// under build/ (ignored by git) for the run.
const served = join(root, 'build', 'ab-old-dist');
rmSync(served, { recursive: true, force: true });
cpSync(oldDist, served, { recursive: true });

const { chromium } = await import('playwright');
const server = await startServer({ files, shared });
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
try {
  const page = await browser.newPage();
  page.on('console', (m) => console.log(m.text()));
  await page.goto(server.url + '/bench/browser/server.mjs');
  await page.evaluate(
    async ({ ops, rounds, builtin }) => {
      const A = await import('/build/ab-old-dist/browser.mjs');
      const B = await import('/dist/browser.mjs');
      const { builtinCorpus } = await import('/bench/corpus.mjs');
      const { deepPointer, pointerPath, walkPath } = await import('/bench/suite.mjs');
      const decoder = new TextDecoder();
      const list = builtin ? builtinCorpus().map((f) => ({ name: f.name, docs: (f.docs ?? [f.bytes]).map((b) => decoder.decode(b)) })) : [];
      for (const f of (await (await fetch('/__bench/corpus.json')).json()).files) {
        const text = await (await fetch(f.url)).text();
        list.push({ name: f.name, docs: /\.(ndjson|jsonl)$/.test(f.name) ? text.split('\n').filter(Boolean) : [text] });
      }
      // A batch lasts at least 20 ms: (time per call).
      const time = (fn) => {
        let n = 0;
        const t0 = performance.now();
        do {
          fn();
          n++;
        } while (performance.now() - t0 < 20);
        return (performance.now() - t0) / n;
      };
      const median = (xs) => xs.sort((x, y) => x - y)[xs.length >> 1];
      const geomean = (xs) => Math.exp(xs.reduce((s, x) => s + Math.log(x), 0) / xs.length);
      for (const op of ops) {
        console.log(`== ${op}: NEW/OLD speed, NEW vs native`);
        const vsOld = [];
        const vsNative = [];
        for (const { name, docs } of list) {
          const bytes = docs.map((d) => new TextEncoder().encode(d));
          let values;
          try {
            values = docs.map((d) => JSON.parse(d));
          } catch {
            continue; // (not JSON: nothing to compare)
          }
          const deep = op === 'at' ? values.map((v) => deepPointer(v)) : [];
          const paths = deep.map((p) => pointerPath(p));
          const runs = {
            parse: [(m) => () => docs.forEach((d) => m.parse(d)), () => docs.forEach((d) => JSON.parse(d))],
            'parse-bytes': [(m) => () => bytes.forEach((b) => m.parse(b)), () => bytes.forEach((b) => JSON.parse(decoder.decode(b)))],
            validate: [(m) => () => docs.forEach((d) => m.validate(d)), () => docs.forEach((d) => JSON.parse(d))],
            minify: [(m) => () => docs.forEach((d) => m.minify(d)), () => docs.forEach((d) => JSON.stringify(JSON.parse(d)))],
            prettify: [(m) => () => docs.forEach((d) => m.prettify(d, { indent: 2 })), () => docs.forEach((d) => JSON.stringify(JSON.parse(d), null, 2))],
            stringify: [(m) => () => values.forEach((v) => m.stringify(v)), () => values.forEach((v) => JSON.stringify(v))],
            encode: [(m) => () => values.forEach((v) => m.encode(v)), () => values.forEach((v) => new TextEncoder().encode(JSON.stringify(v)))],
            at: [(m) => () => docs.forEach((d, i) => m.at(d, deep[i])), () => docs.forEach((d, i) => walkPath(JSON.parse(d), paths[i]))],
          }[op];
          const a = runs[0](A);
          const b = runs[0](B);
          const native = runs[1];
          for (let w = 0; w < 3; w++) [a, b, native].forEach(time);
          const rs = [];
          const rn = [];
          for (let r = 0; r < rounds; r++) {
            const ta = time(a);
            const tb = time(b);
            const tn = time(native);
            const tb2 = time(b);
            const ta2 = time(a);
            rs.push((ta + ta2) / (tb + tb2));
            rn.push((2 * tn) / (tb + tb2));
          }
          vsOld.push(median(rs));
          vsNative.push(median(rn));
          console.log(`  ${name.padEnd(40)} ${median(rs).toFixed(3)}  ${median(rn).toFixed(2)}x`);
        }
        console.log(`  geomean of ${vsOld.length}: NEW/OLD ${geomean(vsOld).toFixed(3)}, NEW vs native ${geomean(vsNative).toFixed(2)}x`);
      }
    },
    { ops, rounds, builtin },
  );
} finally {
  await browser.close();
  await server.close();
  rmSync(served, { recursive: true, force: true });
}
