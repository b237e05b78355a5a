// parse() of documents whose keys the codec has never seen: the first parse of a kind of
// document (a config file, a one-off export), where the main suite times documents the
// codec's key and shape caches already know (a service parsing the same kinds of
// documents again). Per corpus file, K copies with every key renamed (a suffix per copy);
// each copy is parsed once by wasmjson and once natively, in alternating order, with a GC
// before each call; the ratio per copy, its median per file, the geomean at the end.
// Ratios > 1 mean wasmjson is faster.
//   node --expose-gc bench/cold.mjs [files...]      (K=24 copies; FLAVOR=swar64; INPUT=string)
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { load } from '../dist/node.mjs';
import { filesOrSharedCorpus } from './cli-args.mjs';
import { geomean, median } from './suite.mjs';

const copies = Number(process.env.K ?? 24);
const asString = process.env.INPUT === 'string';
const gc = globalThis.gc ?? (() => {});
const codec = await load({ flavor: process.env.FLAVOR || undefined });
const decoder = new TextDecoder();
const encoder = new TextEncoder();

/** v with every object key suffixed (recursion is fine here: corpus documents are shallow). */
function renamed(v, suffix) {
  if (Array.isArray(v)) return v.map((x) => renamed(x, suffix));
  if (v === null || typeof v !== 'object') return v;
  const o = {};
  for (const k of Object.keys(v)) o[k + suffix] = renamed(v[k], suffix);
  return o;
}

function timeOne(fn) {
  gc();
  const t = performance.now();
  fn();
  return performance.now() - t;
}

if (!globalThis.gc) console.log('(run with node --expose-gc for a GC before each call)');
console.log(`parse(${asString ? 'string' : 'bytes'}) of documents with keys new to the codec, ${codec.flavor}, ${copies} copies per file`);
const ratios = [];
for (const file of filesOrSharedCorpus(process.argv.slice(2))) {
  const value = JSON.parse(readFileSync(file, 'utf8'));
  // (A suffix no corpus key has, unique per copy and per run of this script.)
  const runTag = Math.random().toString(36).slice(2, 8);
  const docs = Array.from({ length: copies }, (_, i) => {
    const text = JSON.stringify(renamed(value, `~${runTag}${i}`));
    return asString ? text : encoder.encode(text);
  });
  const native = asString ? (d) => JSON.parse(d) : (d) => JSON.parse(decoder.decode(d));
  const ours = (d) => codec.parse(d);
  const perCopy = docs.map((d, i) => {
    let a, b;
    if (i % 2) {
      a = timeOne(() => native(d));
      b = timeOne(() => ours(d));
    } else {
      b = timeOne(() => ours(d));
      a = timeOne(() => native(d));
    }
    return a / b;
  });
  const r = median(perCopy);
  ratios.push(r);
  console.log(`${basename(file).padEnd(40)} ${r.toFixed(2)}x`);
}
if (ratios.length) console.log(`geomean ${geomean(ratios).toFixed(2)}x over ${ratios.length} files`);
