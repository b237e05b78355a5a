// The browser host of the benchmark suite: same suite (../suite.mjs), same reports
// (../report.mjs), on the package's browser build. Results end up in
// window.__benchResults (and window.__benchDone = true) for bench/browser/run.mjs.
import { load } from '../../dist/browser.mjs';
import { builtinCorpus } from '../corpus.mjs';
import { createWasmStage, DEFAULTS, makeItem, OPERATIONS, parseList, QUICK, runSuite } from '../suite.mjs';
import { fileLine, formatSummary, REPORT_CSS, renderBody } from '../report.mjs';

const $ = (id) => document.getElementById(id);
document.getElementById('report-css').textContent = REPORT_CSS;

const q = new URLSearchParams(location.search);
const flag = (name, dflt) => (q.has(name) ? q.get(name) !== '0' && q.get(name) !== 'false' : dflt);

function log(line) {
  const s = $('status');
  s.textContent += line + '\n';
  s.scrollTop = s.scrollHeight;
  console.log(line);
}
function state(text) {
  $('state').textContent = text;
}

function options() {
  const quick = flag('quick', false);
  const base = quick ? QUICK : DEFAULTS;
  return {
    rounds: Number(q.get('rounds') ?? base.rounds),
    minMs: Number(q.get('minMs') ?? base.minMs),
    ops: q.get('ops') ? parseList(q.get('ops'), OPERATIONS.map((o) => o.id), 'operation') : undefined,
    flavors: q.get('flavors') ? parseList(q.get('flavors'), ['simd128', 'swar64'], 'flavor') : ['simd128', 'swar64'],
    peers: flag('peers', true),
    heap: flag('heap', true),
    builtin: flag('builtin', true),
    shared: flag('shared', true),
  };
}

async function corpus(opts) {
  const items = [];
  if (opts.builtin) {
    for (const f of builtinCorpus()) items.push(makeItem({ ...f, source: 'built-in' }));
    log(`corpus: ${items.length} built-in generated documents`);
  }
  let listing = null;
  try {
    const r = await fetch('/__bench/corpus.json');
    if (r.ok) listing = await r.json();
  } catch {}
  if (!listing) {
    log('corpus: no corpus listing (page not served by bench/browser/server.mjs): built-in corpus only');
    return items;
  }
  if (opts.shared && !listing.shared) log(`corpus: ${listing.sharedPath} not present; built-in corpus only`);
  let n = 0;
  for (const f of listing.files) {
    if (f.source === 'shared' && !opts.shared) continue;
    const bytes = new Uint8Array(await (await fetch(f.url)).arrayBuffer());
    items.push(makeItem({ name: f.name, bytes, source: f.source }));
    n++;
  }
  if (n) log(`corpus: ${n} files fetched from the server`);
  return items;
}

/** Heap probe: needs Chromium flags --js-flags=--expose-gc and --enable-precise-memory-info. */
function heapProbe() {
  const gc = globalThis.gc;
  if (typeof gc !== 'function' || !performance.memory) return null;
  return {
    describe:
      'performance.memory.usedJSHeapSize (Chromium, --enable-precise-memory-info, gc() from --js-flags=--expose-gc): ' +
      '"kept" = heap growth per call with every result held, after a forced GC; "alloc" in the JSON = growth before it ' +
      '(not corrected for GCs during the batch). performance.measureUserAgentSpecificMemory() is not used: it resolves ' +
      'only after a later GC and is too coarse per call.',
    gc,
    used: () => ({ js: performance.memory.usedJSHeapSize }),
  };
}

async function runtimeInfo() {
  const m = navigator.userAgent.match(/(?:Headless)?Chrome\/([\d.]+)/);
  let version = m?.[1];
  try {
    // The user-agent string says 156.0.0.0; the full version needs a high-entropy hint.
    const hints = await navigator.userAgentData?.getHighEntropyValues(['fullVersionList']);
    const full = hints?.fullVersionList?.find((b) => /Chrom/.test(b.brand));
    if (full) version = full.version;
  } catch {}
  // bench/browser/run.mjs passes what only the driver can know (V8's version).
  return { name: m ? 'chromium' : 'browser', version: q.get('browserVersion') ?? version ?? navigator.userAgent, v8: q.get('v8') ?? undefined, userAgent: navigator.userAgent };
}

async function main() {
  const opts = options();
  state('loading codecs…');
  const codecs = {};
  const stages = {};
  for (const f of opts.flavors) {
    codecs[f] = await load({ flavor: f });
    try {
      const module = await WebAssembly.compileStreaming(fetch(new URL(`../../dist/wasmjson-${f}.wasm`, import.meta.url)));
      const stage = await createWasmStage(module);
      if (stage) stages[f] = stage;
    } catch {}
  }
  let peers = [];
  if (opts.peers) {
    try {
      const mod = await import('/__bench/peers.mjs');
      const got = await mod.loadPeers();
      peers = got.peers;
      if (got.missing.length) log(`peers not available (skipped): ${got.missing.join(', ')}`);
    } catch {
      log('peers: no bundle served (skipped)');
    }
  }
  state('loading corpus…');
  const items = await corpus(opts);
  const heap = opts.heap ? heapProbe() : null;
  if (opts.heap && !heap) log('heap: no gc()/performance.memory in this browser (skipped)');
  const runtime = await runtimeInfo();
  log(
    `wasmjson benchmark: ${runtime.name} ${runtime.version}, crossOriginIsolated=${globalThis.crossOriginIsolated}, ${items.length} files, ` +
      `${opts.rounds} rounds x >= ${opts.minMs} ms, flavors ${opts.flavors.join(', ')}${peers.length ? ', peers ' + peers.map((p) => p.name).join(', ') : ''}`,
  );
  const host = {
    now: () => performance.now(),
    stages: Object.keys(stages).length ? stages : null,
    peers,
    heap,
    // A full GC before each timed batch, as in Node (gc() from --js-flags=--expose-gc).
    settle: typeof globalThis.gc === 'function' ? () => globalThis.gc() : undefined,
    pause: () => new Promise((r) => setTimeout(r, 0)),
    onProgress: ({ index, total, file, op }) => state(`running [${index + 1}/${total}] ${file}: ${op}…`),
    onFile: (f, i, n) => log(fileLine(f, i, n)),
    onMismatch: (m) => log(`!!! MISMATCH: ${m.impl} ${m.label} on ${m.file} differs from native JSON: ${m.message} (excluded)`),
  };
  const t0 = performance.now();
  const results = await runSuite(items, codecs, host, {
    rounds: opts.rounds,
    minMs: opts.minMs,
    ops: opts.ops,
    peers: opts.peers,
    heap: opts.heap,
    meta: { runtime, crossOriginIsolated: globalThis.crossOriginIsolated, hardwareConcurrency: navigator.hardwareConcurrency },
  });
  results.meta.seconds = Math.round((performance.now() - t0) / 1000);
  for (const line of formatSummary(results).join('\n').split('\n')) log(line);
  $('report').innerHTML = renderBody(results);
  $('log').open = false;
  state(`done in ${results.meta.seconds} s`);
  window.__benchResults = results;
  window.__benchDone = true;
}

async function start() {
  $('run').disabled = true;
  window.__benchDone = false;
  try {
    await main();
  } catch (e) {
    state('failed');
    log(`error: ${e?.stack ?? e}`);
    window.__benchError = String(e?.message ?? e);
  }
  $('run').disabled = false;
}

$('run').addEventListener('click', () => {
  $('status').textContent = '';
  $('report').textContent = '';
  $('log').open = true;
  start();
});
if (flag('run', true)) start();
else {
  state('ready');
  $('run').disabled = false;
}
