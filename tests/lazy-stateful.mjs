// Long stateful run of lazy documents, on demand (tests/js/lazy-stateful.test.ts runs a
// seeded few thousand steps of the same machine in CI):
//
//   node tests/lazy-stateful.mjs [steps=200000] [seed=1]
//   BROWSER_ROUTES=1 node tests/lazy-stateful.mjs ...   (browsers' routes:
//                                                        tests/js/support/run-codecs.ts)
//
// A pool of up to 30 live documents of both flavors (strings, bytes, ArrayBuffers,
// DataViews, Buffers, shared memory; small ones, long non-ASCII and lone-surrogate
// strings, deep nests, now and then 1-8 MB ones), their child nodes and partly consumed
// iterators, under random steps: lookups, iteration, toJS, free() by any node, `using`,
// documents dropped for the FinalizationRegistry, and other API calls between and inside
// (replacers, revivers). Every answer is checked against the document's model, and every
// use of a freed document against the library's freed error. The step machine is
// tests/js/support/lazy-steps.ts.
//
// The codecs' wasm exports are wrapped to count what the JS side allocates and frees
// (wj_alloc/wj_free) and the container-end indexes (wj_nav_ends_build/_free): every
// 10,000 steps all documents are freed (and the dropped ones collected, by gc()), and
// what is left must be the codec's own few buffers and no index. Prints counts; exits 1
// at the first mismatch, with the seed, the step and the recent operations.
import v8 from 'node:v8';
import vm from 'node:vm';
import { LazyStepMachine, StepMismatch } from './js/support/lazy-steps.ts';
import { routes, runCodecs } from './js/support/run-codecs.ts';

const steps = Number(process.argv[2] ?? 200_000);
const seed = Number(process.argv[3] ?? 1);

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc');

/** Full collections with task turns between them, where finalization callbacks run. */
async function collect() {
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
}

// Each instance the codecs load, with its exports wrapped to count (the memory itself is
// the instance's: the string builtins module of browser routes imports it).
const watched = [];
function watch(instance) {
  const ex = instance.exports;
  if (!(ex.memory instanceof WebAssembly.Memory) || typeof ex.wj_alloc !== 'function') return instance;
  const w = { memory: ex.memory, raw: ex, allocated: new Set(), endsBuilt: 0, endsFreed: 0, writers: new Set() };
  watched.push(w);
  const exports = { ...ex };
  exports.wj_alloc = (size) => {
    const ptr = ex.wj_alloc(size);
    if (ptr !== 0) w.allocated.add(ptr >>> 0);
    return ptr;
  };
  exports.wj_free = (ptr) => {
    w.allocated.delete(ptr >>> 0);
    return ex.wj_free(ptr);
  };
  exports.wj_nav_ends_build = (...args) => {
    const ends = ex.wj_nav_ends_build(...args);
    if (ends !== 0) w.endsBuilt++;
    return ends;
  };
  exports.wj_nav_ends_free = (ends) => {
    if (ends !== 0) w.endsFreed++;
    return ex.wj_nav_ends_free(ends);
  };
  exports.wj_writer_new = () => {
    const ptr = ex.wj_writer_new();
    if (ptr !== 0) w.writers.add(ptr >>> 0);
    return ptr;
  };
  exports.wj_writer_free = (ptr) => {
    w.writers.delete(ptr >>> 0);
    return ex.wj_writer_free(ptr);
  };
  return { exports };
}
const instantiate = WebAssembly.instantiate;
WebAssembly.instantiate = async (...args) => {
  const result = await instantiate.apply(WebAssembly, args);
  return result instanceof WebAssembly.Instance ? watch(result) : { ...result, instance: watch(result.instance) };
};
let codecs;
let LazyNode;
try {
  ({ codecs, LazyNode } = await runCodecs());
} finally {
  WebAssembly.instantiate = instantiate;
}
// (wj_kernel: 1 SWAR64, 2 SIMD128, as codec.ts reads it.)
const KERNELS = { 1: 'swar64', 2: 'simd128' };
const probes = new Map();
for (const codec of codecs) {
  const w = watched.find((x) => KERNELS[x.raw.wj_kernel()] === codec.flavor);
  if (!w) throw new Error(`no watched instance for ${codec.flavor}`);
  probes.set(codec, {
    memoryBytes: () => w.memory.buffer.byteLength,
    liveAllocations: () => w.allocated.size,
    endsBuilt: () => w.endsBuilt,
    endsFreed: () => w.endsFreed,
  });
}

const route = routes.name;
console.log(`lazy-stateful: ${steps} steps, seed ${seed}, ${route}, ${process.version}, flavors ${codecs.map((c) => c.flavor).join(' + ')}`);
const machine = new LazyStepMachine({
  codecs,
  LazyNode,
  seed,
  drop: true,
  collect,
  checkpointEvery: 10_000,
  probe: (codec) => probes.get(codec),
  log: (line) => console.log(`  ${line}`),
  NodeBuffer: globalThis.Buffer,
});
console.log(`  \`using\` declarations: ${machine.hasUsing ? 'yes' : 'no (DisposableStack or try/finally instead)'}`);
const started = performance.now();
try {
  const stats = await machine.run(steps);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`done in ${seconds} s: ${stats.steps} steps, ${stats.checks} checks, ${stats.freedErrors} freed errors checked`);
  console.log(`  operations: ${Object.entries(stats.ops).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${v}`).join(', ')}`);
  console.log(`  most at once: ${stats.maxLiveDocs} live documents, ${stats.maxNodes} held nodes, ${stats.maxIters} iterators`);
  const byFlavor = {};
  const byInput = {};
  const byShape = {};
  for (const [key, n] of Object.entries(stats.docs)) {
    const [flavor, input, shape] = key.split(' ');
    byFlavor[flavor] = (byFlavor[flavor] ?? 0) + n;
    byInput[input] = (byInput[input] ?? 0) + n;
    byShape[shape] = (byShape[shape] ?? 0) + n;
  }
  const list = (o) => Object.entries(o).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${v}`).join(', ');
  console.log(`  documents by flavor: ${list(byFlavor)}`);
  console.log(`  by input: ${list(byInput)}`);
  console.log(`  by shape: ${list(byShape)}`);
  const writers = watched.map((w) => w.writers.size).join(', ');
  console.log(`  writer sessions allocated at the end: ${writers}`);
  console.log('0 mismatches');
} catch (e) {
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  if (e instanceof StepMismatch) {
    console.log(`MISMATCH after ${seconds} s (${route}):\n${e.message}`);
    process.exit(1);
  }
  throw e;
}
