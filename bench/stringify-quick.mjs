// stringify() and encode() vs native, per corpus file, both wasm flavors:
//   stringify(v) vs JSON.stringify(v)
//   encode(v)    vs new TextEncoder().encode(JSON.stringify(v))
// with v = JSON.parse of each ../shared/corpus/*.json (or the files named on the command
// line). Each pair is timed interleaved in the same process, a ratio per round, the
// median of the rounds; geomeans at the end. Ratios > 1 mean wasmjson is faster.
//   node bench/stringify-quick.mjs [files...]      (BENCH_ROUNDS, BENCH_MIN_MS, SPACE=2, REPLACER=1)
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { load } from '../dist/node.mjs';
import { filesOrSharedCorpus } from './cli-args.mjs';

const rounds = Number(process.env.BENCH_ROUNDS ?? 11);
const minMs = Number(process.env.BENCH_MIN_MS ?? 15);
const space = process.env.SPACE ? Number(process.env.SPACE) : undefined;
const replacer = process.env.REPLACER ? (_k, v) => v : undefined;

function time(fn, n) {
  const t0 = performance.now();
  for (let i = 0; i < n; i++) fn();
  return (performance.now() - t0) / n;
}
function calibrate(fn) {
  let n = 1;
  while (time(fn, n) * n < minMs && n < 1 << 20) n *= 2;
  return n;
}
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const geomean = (xs) => Math.exp(xs.reduce((a, x) => a + Math.log(x), 0) / xs.length);
/** Median over rounds of time(native) / time(ours): > 1 means ours is faster. */
function ratio(native, ours) {
  const nn = calibrate(native);
  const no = calibrate(ours);
  const r = [];
  for (let i = 0; i < rounds; i++) r.push(time(native, nn) / time(ours, no));
  return median(r);
}

const encoder = new TextEncoder();
const codecs = { simd128: await load({ flavor: 'simd128' }), swar64: await load({ flavor: 'swar64' }) };
const results = { simd128: { stringify: [], encode: [] }, swar64: { stringify: [], encode: [] } };
console.log(`stringify/encode vs native: Node ${process.version} (V8 ${process.versions.v8}), ${rounds} rounds` +
  `${space !== undefined ? `, space ${space}` : ''}${replacer ? ', replacer function' : ''}; ratio > 1 = faster than native`);
console.log(['file'.padEnd(38), 'KB'.padStart(6), 'native MB/s'.padStart(12), 'simd str'.padStart(9), 'simd enc'.padStart(9), 'swar str'.padStart(9), 'swar enc'.padStart(9)].join(' '));
for (const path of filesOrSharedCorpus(process.argv.slice(2))) {
  const value = JSON.parse(readFileSync(path, 'utf8'));
  const text = JSON.stringify(value, replacer, space);
  const row = [basename(path).padEnd(38), (text.length / 1024).toFixed(0).padStart(6)];
  row.push((text.length / 1e3 / (time(() => JSON.stringify(value, replacer, space), 20))).toFixed(0).padStart(12));
  for (const [flavor, c] of Object.entries(codecs)) {
    if (c.stringify(value, replacer, space) !== text) throw new Error(`${path}: ${flavor} stringify differs from JSON.stringify`);
    const s = ratio(() => JSON.stringify(value, replacer, space), () => c.stringify(value, replacer, space));
    const e = ratio(() => encoder.encode(JSON.stringify(value, replacer, space)), () => c.encode(value, { replacer, space }));
    results[flavor].stringify.push(s);
    results[flavor].encode.push(e);
    row.push(s.toFixed(2).padStart(9), e.toFixed(2).padStart(9));
  }
  console.log(row.join(' '));
}
if (results.simd128.stringify.length) {
  const g = (f, k) => geomean(results[f][k]).toFixed(2);
  console.log(`geomean: simd128 stringify ${g('simd128', 'stringify')}x encode ${g('simd128', 'encode')}x; ` +
    `swar64 stringify ${g('swar64', 'stringify')}x encode ${g('swar64', 'encode')}x`);
}
