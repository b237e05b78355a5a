// Reports of a suite run (the object runSuite returns): plain-text tables for terminals,
// Markdown for bench/RESULTS.md, and a self-contained HTML page with SVG charts. Pure
// functions, shared by Node and the browser page.

const FLAVOR_COLORS = { simd128: '#1f77b4', swar64: '#ff7f0e' };
const PEER_COLORS = ['#2ca02c', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22', '#17becf'];

const fmtMbps = (x) => (x === undefined || x === null || !Number.isFinite(x) ? '-' : x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));
const fmtRatio = (x) => (x === undefined || x === null || !Number.isFinite(x) ? '-' : x.toFixed(2) + 'x');
const fmtPct = (x) => (x === undefined || x === null || !Number.isFinite(x) ? '-' : Math.round(x * 100) + '%');
const fmtKB = (bytes) => (bytes >= 10240 ? (bytes / 1024).toFixed(0) : (bytes / 1024).toFixed(1));
const fmtHeap = (b) => (b === undefined || b === null || !Number.isFinite(b) ? '-' : Math.abs(b) >= 1024 * 10 ? (b / 1024).toFixed(0) + 'K' : Math.abs(b) >= 1024 ? (b / 1024).toFixed(1) + 'K' : Math.round(b) + '');

/** The operations that ran, in registry order, with the implementations seen for each. */
function opsOf(results) {
  return results.meta.operations.map((op) => {
    const impls = [];
    for (const f of results.files) {
      const o = f.ops[op.id];
      if (!o) continue;
      for (const n of [...Object.keys(o.impls), ...o.excluded.map((e) => e.impl)]) if (!impls.includes(n)) impls.push(n);
    }
    const flavors = results.meta.flavors.filter((f) => impls.includes(f));
    const peers = impls.filter((n) => n !== 'native' && !results.meta.flavors.includes(n));
    return { ...op, flavors, peers };
  });
}

function targetText(target) {
  if (!target) return '';
  if (target.mbps !== undefined) return `>= ${target.mbps} MB/s`;
  if (target.overPeers !== undefined) return `>= ${target.overPeers}x the fastest peer`;
  return `>= ${target.ratio}x` + (target.runtime ? ` (${target.runtime})` : '');
}

export function runtimeTitle(meta) {
  const r = meta.runtime ?? {};
  if (r.name === 'chromium') return `Chromium ${r.version ?? ''} (V8 ${r.v8 ?? '?'})`.trim();
  return `Node ${r.version ?? '?'} (V8 ${r.v8 ?? '?'})`;
}

export function describeMethod(meta) {
  return (
    `${meta.rounds} rounds, batches >= ${meta.minMs} ms, implementations interleaved, a full GC before each batch; each implementation warmed up on its first file of an operation and on each item of small documents (${meta.warmUp ? `>= ${meta.warmUp.calls} calls and ${meta.warmUp.ms} ms` : 'not recorded'}); MB/s = median over rounds; ` +
    `x = speed / native's, computed per round, median; ± = interquartile range of the per-round ratios / median. ` +
    `Small docs: <= ${meta.smallDocBytes} bytes per document (geomeans kept apart).`
  );
}

// ---------------------------------------------------------------------------------------
// Plain text

function table(rows, align) {
  const widths = [];
  for (const r of rows) r.forEach((c, i) => (widths[i] = Math.max(widths[i] ?? 0, String(c).length)));
  return rows
    .map((r) => r.map((c, i) => (align[i] === 'l' ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join('  ').trimEnd())
    .join('\n');
}

function cellFor(o, name, what) {
  if (!o) return '';
  const r = o.impls[name];
  if (r) return what(r);
  const ex = o.excluded.find((e) => e.impl === name);
  return ex ? (results_isWasm(name) ? 'MISMATCH' : 'excl.') : '';
}
const results_isWasm = (name) => name === 'simd128' || name === 'swar64';

/** Per-file rows of one operation: [header, ...rows] of strings. */
function opRows(results, op, { heap = true } = {}) {
  const hasHeap = heap && !!results.meta.heap;
  const head = ['file', 'KB', 'native MB/s'];
  for (const f of op.flavors) head.push(`${f} MB/s`, 'x', '±');
  for (const p of op.peers) head.push(`${p} x`);
  if (hasHeap) head.push('heap/call: native', ...op.flavors);
  const rows = [head];
  for (const f of results.files) {
    const o = f.ops[op.id];
    if (!o) continue;
    const row = [f.name + (f.docs > 1 ? ` (${f.docs} docs)` : ''), fmtKB(f.bytes), fmtMbps(o.impls.native?.mbps)];
    for (const fl of op.flavors) {
      const r = o.impls[fl];
      if (r) row.push(fmtMbps(r.mbps), fmtRatio(r.ratio), fmtPct(r.spread));
      else row.push(cellFor(o, fl, () => ''), '', '');
    }
    for (const p of op.peers) row.push(cellFor(o, p, (r) => fmtRatio(r.ratio)));
    if (hasHeap) for (const n of ['native', ...op.flavors]) row.push(fmtHeap(o.impls[n]?.heap?.kept));
    rows.push(row);
  }
  return rows;
}

function summaryRows(results, { color = false } = {}) {
  const paint = (s, ok) => (!color ? s : ok ? `\x1b[32m${s}\x1b[0m` : `\x1b[31m${s}\x1b[0m`);
  const rows = [['operation', 'impl', 'group', 'files', 'MB/s', 'native MB/s', 'x native', 'target', '']];
  for (const s of results.summary ?? []) {
    rows.push([
      s.label,
      s.impl,
      s.group,
      s.files === s.of ? String(s.files) : `${s.files}/${s.of}`,
      fmtMbps(s.mbps),
      fmtMbps(s.nativeMbps),
      fmtRatio(s.ratio),
      s.overPeers !== undefined ? `${targetText(s.target)}: ${fmtRatio(s.overPeers)} ${s.target.peer}` : targetText(s.target),
      s.target ? (s.met ? paint('met', true) : paint('below', false)) : '',
    ]);
  }
  return rows;
}

/** One compact line per finished file (progress output). */
export function fileLine(fileResult, index, total) {
  const parts = [];
  if (fileResult.error) parts.push(fileResult.error);
  for (const [id, o] of Object.entries(fileResult.ops)) {
    const short = { validate: 'validate', 'parse-string': 'parse(str)', 'parse-bytes': 'parse(bytes)', 'parse-error': 'parse error', 'wasm-stage': 'stage', 'wasm-minify': 'wasm minify', 'wasm-prettify': 'wasm prettify' }[id] ?? id;
    const flav = Object.entries(o.impls).filter(([, r]) => r.kind === 'wasmjson');
    const bad = o.excluded.filter((e) => results_isWasm(e.impl)).map((e) => `${e.impl} MISMATCH`);
    const vals = id === 'validate' ? flav.map(([, r]) => fmtMbps(r.mbps)).join('|') + ' MB/s' : flav.map(([, r]) => fmtRatio(r.ratio)).join('|');
    parts.push(`${short} ${flav.length ? vals : ''}${bad.length ? ' ' + bad.join(' ') : ''}`.trim());
  }
  const n = String(total).length;
  return `[${String(index + 1).padStart(n)}/${total}] ${fileResult.name.padEnd(38)} ${fmtKB(fileResult.bytes).padStart(6)} KB  ${parts.join('  ')}`;
}

/** The full plain-text report: per-operation tables, then geomeans vs targets. */
export function formatText(results, { color = false } = {}) {
  const out = [];
  for (const op of opsOf(results)) {
    out.push('', `== ${op.label}: wasmjson vs ${op.baseline}` + (op.targets ? `   [target ${targetOf(op)}]` : ''));
    const rows = opRows(results, op);
    out.push(table(rows, rows[0].map((_, i) => (i === 0 ? 'l' : 'r'))));
  }
  out.push('', ...formatSummary(results, { color }));
  return out.join('\n');
}

function targetOf(op) {
  const t = op.targets;
  if (!t) return '';
  if (t.mbps) return Object.entries(t.mbps).map(([f, v]) => `${f} >= ${v} MB/s`).join(', ');
  if (t.overPeers !== undefined) return `>= ${t.overPeers}x the fastest peer`;
  return `>= ${t.ratio}x` + (t.small !== undefined ? `, small docs >= ${t.small}x` : '') + (t.runtime ? ` on ${t.runtime}` : '');
}

/** bench/node.mjs pageCost()'s figures, said in a sentence. */
export function pageCostText({ firstTouchUs, rewriteUs }) {
  return (
    `the first write to new memory took ${firstTouchUs} us per 4 KiB page, rewriting it ${rewriteUs} us ` +
    '(measured as the run started); outputs in new memory pay the first, native\'s as well as ours'
  );
}

export function formatSummary(results, { color = false } = {}) {
  const out = [`== geomeans (${runtimeTitle(results.meta)}; "files": documents > ${results.meta.smallDocBytes} B, "small docs" apart)`];
  const rows = summaryRows(results, { color });
  out.push(table(rows, ['l', 'l', 'l', 'r', 'r', 'r', 'r', 'l', 'l']));
  for (const s of results.skipped ?? []) out.push(`skipped: ${s.op} (${s.reason})`);
  if (results.meta.heap) out.push(`heap/call: ${results.meta.heap}`);
  if (results.meta.pageCost) out.push(`memory: ${pageCostText(results.meta.pageCost)}`);
  const peerNotes = groupNotes(results.notes ?? []);
  for (const line of peerNotes) out.push(line);
  if (results.mismatches?.length) {
    out.push('', `!!! ${results.mismatches.length} MISMATCH(ES) with native JSON (excluded from timing and geomeans):`);
    for (const m of results.mismatches) out.push(`!!!   ${m.file}  ${m.label}  ${m.impl}: ${m.message}`);
  }
  return out;
}

/** Peer exclusions, one line per peer and operation. */
function groupNotes(notes) {
  const by = new Map();
  const lines = [];
  for (const n of notes) {
    if (!n.impl) {
      lines.push(`note: ${n.file}: ${n.message}`);
      continue;
    }
    const key = `${n.impl} ${n.op}`;
    if (!by.has(key)) by.set(key, []);
    by.get(key).push(n);
  }
  for (const [key, list] of by) {
    const files = list.map((n) => n.file).join(', ');
    lines.push(`peer ${key}: differs from native on ${list.length} file(s), excluded there: ${files.length > 160 ? files.slice(0, 157) + '...' : files} (first: ${list[0].message.slice(0, 140)})`);
  }
  return lines;
}

// ---------------------------------------------------------------------------------------
// Markdown

function mdTable(rows) {
  const esc = (c) => String(c).replace(/\|/g, '\\|');
  const [head, ...body] = rows;
  // Right-align columns of numbers (MB/s, x, %, sizes), left-align the rest.
  const numeric = head.map((_, i) => i > 0 && body.some((r) => /^-?[\d.]/.test(String(r[i]))) && body.every((r) => /^(-?[\d.]+.*|-|MISMATCH|excl\.|)$/.test(String(r[i]))));
  const rule = head.map((_, i) => (numeric[i] ? '---:' : '---')).join('|');
  return [`| ${head.map(esc).join(' | ')} |`, `|${rule}|`, ...body.map((r) => `| ${r.map(esc).join(' | ')} |`)].join('\n');
}

/** One runtime's section for RESULTS.md: geomeans vs targets, then per-file tables. */
export function formatMarkdown(results, { heading = '###' } = {}) {
  const out = [];
  out.push(`${heading} ${runtimeTitle(results.meta)}`, '');
  out.push(describeMethod(results.meta), '');
  if (results.meta.heap) out.push(`Heap per call: ${results.meta.heap}`, '');
  if (results.meta.pageCost) out.push(`Memory: ${pageCostText(results.meta.pageCost)}`, '');
  if (results.meta.command) out.push(`Command: \`${results.meta.command}\``, '');
  out.push(`${heading}# Geomeans vs targets`, '');
  out.push(mdTable(summaryRows(results)));
  out.push('');
  for (const s of results.skipped ?? []) out.push(`- skipped: ${s.op} (${s.reason})`);
  for (const line of groupNotes(results.notes ?? [])) out.push(`- ${line}`);
  if (results.mismatches?.length) {
    out.push('', `**${results.mismatches.length} mismatch(es) with native JSON** (excluded):`, '');
    for (const m of results.mismatches) out.push(`- ${m.file} ${m.label} ${m.impl}: ${m.message}`);
  }
  for (const op of opsOf(results)) {
    out.push('', `${heading}# ${op.label} vs ${op.baseline}`, '');
    out.push(mdTable(opRows(results, op)));
  }
  out.push('');
  return out.join('\n');
}

// ---------------------------------------------------------------------------------------
// HTML (self-contained: inline CSS and SVG)

const escapeHtml = (s) => String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);

function htmlTable(rows, cls = '') {
  const [head, ...body] = rows;
  const td = (c, i) => {
    const s = String(c);
    const bad = s === 'MISMATCH' || s.includes('below');
    const num = i > 0 && /^(-?[\d.]+(x|%|K)?|\d+\/\d+|-)$/.test(s);
    return `<td class="${num ? 'num' : ''}${bad ? ' bad' : ''}${s === 'met' ? ' good' : ''}">${escapeHtml(s)}</td>`;
  };
  return `<table class="${cls}"><thead><tr>${head.map((h) => `<th>${escapeHtml(h)}</th>`).join('')}</tr></thead><tbody>${body
    .map((r) => `<tr>${r.map(td).join('')}</tr>`)
    .join('')}</tbody></table>`;
}

/** A horizontal grouped bar chart (SVG) of one operation: x vs native (or MB/s for validate). */
export function chartSvg(results, op) {
  const useMbps = !!op.targets?.mbps;
  const series = [...op.flavors, ...op.peers];
  const colors = Object.fromEntries(series.map((s, i) => [s, FLAVOR_COLORS[s] ?? PEER_COLORS[(i - op.flavors.length + PEER_COLORS.length) % PEER_COLORS.length]]));
  const files = results.files.filter((f) => f.ops[op.id]);
  const value = (f, s) => {
    const r = f.ops[op.id].impls[s];
    return r ? (useMbps ? r.mbps : r.ratio) : null;
  };
  let max = useMbps ? Math.max(...files.map((f) => f.ops[op.id].impls.native?.mbps ?? 0)) : 1.2;
  for (const f of files) for (const s of series) max = Math.max(max, value(f, s) ?? 0);
  const targetLines = [];
  if (useMbps) for (const [fl, v] of Object.entries(op.targets.mbps)) if (op.flavors.includes(fl)) targetLines.push({ v, label: `${fl} target`, color: colors[fl] });
  if (!useMbps && op.targets?.ratio) targetLines.push({ v: op.targets.ratio, label: 'target', color: '#d62728' });
  for (const t of targetLines) max = Math.max(max, t.v * 1.05);
  max *= 1.08;
  const barH = 7;
  const groupH = series.length * barH + 8;
  const left = 230;
  const width = 900;
  const plotW = width - left - 70;
  const top = 34;
  const height = top + files.length * groupH + 30;
  const x = (v) => left + (v / max) * plotW;
  const parts = [];
  parts.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, sans-serif" font-size="11">`);
  parts.push(`<rect width="100%" height="100%" fill="#fff"/>`);
  parts.push(`<text x="4" y="14" font-weight="bold" font-size="13">${escapeHtml(op.label)} — ${useMbps ? 'MB/s (native JSON.parse in grey)' : 'speed relative to ' + escapeHtml(op.baseline) + ' (1.0x = native)'}</text>`);
  // legend
  let lx = 4;
  for (const s of series) {
    parts.push(`<rect x="${lx}" y="20" width="10" height="8" fill="${colors[s]}"/><text x="${lx + 13}" y="28">${escapeHtml(s)}</text>`);
    lx += 20 + s.length * 6.5;
  }
  // grid
  const step = niceStep(max);
  for (let v = 0; v <= max; v += step) {
    parts.push(`<line x1="${x(v)}" x2="${x(v)}" y1="${top - 2}" y2="${height - 24}" stroke="#eee"/>`);
    parts.push(`<text x="${x(v)}" y="${height - 12}" text-anchor="middle" fill="#555">${useMbps ? +v.toFixed(1) : +v.toFixed(2) + 'x'}</text>`);
  }
  files.forEach((f, gi) => {
    const y0 = top + gi * groupH;
    parts.push(`<text x="${left - 6}" y="${y0 + groupH / 2 + 3}" text-anchor="end">${escapeHtml(f.name.length > 36 ? f.name.slice(0, 35) + '…' : f.name)}</text>`);
    if (useMbps && f.ops[op.id].impls.native) {
      const v = f.ops[op.id].impls.native.mbps;
      parts.push(`<line x1="${x(v)}" x2="${x(v)}" y1="${y0 + 1}" y2="${y0 + groupH - 7}" stroke="#999" stroke-width="2"/>`);
    }
    series.forEach((s, si) => {
      const v = value(f, s);
      const y = y0 + si * barH;
      if (v === null) {
        const ex = f.ops[op.id].excluded.find((e) => e.impl === s);
        if (ex) parts.push(`<text x="${left + 3}" y="${y + barH - 1}" font-size="8" fill="#d62728">${results_isWasm(s) ? 'MISMATCH' : 'excluded'}</text>`);
        return;
      }
      parts.push(`<rect x="${left}" y="${y}" width="${Math.max(0.5, x(v) - left)}" height="${barH - 1}" fill="${colors[s]}"><title>${escapeHtml(`${f.name} ${s}: ${useMbps ? fmtMbps(v) + ' MB/s' : fmtRatio(v)}`)}</title></rect>`);
    });
  });
  if (!useMbps) parts.push(`<line x1="${x(1)}" x2="${x(1)}" y1="${top - 2}" y2="${height - 24}" stroke="#000" stroke-width="1"/>`);
  for (const t of targetLines) {
    parts.push(`<line x1="${x(t.v)}" x2="${x(t.v)}" y1="${top - 2}" y2="${height - 24}" stroke="${t.color}" stroke-dasharray="4 3"/>`);
    parts.push(`<text x="${x(t.v) + 2}" y="${top + 6}" fill="${t.color}" font-size="9">${escapeHtml(t.label)}</text>`);
  }
  parts.push('</svg>');
  return parts.join('');
}

/** Overview (SVG): wasmjson's geomean speed vs native per operation and flavor, with the ratio targets. */
export function summaryChartSvg(results) {
  const rows = (results.summary ?? []).filter((s) => s.kind === 'wasmjson');
  if (!rows.length) return '';
  const left = 330;
  const width = 900;
  const plotW = width - left - 60;
  const barH = 13;
  const top = 30;
  const height = top + rows.length * barH + 30;
  let max = 1.2;
  for (const r of rows) max = Math.max(max, r.ratio || 0, r.target?.ratio ?? 0);
  max *= 1.1;
  const x = (v) => left + (v / max) * plotW;
  const p = [];
  p.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, sans-serif" font-size="11">`);
  p.push(`<rect width="100%" height="100%" fill="#fff"/>`);
  p.push(`<text x="4" y="16" font-weight="bold" font-size="13">Geomean speed relative to native JSON (1.0x = native); red ticks: targets</text>`);
  const step = niceStep(max);
  for (let v = 0; v <= max; v += step) {
    p.push(`<line x1="${x(v)}" x2="${x(v)}" y1="${top - 2}" y2="${height - 24}" stroke="#eee"/>`);
    p.push(`<text x="${x(v)}" y="${height - 12}" text-anchor="middle" fill="#555">${+v.toFixed(2)}x</text>`);
  }
  rows.forEach((r, i) => {
    const y = top + i * barH;
    const label = `${r.label} ${r.impl} (${r.group})`;
    p.push(`<text x="${left - 6}" y="${y + barH - 3}" text-anchor="end">${escapeHtml(label)}</text>`);
    const v = r.ratio;
    if (Number.isFinite(v)) {
      const fill = r.target?.ratio !== undefined ? (r.met ? '#2ca02c' : '#d62728') : FLAVOR_COLORS[r.impl] ?? '#888';
      p.push(`<rect x="${left}" y="${y + 1}" width="${Math.max(0.5, x(v) - left)}" height="${barH - 3}" fill="${fill}" opacity="0.8"><title>${escapeHtml(`${label}: ${fmtRatio(v)}, ${fmtMbps(r.mbps)} MB/s`)}</title></rect>`);
      p.push(`<text x="${x(v) + 3}" y="${y + barH - 3}" fill="#333" font-size="10">${fmtRatio(v)}</text>`);
    }
    if (r.target?.ratio !== undefined) p.push(`<line x1="${x(r.target.ratio)}" x2="${x(r.target.ratio)}" y1="${y}" y2="${y + barH}" stroke="#d62728" stroke-width="2"/>`);
  });
  p.push(`<line x1="${x(1)}" x2="${x(1)}" y1="${top - 2}" y2="${height - 24}" stroke="#000"/>`);
  p.push('</svg>');
  return p.join('');
}

function niceStep(max) {
  const raw = max / 6;
  const p = Math.pow(10, Math.floor(Math.log10(raw)));
  for (const m of [1, 2, 2.5, 5, 10]) if (raw <= m * p) return m * p;
  return 10 * p;
}

export const REPORT_CSS = `
body { font: 14px system-ui, sans-serif; margin: 1.5em; color: #222; }
h1 { font-size: 1.4em; } h2 { font-size: 1.15em; margin-top: 2em; }
table { border-collapse: collapse; margin: .5em 0 1em; font-size: 12px; }
th, td { border: 1px solid #ddd; padding: 2px 6px; } th { background: #f4f4f4; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
td.bad { color: #c00; font-weight: bold; } td.good { color: #080; }
.meta { color: #555; } .mismatch { color: #c00; font-weight: bold; }
svg { max-width: 100%; height: auto; border: 1px solid #eee; }
`;

/** The report's body (headings, summary, charts and tables), for a page to insert. */
export function renderBody(results) {
  const m = results.meta;
  const h = [];
  h.push(`<h1>wasmjson benchmark — ${escapeHtml(runtimeTitle(m))}</h1>`);
  h.push(`<p class="meta">${escapeHtml(m.date)}; flavors ${escapeHtml(m.flavors.join(', '))}; ${results.files.length} files. ${escapeHtml(describeMethod(m))}</p>`);
  if (m.heap) h.push(`<p class="meta">Heap per call: ${escapeHtml(m.heap)}</p>`);
  if (m.machine) h.push(`<p class="meta">Machine: ${escapeHtml(m.machine)}</p>`);
  if (results.mismatches?.length) {
    h.push(`<p class="mismatch">${results.mismatches.length} mismatch(es) with native JSON (excluded from timing):</p><ul class="mismatch">`);
    for (const x of results.mismatches) h.push(`<li>${escapeHtml(`${x.file} ${x.label} ${x.impl}: ${x.message}`)}</li>`);
    h.push('</ul>');
  }
  h.push('<h2>Geomeans vs targets</h2>');
  h.push(summaryChartSvg(results));
  h.push(htmlTable(summaryRows(results)));
  const notes = [...(results.skipped ?? []).map((s) => `skipped: ${s.op} (${s.reason})`), ...groupNotes(results.notes ?? [])];
  if (notes.length) h.push(`<ul class="meta">${notes.map((n) => `<li>${escapeHtml(n)}</li>`).join('')}</ul>`);
  for (const op of opsOf(results)) {
    h.push(`<h2>${escapeHtml(op.label)} vs ${escapeHtml(op.baseline)}${op.targets ? ` <small>(target ${escapeHtml(targetOf(op))})</small>` : ''}</h2>`);
    h.push(chartSvg(results, op));
    h.push(htmlTable(opRows(results, op)));
  }
  return h.join('\n');
}

/** A complete, self-contained HTML page. */
export function renderHtml(results) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>wasmjson benchmark — ${escapeHtml(runtimeTitle(results.meta))}</title><style>${REPORT_CSS}</style></head><body>\n${renderBody(results)}\n</body></html>\n`;
}

/**
 * Markdown table comparing runtimes: wasmjson's geomeans per operation, flavor and group
 * (MB/s for validate, x native otherwise), one column per runtime, with the targets.
 */
export function formatOverviewMarkdown(resultsList, titles) {
  const keys = [];
  const seen = new Set();
  for (const res of resultsList) {
    for (const s of res.summary ?? []) {
      if (s.kind !== 'wasmjson') continue;
      const k = `${s.op}|${s.impl}|${s.group}`;
      if (!seen.has(k)) {
        seen.add(k);
        keys.push({ k, s });
      }
    }
  }
  const head = ['operation', 'flavor', 'group', 'target', ...resultsList.map((r, i) => titles?.[i] ?? runtimeTitle(r.meta).replace(/ \(V8.*\)$/, ''))];
  const rows = [head];
  for (const { k, s } of keys) {
    const row = [s.label, s.impl, s.group, targetText(s.target)];
    for (const res of resultsList) {
      const e = (res.summary ?? []).find((x) => `${x.op}|${x.impl}|${x.group}` === k);
      if (!e) {
        row.push('-');
        continue;
      }
      const v = e.target?.mbps !== undefined || (s.op === 'validate' && !e.target) ? `${fmtMbps(e.mbps)} MB/s` : fmtRatio(e.ratio);
      // A runtime with a target of its own (Node 24's stringify and encode) says which.
      const own = e.target && targetText(e.target) !== targetText(s.target) ? ` (${targetText(e.target)})` : '';
      // A target over the peers: the ratio to the fastest one beside the ratio to native.
      const over = e.overPeers !== undefined ? ` (${fmtRatio(e.overPeers)} ${e.target.peer})` : '';
      row.push(e.target ? `${v}${over} ${e.met ? '✓' : '✗'}${e.overPeers !== undefined ? '' : own}` : v);
    }
    rows.push(row);
  }
  return mdTable(rows);
}
