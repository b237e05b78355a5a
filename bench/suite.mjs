// The benchmark suite, written once for Node and browsers: pure functions over what the
// host hands in (codecs, a clock, optional heap probe, optional wasm-stage runners, peer
// libraries). No Node or DOM import here; bench/node.mjs and bench/browser/page.mjs are
// the two hosts.
//
// Operations are a registry (OPERATIONS below). Each entry says what it times, what it
// is compared with (native JSON, in the same rounds), how a result is checked against
// native's, and which codec method it needs; operations the codec does not have yet are
// skipped. To add one (say `canonicalize`), add an entry: nothing else changes.
//
// Method, per file and operation:
//   1. every implementation's result is checked against native's first (deep-equal for
//      values, string-equal for text, byte-equal for bytes); a wasmjson mismatch is
//      reported loudly and that implementation is left out of the timing and geomeans;
//   2. each implementation is calibrated to batches of at least `minMs`;
//   3. `rounds` rounds run every implementation once each, interleaved (the order
//      rotates per round); MB/s is the median over rounds; the ratio to native is
//      computed per round (same round, same conditions) and its median is reported;
//      spread is the interquartile range of the per-round ratios over their median;
//   4. heap: when the host gives a probe, `keep` calls are made with their results held,
//      before and after a forced GC (see measureHeap).

/** Default rounds and batch length (ms); --quick uses QUICK. */
export const DEFAULTS = Object.freeze({ rounds: 9, minMs: 8 });
export const QUICK = Object.freeze({ rounds: 5, minMs: 4 });

/** Warm-up before an implementation's first timed batch of an operation, and of each item of small documents: at least this many calls and ms. */
export const WARM_UP = Object.freeze({ calls: 5, ms: 250 });

/** Documents of this many bytes or fewer (average per document) count as "small docs". */
export const SMALL_DOC_BYTES = 4096;

const utf8Decoder = new TextDecoder();
const utf8Encoder = new TextEncoder();
/** A replacer function that changes nothing (stringify-replacer). */
const identityReplacer = (_key, value) => value;

// ---------------------------------------------------------------------------------------
// Statistics

export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  if (!s.length) return NaN;
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

export function quantile(xs, q) {
  const s = [...xs].sort((a, b) => a - b);
  if (!s.length) return NaN;
  const pos = (s.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return s[lo] + (s[hi] - s[lo]) * (pos - lo);
}

export function geomean(xs) {
  const ok = xs.filter((x) => x > 0 && Number.isFinite(x));
  if (!ok.length) return NaN;
  return Math.exp(ok.reduce((a, x) => a + Math.log(x), 0) / ok.length);
}

/** Interquartile range over the median (0.05 = 5%). */
export function relativeSpread(xs) {
  const m = median(xs);
  return xs.length > 1 && m > 0 ? (quantile(xs, 0.75) - quantile(xs, 0.25)) / m : 0;
}

// ---------------------------------------------------------------------------------------
// Corpus items: one file = one item = one or more documents (an .ndjson file or the
// built-in "messages" item is many small documents, each its own call).

/** One JSON document; text, value and native serialisations are computed on first use. */
export class Doc {
  constructor(bytes) {
    this.bytes = bytes;
  }
  get text() {
    return (this._text ??= utf8Decoder.decode(this.bytes));
  }
  get value() {
    if (!('_value' in this)) this._value = JSON.parse(this.text);
    return this._value;
  }
  get json() {
    return (this._json ??= JSON.stringify(this.value));
  }
  get utf8() {
    return (this._utf8 ??= utf8Encoder.encode(this.json));
  }
  /** Drops the cached forms (a large retained heap makes every forced GC slow). */
  release() {
    this._text = this._json = this._utf8 = this._jcs = undefined;
    delete this._value;
  }
}

/**
 * Makes a corpus item: `{ name, bytes }` (one document) or `{ name, docs: [bytes…] }`.
 * Files whose name ends in .ndjson / .jsonl are split into one document per line.
 */
export function makeItem({ name, bytes, docs, source }) {
  let list = docs;
  // (Line numbers of the documents of a file split by line, for its errors.)
  let lines;
  if (!list) {
    if (/\.(ndjson|jsonl)$/i.test(name)) ({ docs: list, lines } = splitLines(bytes));
    else list = [bytes];
  }
  const total = list.reduce((a, b) => a + b.length, 0);
  return {
    name,
    source: source ?? 'file',
    docs: list.map((b) => new Doc(b)),
    lines,
    bytes: total,
    small: total / Math.max(1, list.length) <= SMALL_DOC_BYTES,
  };
}

/** The non-blank lines of bytes, each with its line number (from 1). */
function splitLines(bytes) {
  const docs = [];
  const lines = [];
  let start = 0;
  let line = 1;
  for (let i = 0; i <= bytes.length; i++) {
    if (i === bytes.length || bytes[i] === 10) {
      const text = bytes.subarray(start, i);
      if (text.some((b) => b !== 32 && b !== 9 && b !== 13)) {
        docs.push(text);
        lines.push(line);
      }
      start = i + 1;
      line++;
    }
  }
  return { docs, lines };
}

/** Where the k-th document of an item is, for a message ('' when the item is one document). */
function documentPlace(item, k) {
  if (item.lines) return `line ${item.lines[k]}: `;
  return item.docs.length > 1 ? `document ${k + 1}: ` : '';
}

// ---------------------------------------------------------------------------------------
// Checking results against native's

/** The `at` operation on one form of the document ('text' or 'bytes'). */
function atOperation({ id, form, baseline, parseNative }) {
  const deep = (doc) => (doc._deep ??= deepPointer(doc.value));
  return {
    id,
    label: `at(${form}, deep pointer)`,
    baseline: `${baseline} + property access`,
    native: (doc) => {
      const input = doc[form];
      const tokens = pointerPath(deep(doc));
      return () => walkPath(parseNative(input), tokens);
    },
    available: (c) => typeof c.at === 'function',
    wasmjson: (c, doc) => {
      const input = doc[form];
      const p = deep(doc);
      return () => c.at(input, p);
    },
    check: (doc, got) => deepEqual(walkPath(doc.value, pointerPath(deep(doc))), got),
  };
}

/** A document's text cut at 90% (of its UTF-16 units): the error path's input. */
function cutText(doc) {
  return doc.text.slice(0, Math.floor(doc.text.length * 0.9));
}

/** A thunk parsing the cut text with `parse`: it returns what parse throws. */
function parseCut(doc, parse) {
  const t = cutText(doc);
  return () => {
    try {
      return parse(t);
    } catch (e) {
      return e;
    }
  };
}

function preview(v) {
  let s;
  try {
    s = typeof v === 'string' ? JSON.stringify(v) : v instanceof Uint8Array ? `Uint8Array(${v.length})` : JSON.stringify(v);
  } catch {
    s = String(v);
  }
  if (s === undefined) s = String(v);
  return s.length > 60 ? s.slice(0, 57) + '...' : s;
}

function pathKey(path, key) {
  return typeof key === 'number' ? `${path}[${key}]` : /^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

/**
 * Compares two JSON values (iteratively: any depth). Returns null when equal, else a
 * description of the first difference. Numbers compare with Object.is (so -0 !== 0);
 * object keys must come in the same order; with `prototypes`, prototypes must match too.
 */
export function deepEqual(expected, actual, { prototypes = true } = {}) {
  const stack = [[expected, actual, '$']];
  while (stack.length) {
    const [a, b, path] = stack.pop();
    if (a === b && (typeof a !== 'number' || Object.is(a, b))) continue;
    if (typeof a !== typeof b) return `${path}: expected ${preview(a)}, got ${preview(b)} (${typeof b})`;
    if (typeof a === 'number') {
      if (!Object.is(a, b)) return `${path}: expected ${preview(a)}, got ${preview(b)}`;
      continue;
    }
    if (typeof a !== 'object' || a === null || b === null) return `${path}: expected ${preview(a)}, got ${preview(b)}`;
    if (Array.isArray(a) !== Array.isArray(b)) return `${path}: expected ${Array.isArray(a) ? 'an array' : 'an object'}, got ${preview(b)}`;
    if (prototypes && Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return `${path}: different prototype`;
    if (Array.isArray(a)) {
      if (a.length !== b.length) return `${path}: expected ${a.length} elements, got ${b.length}`;
      for (let i = a.length - 1; i >= 0; i--) stack.push([a[i], b[i], pathKey(path, i)]);
      continue;
    }
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    if (ka.length !== kb.length || ka.some((k, i) => k !== kb[i])) {
      let i = 0;
      while (i < ka.length && ka[i] === kb[i]) i++;
      const name = (k) => (k === undefined ? 'no more keys' : JSON.stringify(k));
      return `${path}: key #${i + 1} should be ${name(ka[i])}, got ${name(kb[i])} (${ka.length} keys expected, ${kb.length} got)`;
    }
    for (let i = ka.length - 1; i >= 0; i--) stack.push([a[ka[i]], b[ka[i]], pathKey(path, ka[i])]);
  }
  return null;
}

/** null when equal, else where two strings first differ. */
export function stringDiff(expected, actual) {
  if (typeof actual !== 'string') return `expected a string, got ${preview(actual)}`;
  if (expected === actual) return null;
  let i = 0;
  while (i < expected.length && i < actual.length && expected[i] === actual[i]) i++;
  const ctx = (s) => JSON.stringify(s.slice(Math.max(0, i - 15), i + 25));
  return `first difference at index ${i} (lengths ${expected.length} / ${actual.length}): expected ${ctx(expected)}, got ${ctx(actual)}`;
}

/** null when equal, else where two byte arrays first differ. */
export function bytesDiff(expected, actual) {
  if (!(actual instanceof Uint8Array)) return `expected a Uint8Array, got ${preview(actual)}`;
  const n = Math.min(expected.length, actual.length);
  let i = 0;
  while (i < n && expected[i] === actual[i]) i++;
  if (i === n && expected.length === actual.length) return null;
  const ctx = (b) => JSON.stringify(utf8Decoder.decode(b.subarray(Math.max(0, i - 15), i + 25)));
  return `first difference at byte ${i} (lengths ${expected.length} / ${actual.length}): expected ${ctx(expected)}, got ${ctx(actual)}`;
}

/** For peers: output that is not identical to native's but parses to the same value. */
function sameValueAs(doc, text) {
  try {
    return deepEqual(doc.value, JSON.parse(text), { prototypes: false }) === null;
  } catch {
    return false;
  }
}

/** Whitespace outside strings (minify's output must have none). */
function hasWhitespaceOutsideStrings(text) {
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++;
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 32 || c === 9 || c === 10 || c === 13) return true;
  }
  return false;
}

/**
 * RFC 8785 canonical JSON of a parsed value, the plain-JS way (like the reference
 * implementation): keys sorted by UTF-16 code units, JSON.stringify for strings and numbers.
 */
export function jcs(v) {
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  if (Array.isArray(v)) {
    let out = '[';
    for (let i = 0; i < v.length; i++) out += (i ? ',' : '') + jcs(v[i]);
    return out + ']';
  }
  const keys = Object.keys(v).sort();
  let out = '{';
  for (let i = 0; i < keys.length; i++) out += (i ? ',' : '') + JSON.stringify(keys[i]) + ':' + jcs(v[keys[i]]);
  return out + '}';
}

// ---------------------------------------------------------------------------------------
// The operations registry

/** Whether JSON.parse passes a reviver the source text of primitives (context.source). */
const SOURCE_TEXT_ACCESS = (() => {
  let source;
  JSON.parse('1', (_k, v, ctx) => ((source = ctx?.source), v));
  return source === '1';
})();

const INTEGER_LITERAL = /^-?(?:0|[1-9][0-9]*)$/;

/** A number's value as parse(text, { bigint: 'unsafe' }) gives it: `n`, or BigInt(text) for an integer literal n cannot hold exactly. */
function unsafeAsBigInt(text, n) {
  return !Number.isSafeInteger(n) && INTEGER_LITERAL.test(text) ? BigInt(text) : n;
}

/** The same in native terms: a JSON.parse reviver reading context.source. */
function bigintReviver(_key, value, context) {
  return typeof value === 'number' ? unsafeAsBigInt(context.source, value) : value;
}

/** lossless-json's parseNumber for the same result. */
export function losslessBigint(text) {
  return unsafeAsBigInt(text, Number(text));
}

/** The value parse-bigint must give for a document (computed once, by the native route). */
function bigintExpected(doc) {
  return (doc.bigintValue ??= JSON.parse(doc.text, bigintReviver));
}

/** wasm minify (space 0) or prettify through the module's raw exports (createWasmStage). */
function wasmReformatOperation(run, space) {
  return {
    id: `wasm-${run}`,
    label: `wasm ${run} (bytes -> bytes in wasm memory)`,
    baseline: `TextEncoder(JSON.stringify(JSON.parse(TextDecoder(bytes))${space ? `, null, ${space}` : ''}))`,
    native: reformatBytesNatively(space),
    available: (_c, host) => !!host.stages,
    stage: run,
    // (The output in wasm memory, copied once for this check: it must parse to the
    // document's value, as the API's minify and prettify outputs must.)
    check: (doc, got, output) => {
      if (got !== 0) return `wj_reformat returned error code ${got}`;
      if (!(output instanceof Uint8Array)) return 'no output to check';
      const text = utf8Decoder.decode(output);
      if (!space && hasWhitespaceOutsideStrings(text)) return 'minified output has whitespace outside strings';
      return sameValueAs(doc, text) ? null : 'output does not parse to the same value';
    },
  };
}

/** Native minify (space 0) or prettify of a document's bytes, bytes out. */
function reformatBytesNatively(space) {
  return (doc) => {
    const b = doc.bytes;
    return space ? () => utf8Encoder.encode(JSON.stringify(JSON.parse(utf8Decoder.decode(b)), null, space))
      : () => utf8Encoder.encode(JSON.stringify(JSON.parse(utf8Decoder.decode(b))));
  };
}

/** The baseline of the operations measured against JSON.parse(text). */
function parseTextNatively(doc) {
  const t = doc.text;
  return () => JSON.parse(t);
}

/**
 * Each operation:
 *   id, label          identifier (CLI --ops) and display name
 *   baseline           what native JSON does for the same job (timed in the same rounds)
 *   native(doc)        returns a thunk doing the baseline for one document
 *   wasmjson(c, doc)   returns a thunk calling the codec, or the op uses `stage`
 *   available(codecs)  whether it can run now (feature detection)
 *   check(doc, got)    null when wasmjson's result equals native's, else a description
 *   peerCheck          the same for peers (default: check); may accept equivalent output
 *   peers              peers' implementations are looked up by op id (bench/peers.mjs)
 *   targets            from the issue: { mbps: {flavor: n} } or { ratio, small, runtime } or
 *                      { overPeers: n } (n times the fastest peer: both ratios to the same
 *                      baseline in the same rounds, so their quotient)
 *   minRatioNote       what the ratio means, for reports
 */
export const OPERATIONS = [
  {
    id: 'validate',
    label: 'validate(bytes)',
    baseline: 'JSON.parse(string)',
    native: parseTextNatively,
    available: (c) => typeof c.validate === 'function',
    wasmjson: (c, doc) => {
      const b = doc.bytes;
      return () => c.validate(b);
    },
    check: (_doc, got) => (got === true ? null : `returned ${preview(got)}, expected true`),
    targets: { mbps: { simd128: 1500, swar64: 800 } },
  },
  {
    id: 'parse-string',
    label: 'parse(string)',
    baseline: 'JSON.parse(string)',
    native: parseTextNatively,
    available: (c) => typeof c.parse === 'function',
    wasmjson: (c, doc) => {
      const t = doc.text;
      return () => c.parse(t);
    },
    check: (doc, got) => deepEqual(doc.value, got),
    peerCheck: (doc, got) => deepEqual(doc.value, got, { prototypes: false }),
    targets: { ratio: 1.0, small: 0.8 },
  },
  {
    // Lossless integers: parse(string, { bigint: 'unsafe' }) against JSON.parse with a
    // reviver that makes the same BigInts from context.source (JSON.parse source text
    // access: the native way; engines without it skip this operation). Files without
    // such integers measure what the option costs.
    id: 'parse-bigint',
    label: "parse(string, { bigint: 'unsafe' })",
    baseline: 'JSON.parse(string, reviver with context.source)',
    native: (doc) => {
      const t = doc.text;
      return () => JSON.parse(t, bigintReviver);
    },
    available: (c) => typeof c.parse === 'function' && SOURCE_TEXT_ACCESS,
    unavailable: "this engine's JSON.parse has no source text access, which the baseline's reviver needs",
    wasmjson: (c, doc) => {
      const t = doc.text;
      const options = { bigint: 'unsafe' };
      return () => c.parse(t, options);
    },
    check: (doc, got) => deepEqual(bigintExpected(doc), got),
    peerCheck: (doc, got) => deepEqual(bigintExpected(doc), got, { prototypes: false }),
  },
  {
    // The checks for untrusted input that secure-json-parse makes by default (refuse
    // __proto__ keys and constructor.prototype), against plain native parsing: what the
    // checks cost. secure-json-parse (JSON.parse, a regex scan, then a walk when a key is
    // found) is the peer.
    id: 'parse-secure',
    label: "parse(string, { protoAction: 'error', constructorAction: 'error' })",
    baseline: 'JSON.parse(string)',
    native: parseTextNatively,
    available: (c) => typeof c.parse === 'function',
    wasmjson: (c, doc) => {
      const t = doc.text;
      const options = { protoAction: 'error', constructorAction: 'error' };
      return () => c.parse(t, options);
    },
    check: (doc, got) => deepEqual(doc.value, got),
    peerCheck: (doc, got) => deepEqual(doc.value, got, { prototypes: false }),
  },
  {
    id: 'parse-bytes',
    label: 'parse(bytes)',
    baseline: 'JSON.parse(TextDecoder(bytes))',
    native: (doc) => {
      const b = doc.bytes;
      return () => JSON.parse(utf8Decoder.decode(b));
    },
    available: (c) => typeof c.parse === 'function',
    wasmjson: (c, doc) => {
      const b = doc.bytes;
      return () => c.parse(b);
    },
    check: (doc, got) => deepEqual(doc.value, got),
    peerCheck: (doc, got) => deepEqual(doc.value, got, { prototypes: false }),
    targets: { ratio: 1.5, small: 0.8 },
  },
  {
    // The error path (issue #3): each document cut at 90% of its text, so it is invalid
    // (unterminated), parsed from a string until the SyntaxError. Native throws the same
    // message; MB/s counts the whole document, as for parse(string).
    id: 'parse-error',
    label: 'parse(string) error, cut at 90%',
    baseline: 'JSON.parse(string) throwing',
    native: (doc) => parseCut(doc, (t) => JSON.parse(t)),
    available: (c) => typeof c.parse === 'function',
    wasmjson: (c, doc) => parseCut(doc, (t) => c.parse(t)),
    check: (doc, got) => {
      let expected;
      try {
        JSON.parse(cutText(doc));
        return 'the cut document is valid JSON';
      } catch (e) {
        expected = e.message;
      }
      if (!(got instanceof SyntaxError)) return `returned ${preview(got)}, expected a SyntaxError`;
      return got.message === expected ? null : `message ${preview(got.message)}, expected ${preview(expected)}`;
    },
  },
  {
    // The wasm half of parse(bytes) alone: copy into linear memory + wj_parse (tokenize,
    // numbers, key ids, strings to UTF-16 -> tape), without building JS values. Measured
    // through the raw exports (createWasmStage); skipped when the host gives none.
    id: 'wasm-stage',
    label: 'wasm stage (bytes -> tape)',
    baseline: 'JSON.parse(string)',
    native: parseTextNatively,
    available: (_c, host) => !!host.stages,
    stage: 'parse',
    check: (_doc, got) => (got === 0 ? null : `wj_parse returned error code ${got}`),
    targets: { mbps: { simd128: 1500 } },
  },
  {
    id: 'stringify',
    label: 'stringify(value)',
    baseline: 'JSON.stringify(value)',
    native: (doc) => {
      const v = doc.value;
      return () => JSON.stringify(v);
    },
    available: (c) => typeof c.stringify === 'function',
    wasmjson: (c, doc) => {
      const v = doc.value;
      return () => c.stringify(v);
    },
    check: (doc, got) => stringDiff(doc.json, got),
    peerCheck: (doc, got) => {
      const d = stringDiff(doc.json, got);
      return d && !(typeof got === 'string' && sameValueAs(doc, got)) ? d : null;
    },
    // The issue sets Node 26's and Node 24's own targets (Node 24's JSON.stringify lacks
    // V8's newer fast path); other runtimes are held to Node 26's.
    targets: { ratio: 0.8, runtime: 'Node 26', nodeRatio: { 24: 1.0 } },
  },
  {
    id: 'encode',
    label: 'encode(value)',
    baseline: 'TextEncoder.encode(JSON.stringify(value))',
    native: (doc) => {
      const v = doc.value;
      return () => utf8Encoder.encode(JSON.stringify(v));
    },
    available: (c) => typeof c.encode === 'function',
    wasmjson: (c, doc) => {
      const v = doc.value;
      return () => c.encode(v);
    },
    check: (doc, got) => bytesDiff(doc.utf8, got),
    peerCheck: (doc, got) => {
      const d = bytesDiff(doc.utf8, got);
      return d && !(got instanceof Uint8Array && sameValueAs(doc, utf8Decoder.decode(got))) ? d : null;
    },
    targets: { ratio: 1.0, runtime: 'Node 26', nodeRatio: { 24: 1.5 } },
  },
  // Issue #4 asks for these two ratios to be reported (no target): JSON.stringify's
  // indented form, and the general path every value takes when a replacer function is
  // given (here one that changes nothing, so the output is the plain one).
  {
    id: 'stringify-space',
    label: 'stringify(value, null, 2)',
    baseline: 'JSON.stringify(value, null, 2)',
    native: (doc) => {
      const v = doc.value;
      return () => JSON.stringify(v, null, 2);
    },
    available: (c) => typeof c.stringify === 'function',
    wasmjson: (c, doc) => {
      const v = doc.value;
      return () => c.stringify(v, null, 2);
    },
    check: (doc, got) => stringDiff((doc._pretty ??= JSON.stringify(doc.value, null, 2)), got),
  },
  {
    id: 'stringify-replacer',
    label: 'stringify(value, replacer)',
    baseline: 'JSON.stringify(value, replacer)',
    native: (doc) => {
      const v = doc.value;
      return () => JSON.stringify(v, identityReplacer);
    },
    available: (c) => typeof c.stringify === 'function',
    wasmjson: (c, doc) => {
      const v = doc.value;
      return () => c.stringify(v, identityReplacer);
    },
    check: (doc, got) => stringDiff(doc.json, got),
  },
  {
    // RFC 8785 (JCS). The baseline is what one writes with native JSON today: parse, then
    // serialise with keys sorted by UTF-16 code units (jcs below); the result must be
    // that exact text.
    id: 'canonicalize',
    label: 'canonicalize(text)',
    baseline: 'jcs(JSON.parse(text)) (sorted-key JS writer)',
    // Issue #5: >= 3x the npm packages (canonicalize, json-canonicalize), here over
    // JSON.parse(text) as the baseline is.
    targets: { overPeers: 3 },
    native: (doc) => {
      const t = doc.text;
      return () => jcs(JSON.parse(t));
    },
    available: (c) => typeof c.canonicalize === 'function',
    wasmjson: (c, doc) => {
      const t = doc.text;
      return () => c.canonicalize(t);
    },
    check: (doc, got) => stringDiff((doc._jcs ??= jcs(doc.value)), got),
  },
  {
    // The same for a JS value (what the npm packages take): the walk runs getters and
    // toJSON as JSON.stringify does, so it cannot start from text.
    id: 'canonicalize-value',
    label: 'canonicalize(value)',
    baseline: 'jcs(value) (sorted-key JS writer)',
    targets: { overPeers: 3 },
    native: (doc) => {
      const v = doc.value;
      return () => jcs(v);
    },
    available: (c) => typeof c.canonicalize === 'function',
    wasmjson: (c, doc) => {
      const v = doc.value;
      return () => c.canonicalize(v);
    },
    check: (doc, got) => stringDiff((doc._jcs ??= jcs(doc.value)), got),
  },
  {
    // Not in the codec yet: runs as soon as codec.minify exists. Its output must parse to
    // the same value and have no whitespace outside strings (number spellings may be
    // kept as written, so it is not compared with JSON.stringify's text).
    id: 'minify',
    label: 'minify(text)',
    baseline: 'JSON.stringify(JSON.parse(text))',
    native: (doc) => {
      const t = doc.text;
      return () => JSON.stringify(JSON.parse(t));
    },
    available: (c) => typeof c.minify === 'function',
    wasmjson: (c, doc) => {
      const t = doc.text;
      return () => c.minify(t);
    },
    check: (doc, got) => {
      if (typeof got !== 'string') return `expected a string, got ${preview(got)}`;
      if (hasWhitespaceOutsideStrings(got)) return 'output has whitespace outside strings';
      return sameValueAs(doc, got) ? null : 'output does not parse to the same value';
    },
    targets: { mbps: { simd128: 1500 } },
  },
  {
    // Likewise for codec.prettify (default options): same value, spread over lines.
    id: 'prettify',
    label: 'prettify(text)',
    baseline: 'JSON.stringify(JSON.parse(text), null, 2)',
    native: (doc) => {
      const t = doc.text;
      return () => JSON.stringify(JSON.parse(t), null, 2);
    },
    available: (c) => typeof c.prettify === 'function',
    wasmjson: (c, doc) => {
      const t = doc.text;
      return () => c.prettify(t);
    },
    check: (doc, got) => {
      if (typeof got !== 'string') return `expected a string, got ${preview(got)}`;
      return sameValueAs(doc, got) ? null : 'output does not parse to the same value';
    },
    targets: { mbps: { simd128: 1000 } },
  },
  // The same two on bytes (bytes in, bytes out: #5 is about working on JSON bytes),
  // against decoding, parsing, serialising and encoding with native JSON. The output
  // is checked as the text forms are.
  {
    id: 'minify-bytes',
    label: 'minify(bytes)',
    baseline: 'TextEncoder(JSON.stringify(JSON.parse(TextDecoder(bytes))))',
    native: reformatBytesNatively(0),
    available: (c) => typeof c.minify === 'function',
    wasmjson: (c, doc) => {
      const b = doc.bytes;
      return () => c.minify(b);
    },
    check: (doc, got) => {
      if (!(got instanceof Uint8Array)) return `expected a Uint8Array, got ${preview(got)}`;
      const text = utf8Decoder.decode(got);
      if (hasWhitespaceOutsideStrings(text)) return 'output has whitespace outside strings';
      return sameValueAs(doc, text) ? null : 'output does not parse to the same value';
    },
    targets: { mbps: { simd128: 1500 } },
  },
  {
    id: 'prettify-bytes',
    label: 'prettify(bytes)',
    baseline: 'TextEncoder(JSON.stringify(JSON.parse(TextDecoder(bytes)), null, 2))',
    native: reformatBytesNatively(2),
    available: (c) => typeof c.prettify === 'function',
    wasmjson: (c, doc) => {
      const b = doc.bytes;
      return () => c.prettify(b);
    },
    check: (doc, got) => {
      if (!(got instanceof Uint8Array)) return `expected a Uint8Array, got ${preview(got)}`;
      return sameValueAs(doc, utf8Decoder.decode(got)) ? null : 'output does not parse to the same value';
    },
    targets: { mbps: { simd128: 1000 } },
  },
  // The same two in wasm alone, the output left in wasm memory: what minify(bytes) and
  // prettify(bytes) cost besides handing the output to JS in a buffer of its own (on a
  // machine where fresh memory is slow to fault in, that copy can cost as much).
  wasmReformatOperation('minify', 0),
  wasmReformatOperation('prettify', 2),
  // Issue #5: one deep field read on the bytes, without building the rest, against
  // parsing everything and walking to it. The field: the first leaf at the greatest
  // depth (deepPointer below).
  atOperation({ id: 'at', form: 'text', baseline: 'JSON.parse(text)', parseNative: (t) => JSON.parse(t) }),
  // The same read on bytes (a file or a network response as it arrives), against
  // decoding them and parsing everything, as parse(bytes) is measured. at(text) must
  // first encode the whole text to UTF-8 (twitter.json: about a third of its time).
  atOperation({
    id: 'at-bytes',
    form: 'bytes',
    baseline: 'JSON.parse(TextDecoder(bytes))',
    parseNative: (b) => JSON.parse(utf8Decoder.decode(b)),
  }),
  {
    // Issue #5: 1% of the leaves (every 100th in document order, at least one) read from
    // one lazy document, against parsing everything and walking to each.
    id: 'lazy-1pct',
    label: 'lazy(text): 1% of the fields',
    baseline: 'JSON.parse(text) + property access per field',
    native: (doc) => {
      const t = doc.text;
      const paths = (doc._sample ??= samplePointers(doc.value)).map(pointerPath);
      return () => {
        const v = JSON.parse(t);
        const out = [];
        for (const path of paths) out.push(walkPath(v, path));
        return out;
      };
    },
    available: (c) => typeof c.lazy === 'function',
    wasmjson: (c, doc) => {
      const t = doc.text;
      const pointers = (doc._sample ??= samplePointers(doc.value));
      return () => {
        const d = c.lazy(t);
        if (d === null || typeof d !== 'object') return pointers.map(() => d);
        const out = [];
        for (const p of pointers) {
          const v = d.at(p);
          // Empty containers are leaves too: they come back as lazy nodes.
          out.push(v !== null && typeof v === 'object' ? v.toJS() : v);
        }
        d.free();
        return out;
      };
    },
    check: (doc, got) => {
      const want = (doc._sample ??= samplePointers(doc.value)).map((p) => walkPath(doc.value, pointerPath(p)));
      return deepEqual(want, got);
    },
  },
];

// ---------------------------------------------------------------------------------------
// JSON Pointers for the at and lazy-1pct operations

function escapeToken(t) {
  return t.replace(/~/g, '~0').replace(/\//g, '~1');
}

export function pointerPath(pointer) {
  return pointer === '' ? [] : pointer.slice(1).split('/').map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

export function walkPath(v, path) {
  for (const t of path) {
    if (v === null || typeof v !== 'object' || !Object.prototype.hasOwnProperty.call(v, t)) return undefined;
    v = v[t];
  }
  return v;
}

/** Pointers to every leaf (primitive or empty container), in document order (iterative). */
function leafPointers(value, visit) {
  const stack = [[value, '', 0]];
  while (stack.length) {
    const [v, p, depth] = stack.pop();
    const kids = v !== null && typeof v === 'object' ? Object.keys(v) : [];
    if (!kids.length) {
      if (visit(p, depth) === false) return;
      continue;
    }
    for (let i = kids.length - 1; i >= 0; i--) stack.push([v[kids[i]], `${p}/${escapeToken(kids[i])}`, depth + 1]);
  }
}

/** The first leaf at the greatest depth. */
export function deepPointer(value) {
  let best = '';
  let bestDepth = -1;
  leafPointers(value, (p, depth) => {
    if (depth > bestDepth) {
      best = p;
      bestDepth = depth;
    }
  });
  return best;
}

/** Every 100th leaf, starting with the first. */
export function samplePointers(value) {
  const out = [];
  let i = 0;
  leafPointers(value, (p) => {
    if (i++ % 100 === 0) out.push(p);
  });
  return out;
}

export function operationById(id) {
  return OPERATIONS.find((o) => o.id === id);
}

// ---------------------------------------------------------------------------------------
// The wasm stage, through the module's raw exports (docs/BOUNDARY.md)

/**
 * An independent instance of a wasmjson .wasm module whose exports can be called
 * directly: `prepare(bytes, run)` returns a thunk copying the bytes in and running
 * wj_parse (run 'parse'), or wj_reformat to minify or prettify with an indent of two
 * spaces ('minify', 'prettify': the output stays in wasm memory), returning the error
 * code (0 = ok). Returns null when the module lacks the exports (the boundary changed):
 * the wasm-only operations are then skipped.
 */
export async function createWasmStage(module) {
  const imports = {};
  for (const imp of WebAssembly.Module.imports(module)) {
    if (imp.kind !== 'function') return null;
    (imports[imp.module] ??= {})[imp.name] = () => {};
  }
  const instance = await WebAssembly.instantiate(module, imports);
  const ex = instance.exports;
  for (const f of ['_initialize', 'wj_alloc', 'wj_padding', 'wj_parse', 'wj_reformat']) if (typeof ex[f] !== 'function') return null;
  if (!(ex.memory instanceof WebAssembly.Memory)) return null;
  ex._initialize();
  const padding = ex.wj_padding();
  const memory = ex.memory;
  let cap = 0;
  let ptr = 0;
  let u8 = new Uint8Array(0);
  let i32 = new Int32Array(0);
  const SKIP_BOM = 1;
  // The indent for prettify: two spaces, placed once.
  const indent = ex.wj_alloc(2) >>> 0;
  if (!indent) return null;
  new Uint8Array(memory.buffer).set([32, 32], indent);
  let lastReport = 0;
  const calls = {
    parse: (len) => ex.wj_parse(ptr, len, SKIP_BOM),
    minify: (len) => ex.wj_reformat(ptr, len, SKIP_BOM, indent, 0, 0),
    prettify: (len) => ex.wj_reformat(ptr, len, SKIP_BOM, indent, 2, 0),
  };
  return {
    prepare(bytes, run = 'parse') {
      const call = calls[run];
      if (bytes.length > cap) {
        if (ptr && typeof ex.wj_free === 'function') ex.wj_free(ptr);
        cap = bytes.length;
        ptr = ex.wj_alloc(cap + padding) >>> 0;
        if (!ptr) throw new Error('wasm stage: out of memory');
      }
      const len = bytes.length;
      return () => {
        // Views of memory that grew are detached, length 0 (memory.buffer, a getter, costs
        // 30 ns a call: a tenth of a 200-byte document's stage).
        if (u8.length === 0) u8 = new Uint8Array(memory.buffer);
        u8.set(bytes, ptr);
        const report = call(len) >>> 0;
        lastReport = report;
        if (i32.length === 0) i32 = new Int32Array(memory.buffer);
        return i32[report >>> 2];
      };
    },
    /** A copy of the last minify or prettify call's output (its report: code, offset, output, length). */
    lastOutput() {
      const words = new Int32Array(memory.buffer);
      const at = words[(lastReport >>> 2) + 2] >>> 0;
      return new Uint8Array(memory.buffer).slice(at, at + (words[(lastReport >>> 2) + 3] >>> 0));
    },
  };
}

// ---------------------------------------------------------------------------------------
// Timing

function timeBatch(fn, n, now) {
  const t0 = now();
  for (let i = 0; i < n; i++) fn();
  return (now() - t0) / n;
}

/** Iterations per batch so that a batch lasts at least minMs (also warms the JIT). */
function calibrate(fn, minMs, now) {
  let n = 1;
  for (;;) {
    const t0 = now();
    for (let i = 0; i < n; i++) fn();
    const elapsed = now() - t0;
    if (elapsed >= minMs || n >= 1 << 24) return { n, perCall: elapsed / n };
    const grow = elapsed > 0 ? Math.ceil((n * minMs * 1.2) / elapsed) : n * 10;
    n = Math.min(1 << 24, Math.max(n * 2, Math.min(n * 50, grow)));
  }
}

/**
 * Times impls interleaved. Returns per impl the ms per call of each round (null in
 * rounds it sat out: peers slower than 4 x minMs per call run only `slowRounds` rounds;
 * native and wasmjson run every round, whose ratios are the published ones).
 * With `settle` (a full GC), every batch starts from a collected heap: a batch pays for
 * the collections its own garbage causes, never for the garbage the batch before it
 * left (measured on Node 26: the median spread of ratios fell from 6% to 2%, the 90th
 * percentile from 49-63% to 7-8%).
 */
function race(impls, { rounds, minMs, now, slowRounds, settle }) {
  const cal = impls.map((im) => calibrate(im.fn, minMs, now));
  const samples = impls.map(() => []);
  for (let r = 0; r < rounds; r++) {
    for (let j = 0; j < impls.length; j++) {
      const i = (j + r) % impls.length;
      // The baseline (index 0) runs every round: each ratio needs native's time of that round.
      const slow = impls[i].kind === 'peer' && cal[i].perCall > 4 * minMs;
      if (slow && r >= slowRounds) {
        samples[i].push(null);
        continue;
      }
      settle?.();
      samples[i].push(timeBatch(impls[i].fn, cal[i].n, now));
    }
  }
  return samples;
}

/** One thunk for a whole item: a single document, or a loop over many. */
function batchFn(fns) {
  if (fns.length === 1) return fns[0];
  return () => {
    let last;
    for (let i = 0; i < fns.length; i++) last = fns[i]();
    return last;
  };
}

// ---------------------------------------------------------------------------------------
// Heap

/**
 * JS heap growth per call, measured with the host's probe { gc(), used(), gcBetween? }:
 * forced GC, then `keep` calls (cycling over the item's documents) with every result
 * held, then heap used again ("alloc": everything the calls allocated, valid only when
 * no GC ran meanwhile), then a forced GC with the results still held ("kept": what the
 * results retain: the heap growth a caller holding the results sees).
 */
function measureHeap(fns, bytes, heap, now) {
  const k = Math.max(1, Math.min(256, Math.floor(2e6 / Math.max(1, bytes))));
  const keep = new Array(k);
  heap.gc();
  const u0 = heap.used();
  const t0 = now();
  for (let i = 0; i < k; i++) keep[i] = fns[i % fns.length]();
  const t1 = now();
  const u1 = heap.used();
  heap.gc();
  const u2 = heap.used();
  keep.length = 0;
  const m = { calls: k, t0, t1, alloc: (u1.js - u0.js) / k, kept: (u2.js - u0.js) / k };
  if (u0.external !== undefined) m.keptExternal = (u2.external - u0.external) / k;
  return m;
}

// ---------------------------------------------------------------------------------------
// The run

/**
 * Runs the suite.
 *   items     corpus items (makeItem)
 *   codecs    { simd128: codec, swar64: codec } (any subset)
 *   host      { now(), heap?, settle?() (a full GC before each timing), stages?: { flavor: createWasmStage result },
 *               peers?: [{ name, version?, ops: { opId: (doc) => thunk } }],
 *               onProgress?(info), onFile?(fileResult), onMismatch?(m), onNote?(n),
 *               pause?() -> Promise (lets a browser paint) }
 *   options   { rounds, minMs, ops?: [ids], peers?: boolean, heap?: boolean, meta? }
 */
export async function runSuite(items, codecs, host, options = {}) {
  const rounds = options.rounds ?? DEFAULTS.rounds;
  const minMs = options.minMs ?? DEFAULTS.minMs;
  const slowRounds = Math.max(1, Math.min(3, Math.floor(rounds / 3)));
  const now = host.now;
  const flavors = Object.keys(codecs);
  const anyCodec = codecs[flavors[0]];
  const wantOps = options.ops ?? OPERATIONS.map((o) => o.id);
  const ops = [];
  const skipped = [];
  for (const id of wantOps) {
    const op = operationById(id);
    if (!op) throw new Error(`unknown operation '${id}' (known: ${OPERATIONS.map((o) => o.id).join(', ')})`);
    if (op.available(anyCodec, host)) ops.push(op);
    else skipped.push({ op: op.id, reason: op.unavailable ?? (op.stage ? 'no wasm stage runner' : `codec has no ${op.id}() yet`) });
  }
  const peers = options.peers === false ? [] : host.peers ?? [];
  const heap = options.heap === false ? null : host.heap ?? null;
  const results = {
    meta: {
      ...(options.meta ?? {}),
      date: new Date().toISOString(),
      rounds,
      minMs,
      warmUp: WARM_UP,
      flavors,
      operations: ops.map((o) => ({ id: o.id, label: o.label, baseline: o.baseline, targets: o.targets ?? null })),
      peers: peers.map((p) => ({ name: p.name, version: p.version ?? null, ops: Object.keys(p.ops) })),
      heap: heap ? heap.describe : null,
      smallDocBytes: SMALL_DOC_BYTES,
    },
    skipped,
    files: [],
    mismatches: [],
    notes: [],
  };
  const warmed = new Set();
  const note = (n) => {
    results.notes.push(n);
    host.onNote?.(n);
  };

  for (let fi = 0; fi < items.length; fi++) {
    const item = items[fi];
    const fileResult = { name: item.name, source: item.source, bytes: item.bytes, docs: item.docs.length, small: item.small, ops: {} };
    // Native must accept the file, or there is nothing to compare with.
    let nativeError = null;
    let k = 0;
    try {
      for (; k < item.docs.length; k++) void item.docs[k].value;
    } catch (e) {
      nativeError = e;
    }
    if (nativeError) {
      // (V8's position and line in the message are the document's own: a line's, in a file split by line.)
      fileResult.error = `JSON.parse rejects ${documentPlace(item, k) || 'it: '}${nativeError.message}`;
      note({ file: item.name, message: `skipped: ${fileResult.error}` });
      results.files.push(fileResult);
      await host.onFile?.(fileResult, fi, items.length);
      continue;
    }
    for (const op of ops) {
      await host.onProgress?.({ index: fi, total: items.length, file: item.name, op: op.label });
      const opResult = await runOp(op, item);
      if (opResult) fileResult.ops[op.id] = opResult;
      if (host.pause) await host.pause();
    }
    for (const d of item.docs) d.release();
    results.files.push(fileResult);
    await host.onFile?.(fileResult, fi, items.length);
  }
  results.summary = summarize(results, ops);
  return results;

  async function runOp(op, item) {
    // Implementations: native first, then wasmjson per flavor, then peers.
    const impls = [{ name: 'native', kind: 'native', fns: item.docs.map((d) => op.native(d)) }];
    for (const flavor of flavors) {
      if (op.stage) {
        const stage = host.stages?.[flavor];
        if (stage) impls.push({ name: flavor, kind: 'wasmjson', flavor, stage, fns: item.docs.map((d) => stage.prepare(d.bytes, op.stage)) });
      } else {
        impls.push({ name: flavor, kind: 'wasmjson', flavor, fns: item.docs.map((d) => op.wasmjson(codecs[flavor], d)) });
      }
    }
    for (const p of peers) {
      const make = p.ops[op.id];
      if (make) impls.push({ name: p.name, kind: 'peer', fns: item.docs.map((d) => make(d)) });
    }

    // 1. Correctness before timing.
    const ok = [];
    const excluded = [];
    for (const im of impls) {
      if (im.kind === 'native') {
        ok.push(im);
        continue;
      }
      const check = im.kind === 'peer' ? op.peerCheck ?? op.check : op.check;
      let problem = null;
      for (let i = 0; i < item.docs.length && !problem; i++) {
        try {
          const got = im.fns[i]();
          // (Minify and prettify leave their output in wasm memory: a copy for the check.)
          problem = check(item.docs[i], got, im.stage && op.stage !== 'parse' ? im.stage.lastOutput() : undefined);
        } catch (e) {
          problem = `threw ${e?.name ?? 'error'}: ${e?.message ?? e}`;
        }
        if (problem) problem = documentPlace(item, i) + problem;
      }
      if (!problem) {
        ok.push(im);
        continue;
      }
      excluded.push({ impl: im.name, reason: problem });
      if (im.kind === 'wasmjson') {
        const m = { file: item.name, op: op.id, label: op.label, impl: im.name, message: problem };
        results.mismatches.push(m);
        await host.onMismatch?.(m);
      } else {
        note({ file: item.name, op: op.id, impl: im.name, message: `excluded (${problem})` });
      }
    }
    if (ok.length < 2) return { baseline: op.baseline, excluded, impls: {} };

    // 2-3. Timing, interleaved, each batch from a collected heap: garbage left by the
    // operations or batches before (whole-document outputs, lazy documents) is not
    // charged to this one. (Each side's own garbage is collected inside its batches as
    // usual.)
    for (const im of ok) im.fn = batchFn(im.fns);
    // Each implementation's first file of an operation also warms its code up (JIT
    // tiers, wasm tier-up): without it the first file's early rounds timed cold code
    // (parse(bytes) of the first file measured 0.6x, warm 1.4x, Node 26). So does every
    // item of small documents: thousands of calls a batch run paths the large files
    // before them never took (short-string copies, small-object builds), and the
    // engine re-optimizes them only after a while. Unwarmed, Chromium timed
    // parse(string) of gen:doc-200B.json at 0.27-0.34x after any large file and at
    // 0.72-0.77x alone, and again at 0.81x once warmed after the large file.
    for (const im of ok) {
      const key = `${op.id}\u0000${im.name}`;
      if (warmed.has(key) && !item.small) continue;
      warmed.add(key);
      const t0 = now();
      for (let calls = 0; calls < WARM_UP.calls || now() - t0 < WARM_UP.ms; calls++) im.fn();
    }
    host.settle?.();
    const samples = race(ok, { rounds, minMs, now, slowRounds, settle: host.settle });
    const nat = samples[0];
    const mb = item.bytes / 1e3; // MB/s = bytes / 1e6 / (ms / 1e3)
    const out = { baseline: op.baseline, excluded, impls: {} };
    ok.forEach((im, i) => {
      const s = samples[i];
      const ms = s.filter((x) => x !== null);
      const r = { kind: im.kind, mbps: mb / median(ms), rounds: ms.length };
      if (im.flavor) r.flavor = im.flavor;
      if (im.kind !== 'native') {
        const ratios = s.map((x, k) => (x === null ? null : nat[k] / x)).filter((x) => x !== null);
        r.ratio = median(ratios);
        r.spread = relativeSpread(ratios);
      } else {
        r.spread = relativeSpread(ms.map((x) => mb / x));
      }
      out.impls[im.name] = r;
    });

    // 4. Heap, for native and wasmjson (after timing: the JIT state is the one timed).
    if (heap) {
      const measured = ok.filter((im) => im.kind !== 'peer');
      const ms = measured.map((im) => measureHeap(im.fns, item.bytes / item.docs.length, heap, now));
      const gcRanIn = heap.gcWindows ? await heap.gcWindows() : null;
      measured.forEach((im, i) => {
        const m = ms[i];
        const ranGc = gcRanIn ? gcRanIn(m.t0, m.t1) : false;
        out.impls[im.name].heap = {
          calls: m.calls,
          kept: m.kept,
          alloc: ranGc || m.alloc < 0 ? null : m.alloc,
          ...(m.keptExternal !== undefined ? { keptExternal: m.keptExternal } : {}),
        };
      });
    }
    return out;
  }
}

/** Geomeans per operation and implementation, regular files and small docs apart, with targets. */
export function summarize(results, ops) {
  const summary = [];
  const rt = results.meta?.runtime;
  const nodeMajor = rt?.name === 'node' ? Number(String(rt.version).replace(/^v/, '').split('.')[0]) : undefined;
  for (const op of ops) {
    const names = new Set();
    for (const f of results.files) for (const n of Object.keys(f.ops[op.id]?.impls ?? {})) names.add(n);
    for (const name of names) {
      if (name === 'native') continue;
      for (const group of ['all', 'small']) {
        const files = results.files.filter((f) => !f.error && (group === 'small' ? f.small : !f.small) && f.ops[op.id]);
        const rows = files.map((f) => f.ops[op.id].impls[name]).filter(Boolean);
        if (!rows.length) continue;
        const first = rows[0];
        const entry = {
          op: op.id,
          label: op.label,
          impl: name,
          kind: first.kind,
          group: group === 'small' ? 'small docs' : 'files',
          // (The rows the geomeans take: one without a ratio, or a zero one, is left out.)
          files: rows.filter((r) => r.ratio > 0 && Number.isFinite(r.ratio)).length,
          of: files.length,
          mbps: geomean(rows.map((r) => r.mbps)),
          ratio: geomean(rows.map((r) => r.ratio)),
          nativeMbps: geomean(files.map((f) => f.ops[op.id].impls.native?.mbps).filter(Boolean)),
        };
        if (first.kind === 'wasmjson' && op.targets) {
          const t = op.targets;
          if (group === 'all' && t.mbps?.[name] !== undefined) entry.target = { mbps: t.mbps[name] };
          if (group === 'all' && t.ratio !== undefined) {
            const own = nodeMajor !== undefined ? t.nodeRatio?.[nodeMajor] : undefined;
            entry.target = own !== undefined ? { ratio: own, runtime: `Node ${nodeMajor}` } : { ratio: t.ratio, runtime: t.runtime };
          }
          if (group === 'small' && t.small !== undefined) entry.target = { ratio: t.small };
          if (entry.target) {
            entry.met = entry.target.mbps !== undefined ? entry.mbps >= entry.target.mbps : entry.ratio >= entry.target.ratio;
          }
        }
        summary.push(entry);
      }
    }
    if (op.targets?.overPeers !== undefined) overPeers(summary.filter((e) => e.op === op.id), op.targets.overPeers);
  }
  return summary;
}

/**
 * A target of n times the fastest peer (op.targets.overPeers), on the entries of one
 * operation: each wasmjson entry of regular files gets target { overPeers: n, peer },
 * overPeers (its ratio over that peer's) and met. Nothing when no peer ran.
 */
function overPeers(entries, n) {
  const peers = entries.filter((e) => e.group === 'files' && e.kind !== 'wasmjson' && e.ratio > 0);
  if (!peers.length) return;
  const fastest = peers.reduce((a, b) => (b.ratio > a.ratio ? b : a));
  for (const e of entries) {
    if (e.group !== 'files' || e.kind !== 'wasmjson') continue;
    e.target = { overPeers: n, peer: fastest.impl };
    e.overPeers = e.ratio / fastest.ratio;
    e.met = e.overPeers >= n;
  }
}

/** Parses an --ops / --flavors list ("a,b"), checking names. */
export function parseList(value, known, what) {
  const list = String(value)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const x of list) if (!known.includes(x)) throw new Error(`unknown ${what} '${x}' (known: ${known.join(', ')})`);
  return list;
}
