// `npm run bench:all`: the benchmark on every runtime users have, one after another
// (never in parallel: they would disturb each other), then bench/RESULTS.md.
//   Node 26   node_modules/.bin/node (devDependency "node"), else `npx -y node@26`
//   Node 24   `npx -y node@24` (from the npm registry, cached after the first run)
//   Node 20   the machine's /usr/bin/node
//   Chromium  headless, through bench/browser/run.mjs (Playwright, /usr/bin/chromium)
// Every other argument goes to each run (e.g. --quick, --ops parse-string, files...).
// --runtimes node26,node24,node20,chromium picks some of them; --report-only rewrites
// RESULTS.md from the bench/results/<runtime>.json files already there.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, release, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatMarkdown, formatOverviewMarkdown } from './report.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const resultsDir = join(root, 'bench/results');
const ALL = ['node26', 'node24', 'node20', 'chromium'];

const argv = process.argv.slice(2);
let selected = ALL;
let reportOnly = false;
const passthrough = [];
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === '--runtimes' || argv[i].startsWith('--runtimes=')) {
    const v = argv[i].includes('=') ? argv[i].slice(argv[i].indexOf('=') + 1) : argv[++i];
    selected = String(v ?? '').split(',').filter(Boolean);
    const bad = selected.filter((r) => !ALL.includes(r));
    if (bad.length || !selected.length) {
      console.error(`bench:all: --runtimes takes a list of ${ALL.join(', ')}`);
      process.exit(2);
    }
  } else if (argv[i] === '--report-only') {
    reportOnly = true;
  } else if (argv[i] === '--help' || argv[i] === '-h') {
    console.log(
      'Usage: node bench/all-runtimes.mjs [--runtimes node26,node24,node20,chromium] [--report-only] [bench options] [files...]\n' +
        'Runs the benchmark on Node 26, Node 24, Node 20 and headless Chromium in turn, then writes bench/RESULTS.md.\n' +
        '--report-only: no runs, RESULTS.md from the existing bench/results/<runtime>.json files.\n' +
        'Bench options (--quick, --rounds N, --ops LIST, ...): see node bench/run.mjs --help.',
    );
    process.exit(0);
  } else if (argv[i] === '--name' || argv[i] === '--out') {
    console.error(`bench:all: ${argv[i]} is chosen per runtime here`);
    process.exit(2);
  } else passthrough.push(argv[i]);
}

function versionOf(cmd, args = []) {
  const r = spawnSync(cmd, [...args, '-p', 'process.version'], { encoding: 'utf8', cwd: root });
  return r.status === 0 ? r.stdout.trim() : null;
}

/** The command that runs a script on each Node, or null when that Node is not available. */
function nodeCommand(major) {
  const local = join(root, 'node_modules/.bin/node');
  if (major === 26) {
    if (existsSync(local) && versionOf(local)?.startsWith('v26.')) return { cmd: local, args: [] };
    if (process.version.startsWith('v26.')) return { cmd: process.execPath, args: [] };
  }
  if (major === 20) {
    for (const p of ['/usr/bin/node', '/usr/local/bin/node']) if (existsSync(p) && versionOf(p)?.startsWith('v20.')) return { cmd: p, args: [] };
    return null;
  }
  const npx = { cmd: 'npx', args: ['-y', `node@${major}`] };
  return versionOf(npx.cmd, npx.args)?.startsWith(`v${major}.`) ? npx : null;
}

function run(cmd, args) {
  return new Promise((done) => {
    const child = spawn(cmd, args, { cwd: root, stdio: 'inherit' });
    child.on('exit', (code, signal) => done(code ?? (signal ? 1 : 0)));
    child.on('error', (e) => {
      console.error(`bench:all: could not start ${cmd}: ${e.message}`);
      done(1);
    });
  });
}

function git(args) {
  const r = spawnSync('git', args, { cwd: root, encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
}
const dirtyCheck = ['status', '--porcelain', '--', 'cpp', 'js', 'scripts', 'package.json'];
// The commit the runs measure (the build was made from it before they started): taken
// now, since work may go on in the checkout while they run.
const shaAtStart = reportOnly ? null : git(['rev-parse', '--short', 'HEAD']);
const dirtyAtStart = reportOnly ? null : git(dirtyCheck);

const TITLES = { node26: 'Node 26', node24: 'Node 24', node20: 'Node 20', chromium: 'Chromium (headless)' };
const outcomes = [];
const node26 = reportOnly ? null : nodeCommand(26);
for (const rt of reportOnly ? [] : selected) {
  const title = TITLES[rt];
  console.log(`\n======== ${title} ========`);
  let command;
  if (rt === 'chromium') {
    const node = node26 ?? { cmd: process.execPath, args: [] };
    command = { cmd: node.cmd, args: [...node.args, 'bench/browser/run.mjs', '--name', 'chromium', ...passthrough] };
  } else {
    const node = rt === 'node26' ? node26 : nodeCommand(Number(rt.slice(4)));
    if (!node) {
      console.log(`${title}: not available on this machine, skipped`);
      outcomes.push({ rt, title, skipped: true });
      continue;
    }
    command = { cmd: node.cmd, args: [...node.args, 'bench/run.mjs', '--name', rt, ...passthrough] };
  }
  const shown = [command.cmd.startsWith(root) ? command.cmd.slice(root.length) : command.cmd, ...command.args].join(' ');
  console.log(`$ ${shown}`);
  const started = Date.now();
  const code = await run(command.cmd, command.args);
  outcomes.push({ rt, title, code, command: shown, started, seconds: Math.round((Date.now() - started) / 1000) });
}

// ---------------------------------------------------------------------------------------
// bench/RESULTS.md

function machine() {
  let cpu = cpus()[0]?.model ?? 'unknown';
  try {
    cpu = readFileSync('/proc/cpuinfo', 'utf8').match(/^model name\s*:\s*(.+)$/m)?.[1]?.trim() ?? cpu;
  } catch {}
  let os = `${process.platform} ${release()}`;
  try {
    const pretty = readFileSync('/etc/os-release', 'utf8').match(/^PRETTY_NAME="?([^"\n]+)"?/m)?.[1];
    if (pretty) os = `${pretty}, kernel ${release()}`;
  } catch {}
  return { cpu, cores: cpus().length, memory: `${(totalmem() / 2 ** 30).toFixed(1)} GiB`, os };
}

if (reportOnly) {
  for (const rt of selected) if (existsSync(join(resultsDir, `${rt}.json`))) outcomes.push({ rt, title: TITLES[rt], code: 0, started: 0 });
}
const loaded = [];
for (const o of outcomes) {
  if (o.skipped) continue;
  const file = join(resultsDir, `${o.rt}.json`);
  try {
    const res = JSON.parse(readFileSync(file, 'utf8'));
    // The file must be this run's (meta.date is when its suite started).
    if (!(Date.parse(res.meta.date) >= o.started - 5000)) throw new Error(`${file} is from an earlier run`);
    loaded.push({ ...o, res });
  } catch (e) {
    o.failed = `no results (${e.message})`;
  }
}

const m = machine();
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const headNow = git(['rev-parse', '--short', 'HEAD']);
const sha = shaAtStart ?? headNow;
const dirty = shaAtStart !== null ? dirtyAtStart : git(dirtyCheck);
const md = [];
md.push('# wasmjson benchmark results', '');
md.push(
  `Written by \`npm run bench:all\` (bench/all-runtimes.mjs) on ${new Date().toISOString()}. ` +
    'Every runtime ran the same suite (bench/suite.mjs) on the same files, one runtime after another.',
  '',
);
md.push('## Machine', '');
md.push(`- CPU: ${m.cpu} (/proc/cpuinfo), ${m.cores} cores`);
md.push(`- Memory: ${m.memory}`);
md.push(`- OS: ${m.os}`);
md.push('- The machine is shared (other builds may run at the same time): compare figures within one table, where both sides ran in the same rounds.');
const costs = loaded.filter((l) => l.res.meta.pageCost).map((l) => `${l.title} ${l.res.meta.pageCost.firstTouchUs} (rewriting: ${l.res.meta.pageCost.rewriteUs})`);
if (costs.length) {
  md.push(
    `- First write to new memory, us per 4 KiB page, as each Node run started: ${costs.join(', ')}. ` +
      'Every output in new memory pays it, native\'s as well as ours: MB/s figures of operations with large outputs (minify, prettify and encode of bytes, big strings) move with it.',
  );
}
md.push('');
md.push('## Versions', '');
md.push('| runtime | version | V8 |', '|---|---|---|');
for (const l of loaded) md.push(`| ${l.title} | ${l.res.meta.runtime?.version ?? '?'} | ${l.res.meta.runtime?.v8 ?? '?'} |`);
md.push('');
md.push(
  `wasmjson ${pkg.version} at ${sha ?? '?'}${dirty ? ' (with uncommitted changes)' : ''}` +
    (shaAtStart !== null && headNow !== null && headNow !== shaAtStart ? ` (when the runs started; HEAD was ${headNow} when this was written)` : '') +
    '.',
);
const peers = loaded[0]?.res.meta.peers ?? [];
if (peers.length) md.push(`Peers: ${peers.map((p) => `${p.name}${p.version ? ' ' + p.version : ''}`).join(', ')}.`);
md.push('');
md.push('## Reproduce', '');
md.push('```sh');
md.push(`npm run bench:all${passthrough.length || selected !== ALL ? ' -- ' + [...(selected !== ALL ? ['--runtimes', selected.join(',')] : []), ...passthrough].join(' ') : ''}`);
md.push('# one runtime at a time:');
md.push('npm run bench                      # Node 26 (node bench/run.mjs)');
md.push('npx -y node@24 bench/run.mjs       # Node 24');
md.push('/usr/bin/node bench/run.mjs        # Node 20');
md.push('node bench/browser/run.mjs         # headless Chromium (page: bench/browser/)');
md.push('```', '');
md.push('Results of each run: `bench/results/<runtime>.json` and `.html` (charts), `bench/results/chromium.png`.', '');
for (const o of outcomes) {
  if (o.skipped) md.push(`- ${o.title}: not available on this machine, skipped.`);
  else if (o.failed) md.push(`- ${o.title}: failed (exit code ${o.code}, ${o.failed}).`);
  else if (o.code) md.push(`- ${o.title}: exit code ${o.code} (see mismatches below).`);
}
if (outcomes.some((o) => o.skipped || o.failed || o.code)) md.push('');
if (loaded.length) {
  md.push('## Overview: wasmjson geomeans vs targets', '');
  md.push('MB/s where the target is in MB/s (validate; wasm stage, minify and prettify with SIMD128), otherwise speed relative to native JSON in the same rounds (x). ✓ = target met. The stringify and encode targets are set per runtime: Node 26 stringify >= 0.8x and encode >= 1x, Node 24 stringify >= 1x and encode >= 1.5x; Chromium and Node 20 are held to the Node 26 targets. canonicalize is held to >= 3x the fastest npm package (canonicalize, json-canonicalize), both measured against the same baseline in the same rounds: its ratio over that package is in parentheses.', '');
  md.push(formatOverviewMarkdown(loaded.map((l) => l.res), loaded.map((l) => `${l.title.replace(' (headless)', '')} ${l.res.meta.runtime?.version ?? ''}`.trim())), '');
}
for (const l of loaded) {
  md.push(`## ${l.title}`, '');
  md.push(formatMarkdown(l.res, { heading: '###' }));
}
const out = resolve(root, 'bench/RESULTS.md');
writeFileSync(out, md.join('\n'));
console.log(`\nbench:all: wrote bench/RESULTS.md (${loaded.length} runtime(s): ${loaded.map((l) => l.title).join(', ')})`);
const failed = outcomes.filter((o) => !o.skipped && (o.failed || o.code));
process.exitCode = failed.length ? 1 : 0;
