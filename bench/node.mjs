// The Node host of the benchmark suite (bench/suite.mjs): loads both codec flavors and
// the wasm-stage runners from dist/, the peers, a heap probe, the corpus; prints progress
// and tables; writes JSON + HTML results. Used by bench/run.mjs (`npm run bench`) and by
// the CLI (`wasmjson bench`).
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PerformanceObserver, performance } from 'node:perf_hooks';
import { cpus, totalmem } from 'node:os';
import v8 from 'node:v8';
import vm from 'node:vm';
import { builtinCorpus } from './corpus.mjs';
import { createWasmStage, DEFAULTS, makeItem, OPERATIONS, parseList, QUICK, runSuite } from './suite.mjs';
import { fileLine, formatText, renderHtml } from './report.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const root = resolve(here, '..');
const FLAVORS = ['simd128', 'swar64'];

export class UsageError extends Error {}

export const BENCH_OPTIONS = `Options:
  --quick            short run: ${QUICK.rounds} rounds, batches >= ${QUICK.minMs} ms (env BENCH_QUICK=1)
  --rounds N         rounds per measurement (default ${DEFAULTS.rounds}; env BENCH_ROUNDS)
  --min-ms N         minimum batch length in ms (default ${DEFAULTS.minMs}; env BENCH_MIN_MS)
  --ops LIST         operations, comma-separated (default: all the codec has):
                     ${OPERATIONS.map((o) => o.id).join(', ')}
  --flavors LIST     simd128,swar64 (default both)
  --no-peers         leave out other libraries (json-bigint, lossless-json, ...)
  --no-heap          skip the heap-per-call measurement
  --no-builtin       leave out the built-in generated corpus
  --no-shared        leave out ../shared/corpus
  --out DIR          write <name>.json and <name>.html there
  --name NAME        base name of the result files (default: node<major>)
  --json             print the results JSON on stdout instead of tables`;

/** Parses bench arguments: options and files/folders. Throws UsageError. */
export function parseBenchArgs(argv, env = process.env) {
  const o = {
    rounds: undefined,
    minMs: undefined,
    quick: env.BENCH_QUICK === '1',
    ops: undefined,
    flavors: FLAVORS,
    peers: true,
    heap: true,
    builtin: true,
    shared: true,
    out: undefined,
    name: undefined,
    json: false,
    help: false,
    paths: [],
  };
  const num = (flag, v) => {
    const n = Number(v);
    if (v === undefined || !Number.isFinite(n) || n <= 0) throw new UsageError(`${flag} needs a positive number`);
    return n;
  };
  // A count of rounds: a whole number, at least 1 (0.4 rounded would run none).
  const count = (flag, v) => {
    const n = num(flag, v);
    if (!Number.isInteger(n)) throw new UsageError(`${flag} needs a whole number of rounds`);
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const [flag, inline] = a.startsWith('--') && a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
    const value = () => {
      if (inline !== undefined) return inline;
      if (i + 1 >= argv.length) throw new UsageError(`${flag} needs a value`);
      return argv[++i];
    };
    try {
      switch (flag) {
        case '--quick': o.quick = true; break;
        case '--rounds': o.rounds = count(flag, value()); break;
        case '--min-ms': o.minMs = num(flag, value()); break;
        case '--ops': o.ops = parseList(value(), OPERATIONS.map((x) => x.id), 'operation'); break;
        case '--flavors': o.flavors = parseList(value(), FLAVORS, 'flavor'); break;
        case '--no-peers': o.peers = false; break;
        case '--no-heap': o.heap = false; break;
        case '--no-builtin': o.builtin = false; break;
        case '--no-shared': o.shared = false; break;
        case '--out': o.out = value(); break;
        case '--name': o.name = value(); break;
        case '--json': o.json = true; break;
        case '-h': case '--help': o.help = true; break;
        default:
          if (a.startsWith('-') && a !== '-') throw new UsageError(`unknown option '${a}'`);
          o.paths.push(a);
      }
    } catch (e) {
      throw e instanceof UsageError ? e : new UsageError(e.message);
    }
  }
  if (o.flavors.length === 0) throw new UsageError('--flavors: name at least one flavor');
  const base = o.quick ? QUICK : DEFAULTS;
  o.rounds ??= env.BENCH_ROUNDS ? count('BENCH_ROUNDS', env.BENCH_ROUNDS) : base.rounds;
  o.minMs ??= env.BENCH_MIN_MS ? num('BENCH_MIN_MS', env.BENCH_MIN_MS) : base.minMs;
  return o;
}

/** Corpus files: JSON documents; .ndjson/.jsonl files are one document per line. */
const CORPUS_FILE = /\.(json|ndjson|jsonl)$/i;

const isFile = (f) => {
  try {
    return statSync(f).isFile();
  } catch {
    return false;
  }
};

function readBytes(f) {
  try {
    return new Uint8Array(readFileSync(f));
  } catch (e) {
    throw new UsageError(`cannot read '${f}': ${e.message}`);
  }
}

/** JSON files of a folder (sorted), or the file itself; .ndjson/.jsonl are many documents. */
export function readCorpusPath(p) {
  let st;
  try {
    st = statSync(p);
  } catch (e) {
    throw new UsageError(`cannot read '${p}': ${e.code === 'ENOENT' ? 'no such file or directory' : e.message}`);
  }
  const paths = st.isDirectory()
    ? readdirSync(p)
        // Files only (a folder named x.json is no document), symbolic links followed.
        .filter((f) => CORPUS_FILE.test(f) && isFile(join(p, f)))
        .sort()
        .map((f) => join(p, f))
    : [p];
  return paths.map((f) => makeItem({ name: basename(f), bytes: readBytes(f), source: f }));
}

export const SHARED_CORPUS = resolve(root, '../shared/corpus');

/**
 * The items to run: built-in corpus, ../shared/corpus (its .json and .ndjson files) and `paths`.
 * Returns { items, lines } (lines: what was included, to print).
 */
export function collectItems({ builtin, shared, paths }) {
  const items = [];
  const lines = [];
  if (builtin) {
    for (const f of builtinCorpus()) items.push(makeItem({ ...f, source: 'built-in' }));
    lines.push(`corpus: ${items.length} built-in generated documents (bench/corpus.mjs)`);
  }
  if (shared) {
    if (existsSync(SHARED_CORPUS)) {
      const files = readdirSync(SHARED_CORPUS).filter((f) => CORPUS_FILE.test(f)).sort();
      for (const f of files) items.push(makeItem({ name: f, bytes: new Uint8Array(readFileSync(join(SHARED_CORPUS, f))), source: 'shared' }));
      lines.push(`corpus: ${files.length} files (.json, .ndjson) from ${relative(process.cwd(), SHARED_CORPUS) || SHARED_CORPUS}`);
    } else {
      lines.push(`corpus: ${SHARED_CORPUS} not present; built-in corpus only`);
    }
  }
  for (const p of paths) {
    const got = readCorpusPath(p);
    if (!got.length) lines.push(`corpus: ${p}: no .json files`);
    items.push(...got);
  }
  if (paths.length) lines.push(`corpus: ${items.filter((i) => i.source !== 'built-in' && i.source !== 'shared').length} file(s) from the command line`);
  return { items, lines };
}

/** V8's gc(), obtained at run time (null when the flag cannot be set). */
function obtainGc() {
  if (typeof globalThis.gc === 'function') return globalThis.gc;
  try {
    v8.setFlagsFromString('--expose-gc');
    return vm.runInNewContext('gc');
  } catch {
    return null;
  }
}

/** Heap probe: process.memoryUsage() around batches, gc() obtained at run time. */
function nodeHeapProbe() {
  const gc = obtainGc();
  if (!gc) return null;
  // GC events, to tell whether a collection ran inside a measured batch.
  const gcTimes = [];
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) gcTimes.push([e.startTime, e.startTime + e.duration]);
      if (gcTimes.length > 10000) gcTimes.splice(0, 5000);
    }).observe({ entryTypes: ['gc'] });
  } catch {}
  return {
    describe:
      'process.memoryUsage(): "kept" = heapUsed growth per call with every result held, after a forced GC ' +
      '(what the results retain); table cells show kept bytes (K = KiB). "alloc" in the JSON = heapUsed growth ' +
      'before that GC (all allocation; null when a GC ran during the batch). ArrayBuffer backing stores ' +
      '(encode output) are outside heapUsed: keptExternal in the JSON. The input is held by the benchmark ' +
      'throughout and not counted: strings of 13 or more characters that parse(string) returns are slices of ' +
      'its input, which they keep alive when the caller drops it (twitter.json: 1469K kept per call then, ' +
      'native 519K).',
    gc,
    used: () => {
      const m = process.memoryUsage();
      return { js: m.heapUsed, external: m.arrayBuffers };
    },
    // GC entries arrive asynchronously: wait a moment, then answer for any window.
    gcWindows: async () => {
      await new Promise((r) => setTimeout(r, 15));
      const snapshot = gcTimes.slice();
      return (t0, t1) => snapshot.some(([a, b]) => b >= t0 && a <= t1);
    },
  };
}

/** Loads the codecs, stages and peers the suite needs. */
export async function nodeHost(options, { onLine = () => {} } = {}) {
  let pkg;
  try {
    pkg = await import('../dist/node.mjs');
  } catch (e) {
    throw new Error(`cannot load the package build (dist/node.mjs): ${e.message}\n(in a clone: npm run build, or npm run bench which builds first)`);
  }
  const codecs = {};
  for (const f of options.flavors) codecs[f] = await pkg.load({ flavor: f });
  const stages = {};
  for (const f of options.flavors) {
    try {
      const module = new WebAssembly.Module(readFileSync(join(root, `dist/wasmjson-${f}.wasm`)));
      const stage = await createWasmStage(module);
      if (stage) stages[f] = stage;
    } catch {}
  }
  let peers = [];
  if (options.peers) {
    try {
      const { loadPeers } = await import('./peers.mjs');
      const got = await loadPeers();
      peers = got.peers;
      for (const p of peers) p.version = packageVersion(p.name === 'json-pack' ? '@jsonjoy.com/json-pack' : p.name);
      if (got.missing.length) onLine(`peers not installed (skipped): ${got.missing.join(', ')}`);
    } catch {
      onLine('peers: could not be loaded (skipped)');
    }
  }
  const gc = obtainGc();
  return {
    codecs,
    host: {
      now: () => performance.now(),
      stages: Object.keys(stages).length ? stages : null,
      peers,
      heap: options.heap ? nodeHeapProbe() : null,
      settle: gc ? () => gc() : undefined,
    },
  };
}

function packageVersion(name) {
  try {
    return JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')).version;
  } catch {
    return undefined;
  }
}

export function machineInfo() {
  let cpu = cpus()[0]?.model ?? 'unknown CPU';
  try {
    const m = readFileSync('/proc/cpuinfo', 'utf8').match(/^model name\s*:\s*(.+)$/m);
    if (m) cpu = m[1].trim();
  } catch {}
  return { cpu, cores: cpus().length, memoryGiB: Math.round(totalmem() / 2 ** 30) };
}

/**
 * What memory costs the first time it is written, per 4 KiB page, next to rewriting it
 * (microseconds, medians of 5 trials on 8 MiB). Every output in new memory pays the
 * first (a large string, a result buffer: native's as much as ours), so MB/s figures of
 * operations with large outputs move with it. On this project's VMs a first write has
 * measured 11-12 us a page (a C program asking for 2 MiB huge pages paid 0.23 us per
 * 4 KiB; neither side's allocations ask for them).
 */
export function pageCost() {
  const bytes = 8 << 20;
  const first = [];
  const again = [];
  for (let trial = 0; trial < 5; trial++) {
    // Large zeroed ArrayBuffers come straight from the OS (calloc over mmap): no page
    // of it is backed until written.
    const a = new Uint8Array(bytes);
    let t = performance.now();
    for (let i = 0; i < bytes; i += 4096) a[i] = 1;
    first.push(performance.now() - t);
    t = performance.now();
    for (let i = 0; i < bytes; i += 4096) a[i] = 2;
    again.push(performance.now() - t);
  }
  const perPage = (ms) => +((ms.sort((x, y) => x - y)[2] * 1000) / (bytes / 4096)).toFixed(3);
  return { firstTouchUs: perPage(first), rewriteUs: perPage(again) };
}

/**
 * Runs the suite in this Node process and reports. `argv`: bench arguments.
 * `defaults`: { builtin, shared } when nothing says otherwise; `writeDir`: default
 * output folder (null: only with --out). Returns the process exit code.
 */
export async function benchMain(argv, { defaults = {}, writeDir = null, usage = 'node bench/run.mjs [files|folders...] [options]', stdout = process.stdout, stderr = process.stderr } = {}) {
  let options;
  try {
    options = parseBenchArgs(argv);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    stderr.write(`bench: ${e.message}\n(usage: ${usage}; --help for options)\n`);
    return 2;
  }
  if (options.help) {
    stdout.write(`Usage: ${usage}\n\nBenchmarks wasmjson against native JSON (and other libraries) on each file.\n\n${BENCH_OPTIONS}\n`);
    return 0;
  }
  // defaults.builtin 'auto': the built-in corpus only when no file is named.
  const builtin = options.builtin && (defaults.builtin === 'auto' ? options.paths.length === 0 : defaults.builtin ?? true);
  const shared = options.shared && (defaults.shared ?? true);
  const say = (s) => (options.json ? stderr : stdout).write(s + '\n');
  let collected;
  try {
    collected = collectItems({ builtin, shared, paths: options.paths });
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    stderr.write(`bench: ${e.message}\n`);
    return 2;
  }
  const { items, lines } = collected;
  if (!items.length) {
    stderr.write('bench: no files to benchmark\n');
    return 2;
  }
  const { codecs, host } = await nodeHost(options, { onLine: say });
  const tty = !options.json && stderr.isTTY;
  const status = (s) => tty && stderr.write(`\r\x1b[K${s.slice(0, (stderr.columns ?? 120) - 1)}`);
  const clear = () => tty && stderr.write('\r\x1b[K');
  host.onProgress = ({ index, total, file, op }) => status(`[${index + 1}/${total}] ${file}: ${op} ...`);
  host.onFile = (f, index, total) => {
    clear();
    say(fileLine(f, index, total));
  };
  host.onMismatch = (m) => {
    clear();
    const red = (s) => (stdout.isTTY && !options.json ? `\x1b[1;31m${s}\x1b[0m` : s);
    say(red(`!!! MISMATCH: ${m.impl} ${m.label} on ${m.file} differs from native JSON: ${m.message}`));
    say(red('!!! (excluded from timing and geomeans)'));
  };

  const major = process.versions.node.split('.')[0];
  const meta = {
    runtime: { name: 'node', version: process.version, v8: process.versions.v8 },
    machine: (({ cpu, cores, memoryGiB }) => `${cpu}, ${cores} cores, ${memoryGiB} GiB`)(machineInfo()),
    pageCost: pageCost(),
    command: `${basename(process.argv0)} ${[relative(process.cwd(), process.argv[1] ?? '') || 'bench', ...argv].join(' ')}`,
  };
  for (const l of lines) say(l);
  say(
    `wasmjson benchmark: Node ${process.version} (V8 ${process.versions.v8}), ${items.length} files, ` +
      `${options.rounds} rounds x >= ${options.minMs} ms, flavors ${options.flavors.join(', ')}` +
      `${host.peers.length ? `, peers ${host.peers.map((p) => p.name).join(', ')}` : ''}`,
  );
  say('per file: validate MB/s simd128|swar64; others: speed vs native (x), simd128|swar64');
  const t0 = performance.now();
  const results = await runSuite(items, codecs, host, {
    rounds: options.rounds,
    minMs: options.minMs,
    ops: options.ops,
    peers: options.peers,
    heap: options.heap,
    meta,
  });
  clear();
  results.meta.seconds = Math.round((performance.now() - t0) / 1000);
  if (options.json) stdout.write(JSON.stringify(results, null, 2) + '\n');
  else say(formatText(results, { color: !!stdout.isTTY }));

  const dir = options.out ?? writeDir;
  if (dir) {
    mkdirSync(dir, { recursive: true });
    const name = options.name ?? `node${major}`;
    const json = join(dir, `${name}.json`);
    const html = join(dir, `${name}.html`);
    writeFileSync(json, JSON.stringify(results, null, 2) + '\n');
    writeFileSync(html, renderHtml(results));
    say(`results: ${relative(process.cwd(), json)} and ${relative(process.cwd(), html)} (${results.meta.seconds} s)`);
  }
  if (results.mismatches.length) {
    say(`!!! ${results.mismatches.length} mismatch(es) with native JSON: exit code 1`);
    return 1;
  }
  return 0;
}
