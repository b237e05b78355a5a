// Randomized reentrancy cases, shared by tests/reentrancy.mjs (long runs on demand) and
// tests/js/reentrancy.test.ts (a seeded few in CI, Node and Chromium). The library's
// promise: a reviver, replacer, toJSON, getter, valueOf or toString may call back into
// the library, and nothing shared (wasm memory and its views, scratch buffers, key
// caches, write sessions, lazy documents) is clobbered by it.
//
// A case is one outer call that runs user code: parse with a reviver, with an options
// object whose getters run (one of them may shrink or detach the input's buffer first),
// or of an object whose toString gives the text; stringify/encode/canonicalize of a
// value with toJSON methods, getters, Dates whose toISOString gives a value, boxed
// primitives and proxies planted in it (with a replacer function, or a replacer list
// whose elements are getters, and a space that is a boxed number or string); validate
// or prettify with options getters; LazyNode.get with a key whose toString runs; and
// iterating a LazyNode. Inside that user code, at random moments, nested calls of any
// API function run (plain ones, and ones that take callbacks of their own, down to
// depth 3) on random documents: mostly small, sometimes medium (2.5K-90K units, where
// strings take other routes), in one case of LARGE_EVERY a large one (1-8 MB: on a
// fresh codec, so wasm memory grows in the middle of the outer call), a quarter of
// them invalid (so nested calls throw and the callback catches). Now and then a
// callback throws instead, its own error or a nested call's, which the outer call must
// pass on. Lazy documents made before the outer call, or by nested calls, are
// navigated and freed from inside the callbacks (also the one a LazyNode.get or an
// iteration is working on).
//
// Every call, outer or nested, is checked against an expectation made without the
// library: referenceParse (not JSON.parse, see reference-parse.ts), a reviver walk over
// an independent parse that keeps source texts, JSON.stringify with the same callbacks
// (which return the same values whether or not they nest), TextEncoder, the `canonicalize`
// package, checkedParse, evaluatePointer, and a token model of minify and prettify. The
// callbacks log what they are called with; the library's log must equal the native
// one (proxy traps aside: stringify causes traps JSON.stringify does not, README).
//
// No node: imports: the spec runs this in the browser too.
import canonicalizePackage from 'canonicalize';
import { canonicalizable } from './canonical-form.ts';
import { checkedParse, compareWithModel, type Policy } from './checked-parse.ts';
import { evaluatePointer, INVALID_POINTER, pointerToken } from './json-pointer.ts';
import { jsonTokens, layoutOf } from './layout-model.ts';
import { jsonDiff, mutate, randomDocument, Rng } from './random-json.ts';
import { referenceParse } from './reference-parse.ts';

/** Nested calls go this deep (the outer call is depth 0). */
const MAX_DEPTH = 3;
/** Every LARGE_EVERY-th case has one nested call on a 1-8 MB document (see isLargeCase). */
export const LARGE_EVERY = 50;
/** The chance that a callback makes nested calls (while the case's budget lasts). */
const NEST_CHANCE = 0.3;

const utf8 = new TextEncoder();

/** Whether case n (from 1) has a large document: the driver gives it fresh codecs first. */
export function isLargeCase(n: number): boolean {
  return n % LARGE_EVERY === 0;
}

export interface Counts {
  /** Outer calls (one per case and flavor). */
  outer: number;
  /** Nested calls made from callbacks. */
  nested: number;
  /** Comparisons with an expectation. */
  checks: number;
  /** Nested calls on a large document (1-8 MB). */
  large: number;
}

/** What a case runs against: one codec, and the LazyNode class of its build. */
export interface CaseEnv {
  codec: any;
  LazyNode: any;
}

/** A disagreement with the expectation; its message says where and what. */
export class Mismatch extends Error {}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/** An expected outcome: a value, or an error of a class, that error itself, or a message. */
type Want = { value: unknown } | { throws: (new (...args: any[]) => Error) | Error | RegExp };

// -----------------------------------------------------------------------------------
// Expectations made without the library
// -----------------------------------------------------------------------------------

/** Arrays made by repeating one value (large documents): compared at sampled elements. */
const repeatedArrays = new WeakSet<unknown[]>();

/** '' when got is want (jsonDiff: types, key order, prototypes, attributes), else how not. */
function differs(got: unknown, want: unknown): string {
  if (want instanceof Uint8Array) {
    if (!(got instanceof Uint8Array)) return `got ${describe(got)}, want bytes`;
    if (got.length !== want.length) return `${got.length} bytes, want ${want.length}`;
    for (let i = 0; i < got.length; i++) if (got[i] !== want[i]) return `byte ${i} differs`;
    return '';
  }
  if (Array.isArray(want) && repeatedArrays.has(want)) {
    if (!Array.isArray(got)) return `got ${describe(got)}, want an array`;
    if (got.length !== want.length) return `length ${got.length}, want ${want.length}`;
    if (Object.getPrototypeOf(got) !== Array.prototype) return 'prototype';
    const n = want.length;
    for (const i of [0, 1, n >> 1, n - 2, n - 1, (n * 7) >> 3, (n * 3) >> 4]) {
      if (i < 0 || i >= n) continue;
      const d = jsonDiff(got[i], want[i]);
      if (d) return `element ${i}: ${d}`;
    }
    return '';
  }
  return jsonDiff(got, want);
}

/** A value for messages, shortened. */
function describe(v: unknown): string {
  if (v instanceof Error) return `${v.constructor.name}: ${v.message.slice(0, 300)}`;
  if (v instanceof Uint8Array) return `bytes ${JSON.stringify(new TextDecoder().decode(v.subarray(0, 600)))}`;
  if (typeof v === 'number' && Object.is(v, -0)) return '-0';
  if (typeof v === 'bigint') return `${v}n`;
  try {
    const s = JSON.stringify(v);
    return s === undefined ? String(v) : s.slice(0, 600);
  } catch {
    return String(v);
  }
}

/** canonicalize()'s expected outcome for a JSON value: the package's text, or a TypeError. */
function canonicalWant(value: unknown, asBytes: boolean): Want {
  if (!canonicalizable(value)) return { throws: TypeError };
  const text = canonicalizePackage(value) as string;
  return { value: asBytes ? utf8.encode(text) : text };
}

/** minify's text ('' gap) or prettify's of valid JSON text (layout-model.ts). */
function layout(text: string, gap: string): string {
  return layoutOf(jsonTokens(text), gap);
}

/** JSON.stringify's gap for a space that is already a primitive (prettify: undefined is 2). */
function gapOf(space: unknown): string {
  if (typeof space === 'number') {
    const n = Math.min(10, Math.trunc(space) || 0);
    return n >= 1 ? ' '.repeat(n) : '';
  }
  return typeof space === 'string' ? space.slice(0, 10) : '';
}

const JSON_WS = ' \t\n\r';

/**
 * Valid JSON text's value, and beside it the source text of each primitive (what a
 * reviver's context.source holds): a string for a primitive, an array of those for an
 * array, a Map by key (the last of duplicates) for an object. Checked against
 * referenceParse by the caller.
 */
function parseWithSources(text: string): { value: unknown; sources: unknown } {
  let i = 0;
  const SCALAR = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?|true|false|null/y;
  const skip = () => {
    while (i < text.length && JSON_WS.includes(text[i])) i++;
  };
  const stringAt = (): string => {
    const start = i;
    i++;
    while (text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    i++;
    return text.slice(start, i);
  };
  const read = (): { value: unknown; sources: unknown } => {
    skip();
    if (text[i] === '[') {
      i++;
      const value: unknown[] = [];
      const sources: unknown[] = [];
      skip();
      if (text[i] === ']') {
        i++;
        return { value, sources };
      }
      for (;;) {
        const element = read();
        value.push(element.value);
        sources.push(element.sources);
        skip();
        if (text[i++] === ']') return { value, sources };
      }
    }
    if (text[i] === '{') {
      i++;
      const value: Record<string, unknown> = {};
      const sources = new Map<string, unknown>();
      skip();
      if (text[i] === '}') {
        i++;
        return { value, sources };
      }
      for (;;) {
        skip();
        const key = JSON.parse(stringAt()) as string;
        skip();
        i++; // ':'
        const member = read();
        Object.defineProperty(value, key, { value: member.value, writable: true, enumerable: true, configurable: true });
        sources.set(key, member.sources);
        skip();
        if (text[i++] === '}') return { value, sources };
      }
    }
    if (text[i] === '"') {
      const literal = stringAt();
      return { value: JSON.parse(literal), sources: literal };
    }
    SCALAR.lastIndex = i;
    const m = SCALAR.exec(text)!;
    i += m[0].length;
    const t = m[0];
    return { value: t === 'true' ? true : t === 'false' ? false : t === 'null' ? null : Number(t), sources: t };
  };
  return read();
}

type ReviverFn = (this: unknown, key: string, value: unknown, context: { source?: string }) => unknown;

/**
 * JSON.parse's reviver walk (InternalizeJSONProperty) over a parsed value and its
 * sources: children first, in key order; undefined deletes. The revivers here never
 * change a value before it is visited, so every primitive has its source.
 */
function reviveModel(value: unknown, sources: unknown, reviver: ReviverFn): unknown {
  const walk = (holder: any, key: string, source: unknown): unknown => {
    const v = holder[key];
    if (v !== null && typeof v === 'object') {
      const keys = Array.isArray(v) ? Array.from({ length: v.length }, (_, i) => String(i)) : Object.keys(v);
      for (const k of keys) {
        const childSource = Array.isArray(source) ? source[Number(k)] : source instanceof Map ? source.get(k) : undefined;
        const revived = walk(v, k, childSource);
        if (revived === undefined) delete v[k];
        else Object.defineProperty(v, k, { value: revived, writable: true, enumerable: true, configurable: true });
      }
    }
    const context = (v === null || typeof v !== 'object') && typeof source === 'string' ? { source } : {};
    return reviver.call(holder, key, v, context);
  };
  const root = {};
  Object.defineProperty(root, '', { value, writable: true, enumerable: true, configurable: true });
  return walk(root, '', sources);
}

/** A key or index of a container value, or one it does not have. */
function pickKey(rng: Rng, v: any): string {
  const keys = Array.isArray(v) ? [] : Object.keys(v);
  const n = Array.isArray(v) ? v.length : keys.length;
  if (n === 0 || rng.chance(0.15)) return rng.pick(Array.isArray(v) ? [String(n), '-1', '01', 'x', '4294967295'] : ['missing', '', '__proto__', 'toString', 'length']);
  const i = rng.int(n);
  return Array.isArray(v) ? String(i) : keys[i];
}

/** The value under key k of a container, as JSON's own properties have it. */
function childOf(v: any, k: string): unknown {
  if (Array.isArray(v)) return /^(0|[1-9][0-9]*)$/.test(k) && Number(k) < v.length ? v[Number(k)] : undefined;
  return Object.hasOwn(v, k) ? v[k] : undefined;
}

/** A JSON Pointer into v: mostly to a value it has, sometimes past one, sometimes invalid. */
function randomPointer(rng: Rng, v: unknown): string {
  if (rng.chance(0.06)) return rng.pick(['a', 'x/y', '/~2', '/a~', '/~']);
  let pointer = '';
  let at: any = v;
  while (at !== null && typeof at === 'object' && rng.chance(0.75)) {
    const k = pickKey(rng, at);
    pointer += '/' + pointerToken(k);
    at = childOf(at, k);
  }
  if (rng.chance(0.1)) pointer += '/' + rng.pick(['-', '0', 'missing', '']);
  return pointer;
}

/** A document for a call: its text, and what parse makes of it (from the string or its UTF-8). */
class Doc {
  readonly text: string;
  /** What parse makes of it when known beforehand (repeated documents); else referenceParse's. */
  private readonly known: Outcome | undefined;
  private models: (Outcome | undefined)[] = [undefined, undefined];
  private utf8Bytes: Uint8Array | undefined;
  readonly size: 'small' | 'medium' | 'large';
  constructor(text: string, size: 'small' | 'medium' | 'large', known?: Outcome) {
    this.text = text;
    this.size = size;
    this.known = known;
  }
  /** The text parse reads from bytes: TextDecoder's, one BOM skipped. */
  textOf(fromBytes: boolean): string {
    return fromBytes && this.text.startsWith('\ufeff') ? this.text.slice(1) : this.text;
  }
  /** What parse gives (from the string, or from its UTF-8): the value, or not JSON. */
  model(fromBytes = false): Outcome {
    const k = fromBytes ? 1 : 0;
    if (this.models[k] === undefined) {
      if (this.known !== undefined) {
        this.models[k] = this.known;
      } else {
        try {
          this.models[k] = { ok: true, value: referenceParse(this.textOf(fromBytes)) };
        } catch (error) {
          if (!(error instanceof SyntaxError)) throw error;
          this.models[k] = { ok: false, error };
        }
      }
    }
    return this.models[k]!;
  }
  get valid(): boolean {
    return this.model().ok;
  }
  value(fromBytes = false): unknown {
    return (this.model(fromBytes) as { value: unknown }).value;
  }
  /** Its UTF-8, or undefined when the text holds a lone surrogate (TextEncoder would replace it). */
  bytes(): Uint8Array | undefined {
    if (!this.text.isWellFormed()) return undefined;
    return (this.utf8Bytes ??= utf8.encode(this.text));
  }
  /** The text, shortened for messages. */
  shown(): string {
    const t = JSON.stringify(this.text);
    return t.length > 2000 ? `${t.slice(0, 2000)}... (${this.text.length} units)` : t;
  }
}

/** A lazy document made outside the call that uses it: before the outer call, or by a nested one. */
interface Pooled {
  node: any;
  doc: Doc;
  fromBytes: boolean;
  freed: boolean;
}

/** One callback-taking call in progress: where its callbacks log, and when one throws. */
interface CallbackOp {
  depth: number;
  log: unknown[];
  calls: number;
  /**
   * The call number (from 1) at which a callback throws (0: none does): `boom` when
   * the expectation replays it, and in the library's call either `boom` or the error of
   * a nested call that failed, let through (`thrown`).
   */
  boomAt: number;
  boom: Error;
  thrown: unknown;
}

/** A value as logs record it: primitives as they are, objects by kind. */
function logged(v: unknown): unknown {
  if (v === undefined) return '<undefined>';
  if (typeof v === 'function') return '<function>';
  if (v !== null && typeof v === 'object') return Array.isArray(v) ? '<array>' : '<object>';
  return v;
}

// Pure functions the callbacks return values by (a reviver's and a replacer's), named for messages.
const REVIVERS: [string, (key: string, value: any, context: { source?: string }) => unknown][] = [
  ['identity', (_k, v) => v],
  ['negate numbers', (_k, v) => (typeof v === 'number' ? -v : v)],
  ['drop keys a, 1, id', (k, v) => (k === 'a' || k === '1' || k === 'id' ? undefined : v)],
  ['primitives to their source', (_k, v, c) => c.source ?? v],
  ['tag strings with their key', (k, v) => (typeof v === 'string' ? `${k}=${v}` : v)],
  ['fold containers', (k, v) => (Array.isArray(v) ? (v.length > 2 ? v.length : v) : v !== null && typeof v === 'object' && k.length === 1 ? Object.keys(v).join('|') : v)],
];
const REPLACERS: [string, (key: string, value: any) => unknown][] = [
  ['identity', (_k, v) => v],
  ['double numbers', (_k, v) => (typeof v === 'number' ? v * 2 : v)],
  ['drop keys a, 1, x', (k, v) => (k === 'a' || k === '1' || k === 'x' ? undefined : v)],
  ['tag strings with their key', (k, v) => (typeof v === 'string' ? `${k}:${v}` : v)],
  ['arrays to their length', (k, v) => (Array.isArray(v) && k !== '' ? v.length : v)],
];
const SPACES: unknown[] = [undefined, undefined, 2, '\t', 0, 11, ' - ', 'é', null];
const INDENTS: unknown[] = [undefined, 2, 4, '\t', '', 0, 11, ' - ', 'é', null];

// -----------------------------------------------------------------------------------
// A case
// -----------------------------------------------------------------------------------

class Case {
  private readonly rng: Rng;
  private readonly codec: any;
  private readonly LazyNode: any;
  private readonly counts: Counts;
  /** Off while an expectation replays the callbacks: they then make no nested calls. */
  private nesting = true;
  /** Nested calls left to this case. */
  private budget: number;
  /** The large document, for the first nested call (then gone), in a large case. */
  private largePending: boolean;
  /** What is in progress, outermost first (for messages). */
  private readonly trace: string[] = [];
  private readonly pool: Pooled[] = [];
  /** The first mismatch, also when a library call swallowed it. */
  failure: Mismatch | undefined;

  constructor(env: CaseEnv, seed: number, large: boolean, counts: Counts) {
    this.rng = new Rng(seed);
    this.codec = env.codec;
    this.LazyNode = env.LazyNode;
    this.counts = counts;
    this.budget = this.rng.range(3, 16);
    this.largePending = large;
  }

  run(): void {
    try {
      // Lazy documents made before the outer call starts, used from inside it.
      for (let i = this.rng.int(3); i > 0; i--) this.poolAdd(this.containerDoc(), 0);
      this.counts.outer++;
      this.callbackOp(0);
    } finally {
      for (const p of this.pool) if (!p.freed) p.node.free();
    }
    if (this.failure) throw this.failure;
  }

  // --- plumbing -------------------------------------------------------------------

  private fail(label: string, input: string, detail: string): never {
    const where = this.trace.length > 0 ? this.trace.map((t, i) => `${'  '.repeat(i)}${t}`).join('\n    ') : '(outer call)';
    const e = new Mismatch(`${label}\n  in: ${where}\n  input: ${input}\n  ${detail}`);
    this.failure ??= e;
    throw e;
  }

  /** Runs a library call; a Mismatch from a nested check goes on up (it is never an outcome). */
  private attempt(f: () => unknown): Outcome {
    try {
      return { ok: true, value: f() };
    } catch (error) {
      if (error instanceof Mismatch) throw error;
      return { ok: false, error };
    }
  }

  private expect(label: string, input: string, got: Outcome, want: Want): void {
    this.counts.checks++;
    if ('value' in want) {
      if (!got.ok) this.fail(label, input, `threw ${describe(got.error)}\n  want: ${describe(want.value)}`);
      const d = differs(got.value, want.value);
      if (d) this.fail(label, input, `differs: ${d}\n  got:  ${describe(got.value)}\n  want: ${describe(want.value)}`);
      return;
    }
    const t = want.throws;
    const name = t instanceof RegExp ? `an error matching ${t}` : t instanceof Error ? `the callback's own ${describe(t)}` : `a ${t.name}`;
    if (got.ok) this.fail(label, input, `returned ${describe(got.value)}\n  want: ${name}`);
    const e = got.error;
    const right = t instanceof RegExp ? e instanceof Error && !(e instanceof SyntaxError) && t.test(e.message) : t instanceof Error ? e === t : e instanceof t;
    if (!right) this.fail(label, input, `threw ${describe(e)}\n  want: ${name}`);
  }

  /** The callbacks' log against the native one; `outcome`, the call's, for the message. */
  private expectLog(label: string, input: string, got: unknown[], want: unknown[], outcome?: Outcome): void {
    this.counts.checks++;
    const d = jsonDiff(got, want);
    if (!d) return;
    const result = outcome === undefined ? '' : `\n  the call ${outcome.ok ? `returned ${describe(outcome.value)}` : `threw ${describe(outcome.error)}`}`;
    this.fail(`${label}: the callbacks were called otherwise`, input, `${d}${result}\n  got:  ${describe(got)}\n  want: ${describe(want)}`);
  }

  /** Runs f with nested calls off (an expectation replaying the callbacks). */
  private quiet<T>(f: () => T): T {
    const was = this.nesting;
    this.nesting = false;
    try {
      return f();
    } finally {
      this.nesting = was;
    }
  }

  private step<T>(what: string, f: () => T): T {
    this.trace.push(what);
    try {
      return f();
    } finally {
      this.trace.pop();
    }
  }

  /** What a callback of `op` does besides returning its value: log, maybe throw, maybe nest. */
  private callback(op: CallbackOp, entry: unknown[]): void {
    op.log.push(entry);
    const where = `@${entry.map((x) => describe(x)).join(' ')}`;
    if (++op.calls === op.boomAt) {
      op.thrown = this.nesting && this.rng.chance(0.5) ? this.step(where, () => this.nestedFailure()) : op.boom;
      throw op.thrown;
    }
    this.nest(op.depth, where);
  }

  private newOp(depth: number, boom: boolean): CallbackOp {
    return { depth, log: [], calls: 0, boomAt: boom && this.rng.chance(0.08) ? this.rng.range(1, 12) : 0, boom: new Error('boom from a callback'), thrown: undefined };
  }

  /** Before each run of op's callbacks (the replay, the library's call): afresh, to a new log. */
  private restart(op: CallbackOp): void {
    op.log = [];
    op.calls = 0;
    op.thrown = undefined;
  }

  /**
   * What the library's call of `op` must throw where the replay threw op.boom: the
   * error its callback threw (op.boom, or a nested call's).
   */
  private thrownBy(op: CallbackOp, want: Want): Want {
    return 'throws' in want && want.throws === op.boom && op.thrown !== undefined ? { throws: op.thrown as Error } : want;
  }

  /**
   * A nested call that fails (its error checked), whose error the callback then lets
   * through to the outer call.
   */
  private nestedFailure(): unknown {
    this.counts.nested++;
    const calls: [string, () => unknown, new (...args: any[]) => Error][] = [
      ['parse("[1,")', () => this.codec.parse('[1,'), SyntaxError],
      ['stringify({ n: 1n })', () => this.codec.stringify({ n: 1n }), TypeError],
      ['canonicalize({ x: NaN })', () => this.codec.canonicalize({ x: NaN }), TypeError],
      ["at('{}', 'x')", () => this.codec.at('{}', 'x'), SyntaxError],
      ['prettify(bytes of "{")', () => this.codec.prettify(utf8.encode('{')), SyntaxError],
      ['lazy("[1,2").toJS()', () => this.codec.lazy('[1,2').toJS(), SyntaxError],
    ];
    const [what, call, Kind] = this.rng.pick(calls);
    return this.step(`${what}, its error let through`, () => {
      const got = this.attempt(call);
      this.expect(what, what, got, { throws: Kind });
      return (got as { error: unknown }).error;
    });
  }

  /** From a callback at `depth`: nested calls, at random (always the first in a large case). */
  private nest(depth: number, where: string): void {
    if (!this.nesting || depth >= MAX_DEPTH || this.budget <= 0) return;
    if (!this.largePending && !this.rng.chance(NEST_CHANCE)) return;
    this.step(where, () => {
      for (let n = this.rng.range(1, 2); n > 0 && this.budget > 0; n--) {
        this.budget--;
        this.counts.nested++;
        this.nestedCall(depth + 1);
      }
    });
  }

  // --- documents ------------------------------------------------------------------

  private smallText(): string {
    return randomDocument(this.rng).text;
  }

  /** A document for a nested call: small or medium, a quarter of them invalid; the large one when due. */
  private nestedDoc(): Doc {
    if (this.largePending) {
      this.largePending = false;
      return this.largeDoc();
    }
    const doc = this.rng.chance(0.15) ? this.mediumDoc() : new Doc(this.smallText(), 'small');
    return this.rng.chance(0.25) ? new Doc(mutate(this.rng, doc.text), doc.size) : doc;
  }

  /** A valid document whose value is an object or an array. */
  private containerDoc(): Doc {
    for (;;) {
      const doc = this.rng.chance(0.15) ? this.mediumDoc() : new Doc(this.smallText(), 'small');
      const v = doc.value();
      if (v !== null && typeof v === 'object') return doc;
    }
  }

  /** A small document, a fifth of them invalid. */
  private anyDoc(): Doc {
    const text = this.smallText();
    return new Doc(this.rng.chance(0.2) ? mutate(this.rng, text) : text, 'small');
  }

  /** An array of one small document repeated to 2,500-90,000 units. */
  private mediumDoc(): Doc {
    return this.repeatedDoc(this.rng.range(2500, 90_000), 'medium');
  }

  /** An array of one document repeated to 1-8 MB (UTF-16 units): valid, or cut short. */
  private largeDoc(): Doc {
    const doc = this.repeatedDoc(this.rng.range(1, 8) * 1024 * 1024, 'large');
    // (Cut short, it is invalid: no need to parse 8 MB in JS to know.)
    return this.rng.chance(0.2) ? new Doc(doc.text.slice(0, -1), 'large', { ok: false, error: undefined }) : doc;
  }

  private repeatedDoc(units: number, size: 'medium' | 'large'): Doc {
    let unit: string;
    do unit = this.smallText();
    while (unit.length < 40 || unit.length > 20_000);
    const count = Math.max(2, Math.ceil(units / (unit.length + 1)));
    const value = new Array(count).fill(referenceParse(unit));
    if (count > 2000) repeatedArrays.add(value);
    return new Doc(`[${new Array(count).fill(unit).join(',')}]`, size, { ok: true, value });
  }

  /** The document as one of the byte containers parse and the others take. */
  private byteInput(bytes: Uint8Array): unknown {
    const r = this.rng.int(10);
    if (r < 6) return bytes;
    if (r < 8) return bytes.slice().buffer;
    const NodeBuffer = (globalThis as { Buffer?: { from(b: Uint8Array): Uint8Array } }).Buffer;
    if (r < 9 || NodeBuffer === undefined) return new DataView(bytes.slice().buffer);
    return NodeBuffer.from(bytes);
  }

  /** The document as a string or (when it is well-formed, with chance p) as bytes. */
  private input(doc: Doc, p = 0.4): { input: unknown; fromBytes: boolean; what: string } {
    const bytes = doc.bytes();
    if (bytes !== undefined && this.rng.chance(p)) return { input: this.byteInput(bytes), fromBytes: true, what: `${doc.size} bytes` };
    return { input: doc.text, fromBytes: false, what: `${doc.size} text` };
  }

  // --- calls without callbacks (nested only) ---------------------------------------

  private nestedCall(depth: number): void {
    if (this.largePending) return this.largeCall(this.nestedDoc());
    const r = this.rng.int(100);
    // One that takes callbacks of its own (which nest further while depth allows).
    if (r < 30) return this.callbackOp(depth);
    const doc = this.nestedDoc();
    if (r < 38) return this.parseCall(doc);
    if (r < 44) return this.stringifyCall(doc, false);
    if (r < 48) return this.stringifyCall(doc, true);
    if (r < 53) return this.validateCall(doc);
    if (r < 59) return this.reformatCall(doc);
    if (r < 65) return this.canonicalizeTextCall(doc);
    if (r < 69) return this.canonicalizeValueCall(doc);
    if (r < 77) return this.atCall(doc);
    if (r < 88) return this.lazyCall(doc);
    this.poolCall();
  }

  private parseCall(doc: Doc): void {
    const { input, fromBytes, what } = this.input(doc, 0.5);
    const want = doc.model(fromBytes);
    this.step(`parse(${what})`, () => {
      this.expect('parse', doc.shown(), this.attempt(() => this.codec.parse(input)), want.ok ? { value: want.value } : { throws: SyntaxError });
    });
  }

  private stringifyCall(doc: Doc, encode: boolean): void {
    if (!doc.valid) return this.parseCall(doc);
    const value = doc.value();
    const space = this.rng.pick(SPACES);
    let list: string[] | null = null;
    if (value !== null && typeof value === 'object' && !Array.isArray(value) && this.rng.chance(0.25)) {
      list = Object.keys(value).filter(() => this.rng.chance(0.6));
    }
    const text = JSON.stringify(value, list, space as string);
    this.step(`${encode ? 'encode' : 'stringify'}(${doc.size} value, ${describe(list)}, ${describe(space)})`, () => {
      if (encode) {
        const got = this.attempt(() => this.codec.encode(value, { replacer: list, space }));
        this.expect('encode', doc.shown(), got, { value: utf8.encode(text) });
      } else {
        this.expect('stringify', doc.shown(), this.attempt(() => this.codec.stringify(value, list, space)), { value: text });
      }
    });
  }

  private validateCall(doc: Doc): void {
    const { input, fromBytes, what } = this.input(doc, 0.5);
    this.step(`validate(${what})`, () => {
      this.expect('validate', doc.shown(), this.attempt(() => this.codec.validate(input)), { value: doc.model(fromBytes).ok });
    });
  }

  private reformatCall(doc: Doc): void {
    const { input, fromBytes, what } = this.input(doc, 0.4);
    const minify = this.rng.chance(0.5);
    const indent = this.rng.pick(INDENTS);
    const gap = minify ? '' : indent === undefined ? '  ' : gapOf(indent);
    const want: Want = doc.model(fromBytes).ok ? { value: this.asOutput(layout(doc.textOf(fromBytes), gap), fromBytes) } : { throws: SyntaxError };
    this.step(minify ? `minify(${what})` : `prettify(${what}, ${describe(indent)})`, () => {
      const got = this.attempt(() => (minify ? this.codec.minify(input) : this.codec.prettify(input, indent === undefined && this.rng.chance(0.5) ? undefined : { indent })));
      this.expect(minify ? 'minify' : 'prettify', doc.shown(), got, want);
    });
  }

  private asOutput(text: string, asBytes: boolean): string | Uint8Array {
    return asBytes ? utf8.encode(text) : text;
  }

  private canonicalizeTextCall(doc: Doc): void {
    const { input, fromBytes, what } = this.input(doc, 0.4);
    const model = doc.model(fromBytes);
    const want = model.ok ? canonicalWant(model.value, fromBytes) : { throws: SyntaxError };
    this.step(`canonicalize(${what})`, () => {
      this.expect('canonicalize(text)', doc.shown(), this.attempt(() => this.codec.canonicalize(input)), want);
    });
  }

  private canonicalizeValueCall(doc: Doc): void {
    if (!doc.valid || typeof doc.value() === 'string') return this.validateCall(doc);
    const value = doc.value();
    this.step(`canonicalize(${doc.size} value)`, () => {
      this.expect('canonicalize(value)', doc.shown(), this.attempt(() => this.codec.canonicalize(value)), canonicalWant(value, false));
    });
  }

  private atCall(doc: Doc): void {
    // (Only valid documents: at() checks only what its path reads.)
    if (!doc.valid) return this.validateCall(doc);
    const { input, fromBytes, what } = this.input(doc, 0.4);
    for (let n = this.rng.range(1, 3); n > 0; n--) {
      const pointer = randomPointer(this.rng, doc.value(fromBytes));
      const found = evaluatePointer(doc.value(fromBytes), pointer);
      this.step(`at(${what}, ${describe(pointer)})`, () => {
        this.expect('at', doc.shown(), this.attempt(() => this.codec.at(input, pointer)), found === INVALID_POINTER ? { throws: SyntaxError } : { value: found });
      });
    }
  }

  /** lazy() of the document, explored, then freed (or kept in the pool for later callbacks). */
  private lazyCall(doc: Doc): void {
    const { input, fromBytes, what } = this.input(doc, 0.4);
    this.step(`lazy(${what})`, () => {
      const made = this.attempt(() => this.codec.lazy(input));
      if (!doc.model(fromBytes).ok) {
        // The error is lazy()'s, or the first read that meets it (the root's is all of it).
        const whole = made.ok ? this.attempt(() => (made.value instanceof this.LazyNode ? (made.value as any).toJS() : made.value)) : made;
        if (made.ok && made.value instanceof this.LazyNode) (made.value as any).free();
        this.expect('lazy of invalid text', doc.shown(), whole, { throws: SyntaxError });
        return;
      }
      const value = doc.value(fromBytes);
      if (!made.ok || !(made.value instanceof this.LazyNode)) {
        this.expect('lazy', doc.shown(), made, { value });
        return;
      }
      const node: any = made.value;
      this.explore(node, value, doc, this.rng.range(1, 4));
      if (this.rng.chance(0.3)) this.pool.push({ node, doc, fromBytes, freed: false });
      else node.free();
    });
  }

  /** Navigates a lazy node at random, checking each step against the value. */
  private explore(node: any, value: any, doc: Doc, steps: number): void {
    const big = Array.isArray(value) && value.length > 2000;
    const whole = (x: unknown) => (x instanceof this.LazyNode ? (x as any).toJS() : x);
    for (; steps > 0; steps--) {
      const r = this.rng.int(big ? 6 : 10);
      if (r < 2) {
        const k = pickKey(this.rng, value);
        const want = childOf(value, k);
        const key = Array.isArray(value) && this.rng.chance(0.5) && /^(0|[1-9][0-9]*)$/.test(k) ? Number(k) : k;
        this.step(`.get(${describe(key)})`, () => {
          const got = this.attempt(() => node.get(key));
          if (got.ok && got.value instanceof this.LazyNode && this.rng.chance(0.5)) {
            this.explore(got.value, want, doc, steps - 1);
            return;
          }
          this.expect('LazyNode.get', doc.shown(), got.ok ? this.attempt(() => whole(got.value)) : got, { value: want });
        });
      } else if (r < 4) {
        const pointer = randomPointer(this.rng, value);
        const want = evaluatePointer(value, pointer);
        this.step(`.at(${describe(pointer)})`, () => {
          const got = this.attempt(() => whole(node.at(pointer)));
          this.expect('LazyNode.at', doc.shown(), got, want === INVALID_POINTER ? { throws: SyntaxError } : { value: want });
        });
      } else if (r < 5) {
        this.expect('LazyNode.length', doc.shown(), this.attempt(() => node.length), { value: Array.isArray(value) ? value.length : Object.keys(value).length });
      } else if (r < 6) {
        this.expect('LazyNode.keys()', doc.shown(), this.attempt(() => node.keys()), { value: Array.isArray(value) ? [] : Object.keys(value) });
      } else if (r < 7) {
        this.expect('LazyNode.toJS()', doc.shown(), this.attempt(() => node.toJS()), { value });
      } else {
        const how = this.rng.pick(['iterate', 'values', 'entries'] as const);
        const keys = Array.isArray(value) ? value.map((_, i) => i) : Object.keys(value);
        const want =
          how === 'values' || (how === 'iterate' && Array.isArray(value))
            ? keys.map((k) => value[k])
            : keys.map((k) => [k, value[k]]);
        const got = this.attempt(() => {
          const items = how === 'iterate' ? [...node] : how === 'values' ? [...node.values()] : [...node.entries()];
          return items.map((x: unknown) => (Array.isArray(x) ? [x[0], whole(x[1])] : whole(x)));
        });
        this.expect(`LazyNode ${how}`, doc.shown(), got, { value: want });
      }
    }
  }

  /** A pooled lazy document (made before this call): explored, or freed, or checked to stay freed. */
  private poolCall(): void {
    if (this.pool.length === 0) return this.lazyCall(this.containerDoc());
    const p = this.rng.pick(this.pool);
    this.step(`pooled lazy document (${p.doc.size}${p.freed ? ', freed' : ''})`, () => {
      if (p.freed) {
        const use = this.rng.pick([(n: any) => n.get('a'), (n: any) => n.keys(), (n: any) => n.length, (n: any) => n.toJS(), (n: any) => n.at('/0')]);
        this.expect('a freed lazy document', p.doc.shown(), this.attempt(() => use(p.node)), { throws: /freed/ });
      } else if (this.rng.chance(0.15)) {
        p.node.free();
        p.freed = true;
      } else {
        this.explore(p.node, p.doc.value(p.fromBytes), p.doc, this.rng.range(1, 3));
      }
    });
  }

  private poolAdd(doc: Doc, depth: number): void {
    const { input, fromBytes, what } = this.input(doc, 0.4);
    this.step(`lazy(${what}) at depth ${depth}`, () => {
      const node = this.codec.lazy(input);
      if (!(node instanceof this.LazyNode)) this.fail('lazy of a container', doc.shown(), `got ${describe(node)}`);
      this.pool.push({ node, doc, fromBytes, freed: false });
    });
  }

  /** One call on the large document (the nested call that grows wasm memory). */
  private largeCall(doc: Doc): void {
    this.counts.large++;
    const r = this.rng.int(8);
    const { input, fromBytes, what } = this.input(doc, r < 2 ? 0.5 : 0.3);
    const model = doc.model(fromBytes);
    this.step(`large: ${['parse', 'parse', 'validate', 'at', 'lazy', 'stringify', 'encode', 'minify'][r]}(${what}, ${doc.text.length} units)`, () => {
      if (r < 2) {
        this.expect('parse (large)', doc.shown(), this.attempt(() => this.codec.parse(input)), model.ok ? { value: model.value } : { throws: SyntaxError });
      } else if (r === 2 || !model.ok) {
        this.expect('validate (large)', doc.shown(), this.attempt(() => this.codec.validate(input)), { value: model.ok });
      } else if (r === 3) {
        const pointer = randomPointer(this.rng, model.value);
        const found = evaluatePointer(model.value, pointer);
        this.expect(`at (large) ${describe(pointer)}`, doc.shown(), this.attempt(() => this.codec.at(input, pointer)), found === INVALID_POINTER ? { throws: SyntaxError } : { value: found });
      } else if (r === 4) {
        const node = this.codec.lazy(input);
        try {
          this.explore(node, model.value, doc, 2);
        } finally {
          node.free();
        }
      } else if (r < 7) {
        const text = JSON.stringify(model.value);
        const got = this.attempt(() => (r === 5 ? this.codec.stringify(model.value) : this.codec.encode(model.value)));
        this.expect(r === 5 ? 'stringify (large)' : 'encode (large)', doc.shown(), got, { value: r === 5 ? text : utf8.encode(text) });
      } else {
        this.expect('minify (large)', doc.shown(), this.attempt(() => this.codec.minify(input)), { value: this.asOutput(layout(doc.textOf(fromBytes), ''), fromBytes) });
      }
    });
  }

  // --- calls whose callbacks nest (outer, or nested at any depth) --------------------

  private callbackOp(depth: number): void {
    const r = this.rng.int(100);
    if (r < 18) return this.reviverParse(depth);
    if (r < 28) return this.optionsParse(depth);
    if (r < 33) return this.toStringParse(depth);
    if (r < 53) return this.serialize(depth, 'stringify');
    if (r < 63) return this.serialize(depth, 'encode');
    if (r < 75) return this.serialize(depth, 'canonicalize');
    if (r < 82) return this.optionsValidate(depth);
    if (r < 89) return this.optionsPrettify(depth);
    if (r < 94) return this.lazyKeyToString(depth);
    this.lazyIterate(depth);
  }

  /** A reviver that logs, nests and returns transform's value (for the model and the library alike). */
  private reviver(op: CallbackOp, transform: (typeof REVIVERS)[number][1]): ReviverFn {
    // (An arrow: the holder is not looked at, and `this` stays the case.)
    return (key, value, context) => {
      this.callback(op, ['reviver', key, logged(value), context?.source]);
      return transform(key, value, context);
    };
  }

  /** parse(text or bytes, reviver), or parse(text, { reviver }). */
  private reviverParse(depth: number): void {
    const doc = this.anyDoc();
    const { input, fromBytes, what } = this.input(doc);
    const [name, transform] = this.rng.pick(REVIVERS);
    const op = this.newOp(depth, true);
    const asOption = this.rng.chance(0.3);
    this.step(`parse(${what}, ${asOption ? '{ reviver }' : 'reviver'} '${name}'${op.boomAt ? `, throws at call ${op.boomAt}` : ''})`, () => {
      const reviver = this.reviver(op, transform);
      const want = this.revivedModel(doc, fromBytes, reviver, op);
      this.restart(op);
      const got = this.attempt(() => this.codec.parse(input, asOption ? { reviver } : reviver));
      this.expect('parse with a reviver', doc.shown(), got, this.thrownBy(op, want.want));
      this.expectLog('parse with a reviver', doc.shown(), op.log, want.log, got);
    });
  }

  /** The model's outcome of a parse with this reviver, and the reviver's log. */
  private revivedModel(doc: Doc, fromBytes: boolean, reviver: ReviverFn, op: CallbackOp): { want: Want; log: unknown[] } {
    this.restart(op);
    const model = doc.model(fromBytes);
    if (!model.ok) return { want: { throws: SyntaxError }, log: [] };
    const { value, sources } = parseWithSources(doc.textOf(fromBytes));
    const d = differs(value, model.value);
    if (d) this.fail('the test itself: parseWithSources disagrees with referenceParse', doc.shown(), d);
    const outcome = this.quiet(() => this.attempt(() => reviveModel(value, sources, reviver)));
    return { want: outcome.ok ? { value: outcome.value } : { throws: outcome.error as Error }, log: op.log };
  }

  /**
   * An object whose listed properties are getters: each logs, nests and returns its
   * value; the first read also runs onFirstRead.
   */
  private getters(op: CallbackOp, tag: string, values: Record<string, unknown>, onFirstRead?: () => void): object {
    const o = {};
    let first = onFirstRead;
    for (const [name, v] of Object.entries(values)) {
      Object.defineProperty(o, name, {
        get: () => {
          this.callback(op, [tag, name]);
          first?.();
          first = undefined;
          return v;
        },
        enumerable: true,
        configurable: true,
      });
    }
    return o;
  }

  /** A checking policy: random on a document the model can judge, else one that checks nothing. */
  private policy(doc: Doc, fromBytes: boolean, benign: boolean): Policy {
    const judged = !benign && doc.valid && doc.model(fromBytes).ok && !doc.text.startsWith('\ufeff') && doc.size === 'small';
    const out: Policy = {};
    if (this.rng.chance(0.6)) out.duplicateKeys = judged ? this.rng.pick(['last', 'error'] as const) : 'last';
    if (this.rng.chance(0.5)) out.protoAction = judged ? this.rng.pick(['ignore', 'error', 'remove'] as const) : 'ignore';
    if (this.rng.chance(0.4)) out.constructorAction = judged ? this.rng.pick(['ignore', 'error', 'remove'] as const) : 'ignore';
    if (this.rng.chance(0.4)) out.maxDepth = judged ? this.rng.pick([Infinity, 1, 3, 8, 20]) : Infinity;
    return out;
  }

  /** Each option read once, by its getter. */
  private expectEachReadOnce(label: string, doc: Doc, log: unknown[], names: string[]): void {
    const reads = log.map((e) => (e as unknown[])[1]).sort();
    this.expectLog(`${label}: options read`, doc.shown(), reads, [...names].sort());
  }

  /** parse with an options object whose getters run: checks, reviver, bigint, stringDecoding. */
  private optionsParse(depth: number): void {
    const { doc, input, fromBytes, what, shrink } = this.maybeShrinking(this.anyDoc());
    const withReviver = this.rng.chance(0.4);
    const policy = this.policy(doc, fromBytes, withReviver);
    const [name, transform] = this.rng.pick(REVIVERS);
    const reviverOp = this.newOp(depth, false);
    const reviver = this.reviver(reviverOp, transform);
    const values: Record<string, unknown> = { ...policy };
    if (withReviver) values.reviver = reviver;
    if (this.rng.chance(0.3)) values.bigint = 'never';
    if (fromBytes && this.rng.chance(0.4)) values.stringDecoding = this.rng.pick(['document', 'each']);
    if (shrink !== undefined && Object.keys(values).length === 0) values.bigint = 'never'; // (a getter to shrink it)
    const op = this.newOp(depth, false);
    const options = this.getters(op, 'option', values, shrink);
    this.step(`parse(${what}, getters ${describe(Object.keys(values))} = ${describe(policy)}${withReviver ? `, reviver '${name}'` : ''})`, () => {
      if (withReviver) {
        const want = this.revivedModel(doc, fromBytes, reviver, reviverOp);
        this.restart(reviverOp);
        const got = this.attempt(() => this.codec.parse(input, options));
        this.expect('parse with options getters (reviver)', doc.shown(), got, want.want);
        this.expectLog('parse with options getters (reviver)', doc.shown(), reviverOp.log, want.log, got);
      } else {
        const got = this.attempt(() => this.codec.parse(input, options));
        this.counts.checks++;
        if (!doc.model(fromBytes).ok || Object.keys(policy).length === 0) {
          const model = doc.model(fromBytes);
          this.expect('parse with options getters', doc.shown(), got, model.ok ? { value: model.value } : { throws: SyntaxError });
        } else {
          const text = doc.textOf(fromBytes);
          const d = compareWithModel(() => (got.ok ? got.value : (() => { throw got.error; })()), checkedParse(text, policy), text, fromBytes);
          if (d) this.fail('parse with checking options (getters)', doc.shown(), d);
        }
      }
      this.expectEachReadOnce('parse', doc, op.log, Object.keys(values));
    });
  }

  /**
   * The document as input for a call with options getters: a string or bytes, and a
   * quarter of the bytes in a resizable buffer that the first getter shrinks or
   * detaches (README: options are read before the input is looked at). The document
   * returned is then what is left, as TextDecoder reads it (a view past the end of its
   * shrunk buffer, and a detached buffer, hold no bytes).
   */
  private maybeShrinking(doc: Doc): { doc: Doc; input: unknown; fromBytes: boolean; what: string; shrink?: () => void } {
    const plain = this.input(doc);
    const bytes = doc.bytes();
    if (!plain.fromBytes || bytes === undefined || !this.rng.chance(0.25)) return { doc, ...plain };
    const n = bytes.length;
    const buffer = new ArrayBuffer(n, { maxByteLength: n });
    new Uint8Array(buffer).set(bytes);
    const tracking = this.rng.chance(0.5);
    const input = tracking ? new Uint8Array(buffer) : new Uint8Array(buffer, 0, n);
    const r = this.rng.int(4);
    const detach = r === 0;
    const k = detach ? 0 : r === 1 ? 0 : this.rng.int(n + 1);
    const left = detach || (!tracking && k < n) ? 0 : k;
    const shrink = () => {
      if (detach) buffer.transfer();
      else buffer.resize(k);
    };
    let text: string | undefined;
    try {
      text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes.subarray(0, left));
    } catch {
      // Cut inside a character: not UTF-8, a SyntaxError.
    }
    const leftDoc = text !== undefined ? new Doc(text, 'small') : new Doc('', 'small', { ok: false, error: undefined });
    const what = `${n} bytes in a resizable buffer, ${tracking ? 'length-tracking' : 'fixed-length'} view, ${detach ? 'detached' : `shrunk to ${k}`} by a getter`;
    return { doc: leftDoc, input, fromBytes: true, what, shrink };
  }

  /** parse of an object whose toString gives the text (and nests). */
  private toStringParse(depth: number): void {
    const doc = this.anyDoc();
    const op = this.newOp(depth, false);
    const input = {
      toString: () => {
        this.callback(op, ['toString']);
        return doc.text;
      },
    };
    const model = doc.model();
    this.step('parse({ toString })', () => {
      this.expect('parse of an object with toString', doc.shown(), this.attempt(() => this.codec.parse(input)), model.ok ? { value: model.value } : { throws: SyntaxError });
      this.expectLog('parse of an object with toString', doc.shown(), op.log, [['toString']]);
    });
  }

  /**
   * A copy of a JSON value with callbacks planted in it: getters for members and
   * elements, toJSON methods around values, Dates whose toISOString gives a value,
   * boxed primitives whose valueOf or toString runs, and proxies whose traps run. Each
   * returns the value it stands for. The traps log to `traps`, which is not compared:
   * stringify causes traps native JSON.stringify does not (README), with the same output.
   */
  private plant(value: unknown, op: CallbackOp, traps: CallbackOp): unknown {
    const rng = this.rng;
    if (value === null || typeof value !== 'object') {
      const r = rng.int(100);
      if (r === 99) return this.dateGiving(op, value);
      if (r < 4 && typeof value === 'number') {
        const box = new Number(value);
        Object.defineProperty(box, 'valueOf', { value: () => (this.callback(op, ['valueOf']), value) });
        return box;
      }
      if (r < 4 && typeof value === 'string') {
        const box = new String(value);
        Object.defineProperty(box, 'toString', { value: () => (this.callback(op, ['toString']), value) });
        return box;
      }
      if (r < 8) return this.withToJSON(op, value);
      return value;
    }
    const copy: any = Array.isArray(value) ? [] : {};
    const keys = Array.isArray(value) ? value.map((_, i) => String(i)) : Object.keys(value);
    for (const k of keys) {
      const planted = this.plant((value as any)[k], op, traps);
      if (rng.chance(0.1)) {
        Object.defineProperty(copy, k, {
          get: () => (this.callback(op, ['get', k]), planted),
          enumerable: true,
          configurable: true,
        });
      } else {
        Object.defineProperty(copy, k, { value: planted, writable: true, enumerable: true, configurable: true });
      }
    }
    const r = rng.int(100);
    if (r < 8) return this.withToJSON(op, copy);
    if (r < 10) return this.dateGiving(op, copy);
    if (r < 15) return this.proxied(copy, traps);
    return copy;
  }

  /** A Date whose toISOString (which Date.prototype.toJSON calls) gives `value`. */
  private dateGiving(op: CallbackOp, value: unknown): Date {
    const date = new Date(0);
    Object.defineProperty(date, 'toISOString', { value: () => (this.callback(op, ['toISOString']), value) });
    return date;
  }

  /** A proxy of `target` whose traps log (to `traps`) and nest. */
  private proxied(target: object, traps: CallbackOp): object {
    const trap = (name: string) => this.callback(traps, [name]);
    return new Proxy(target, {
      get: (t, k, receiver) => (typeof k === 'string' && trap('get'), Reflect.get(t, k, receiver)),
      has: (t, k) => (trap('has'), Reflect.has(t, k)),
      ownKeys: (t) => (trap('ownKeys'), Reflect.ownKeys(t)),
      getOwnPropertyDescriptor: (t, k) => (trap('getOwnPropertyDescriptor'), Reflect.getOwnPropertyDescriptor(t, k)),
      getPrototypeOf: (t) => (trap('getPrototypeOf'), Reflect.getPrototypeOf(t)),
    });
  }

  private withToJSON(op: CallbackOp, value: unknown): object {
    const self = this;
    return {
      toJSON(key: unknown) {
        self.callback(op, ['toJSON', key]);
        return value;
      },
    };
  }

  /** stringify, encode or canonicalize of a value with callbacks planted (and replacer, space). */
  private serialize(depth: number, fn: 'stringify' | 'encode' | 'canonicalize'): void {
    const self = this;
    const doc = this.containerOrScalarDoc();
    const op = this.newOp(depth, true);
    let root = doc.value();
    if (fn === 'canonicalize' && typeof root === 'string') root = [root]; // (a string is JSON text there)
    const value = this.plant(root, op, this.newOp(depth, false));
    let replacer: unknown;
    let replacerName = 'none';
    let space: unknown;
    // (Described before it is boxed: describing a box would run its callback.)
    let spaceShown = 'none';
    if (fn !== 'canonicalize') {
      const r = this.rng.int(10);
      if (r < 5) {
        const [name, transform] = this.rng.pick(REPLACERS);
        replacerName = `'${name}'`;
        replacer = function (this: unknown, key: string, v: unknown) {
          self.callback(op, ['replacer', key, logged(v)]);
          return transform(key, v);
        };
      } else if (r < 7) {
        replacer = this.replacerList(op, root);
        replacerName = 'a list with getters';
      }
      space = this.rng.pick(SPACES);
      spaceShown = describe(space);
      if (this.rng.chance(0.15)) {
        space = this.boxedSpace(op, space);
        spaceShown += ' boxed';
      }
    }
    const describeCall = `${fn}(${doc.size} value with callbacks, replacer ${replacerName}, space ${spaceShown}${op.boomAt ? `, throws at call ${op.boomAt}` : ''})`;
    this.step(describeCall, () => {
      // The native call with the same callbacks, which then make no nested calls.
      const want = fn === 'canonicalize' ? this.canonicalizeExpected(value, op) : this.stringifyExpected(value, replacer, space, op, fn === 'encode');
      this.restart(op);
      let got: Outcome;
      if (fn === 'stringify') {
        got = this.attempt(() => this.codec.stringify(value, replacer, space));
      } else if (fn === 'encode') {
        const optionsOp = this.newOp(depth, false);
        const options = this.rng.chance(0.5) ? this.getters(optionsOp, 'option', { replacer, space }) : { replacer, space };
        got = this.attempt(() => this.codec.encode(value, options));
      } else {
        got = this.attempt(() => this.codec.canonicalize(value));
      }
      this.expect(fn, doc.shown(), got, this.thrownBy(op, want.want));
      this.expectLog(fn, doc.shown(), op.log, want.log, got);
    });
  }

  /** A document whose value is anything (stringify takes scalars too). */
  private containerOrScalarDoc(): Doc {
    for (;;) {
      const doc = this.rng.chance(0.1) ? this.mediumDoc() : new Doc(this.smallText(), 'small');
      if (doc.valid) return doc;
    }
  }

  private stringifyExpected(value: unknown, replacer: unknown, space: unknown, op: CallbackOp, encode: boolean): { want: Want; log: unknown[] } {
    this.restart(op);
    const outcome = this.quiet(() => this.attempt(() => JSON.stringify(value, replacer as any, space as any)));
    if (!outcome.ok) return { want: { throws: outcome.error as Error }, log: op.log };
    const text = outcome.value as string | undefined;
    return { want: { value: encode && text !== undefined ? utf8.encode(text) : text }, log: op.log };
  }

  /**
   * canonicalize(value): JSON.stringify's walk of the same callbacks, stopped at the first
   * non-finite number, boxed or not (canonicalize's TypeError there); then the package's
   * text of the value written, or a TypeError for a lone surrogate.
   */
  private canonicalizeExpected(value: unknown, op: CallbackOp): { want: Want; log: unknown[] } {
    this.restart(op);
    const notFinite = new Error('not finite');
    const outcome = this.quiet(() =>
      this.attempt(() =>
        JSON.stringify(value, (_k, v) => {
          // A boxed primitive unboxed here, as serialization would unbox it next (its
          // valueOf or toString called once, at the same point): a boxed -Infinity is
          // the error too.
          if (v instanceof Number) v = Number(v);
          else if (v instanceof String) v = String(v);
          if (typeof v === 'number' && !Number.isFinite(v)) throw notFinite;
          return v;
        }),
      ),
    );
    if (!outcome.ok) return { want: { throws: outcome.error === notFinite ? TypeError : (outcome.error as Error) }, log: op.log };
    return { want: canonicalWant(referenceParse(outcome.value as string), false), log: op.log };
  }

  /** A replacer list (keys of the value, and some it lacks) whose elements are getters, some of them. */
  private replacerList(op: CallbackOp, value: unknown): unknown[] {
    const keys = value !== null && typeof value === 'object' && !Array.isArray(value) ? Object.keys(value) : [];
    const names: unknown[] = keys.filter(() => this.rng.chance(0.7));
    if (this.rng.chance(0.3)) names.push('missing', 1);
    const list: unknown[] = [];
    names.forEach((name, i) => {
      if (this.rng.chance(0.3)) {
        Object.defineProperty(list, i, { get: () => (this.callback(op, ['list', i]), name), enumerable: true, configurable: true });
      } else {
        list.push(name);
      }
    });
    return list;
  }

  /** A space as a boxed number or string whose valueOf or toString runs (JSON.stringify calls it too). */
  private boxedSpace(op: CallbackOp, space: unknown): unknown {
    if (typeof space === 'number') {
      const box = new Number(space);
      Object.defineProperty(box, 'valueOf', { value: () => (this.callback(op, ['space valueOf']), space) });
      return box;
    }
    const text = typeof space === 'string' ? space : '  ';
    const box = new String(text);
    Object.defineProperty(box, 'toString', { value: () => (this.callback(op, ['space toString']), text) });
    return box;
  }

  /** validate with an options object whose getters run. */
  private optionsValidate(depth: number): void {
    const { doc, input, fromBytes, what, shrink } = this.maybeShrinking(this.anyDoc());
    const policy = this.policy(doc, fromBytes, false);
    const explain = this.rng.chance(0.5);
    const values: Record<string, unknown> = { ...policy, explain };
    const op = this.newOp(depth, false);
    const options = this.getters(op, 'option', values, shrink);
    const model = doc.model(fromBytes);
    const valid = model.ok && (Object.keys(policy).length === 0 || 'value' in checkedParse(doc.textOf(fromBytes), policy));
    this.step(`validate(${what}, getters ${describe(values)})`, () => {
      const got = this.attempt(() => {
        const r = this.codec.validate(input, options);
        // (explain's error is checked for its class only.)
        return explain && r && typeof r === 'object' && !r.valid ? { valid: false, error: r.error instanceof SyntaxError } : r;
      });
      this.expect('validate with options getters', doc.shown(), got, { value: explain ? (valid ? { valid: true } : { valid: false, error: true }) : valid });
      this.expectEachReadOnce('validate', doc, op.log, Object.keys(values));
    });
  }

  /** prettify with an options getter for indent, or an indent that is a boxed number or string. */
  private optionsPrettify(depth: number): void {
    const doc = this.rng.chance(0.15) ? this.mediumDoc() : this.anyDoc();
    const { input, fromBytes, what } = this.input(doc);
    const op = this.newOp(depth, false);
    const indent = this.rng.pick(INDENTS.filter((x) => x !== undefined));
    const boxed = this.rng.chance(0.4) ? this.boxedSpace(op, indent) : indent;
    const primitive = boxed instanceof String ? String(indent ?? '  ') : indent; // (boxedSpace gives '  ' for null)
    const options = this.rng.chance(0.6) ? this.getters(op, 'option', { indent: boxed }) : { indent: boxed };
    const model = doc.model(fromBytes);
    const want: Want = model.ok ? { value: this.asOutput(layout(doc.textOf(fromBytes), gapOf(typeof primitive === 'string' || typeof primitive === 'number' ? primitive : null)), fromBytes) } : { throws: SyntaxError };
    this.step(`prettify(${what}, indent ${describe(indent)}${boxed !== indent ? ' boxed' : ''})`, () => {
      const got = this.attempt(() => this.codec.prettify(input, options));
      this.expect('prettify with an indent that runs code', doc.shown(), got, want);
    });
  }

  /**
   * A lazy document to work on: a pooled one (made before this call, which nested calls
   * or the caller may free meanwhile) or a new one, freed by done().
   */
  private lazySubject(): { node: any; value: any; doc: Doc; what: string; pooled: Pooled | undefined; done(): void } {
    const live = this.pool.filter((p) => !p.freed);
    if (live.length > 0 && this.rng.chance(0.4)) {
      const p = this.rng.pick(live);
      return { node: p.node, value: p.doc.value(p.fromBytes), doc: p.doc, what: `pooled ${p.doc.size}`, pooled: p, done() {} };
    }
    const doc = this.containerDoc();
    const { input, fromBytes, what } = this.input(doc);
    const node = this.codec.lazy(input);
    return { node, value: doc.value(fromBytes), doc, what, pooled: undefined, done: () => node.free() };
  }

  /**
   * LazyNode.get with a key whose toString runs (and nests); on a pooled document, the
   * toString may free it first (get must then say so, not read the freed memory).
   */
  private lazyKeyToString(depth: number): void {
    const subject = this.lazySubject();
    const { node, value, pooled } = subject;
    const k = pickKey(this.rng, value);
    const freeFirst = pooled !== undefined && this.rng.chance(0.25);
    const op = this.newOp(depth, false);
    const key = {
      toString: () => {
        if (freeFirst) {
          pooled.node.free();
          pooled.freed = true;
        }
        this.callback(op, ['toString']);
        return k;
      },
    };
    this.step(`lazy(${subject.what}).get({ toString: ${describe(k)}${freeFirst ? ', frees the document' : ''} })`, () => {
      try {
        const got = this.attempt(() => {
          const v = node.get(key);
          return v instanceof this.LazyNode ? (v as any).toJS() : v;
        });
        const want: Want = pooled?.freed ? { throws: /freed/ } : { value: childOf(value, k) };
        const freedBy = pooled?.freed ? (freeFirst ? ' (the key\'s toString freed the document)' : ' (a call nested in the key\'s toString freed the document)') : '';
        this.expect(`LazyNode.get of a key with toString${freedBy}`, subject.doc.shown(), got, want);
      } finally {
        subject.done();
      }
    });
  }

  /**
   * Iterating a lazy node, with nested calls between its steps; a pooled document may
   * be freed at one of them (the steps after it must then say so).
   */
  private lazyIterate(depth: number): void {
    const subject = this.lazySubject();
    const { node, value, pooled } = subject;
    const want = Array.isArray(value) ? value : Object.keys(value).map((k) => [k, value[k]]);
    const freeAt = pooled !== undefined && this.rng.chance(0.3) ? this.rng.int(want.length) : -1;
    const op = this.newOp(depth, false);
    let freedAfter = -1;
    this.step(`lazy(${subject.what}) iterated${freeAt >= 0 ? `, freed after item ${freeAt}` : ''}`, () => {
      try {
        const got = this.attempt(() => {
          const items: unknown[] = [];
          for (const x of node) {
            items.push(Array.isArray(x) ? [x[0], x[1] instanceof this.LazyNode ? x[1].toJS() : x[1]] : x instanceof this.LazyNode ? (x as any).toJS() : x);
            if (items.length - 1 === freeAt) {
              pooled!.node.free();
              pooled!.freed = true;
            }
            this.callback(op, ['step']);
            if (pooled?.freed && freedAfter < 0) freedAfter = items.length - 1;
          }
          return items;
        });
        this.expect('iterating a LazyNode', subject.doc.shown(), got, freedAfter >= 0 && freedAfter < want.length - 1 ? { throws: /freed/ } : { value: want });
      } finally {
        subject.done();
      }
    });
  }
}

/**
 * Runs case `seed` on one codec (the driver runs it on each flavor's: the same case).
 * Throws a Mismatch, whose message says what differs, where and on what input.
 */
export function runCase(env: CaseEnv, seed: number, large: boolean, counts: Counts): void {
  new Case(env, seed, large, counts).run();
}
