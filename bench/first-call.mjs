// The first call of a process: a program that parses or writes one document and exits
// (a CLI, a build step, a serverless cold start). The main suite times warm code; here
// each measurement is a process of its own, so it includes what only the first call
// pays: the engine compiles each wasm function when it is first called (and runs it in
// its baseline tier until the optimized code is ready), JS runs in the interpreter
// first, and wasm memory is written for the first time.
//
// Per file and operation, `--runs` pairs of processes (ours and native, alternating
// which goes first); each reports the time of its first call after `load()` has
// resolved, and ours also `load()` itself. The medians per file, their ratio
// (native / ours: > 1 means wasmjson is faster), and the geomean over files.
//
//   node bench/first-call.mjs [--ops parse-string,parse-bytes,stringify] [--runs 3] [--flavor simd128] [files...]
import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { basename } from 'node:path';
import { filesOrSharedCorpus, takeOption } from './cli-args.mjs';
import { geomean, median } from './suite.mjs';

const OPS = {
  'parse-string': { label: 'parse(string) vs JSON.parse(string)' },
  'parse-bytes': { label: 'parse(bytes) vs JSON.parse(TextDecoder(bytes))' },
  stringify: { label: 'stringify(value) vs JSON.stringify(value)' },
};

// One process: reads the file, prepares the input, then times load() and the first call.
const CHILD = `
const [file, op, impl, flavor, dist] = process.argv.slice(1);
const { readFileSync } = await import('node:fs');
const bytes = readFileSync(file);
const text = new TextDecoder().decode(bytes);
const value = op === 'stringify' ? JSON.parse(text) : undefined;
let call, loadMs = 0;
if (impl === 'native') {
  call = { 'parse-string': () => JSON.parse(text), 'parse-bytes': () => JSON.parse(new TextDecoder().decode(bytes)), stringify: () => JSON.stringify(value) }[op];
} else {
  const t = performance.now();
  const { load } = await import(dist);
  const codec = await load({ flavor });
  loadMs = performance.now() - t;
  call = { 'parse-string': () => codec.parse(text), 'parse-bytes': () => codec.parse(bytes), stringify: () => codec.stringify(value) }[op];
}
const t = performance.now();
call();
const firstMs = performance.now() - t;
process.stdout.write(JSON.stringify({ loadMs, firstMs }));
`;

const args = process.argv.slice(2);
const ops = takeOption(args, '--ops', 'parse-string,parse-bytes,stringify').split(',');
const runs = Number(takeOption(args, '--runs', 3));
const flavor = takeOption(args, '--flavor', 'simd128');
for (const op of ops) {
  if (!OPS[op]) {
    console.error(`first-call: unknown operation ${op} (${Object.keys(OPS).join(', ')})`);
    process.exit(2);
  }
}
if (!(runs >= 1)) {
  console.error('first-call: --runs takes a whole number >= 1');
  process.exit(2);
}
const dist = new URL('../dist/node.mjs', import.meta.url).href;
const files = filesOrSharedCorpus(args);

function oneProcess(file, op, impl) {
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', CHILD, file, op, impl, flavor, dist], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`first-call: ${impl} ${op} on ${file} failed:\n${r.stderr}`);
  return JSON.parse(r.stdout);
}

console.log(`First call in a fresh process, ${process.version}, ${flavor}, ${runs} process pairs per file (medians, ms; x = native / ours, > 1: wasmjson faster)`);
for (const op of ops) {
  console.log(`\n== ${OPS[op].label}`);
  console.log(`${'file'.padEnd(40)} ${'KB'.padStart(6)}  ${'native'.padStart(8)}  ${'ours'.padStart(8)}  ${'x'.padStart(6)}  ${'load()'.padStart(8)}`);
  const ratios = [];
  for (const file of files) {
    const native = [];
    const ours = [];
    const loads = [];
    for (let i = 0; i < runs; i++) {
      const order = i % 2 ? ['ours', 'native'] : ['native', 'ours'];
      for (const impl of order) {
        const r = oneProcess(file, op, impl);
        if (impl === 'native') native.push(r.firstMs);
        else {
          ours.push(r.firstMs);
          loads.push(r.loadMs);
        }
      }
    }
    const n = median(native);
    const o = median(ours);
    ratios.push(n / o);
    const kb = (statSync(file).size / 1024).toFixed(0);
    console.log(`${basename(file).padEnd(40)} ${kb.padStart(6)}  ${n.toFixed(2).padStart(8)}  ${o.toFixed(2).padStart(8)}  ${(n / o).toFixed(2).padStart(5)}x  ${median(loads).toFixed(2).padStart(8)}`);
  }
  console.log(`geomean ${geomean(ratios).toFixed(2)}x over ${ratios.length} files`);
}
