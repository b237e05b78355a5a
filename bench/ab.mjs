// A/B of two builds, interleaved in one process: a developer tool for deciding whether a
// change to the C++ core or to the JS is faster (the product's numbers come from
// bench/run.mjs). Separate processes, one per build, differ by more than most changes do
// on a shared machine (its speed drifts between runs); here every round times A, B, B, A
// back to back on the same document, and the per-round ratios' median is reported.
//
//   node --expose-gc bench/ab.mjs OLD NEW [--ops LIST] [--rounds N] [--split | --repeat K] [-v] [files...]
//
// OLD and NEW are each a .wasm file (run under this checkout's dist/ JS) or a dist
// directory (its own JS over its SIMD128 build: for changes to the JS, e.g. OLD = a
// copy of dist/ made before the change). Both builds must be of the same flavor. Operations:
//   wasm level (raw exports, no JS values): validate, stage (bytes -> tape), wasm-minify,
//     wasm-prettify
//   API level (each build's JS, as above, over its module via load({ wasm })): parse-string,
//     parse-bytes, stringify, encode, minify, prettify, canonicalize (text), canonicalize-value,
//     at, at-bytes (the deep pointer of bench/run.mjs), lazy-1pct (bench/run.mjs's 1% of the
//     leaves, read from one lazy document)
// Default: validate,stage,wasm-minify on the JSON files of ../shared/corpus. Prints, per
// operation, the geomean of NEW's speed over OLD's (> 1: NEW is faster); -v adds each file.
//
// --split (API level only): each build and file in a process of its own, OLD and NEW
// alternated (--rounds pairs, default 3; each process reports its best of 5 x 250 ms),
// the median of the pairs' ratios per file. Two builds' JS in one process can steer each
// other's optimizations: in-process runs of builds that differ only in code a file never
// reaches have read truenull.json at 0.6x or 1.5x (by which build came first) and
// canada.json at 0.84x, where processes of their own measured both equal. Confirm
// API-level results this way.
//
// --repeat K: the in-process comparison K times, each in a process of its own, half of
// them loading NEW before OLD; prints each operation's median over the processes and
// their range (-v: each file's median). One process's geomean can be off by 5-10% for
// the whole run (the same two builds measured validate 1.12x in one and 1.04x in the
// next): a change is real when the range agrees.
//
// Code placement: two modules whose hot function is the same code still differ when
// other functions changed size (V8 places the compiled code elsewhere). On Node 26 such
// a pair read 0.96-0.98 on files that never reach the changed functions, consistently
// over processes, where a module against a byte-identical copy reads 0.996-1.000 and
// Node 24 read the same pair within 2%. Judge a change by the files it can reach, and
// build both sides alike: scripts/build-wasm.sh makes a new PGO profile whenever a C++
// source changes (exports.cpp's code then differs too); for A/B builds configure both
// with -DWASMJSON_PROFILE= (no profile).
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { takeFlag, takeOption } from './cli-args.mjs';
import { createWasmStage, deepPointer, median, samplePointers } from './suite.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const child = takeOption(args, '--child', undefined);
const ops = takeOption(args, '--ops', 'validate,stage,wasm-minify').split(',');
const split = takeFlag(args, '--split');
const repeat = Number(takeOption(args, '--repeat', '1'));
// (Children of --repeat: load NEW first.)
const newFirst = takeFlag(args, '--new-first');
const rounds = Number(takeOption(args, '--rounds', split ? 3 : 11));
const verbose = takeFlag(args, '-v');
const [oldPath, newPath, ...given] = args;
if (child === undefined && (!oldPath || !newPath)) {
  console.error('usage: node --expose-gc bench/ab.mjs OLD NEW [--ops LIST] [--rounds N] [--split] [-v] [files...]  (OLD, NEW: a .wasm file or a dist directory)');
  process.exit(2);
}
const gc = globalThis.gc ?? (() => {});
const corpus = join(root, '..', 'shared', 'corpus');
const files = given.length ? given : readdirSync(corpus).filter((f) => f.endsWith('.json')).map((f) => join(corpus, f));

/** A build given as a dist directory: its SIMD128 module and its JS. */
const isDist = (path) => statSync(path).isDirectory();
const wasmOf = (path) => (isDist(path) ? join(path, 'wasmjson-simd128.wasm') : path);
const jsOf = (path) => pathToFileURL(join(isDist(path) ? resolve(path) : join(root, 'dist'), 'node.mjs')).href;

/** Raw-export runners of one build: prepare(op, bytes) -> thunk. */
async function wasmLevel(path) {
  const module = new WebAssembly.Module(readFileSync(wasmOf(path)));
  const stage = await createWasmStage(module);
  // validate is not among the stage runs: its own instance, through wj_validate.
  const { exports: ex } = await WebAssembly.instantiate(module, { env: { emscripten_notify_memory_growth() {} } });
  ex._initialize();
  let ptr = 0;
  let cap = 0;
  return (op, bytes) => {
    if (op !== 'validate') return stage.prepare(bytes, { stage: 'parse', 'wasm-minify': 'minify', 'wasm-prettify': 'prettify' }[op]);
    if (bytes.length > cap) {
      cap = bytes.length;
      ptr = ex.wj_alloc(cap + ex.wj_padding()) >>> 0;
    }
    return () => {
      new Uint8Array(ex.memory.buffer).set(bytes, ptr);
      return ex.wj_validate(ptr, bytes.length, 1, 0xffffffff); // (no depth limit)
    };
  };
}

/** API runners of one build: this checkout's JS over it, or a dist directory's own. */
async function apiLevel(path) {
  const { load } = await import(jsOf(path));
  const codec = await load({ wasm: readFileSync(wasmOf(path)) });
  return (op, bytes, text, value, pointer, sample) =>
    ({
      'parse-string': () => codec.parse(text),
      'parse-bytes': () => codec.parse(bytes),
      stringify: () => codec.stringify(value),
      encode: () => codec.encode(value),
      minify: () => codec.minify(text),
      prettify: () => codec.prettify(text),
      'minify-bytes': () => codec.minify(bytes),
      'prettify-bytes': () => codec.prettify(bytes),
      canonicalize: () => codec.canonicalize(text),
      'canonicalize-value': () => codec.canonicalize(value),
      at: () => codec.at(text, pointer),
      'at-bytes': () => codec.at(bytes, pointer),
      'lazy-1pct': () => {
        const d = codec.lazy(text);
        if (d === null || typeof d !== 'object') return;
        for (const p of sample) {
          const v = d.at(p);
          if (v !== null && typeof v === 'object') v.toJS();
        }
        d.free();
      },
    })[op];
}

const WASM_OPS = ['validate', 'stage', 'wasm-minify', 'wasm-prettify'];
const API_OPS = ['parse-string', 'parse-bytes', 'stringify', 'encode', 'minify', 'prettify', 'minify-bytes', 'prettify-bytes', 'canonicalize', 'canonicalize-value', 'at', 'at-bytes', 'lazy-1pct'];
for (const op of ops) {
  if (!WASM_OPS.includes(op) && !API_OPS.includes(op)) throw new Error(`unknown op ${op}`);
  if (split && !API_OPS.includes(op)) throw new Error(`--split times API-level operations only, not ${op}`);
}

/** Prints an operation's result: the geomean of the per-file ratios (-v: each file). */
function report(label, ratios, lines) {
  const geomean = Math.exp(ratios.reduce((s, r) => s + Math.log(r), 0) / ratios.length);
  console.log(`${label}: NEW/OLD speed ${geomean.toFixed(3)} (geomean of ${ratios.length} files)`);
  if (verbose) console.log(lines.join('\n'));
}

/** The operation's input forms of one file. */
function inputs(op, file) {
  const bytes = new Uint8Array(readFileSync(file));
  const text = new TextDecoder().decode(bytes);
  const value = op === 'stringify' || op === 'encode' || op === 'canonicalize-value' ? JSON.parse(text) : undefined;
  // at(): the benchmark's deep pointer (bench/suite.mjs).
  const pointer = op === 'at' || op === 'at-bytes' ? deepPointer(JSON.parse(text)) : undefined;
  const sample = op === 'lazy-1pct' ? samplePointers(JSON.parse(text)) : undefined;
  return { bytes, text, value, pointer, sample };
}

if (child !== undefined) {
  // A --split measurement: `--child BUILD --ops OP FILE`; prints MB/s (input bytes).
  const [file] = args;
  const { bytes, text, value, pointer, sample } = inputs(ops[0], file);
  const fn = (await apiLevel(child))(ops[0], bytes, text, value, pointer, sample);
  let best = 0;
  for (let r = 0; r < 5; r++) {
    gc();
    let n = 0;
    const t0 = performance.now();
    while (performance.now() - t0 < 250) {
      fn();
      n++;
    }
    best = Math.max(best, (bytes.length * n) / (performance.now() - t0) / 1000);
  }
  console.log(best);
  process.exit(0);
}

if (split) {
  const speed = (build, op, file) => {
    const r = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), '--child', build, '--ops', op, file], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`${op} ${file}: ${r.stderr}`);
    return Number(r.stdout.trim());
  };
  for (const op of ops) {
    const ratios = [];
    const lines = [];
    for (const file of files) {
      const perRound = [];
      for (let r = 0; r < rounds; r++) {
        // Which goes first alternates, so neither always meets the machine first.
        let a, b;
        if (r % 2) {
          a = speed(oldPath, op, file);
          b = speed(newPath, op, file);
        } else {
          b = speed(newPath, op, file);
          a = speed(oldPath, op, file);
        }
        perRound.push(b / a);
      }
      perRound.sort((x, y) => x - y);
      const ratio = perRound[perRound.length >> 1];
      ratios.push(ratio);
      lines.push(`  ${file.split('/').pop().padEnd(40)} ${ratio.toFixed(3)}`);
    }
    report(`${op} (split)`, ratios, lines);
  }
  process.exit(0);
}
if (repeat > 1) {
  // Runs of the in-process comparison in processes of their own (see --repeat above).
  const self = fileURLToPath(import.meta.url);
  const rest = process.argv.slice(2).filter((a, i, all) => a !== '--repeat' && all[i - 1] !== '--repeat' && a !== '-v');
  const byOp = new Map(); // op -> { runs: number[], files: Map<file, number[]> }
  for (let k = 0; k < repeat; k++) {
    const r = spawnSync(process.execPath, [...process.execArgv, self, ...rest, '-v', ...(k % 2 ? ['--new-first'] : [])], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`run ${k + 1}: ${r.stderr}`);
    let current;
    for (const line of r.stdout.split('\n')) {
      const head = /^(\S+): NEW\/OLD speed ([0-9.]+)/.exec(line);
      const row = /^ {2}(\S+)\s+([0-9.]+)$/.exec(line);
      if (head) {
        if (!byOp.has(head[1])) byOp.set(head[1], { runs: [], files: new Map() });
        current = byOp.get(head[1]);
        current.runs.push(Number(head[2]));
      } else if (row && current) {
        if (!current.files.has(row[1])) current.files.set(row[1], []);
        current.files.get(row[1]).push(Number(row[2]));
      }
    }
  }
  for (const [op, { runs, files: perFile }] of byOp) {
    console.log(`${op}: NEW/OLD speed ${median(runs).toFixed(3)} (median of ${runs.length} processes; range ${Math.min(...runs).toFixed(3)}-${Math.max(...runs).toFixed(3)})`);
    if (verbose) for (const [file, xs] of perFile) console.log(`  ${file.padEnd(40)} ${median(xs).toFixed(3)}`);
  }
  process.exit(0);
}

const level = async (path) => ({ wasm: await wasmLevel(path), api: ops.some((o) => API_OPS.includes(o)) ? await apiLevel(path) : undefined });
// (Which is loaded first can matter to a whole run: --repeat alternates it.)
let A, B;
if (newFirst) {
  B = await level(newPath);
  A = await level(oldPath);
} else {
  A = await level(oldPath);
  B = await level(newPath);
}

function timeBatch(fn, n) {
  gc();
  const t0 = performance.now();
  for (let i = 0; i < n; i++) fn();
  return performance.now() - t0;
}

for (const op of ops) {
  const ratios = [];
  const lines = [];
  for (const file of files) {
    const { bytes, text, value, pointer, sample } = inputs(op, file);
    const [fa, fb] = [A, B].map((x) => (WASM_OPS.includes(op) ? x.wasm(op, bytes) : x.api(op, bytes, text, value, pointer, sample)));
    // Batches of at least 5 ms of OLD.
    let n = 1;
    while (timeBatch(fa, n) < 5) n *= 2;
    const perRound = [];
    for (let r = 0; r < rounds; r++) {
      const a = timeBatch(fa, n);
      const b = timeBatch(fb, n) + timeBatch(fb, n);
      perRound.push((a + timeBatch(fa, n)) / b);
    }
    perRound.sort((x, y) => x - y);
    const ratio = perRound[perRound.length >> 1];
    ratios.push(ratio);
    lines.push(`  ${file.split('/').pop().padEnd(40)} ${ratio.toFixed(3)}`);
  }
  report(op, ratios, lines);
}
