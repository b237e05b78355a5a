// The benchmark (README's main command): wasmjson vs native JSON on the built-in corpus,
// ../shared/corpus when present, and any files or folders named on the command line.
// Every operation is timed interleaved with its native baseline in the same process;
// figures are medians over rounds, ratios are computed per round and then the median.
import { readdirSync, readFileSync, statSync, mkdirSync, writeFileSync, existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { load } from '../dist/node.mjs';
import { builtinCorpus } from './corpus.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const args = process.argv.slice(2);
const rounds = Number(process.env.BENCH_ROUNDS ?? 15);
const minMs = Number(process.env.BENCH_MIN_MS ?? 20);

function collectFiles() {
  const files = builtinCorpus();
  const shared = join(here, '../../shared/corpus');
  const extra = args.length ? args : existsSync(shared) ? [shared] : [];
  if (!args.length && !existsSync(shared)) console.log('../shared/corpus not present: built-in corpus only');
  for (const a of extra) {
    const paths = statSync(a).isDirectory() ? readdirSync(a).filter((f) => f.endsWith('.json')).map((f) => join(a, f)) : [a];
    for (const p of paths.sort()) files.push({ name: basename(p), bytes: new Uint8Array(readFileSync(p)) });
  }
  return files;
}

/** Calls fn enough times to last about minMs; returns ms per call. */
function time(fn, iterations) {
  const t0 = performance.now();
  for (let i = 0; i < iterations; i++) fn();
  return (performance.now() - t0) / iterations;
}

function calibrate(fn) {
  let n = 1;
  for (;;) {
    const ms = time(fn, n);
    if (ms * n >= minMs || n >= 1 << 20) return n;
    n *= 2;
  }
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const geomean = (xs) => Math.exp(xs.reduce((a, x) => a + Math.log(x), 0) / xs.length);

/** Runs ops interleaved (one call batch of each per round). Returns median ms per op. */
function race(ops) {
  const iters = ops.map((o) => calibrate(o.fn));
  const samples = ops.map(() => []);
  for (let r = 0; r < rounds; r++) {
    for (let i = 0; i < ops.length; i++) samples[i].push(time(ops[i].fn, iters[i]));
  }
  return samples;
}

const codecs = { simd128: await load({ flavor: 'simd128' }), swar64: await load({ flavor: 'swar64' }) };
const files = collectFiles();
const results = { node: process.version, v8: process.versions.v8, date: new Date().toISOString(), rounds, files: [] };
const ratios = { simd128: [], swar64: [] };
const speeds = { simd128: [], swar64: [] };

console.log(`wasmjson benchmark: Node ${process.version} (V8 ${process.versions.v8}), ${rounds} rounds, ${files.length} files`);
console.log('validate(bytes) vs JSON.parse(string): MB/s (median), ratio = wasmjson / native, same rounds');
console.log(['file'.padEnd(34), 'KB'.padStart(7), 'JSON.parse'.padStart(11), 'simd128'.padStart(9), 'x'.padStart(6), 'swar64'.padStart(9), 'x'.padStart(6)].join(' '));

for (const { name, bytes } of files) {
  const text = new TextDecoder().decode(bytes);
  for (const c of Object.values(codecs)) {
    if (!c.validate(bytes)) throw new Error(`${name}: wasmjson says invalid`);
  }
  JSON.parse(text);
  const [nat, simd, swar] = race([
    { fn: () => JSON.parse(text) },
    { fn: () => codecs.simd128.validate(bytes) },
    { fn: () => codecs.swar64.validate(bytes) },
  ]);
  const mbps = (ms) => bytes.length / 1e3 / ms;
  const row = { name, bytes: bytes.length, native: mbps(median(nat)) };
  for (const [flavor, s] of [['simd128', simd], ['swar64', swar]]) {
    const ratio = median(s.map((ms, i) => nat[i] / ms));
    row[flavor] = { mbps: mbps(median(s)), ratio, spread: (Math.max(...s) - Math.min(...s)) / median(s) };
    ratios[flavor].push(ratio);
    speeds[flavor].push(row[flavor].mbps);
  }
  results.files.push(row);
  console.log([name.padEnd(34), (bytes.length / 1024).toFixed(0).padStart(7), row.native.toFixed(0).padStart(11),
    row.simd128.mbps.toFixed(0).padStart(9), row.simd128.ratio.toFixed(2).padStart(6),
    row.swar64.mbps.toFixed(0).padStart(9), row.swar64.ratio.toFixed(2).padStart(6)].join(' '));
}

results.summary = {
  validate_simd128_geomean_mbps: geomean(speeds.simd128),
  validate_swar64_geomean_mbps: geomean(speeds.swar64),
  validate_simd128_vs_parse: geomean(ratios.simd128),
  validate_swar64_vs_parse: geomean(ratios.swar64),
};
console.log(`geomean validate: simd128 ${results.summary.validate_simd128_geomean_mbps.toFixed(0)} MB/s (${results.summary.validate_simd128_vs_parse.toFixed(2)}x JSON.parse), ` +
  `swar64 ${results.summary.validate_swar64_geomean_mbps.toFixed(0)} MB/s (${results.summary.validate_swar64_vs_parse.toFixed(2)}x); targets: simd128 >= 1500, swar64 >= 800`);
mkdir(join(here, 'results'));
const out = join(here, 'results', `validate-node${process.versions.node.split('.')[0]}.json`);
writeFileSync(out, JSON.stringify(results, null, 2));
console.log(`results: ${out}`);

function mkdir(p) {
  mkdirSync(p, { recursive: true });
}
