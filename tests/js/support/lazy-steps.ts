// A stateful, model-based random test of lazy documents (lazy() -> LazyNode): many
// documents alive at once, their child nodes and partly consumed iterators held across
// steps, documents freed (by any of their nodes, by `using`, or dropped for the
// FinalizationRegistry) while others are in use, and other API calls in between that
// grow and churn wasm memory. Every answer is checked against a JS model of the
// document (reference-parse.ts, or a generator's own value for the large synthetic
// documents), and every use of a freed document against the library's freed error.
//
// Shared by tests/lazy-stateful.mjs (long runs, on demand) and
// tests/js/lazy-stateful.test.ts (a seeded few thousand steps in Node and Chromium), so
// it imports nothing from node: and is given the codecs and the LazyNode class.
//
// What the model says the library does (js/src/navigate.ts, README "Using it"):
//   - free() of any node of a document frees the document; a second free() does nothing;
//     [Symbol.dispose]() is free(). Afterwards every get/at/length/keys/toJS of any of
//     its nodes throws Error('wasmjson: this lazy document has been freed'); `kind`,
//     isArray() and isObject() still answer (the kind is the node's own); at() checks its
//     pointer first (a SyntaxError for a bad one, a TypeError for a non-string).
//   - values(), entries() and iteration are generators: a freed document makes their
//     next step throw that error (a generator that threw is then done, as all
//     generators are); one already past its last element just ends. keys() returns an
//     array, a snapshot that stays readable.
//   - Key order is Object.keys's (array indexes first, ascending); of duplicate keys
//     the last value wins at the first key's place. get() on an array takes only
//     canonical indexes (numbers, or strings spelling them) below 2^32 - 1.
import { jsonDiff, mutate, randomDocument, Rng, type GenOptions } from './random-json.ts';
import { referenceParse } from './reference-parse.ts';
import { evaluatePointer, INVALID_POINTER, pointerToken } from './json-pointer.ts';

export const FREED_MESSAGE = 'wasmjson: this lazy document has been freed';

/** The part of a wasmjson codec the machine calls (typed loosely: dist is loaded by path in the script). */
export interface StepCodec {
  readonly flavor: string;
  lazy(input: unknown): unknown;
  parse(text: unknown, reviver?: unknown): any;
  stringify(value: unknown, replacer?: unknown, space?: unknown): string | undefined;
  encode(value: unknown): Uint8Array;
  minify(input: any): any;
  prettify(input: any, options?: unknown): any;
  validate(input: unknown): boolean;
  at(input: unknown, pointer: unknown): unknown;
}

/** What a probe reads of a codec's wasm instance (the script wraps its exports to count). */
export interface MemoryProbe {
  /** wasm memory's size in bytes. */
  memoryBytes(): number;
  /** Buffers the JS side allocated (wj_alloc) and has not freed. */
  liveAllocations(): number;
  /** Container-end indexes built (wj_nav_ends_build, non-zero) and freed (wj_nav_ends_free). */
  endsBuilt(): number;
  endsFreed(): number;
}

export interface MachineOptions {
  codecs: StepCodec[];
  /** The LazyNode class of the build the codecs come from (for instanceof). */
  LazyNode: new (...args: never[]) => object;
  seed: number;
  /** Chance that a created document is a large one (a few MB: wasm memory grows). */
  bigRate?: number;
  /** Sizes of the large documents, in UTF-16 units of their text. */
  bigMin?: number;
  bigMax?: number;
  /** Most documents alive at once. */
  maxDocs?: number;
  /** Documents are dropped without free() (left to the FinalizationRegistry) only when true. */
  drop?: boolean;
  /** A full collection with a task turn after it (finalization callbacks run), if the runtime allows one. */
  collect?: () => Promise<void>;
  /** Every this many steps: free everything, collect, and check what wasm memory holds. */
  checkpointEvery?: number;
  probe?: (codec: StepCodec) => MemoryProbe | undefined;
  /**
   * What the probe may count at a checkpoint (every document freed): the codec's own
   * buffers, the scratch buffer, the key buffer and prettify's indent (3), plus what else
   * the probe counts (watched-codec.ts counts a pooled writer session too).
   */
  codecKeeps?: number;
  /** Progress lines (the script prints them). */
  log?: (line: string) => void;
  /** Node's Buffer, where inputs may be Buffers (undefined in browsers and browser routes). */
  NodeBuffer?: { from(text: string, encoding: string): Uint8Array };
}


/** Thrown at the first mismatch: message has seed, step, what differed and the recent operations. */
export class StepMismatch extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StepMismatch';
  }
}

// ---------------------------------------------------------------------------------
// Records the machine holds.

interface DocRecord {
  id: number;
  codec: StepCodec;
  /** The value the document denotes. */
  model: unknown;
  /** The root node (objects and arrays only: a scalar document is its value). */
  root: object | undefined;
  /** The text it was made from (kept for the other API calls on it, and for dumps). */
  text: string;
  /** How its input was given ('string', 'bytes', 'arraybuffer', ...) and what it holds. */
  input: string;
  shape: string;
  big: boolean;
  freed: boolean;
  /** Dropped without free(): left to the FinalizationRegistry. */
  dropped: boolean;
  createdAt: number;
}

interface NodeRecord {
  id: number;
  node: any;
  doc: DocRecord;
  model: unknown;
  /** The node's pointer from the root (for dumps). */
  path: string;
}

type IterKind = 'values' | 'entries' | 'iterator' | 'keys-snapshot';

interface IterRecord {
  id: number;
  it: Iterator<unknown>;
  holder: NodeRecord;
  kind: IterKind;
  /** Object.keys of an object model (undefined for arrays). */
  keys: string[] | undefined;
  total: number;
  /** Index of the next item. */
  pos: number;
  started: boolean;
  /** Threw or ended: a generator then only says done. */
  closed: boolean;
}

// ---------------------------------------------------------------------------------
// Small helpers.

const MAX_INDEX = 4294967294;
const ABSENT = Symbol('absent');

function isContainer(v: unknown): v is object {
  return typeof v === 'object' && v !== null;
}

function show(v: unknown, max = 120): string {
  if (typeof v === 'symbol') return v.toString();
  if (typeof v === 'number' && Object.is(v, -0)) return '-0';
  if (v === undefined) return 'undefined';
  if (typeof v === 'bigint') return `${v}n`;
  if (typeof v === 'object' && v !== null && typeof (v as { kind?: unknown }).kind === 'string' && typeof (v as { toJS?: unknown }).toJS === 'function') {
    return `LazyNode(${(v as { kind: string }).kind})`;
  }
  let s: string;
  try {
    s = JSON.stringify(v) ?? String(v);
  } catch {
    s = String(v);
  }
  return s.length > max ? `${s.slice(0, max)}...(${s.length})` : s;
}

function describeError(e: unknown): string {
  if (e instanceof Error) return `${e.constructor?.name ?? 'Error'}(${show(e.message, 200)})`;
  return `thrown ${show(e)}`;
}

/** The freed error exactly: a plain Error (no subclass) with the library's message. */
function isFreedError(e: unknown): boolean {
  return e instanceof Error && Object.getPrototypeOf(e) === Error.prototype && e.message === FREED_MESSAGE;
}

function isArrayIndexKey(k: string): boolean {
  return /^(0|[1-9][0-9]*)$/.test(k) && k.length <= 10 && Number(k) <= MAX_INDEX;
}

/** What JS's Object.keys gives (cached per model object: large objects are asked often). */
const keysCache = new WeakMap<object, string[]>();
function modelKeys(v: object): string[] {
  let k = keysCache.get(v);
  if (k === undefined) keysCache.set(v, (k = Object.keys(v)));
  return k;
}

/** Whether a model value is small enough to materialize (toJS) on every request. */
const smallCache = new WeakMap<object, boolean>();
function isSmall(v: unknown, limit = 4000): boolean {
  if (!isContainer(v)) return true;
  const cached = smallCache.get(v);
  if (cached !== undefined) return cached;
  let count = 0;
  const stack: unknown[] = [v];
  while (stack.length && count <= limit) {
    const x = stack.pop();
    count++;
    if (typeof x === 'string') count += x.length >> 6;
    if (isContainer(x)) for (const k of modelKeys(x)) stack.push((x as Record<string, unknown>)[k]);
  }
  const small = count <= limit;
  smallCache.set(v, small);
  return small;
}

/** The model's answer to get(key): JS property access, as the library documents it. */
function modelGet(model: object, key: string | number): unknown {
  if (Array.isArray(model)) {
    const i = typeof key === 'number' ? key : isArrayIndexKey(key) ? Number(key) : -1;
    if (!Number.isInteger(i) || i < 0 || i > MAX_INDEX || i >= model.length) return ABSENT;
    return model[i];
  }
  const k = String(key);
  return Object.prototype.hasOwnProperty.call(model, k) ? (model as Record<string, unknown>)[k] : ABSENT;
}

function defineMember(o: Record<string, unknown>, k: string, v: unknown): void {
  // (Own data property even for "__proto__"; a duplicate keeps its first place.)
  Object.defineProperty(o, k, { value: v, writable: true, enumerable: true, configurable: true });
}

const utf8 = new TextEncoder();

// Characters of long strings, by how they travel: one-byte non-ASCII (Latin-1: V8's
// one-byte strings, 2 UTF-8 bytes), two-byte BMP (3 bytes), astral pairs (4 bytes).
const LATIN1 = 'éßøñÿüàçÄÖ';
const WIDE = '世界中文日本語жизньמירΩ€';
const ASTRAL = ['😀', '🎉', '𝄞', '𠀋'];
const ASCII_WORDS = ['alpha', 'beta', 'gamma', 'delta', ' ', ' ', '-', '0123', 'x', 'keys', 'value'];

/**
 * A string of `units` UTF-16 units (within one) to put in JSON as it is: no quote,
 * backslash or control character. `mix` says what the text other than ASCII is;
 * `density` how much of it there is.
 */
function longString(rng: Rng, units: number, mix: 'latin1' | 'wide' | 'astral' | 'mixed' | 'lone', density: number): string {
  // A random chunk, repeated: long strings are built at memcpy speed.
  let chunk = '';
  const chunkUnits = Math.min(units, 4096);
  while (chunk.length < chunkUnits) {
    if (rng.chance(density)) {
      const m = mix === 'mixed' ? rng.pick(['latin1', 'wide', 'astral'] as const) : mix;
      if (m === 'latin1') chunk += LATIN1[rng.int(LATIN1.length)];
      else if (m === 'wide') chunk += WIDE[rng.int(WIDE.length)];
      else if (m === 'astral') chunk += rng.pick(ASTRAL);
      else chunk += rng.pick(['\ud800', '\udbff', '\udc00', '\udfff']); // lone surrogates, raw (string input only)
    } else {
      chunk += rng.pick(ASCII_WORDS);
    }
  }
  let s = chunk.repeat(Math.ceil(units / chunk.length)).slice(0, units);
  // (Not cut between the halves of a pair, unless lone ones are the point.)
  const last = s.charCodeAt(s.length - 1);
  if (mix !== 'lone' && last >= 0xd800 && last < 0xdc00) s = s.slice(0, -1);
  return s;
}

/** A small random document and its value (reference-parse.ts, not JSON.parse). */
function smallDocument(rng: Rng, opts?: Partial<GenOptions>): { text: string; value: unknown } {
  const base: GenOptions = {
    maxDepth: rng.pick([1, 2, 3, 4, 6]),
    maxWidth: rng.pick([1, 2, 4, 8, 16]),
    escapeRate: rng.pick([0, 0, 0.05, 0.3]),
    indent: rng.pick(['', '', '  ', '\t']),
    noisyWhitespace: rng.chance(0.2),
    maxNodes: rng.pick([5, 20, 60, 200]),
  };
  const { text } = randomDocument(rng, { ...base, ...opts });
  return { text, value: referenceParse(text) };
}

/** A container document (not a scalar): small random documents are wrapped when they are not. */
function containerDocument(rng: Rng, opts?: Partial<GenOptions>): { text: string; value: unknown } {
  const d = smallDocument(rng, opts);
  if (isContainer(d.value)) return d;
  const text = `[${d.text}]`;
  return { text, value: referenceParse(text) };
}

interface Made {
  text: string;
  model: unknown;
  shape: string;
  big: boolean;
  /** Holds raw lone surrogates: string input only (UTF-8 cannot carry them). */
  stringOnly: boolean;
}

// ---------------------------------------------------------------------------------

export interface Stats {
  steps: number;
  ops: Record<string, number>;
  /** Documents made, by flavor, input kind and shape. */
  docs: Record<string, number>;
  checks: number;
  freedErrors: number;
  checkpoints: { step: number; memoryBytes: number[]; liveAllocations: number[]; ends: string[] }[];
  maxLiveDocs: number;
  maxNodes: number;
  maxIters: number;
}

export class LazyStepMachine {
  readonly stats: Stats = {
    steps: 0,
    ops: {},
    docs: {},
    checks: 0,
    freedErrors: 0,
    checkpoints: [],
    maxLiveDocs: 0,
    maxNodes: 0,
    maxIters: 0,
  };
  private readonly rng: Rng;
  private readonly o: MachineOptions;
  private readonly LazyNode: new (...args: never[]) => object;
  private readonly maxDocs: number;
  private readonly bigRate: number;
  private readonly bigMin: number;
  private readonly bigMax: number;
  private readonly usingBlock: ((resource: unknown, body: (held: any) => unknown) => unknown) | undefined;
  private docs: DocRecord[] = [];
  private nodes: NodeRecord[] = [];
  private iters: IterRecord[] = [];
  private step = 0;
  private nextId = 1;
  private readonly history: string[] = [];
  /** Large texts for parse() between steps, made once. */
  private churnTexts: { text: string; model: unknown }[] = [];
  /** Nesting of ops run from inside user callbacks (reviver, replacer): kept shallow. */
  private depth = 0;

  constructor(options: MachineOptions) {
    this.o = options;
    this.rng = new Rng(options.seed);
    this.LazyNode = options.LazyNode;
    this.maxDocs = options.maxDocs ?? 30;
    this.bigRate = options.bigRate ?? 0.005;
    this.bigMin = options.bigMin ?? 1_000_000;
    this.bigMax = options.bigMax ?? 8_000_000;
    this.usingBlock = makeUsingBlock();
  }

  /** Whether `using` declarations run here (explicit resource management). */
  get hasUsing(): boolean {
    return this.usingBlock !== undefined;
  }

  async run(steps: number): Promise<Stats> {
    const every = this.o.checkpointEvery ?? 0;
    for (let step = 1; step <= steps; step++) {
      this.step = step;
      this.oneStep();
      this.stats.steps++;
      if (every > 0 && this.step % every === 0) await this.checkpoint();
      // A task turn now and then: finalization callbacks of dropped documents run
      // between tasks, and then interleave with the documents still in use.
      else if (this.step % 1000 === 0) {
        if (this.o.drop && this.o.collect && this.step % 4000 === 0) await this.o.collect();
        else await new Promise((resolve) => setTimeout(resolve, 0));
      }
    }
    // (Last, every document is freed: a shared codec is left as it was found.)
    if (every === 0 || steps % every !== 0) await this.checkpoint();
    return this.stats;
  }

  // -------------------------------------------------------------------------------
  // Bookkeeping and failure.

  private note(line: string): void {
    this.history.push(`#${this.step}${this.depth ? ' (nested)' : ''} ${line}`);
    if (this.history.length > 60) this.history.shift();
  }

  private fail(what: string, docs: DocRecord[] = []): never {
    const involved = [...new Set(docs)].map((d) => `  d${d.id} ${this.describeDoc(d)}\n    text: ${show(d.text, 400)}`).join('\n');
    throw new StepMismatch(
      `lazy-stateful mismatch: seed ${this.o.seed}, step ${this.step}\n  ${what}\n` +
        (involved ? `documents involved:\n${involved}\n` : '') +
        `recent operations (oldest first):\n  ${this.history.join('\n  ')}`,
    );
  }

  private describeDoc(d: DocRecord): string {
    return `[${d.codec.flavor}, ${d.input}, ${d.shape}${d.big ? ', big' : ''}${d.freed ? ', freed' : ''}${d.dropped ? ', dropped' : ''}, made #${d.createdAt}]`;
  }

  private nodeName(n: NodeRecord): string {
    return `n${n.id}(d${n.doc.id}${n.doc.freed ? ' freed' : ''} ${show(n.path, 60)})`;
  }

  private count(op: string): void {
    this.stats.ops[op] = (this.stats.ops[op] ?? 0) + 1;
  }

  private liveDocs(): DocRecord[] {
    return this.docs.filter((d) => !d.freed && !d.dropped);
  }

  private addNode(n: Omit<NodeRecord, 'id'>): NodeRecord {
    const rec = { id: this.nextId++, ...n };
    if (this.nodes.length >= 160) this.nodes[this.rng.int(this.nodes.length)] = rec;
    else this.nodes.push(rec);
    this.stats.maxNodes = Math.max(this.stats.maxNodes, this.nodes.length);
    return rec;
  }

  /** Checks a LazyValue against the model; a container's node is kept (sometimes) for later steps. */
  private checkValue(what: string, got: unknown, model: unknown, parent: NodeRecord | DocRecord | undefined, path: string, docs: DocRecord[]): void {
    this.stats.checks++;
    const doc = parent === undefined ? undefined : 'doc' in parent ? parent.doc : parent;
    if (model === ABSENT) {
      if (got !== undefined) this.fail(`${what}: expected undefined (nothing there), got ${show(got)}`, docs);
      return;
    }
    if (isContainer(model)) {
      const kind = Array.isArray(model) ? 'array' : 'object';
      if (!(got instanceof this.LazyNode)) this.fail(`${what}: expected a LazyNode (${kind}), got ${show(got)}`, docs);
      const node = got as any;
      if (node.kind !== kind || node.isArray() !== (kind === 'array') || node.isObject() !== (kind === 'object')) {
        this.fail(`${what}: expected kind ${kind}, got kind ${show(node.kind)}`, docs);
      }
      if (doc !== undefined && this.rng.chance(0.35)) this.addNode({ node, doc, model, path });
      return;
    }
    if (!Object.is(got, model)) this.fail(`${what}: expected ${show(model)}, got ${show(got)}`, docs);
  }

  /** Runs f, which must throw the freed error. */
  private expectFreed(what: string, f: () => unknown, docs: DocRecord[]): void {
    let result: unknown;
    try {
      result = f();
    } catch (e) {
      if (e instanceof StepMismatch) throw e;
      if (isFreedError(e)) {
        this.stats.freedErrors++;
        this.stats.checks++;
        return;
      }
      this.fail(`${what}: expected Error(${show(FREED_MESSAGE)}), got ${describeError(e)}`, docs);
    }
    this.fail(`${what}: expected Error(${show(FREED_MESSAGE)}), got a result: ${show(result)}`, docs);
  }

  /** Runs f, which must throw an error of class `cls` whose message matches. */
  private expectError(what: string, f: () => unknown, cls: new (...a: never[]) => Error, message: RegExp, docs: DocRecord[]): void {
    let result: unknown;
    try {
      result = f();
    } catch (e) {
      if (e instanceof StepMismatch) throw e;
      if (e instanceof cls && message.test((e as Error).message)) {
        this.stats.checks++;
        return;
      }
      this.fail(`${what}: expected ${cls.name} matching ${message}, got ${describeError(e)}`, docs);
    }
    this.fail(`${what}: expected ${cls.name} matching ${message}, got a result: ${show(result)}`, docs);
  }

  /** Runs f on a live document: an exception is a mismatch. */
  private live<T>(what: string, f: () => T, docs: DocRecord[]): T {
    try {
      return f();
    } catch (e) {
      if (e instanceof StepMismatch) throw e;
      this.fail(`${what}: threw ${describeError(e)}${e instanceof Error && e.stack ? `\n${e.stack.split('\n').slice(1, 6).join('\n')}` : ''}`, docs);
    }
  }

  // -------------------------------------------------------------------------------
  // The step.

  private oneStep(): void {
    const live = this.liveDocs();
    this.stats.maxLiveDocs = Math.max(this.stats.maxLiveDocs, live.length);
    this.stats.maxIters = Math.max(this.stats.maxIters, this.iters.length);
    if (live.length < 3) return this.opCreate();
    const ops: [number, () => void][] = [
      [live.length < this.maxDocs ? 7 : 0, () => this.opCreate()],
      [20, () => this.opGet()],
      [14, () => this.opAt()],
      [8, () => this.opShape()],
      [6, () => this.opToJS()],
      [6, () => this.opOpenIterator()],
      [16, () => this.opAdvanceIterator()],
      [4, () => this.opFree()],
      [1, () => this.opFreeAgain()],
      [2, () => this.opDescend()],
      [2, () => this.opStringifyNodes()],
      [3, () => this.opOtherApi()],
      [0.6, () => this.opStringifyReentrant()],
      [0.6, () => this.opParseReentrant()],
      [2, () => this.opScoped()],
      [1, () => this.opMutatedDocument()],
      [this.o.drop ? 1 : 0, () => this.opDrop()],
      [0.8, () => this.opAtOnText()],
    ];
    let total = 0;
    for (const [w] of ops) total += w;
    let r = this.rng.next() * total;
    for (const [w, op] of ops) {
      if ((r -= w) < 0) return op();
    }
    ops[1][1]();
  }

  // -------------------------------------------------------------------------------
  // Documents.

  private makeText(): Made {
    const rng = this.rng;
    if (rng.chance(this.bigRate)) return this.makeBig();
    const r = rng.int(100);
    if (r < 70) {
      const d = rng.chance(0.08) ? smallDocument(rng) : containerDocument(rng);
      return { text: d.text, model: d.value, shape: isContainer(d.value) ? 'small' : 'scalar', big: false, stringOnly: false };
    }
    if (r < 92) {
      // A small document beside a long string that is not ASCII, so its text is long
      // enough for the string routes (2048 units and up: UTF-16 in, narrowed at();
      // past 21845 units of 3-byte text a buffer of its own stops being sized for the
      // worst case and grows part way through the copy).
      const mix = rng.pick(['latin1', 'wide', 'astral', 'mixed', 'mixed', 'lone'] as const);
      const units = rng.pick([40, 600, 2047, 2048, 2100, 9000, 21844, 21846, 30000, 70000, 140000]);
      const pad = longString(rng, units, mix, rng.pick([0.005, 0.02, 0.3, 1]));
      const inner = containerDocument(rng);
      const key = rng.chance(0.2) ? longString(rng, rng.pick([5, 300]), mix === 'lone' ? 'wide' : mix, 0.5) : 'pad';
      let text: string;
      switch (rng.int(3)) {
        case 0:
          text = `{"${key}":"${pad}","doc":${inner.text},"n":[1,2,3]}`;
          break;
        case 1:
          text = `[${inner.text},"${pad}",{"${key}":0}]`;
          break;
        default:
          text = `{"doc":${inner.text},"${key}":["${pad}"]}`;
      }
      return { text, model: referenceParse(text), shape: `long-${mix}-${units}`, big: false, stringOnly: mix === 'lone' };
    }
    if (r < 96) return this.makeDeep(rng.pick([50, 400, 1500]));
    // A scalar document: lazy() gives the value itself.
    const scalar = rng.pick([
      () => `"${longString(rng, rng.pick([3, 3000]), 'mixed', 0.3)}"`,
      () => String(rng.range(-1000, 1000)),
      () => rng.pick(['true', 'false', 'null', '-0', '1e400', '0.5e-3']),
    ])();
    const text = rng.chance(0.3) ? ` ${scalar}\n` : scalar;
    return { text, model: referenceParse(text), shape: 'scalar', big: false, stringOnly: false };
  }

  /** A large document (bigMin..bigMax units): wasm memory grows to hold it. */
  private makeBig(): Made {
    const rng = this.rng;
    const target = rng.range(this.bigMin, this.bigMax);
    const kind = rng.pick(['array', 'array', 'object', 'string']);
    const pieces = Array.from({ length: 48 }, () => smallDocument(rng, { maxNodes: rng.pick([5, 20, 60]) }));
    if (kind === 'string') {
      const s = longString(rng, target, rng.pick(['latin1', 'wide', 'mixed']), rng.pick([0.01, 0.5]));
      const p = rng.pick(pieces);
      const text = `{"a":${p.text},"s":"${s}","b":[1,{"c":true}]}`;
      const model = {};
      defineMember(model, 'a', p.value);
      defineMember(model, 's', s);
      defineMember(model, 'b', [1, { c: true }]);
      return { text, model, shape: 'big-string', big: true, stringOnly: false };
    }
    const parts: string[] = [];
    let size = 2;
    if (kind === 'array') {
      const model: unknown[] = [];
      while (size < target) {
        const p = rng.pick(pieces);
        parts.push(p.text);
        model.push(p.value);
        size += p.text.length + 1;
      }
      return { text: `[${parts.join(',')}]`, model, shape: 'big-array', big: true, stringOnly: false };
    }
    // An object with many keys, some of them index-like and some repeated (the last wins).
    const model: Record<string, unknown> = {};
    const keys: string[] = [];
    while (size < target) {
      const p = rng.pick(pieces);
      const key = keys.length && rng.chance(0.02) ? rng.pick(keys) : rng.chance(0.1) ? String(keys.length) : `k${keys.length}`;
      keys.push(key);
      parts.push(`${JSON.stringify(key)}:${p.text}`);
      if (Object.prototype.hasOwnProperty.call(model, key)) model[key] = p.value;
      else defineMember(model, key, p.value);
      size += key.length + p.text.length + 4;
    }
    return { text: `{${parts.join(',')}}`, model, shape: 'big-object', big: true, stringOnly: false };
  }

  /**
   * A deep nest: objects and arrays alternating, each level with a few members. Walked
   * level by level, its lookups soon read it 16 times over, and the ends of all its
   * containers are then indexed (LazyDocument.listed).
   */
  private makeDeep(levels: number): Made {
    const rng = this.rng;
    const pad = 'p'.repeat(rng.pick([8, 60, 200]));
    const open: string[] = [];
    const close: string[] = [];
    const kinds: boolean[] = [];
    for (let i = 0; i < levels; i++) {
      const isObject = i % 2 === 0;
      kinds.push(isObject);
      if (isObject) {
        open.push(`{"i":${i},"pad":"${pad}${i}","next":`);
        close.push(`,"tail":[${i}]}`);
      } else {
        open.push(`[${i},"${pad}",`);
        close.push(`]`);
      }
    }
    const text = `${open.join('')}"bottom"${close.reverse().join('')}`;
    let model: unknown = 'bottom';
    for (let i = levels - 1; i >= 0; i--) {
      if (kinds[i]) {
        const o = {};
        defineMember(o, 'i', i);
        defineMember(o, 'pad', `${pad}${i}`);
        defineMember(o, 'next', model);
        defineMember(o, 'tail', [i]);
        model = o;
      } else {
        model = [i, pad, model];
      }
    }
    return { text, model, shape: `deep-${levels}`, big: false, stringOnly: false };
  }

  /** The input lazy() is given for a text, and how it was given. */
  private makeInput(text: string, stringOnly: boolean): { input: unknown; kind: string; after: (() => void) | undefined } {
    const rng = this.rng;
    const kinds = ['string', 'string', 'string', 'bytes', 'bytes', 'bom-bytes', 'subarray', 'arraybuffer', 'dataview'];
    if (this.o.NodeBuffer) kinds.push('buffer');
    if (typeof SharedArrayBuffer === 'function') kinds.push('shared');
    const kind = stringOnly ? 'string' : rng.pick(kinds);
    if (kind === 'string') return { input: text, kind, after: undefined };
    if (kind === 'buffer') return { input: this.o.NodeBuffer!.from(text, 'utf8'), kind, after: undefined };
    const bytes = utf8.encode(text);
    // Afterwards the caller's bytes are overwritten or detached, now and then: the
    // document is a copy (a freed or live document must not depend on them).
    const spoil = (view: Uint8Array, buffer: ArrayBuffer | undefined) =>
      rng.chance(0.3)
        ? () => {
            if (buffer && rng.chance(0.5) && typeof (buffer as { transfer?: unknown }).transfer === 'function') (buffer as { transfer(): ArrayBuffer }).transfer();
            else view.fill(0x7b);
          }
        : undefined;
    switch (kind) {
      case 'bytes':
        return { input: bytes, kind, after: spoil(bytes, bytes.buffer) };
      case 'bom-bytes': {
        const b = new Uint8Array(bytes.length + 3);
        b.set([0xef, 0xbb, 0xbf]);
        b.set(bytes, 3);
        return { input: b, kind, after: spoil(b, b.buffer) };
      }
      case 'subarray': {
        // Within a larger buffer, with bytes around it that are no JSON.
        const before = rng.int(17);
        const whole = new Uint8Array(before + bytes.length + rng.int(17)).fill(0x5d);
        whole.set(bytes, before);
        const view = whole.subarray(before, before + bytes.length);
        return { input: view, kind, after: spoil(view, undefined) };
      }
      case 'arraybuffer':
        return { input: bytes.buffer, kind, after: spoil(bytes, bytes.buffer) };
      case 'dataview': {
        const whole = new Uint8Array(bytes.length + 8).fill(0x20);
        whole.set(bytes, 4);
        return { input: new DataView(whole.buffer, 4, bytes.length), kind, after: spoil(whole, whole.buffer) };
      }
      default: {
        const shared = new Uint8Array(new SharedArrayBuffer(bytes.length));
        shared.set(bytes);
        return { input: shared, kind, after: spoil(shared, undefined) };
      }
    }
  }

  private opCreate(forceSmall = false): DocRecord | undefined {
    this.count('create');
    let made = forceSmall ? undefined : this.makeText();
    if (made === undefined) {
      const d = containerDocument(this.rng);
      made = { text: d.text, model: d.value, shape: 'small', big: false, stringOnly: false };
    }
    if (made.big) {
      // At most two large documents at once: the oldest is freed first.
      const bigs = this.liveDocs().filter((d) => d.big);
      if (bigs.length >= 2) this.freeDoc(bigs[0], 'make room for a large document');
    }
    const codec = this.rng.pick(this.o.codecs);
    const { input, kind, after } = this.makeInput(made.text, made.stringOnly);
    const key = `${codec.flavor} ${kind} ${made.shape.replace(/-\d+$/, '')}`;
    this.stats.docs[key] = (this.stats.docs[key] ?? 0) + 1;
    const doc: DocRecord = {
      id: this.nextId++,
      codec,
      model: made.model,
      root: undefined,
      text: made.text,
      input: kind,
      shape: made.shape,
      big: made.big,
      freed: false,
      dropped: false,
      createdAt: this.step,
    };
    this.note(`create d${doc.id} ${this.describeDoc(doc)} ${made.text.length} units: ${show(made.text, 100)}`);
    const got = this.live(`lazy() of d${doc.id}`, () => codec.lazy(input), [doc]);
    after?.();
    if (!isContainer(made.model)) {
      // A scalar document is its value; nothing is kept in wasm memory.
      this.checkValue(`lazy() of scalar d${doc.id}`, got, made.model, doc, '', [doc]);
      return undefined;
    }
    this.checkValue(`lazy() of d${doc.id}`, got, made.model, doc, '', [doc]);
    doc.root = got as object;
    this.docs.push(doc);
    this.addNode({ node: got, doc, model: made.model, path: '' });
    // Freed documents are forgotten once enough of them pile up.
    if (this.docs.length > this.maxDocs * 2) {
      const i = this.docs.findIndex((d) => d.freed || d.dropped);
      if (i >= 0) this.docs.splice(i, 1);
    }
    return doc;
  }

  /** A held node: of a live document mostly (four in five), of a freed one sometimes. */
  private pickNode(liveOnly = false): NodeRecord | undefined {
    const live = this.nodes.filter((n) => !n.doc.freed);
    const pool = liveOnly || (live.length && this.rng.chance(0.8)) ? live : this.nodes;
    if (pool.length === 0) return undefined;
    return this.rng.pick(pool);
  }

  // -------------------------------------------------------------------------------
  // Lookups.

  private randomKey(model: object): string | number {
    const rng = this.rng;
    if (Array.isArray(model)) {
      if (model.length && rng.chance(0.65)) return rng.chance(0.8) ? rng.int(model.length) : String(rng.int(model.length));
      return rng.pick<string | number>([
        model.length, model.length + 1, -1, -0, 1.5, NaN, Infinity, 2 ** 32 - 1, 2 ** 32 - 2, 2 ** 53,
        '-0', '01', '1e0', ' 1', '1 ', '0x1', 'length', '', '4294967294', '4294967295', '__proto__', 'constructor',
      ]);
    }
    const keys = modelKeys(model);
    if (keys.length && rng.chance(0.65)) {
      const k = rng.pick(keys);
      // (A key spelled as a number finds the same member, as property access does.)
      return isArrayIndexKey(k) && rng.chance(0.3) ? Number(k) : k;
    }
    return rng.pick<string | number>([
      '__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'prototype', 'length', '0', '1', '01', '-0',
      0, 1, -0, 1.5, '', ' ', 'missing', 'é', '😀', '\ud800', 'x'.repeat(300), '中'.repeat(700), 'id', 'a', 'name',
    ]);
  }

  private opGet(): void {
    this.count('get');
    const n = this.pickNode();
    if (!n) return;
    const key = this.randomKey(n.model as object);
    this.note(`${this.nodeName(n)}.get(${show(key, 60)})`);
    const what = `${this.nodeName(n)}.get(${show(key, 60)})`;
    if (n.doc.freed) return this.expectFreed(what, () => n.node.get(key), [n.doc]);
    const got = this.live(what, () => n.node.get(key), [n.doc]);
    const path = typeof key === 'number' || typeof key === 'string' ? `${n.path}/${pointerToken(String(key))}` : n.path;
    this.checkValue(what, got, modelGet(n.model as object, key), n, path, [n.doc]);
  }

  /** A pointer from `model`: to a member, missing, past the end, or not RFC 6901's. */
  private randomPointer(model: unknown): unknown {
    const rng = this.rng;
    const r = rng.int(100);
    if (r < 3) return '';
    if (r < 5) return rng.pick<unknown>([5, null, undefined, {}]);
    if (r < 12) return rng.pick(['a', '#/a', '/a~2', '/~', '/a/~x', 'x/y', '/-~']);
    let p = '';
    let v = model;
    const depth = rng.range(1, 5);
    for (let i = 0; i < depth && isContainer(v); i++) {
      const keys = modelKeys(v);
      if (!keys.length) break;
      const k = rng.pick(keys);
      p += `/${pointerToken(k)}`;
      v = (v as Record<string, unknown>)[k];
      if (rng.chance(0.3)) break;
    }
    if (r < 80) return p === '' ? '/' : p;
    // A token that finds nothing, or finds something only by a lookup's rules.
    const tail = rng.pick(['-', '01', '-1', '999999', '4294967295', '4294967294', '__proto__', 'constructor', '', 'nope', '~0', '~1', '1e0', '0']);
    return `${p}/${tail}`;
  }

  private opAt(): void {
    this.count('at');
    const n = this.pickNode();
    if (!n) return;
    const pointer = this.randomPointer(n.model);
    const what = `${this.nodeName(n)}.at(${show(pointer, 80)})`;
    this.note(what);
    // The pointer is checked before the document: a bad one is its error, freed or not.
    if (typeof pointer !== 'string') {
      return this.expectError(what, () => n.node.at(pointer), TypeError, /JSON Pointer must be a string/, [n.doc]);
    }
    const expected = evaluatePointer(n.model, pointer);
    if (expected === INVALID_POINTER) {
      return this.expectError(what, () => n.node.at(pointer), SyntaxError, /invalid JSON Pointer/, [n.doc]);
    }
    if (n.doc.freed) return this.expectFreed(what, () => n.node.at(pointer), [n.doc]);
    const got = this.live(what, () => n.node.at(pointer), [n.doc]);
    if (pointer === '') {
      if (got !== n.node) this.fail(`${what}: expected the node itself, got ${show(got)}`, [n.doc]);
      return;
    }
    this.checkValue(what, got, expected === undefined ? ABSENT : expected, n, n.path + pointer, [n.doc]);
  }

  /** length, keys(), kind, isArray(), isObject(). */
  private opShape(): void {
    this.count('shape');
    const n = this.pickNode();
    if (!n) return;
    const model = n.model as object;
    const isArray = Array.isArray(model);
    const which = this.rng.pick(['length', 'keys', 'kind']);
    const what = `${this.nodeName(n)}.${which}`;
    this.note(what);
    if (which === 'kind') {
      // The kind is the node's own: it answers after free() too.
      const got = [n.node.kind, n.node.isArray(), n.node.isObject()];
      const want = [isArray ? 'array' : 'object', isArray, !isArray];
      this.stats.checks++;
      if (got.some((g, i) => g !== want[i])) this.fail(`${what}: expected ${show(want)}, got ${show(got)}`, [n.doc]);
      return;
    }
    if (n.doc.freed) return this.expectFreed(what, () => (which === 'length' ? n.node.length : n.node.keys()), [n.doc]);
    if (which === 'length') {
      const got = this.live(what, () => n.node.length, [n.doc]);
      const want = isArray ? (model as unknown[]).length : modelKeys(model).length;
      this.stats.checks++;
      if (got !== want) this.fail(`${what}: expected ${want}, got ${show(got)}`, [n.doc]);
      return;
    }
    const got = this.live(what, () => n.node.keys(), [n.doc]) as unknown;
    const want = isArray ? [] : modelKeys(model);
    this.stats.checks++;
    if (!Array.isArray(got) || got.length !== want.length || got.some((k, i) => k !== want[i])) {
      this.fail(`${what}: expected ${show(want, 300)}, got ${show(got, 300)}`, [n.doc]);
    }
  }

  private opToJS(): void {
    this.count('toJS');
    const n = this.pickNode();
    if (!n) return;
    // (A large document's whole value now and then: materializing megabytes costs.)
    if (!isSmall(n.model) && !this.rng.chance(0.01)) return this.opShape();
    const how = this.rng.pick(['toJS', 'toJSON']);
    const what = `${this.nodeName(n)}.${how}()`;
    this.note(what);
    if (n.doc.freed) return this.expectFreed(what, () => n.node[how](), [n.doc]);
    const got = this.live(what, () => n.node[how](), [n.doc]);
    this.stats.checks++;
    const diff = jsonDiff(got, n.model);
    if (diff) this.fail(`${what}: differs from the model at ${diff}`, [n.doc]);
  }

  /** Follows the first container member down, level by level (get or at), keeping the nodes met. */
  private opDescend(): void {
    this.count('descend');
    // Down deep documents mostly: walked level by level, they are what gets the ends
    // of all containers indexed (and later lookups skip by that index).
    const deep = this.nodes.filter((x) => !x.doc.freed && x.doc.shape.startsWith('deep'));
    const n = deep.length && this.rng.chance(0.7) ? this.rng.pick(deep) : this.pickNode(true);
    if (!n) return;
    const levels = this.rng.range(1, 120);
    this.note(`${this.nodeName(n)} descend ${levels} levels`);
    let cur = n;
    for (let i = 0; i < levels; i++) {
      const model = cur.model as object;
      const keys = modelKeys(model);
      // A container member: mostly "next" or the last element, down a deep document.
      const candidates = keys.filter((k) => isContainer((model as Record<string, unknown>)[k]));
      if (candidates.length === 0) break;
      const deeper = Array.isArray(model) ? candidates[candidates.length - 1] : candidates.includes('next') ? 'next' : undefined;
      const key = deeper !== undefined && this.rng.chance(0.9) ? deeper : this.rng.pick(candidates);
      const childModel = (model as Record<string, unknown>)[key];
      const byAt = this.rng.chance(0.3);
      const what = `${this.nodeName(cur)}.${byAt ? `at(${show(`/${pointerToken(key)}`)})` : `get(${show(key)})`}`;
      const node = cur.node;
      const got = this.live(what, () => (byAt ? node.at(`/${pointerToken(key)}`) : node.get(Array.isArray(model) ? Number(key) : key)), [n.doc]);
      this.stats.checks++;
      if (!(got instanceof this.LazyNode) || (got as any).kind !== (Array.isArray(childModel) ? 'array' : 'object')) {
        this.fail(`${what}: expected a LazyNode of ${show(childModel, 60)}, got ${show(got)}`, [n.doc]);
      }
      cur = { id: this.nextId++, node: got, doc: n.doc, model: childModel, path: `${cur.path}/${pointerToken(key)}` };
    }
    if (cur === n) return;
    this.addNode(cur);
    // Where it got to, checked whole when small.
    if (isSmall(cur.model)) {
      const got = this.live(`${this.nodeName(cur)}.toJS()`, () => cur.node.toJS(), [n.doc]);
      const diff = jsonDiff(got, cur.model);
      if (diff) this.fail(`${this.nodeName(cur)}.toJS() after descending: differs at ${diff}`, [n.doc]);
    }
  }

  // -------------------------------------------------------------------------------
  // Iterators.

  private opOpenIterator(): void {
    this.count('iterator-open');
    const n = this.pickNode();
    if (!n) return;
    const kind = this.rng.pick<IterKind>(['values', 'entries', 'iterator', 'iterator', 'keys-snapshot']);
    const model = n.model as object;
    const keys = Array.isArray(model) ? undefined : modelKeys(model);
    const total = keys ? keys.length : (model as unknown[]).length;
    const what = `${this.nodeName(n)}.${kind}()`;
    let it: Iterator<unknown>;
    if (kind === 'keys-snapshot') {
      // keys() is an array, read when called.
      if (n.doc.freed) return this.expectFreed(what, () => n.node.keys(), [n.doc]);
      it = (this.live(what, () => n.node.keys(), [n.doc]) as string[])[Symbol.iterator]();
    } else {
      // Generators: nothing is read before their first step, freed or not.
      it = this.live(what, () => (kind === 'iterator' ? n.node[Symbol.iterator]() : n.node[kind]()), [n.doc]);
    }
    const rec: IterRecord = { id: this.nextId++, it, holder: n, kind, keys, total: kind === 'keys-snapshot' && !keys ? 0 : total, pos: 0, started: false, closed: false };
    this.note(`${what} -> i${rec.id} (${total} items)`);
    if (this.iters.length >= 40) this.iters[this.rng.int(this.iters.length)] = rec;
    else this.iters.push(rec);
  }

  private opAdvanceIterator(): void {
    this.count('iterator-next');
    if (this.iters.length === 0) return this.opOpenIterator();
    const rec = this.rng.pick(this.iters);
    const steps = this.rng.chance(0.1) ? Math.min(rec.total + 1, 300) : this.rng.range(1, 4);
    const n = rec.holder;
    this.note(`i${rec.id} (${rec.kind} of ${this.nodeName(n)}, at ${rec.pos}/${rec.total}${rec.closed ? ', closed' : ''}) next() x${steps}`);
    for (let s = 0; s < steps; s++) {
      const what = `i${rec.id} (${rec.kind} of ${this.nodeName(n)}) next() at ${rec.pos}/${rec.total}`;
      if (rec.closed) {
        const r = this.live(what, () => rec.it.next(), [n.doc]);
        this.stats.checks++;
        if (!r.done || r.value !== undefined) this.fail(`${what}: a finished iterator gave ${show(r.value)}`, [n.doc]);
        return;
      }
      const snapshot = rec.kind === 'keys-snapshot';
      if (n.doc.freed && !snapshot && !(rec.started && rec.pos >= rec.total)) {
        rec.started = true;
        rec.closed = true;
        return this.expectFreed(what, () => rec.it.next(), [n.doc]);
      }
      const r = this.live(what, () => rec.it.next(), [n.doc]);
      rec.started = true;
      this.stats.checks++;
      if (rec.pos >= rec.total) {
        if (!r.done) this.fail(`${what}: expected the end, got ${show(r.value)}`, [n.doc]);
        rec.closed = true;
        return;
      }
      if (r.done) this.fail(`${what}: ended early (expected ${rec.total} items)`, [n.doc]);
      const i = rec.pos++;
      const key = rec.keys ? rec.keys[i] : i;
      const model = rec.keys ? (n.model as Record<string, unknown>)[key as string] : (n.model as unknown[])[i];
      const childPath = `${n.path}/${pointerToken(String(key))}`;
      if (snapshot) {
        if (r.value !== key) this.fail(`${what}: keys() gave ${show(r.value)}, expected ${show(key)}`, [n.doc]);
      } else if (rec.kind === 'values' || (rec.kind === 'iterator' && !rec.keys)) {
        this.checkValue(what, r.value, model, n, childPath, [n.doc]);
      } else {
        const pair = r.value as unknown[];
        if (!Array.isArray(pair) || pair.length !== 2 || pair[0] !== key) {
          this.fail(`${what}: expected a [${show(key)}, value] pair, got ${show(pair)}`, [n.doc]);
        }
        this.checkValue(what, pair[1], model, n, childPath, [n.doc]);
      }
    }
  }

  // -------------------------------------------------------------------------------
  // Freeing.

  /** Frees a document through one of its held nodes (any of them frees all of it). */
  private freeDoc(doc: DocRecord, why: string): void {
    const holders = this.nodes.filter((n) => n.doc === doc);
    const via = holders.length && (doc.root === undefined || this.rng.chance(0.5)) ? this.rng.pick(holders) : undefined;
    if (!via && doc.root === undefined) return;
    const node: any = via ? via.node : doc.root;
    const how = this.rng.chance(0.3) ? 'Symbol.dispose' : 'free';
    this.note(`free d${doc.id} by ${via ? this.nodeName(via) : 'its root'}.${how}() (${why})`);
    this.live(`free of d${doc.id}`, () => (how === 'free' ? node.free() : node[Symbol.dispose]()), [doc]);
    doc.freed = true;
    // Any node of it then answers nothing.
    const probe = this.rng.pick(holders.length ? holders : [{ node: doc.root } as NodeRecord]);
    this.expectFreed(`d${doc.id} used right after free()`, () => probe.node.get(0), [doc]);
  }

  private opFree(): void {
    this.count('free');
    const live = this.liveDocs();
    if (live.length <= 3) return;
    this.freeDoc(this.rng.pick(live), 'step');
  }

  /** free() again, or dispose, of a freed document: nothing happens. */
  private opFreeAgain(): void {
    this.count('free-again');
    const freed = this.nodes.filter((n) => n.doc.freed);
    if (freed.length === 0) return;
    const n = this.rng.pick(freed);
    this.note(`${this.nodeName(n)} free() again`);
    this.live(`${this.nodeName(n)}.free() again`, () => (this.rng.chance(0.5) ? n.node.free() : n.node[Symbol.dispose]()), [n.doc]);
    this.expectFreed(`${this.nodeName(n)}.length after a second free()`, () => n.node.length, [n.doc]);
  }

  /** Drops a document without free(): the FinalizationRegistry is to release it once it is collected. */
  private opDrop(): void {
    this.count('drop');
    const live = this.liveDocs();
    if (live.length <= 3) return;
    const doc = this.rng.pick(live);
    // Its children stay held now and then (they keep the document alive and working).
    const keep = this.rng.chance(0.3);
    this.note(`drop d${doc.id} without free()${keep ? ', children kept' : ''}`);
    doc.dropped = true;
    this.nodes = this.nodes.filter((n) => n.doc !== doc || (keep && n.path !== ''));
    this.iters = this.iters.filter((i) => i.holder.doc !== doc || (keep && i.holder.path !== ''));
    doc.root = undefined;
    this.docs = this.docs.filter((d) => d !== doc);
  }

  /** A document used within a `using` block (or a DisposableStack), freed when the block ends. */
  private opScoped(): void {
    this.count('scoped');
    const doc = this.opCreate(true);
    if (!doc) return;
    const root = doc.root;
    const rootRecord: NodeRecord = { id: this.nextId++, node: root, doc, model: doc.model, path: '' };
    const throws = this.rng.chance(0.3);
    const marker = new Error('leaving the block by a throw');
    const body = (held: any) => {
      if (held !== root) this.fail(`using: the declared value is not the node`, [doc]);
      for (let i = 0, k = this.rng.range(1, 4); i < k; i++) {
        const r = this.rng.int(3);
        if (r === 0) this.opGetOn(rootRecord);
        else if (r === 1) this.opOpenIterator();
        else this.opAdvanceIterator();
      }
      if (throws) throw marker;
    };
    let how: string;
    try {
      if (this.usingBlock && this.rng.chance(0.7)) {
        how = 'using';
        this.note(`using d${doc.id} { ... }${throws ? ' (left by a throw)' : ''}`);
        this.usingBlock(root, body);
      } else if (typeof (globalThis as { DisposableStack?: unknown }).DisposableStack === 'function') {
        how = 'DisposableStack';
        this.note(`DisposableStack.use(d${doc.id}) ... dispose()${throws ? ' (left by a throw)' : ''}`);
        const Stack = (globalThis as unknown as { DisposableStack: new () => { use(v: unknown): unknown; dispose(): void } }).DisposableStack;
        const stack = new Stack();
        try {
          stack.use(root);
          body(root);
        } finally {
          stack.dispose();
        }
      } else {
        how = 'try/finally';
        this.note(`try { d${doc.id} } finally { [Symbol.dispose]() }`);
        try {
          body(root);
        } finally {
          (root as any)[Symbol.dispose]();
        }
      }
    } catch (e) {
      if (e !== marker) throw e instanceof StepMismatch ? e : this.fail(`scoped d${doc.id}: threw ${describeError(e)}`, [doc]);
    }
    doc.freed = true;
    this.expectFreed(`d${doc.id} after its ${how} block`, () => (root as any).keys(), [doc]);
  }

  private opGetOn(n: NodeRecord): void {
    const key = this.randomKey(n.model as object);
    const what = `${this.nodeName(n)}.get(${show(key, 60)})`;
    this.note(what);
    const got = this.live(what, () => n.node.get(key), [n.doc]);
    this.checkValue(what, got, modelGet(n.model as object, key), n, `${n.path}/${pointerToken(String(key))}`, [n.doc]);
  }

  // -------------------------------------------------------------------------------
  // Other API calls in between (and from inside callbacks).

  private opStringifyNodes(): void {
    this.count('stringify-nodes');
    const picked = Array.from({ length: this.rng.range(1, 3) }, () => this.pickNode()).filter((n): n is NodeRecord => n !== undefined && isSmall(n.model));
    if (picked.length === 0) return;
    const codec = this.rng.pick(this.o.codecs);
    const value = { nodes: picked.map((n) => n.node), n: 1 };
    const model = { nodes: picked.map((n) => n.model), n: 1 };
    const what = `${codec.flavor}.stringify({nodes: [${picked.map((n) => this.nodeName(n)).join(', ')}]})`;
    this.note(what);
    const docs = picked.map((n) => n.doc);
    const how = this.rng.pick(['stringify', 'JSON.stringify', 'encode']);
    const run = () => (how === 'stringify' ? codec.stringify(value) : how === 'encode' ? new TextDecoder().decode(codec.encode(value)) : JSON.stringify(value));
    if (docs.some((d) => d.freed)) return this.expectFreed(`${what} by ${how}`, run, docs);
    const got = this.live(`${what} by ${how}`, run, docs);
    this.stats.checks++;
    const want = JSON.stringify(model);
    if (got !== want) this.fail(`${what} by ${how}: expected ${show(want, 300)}, got ${show(got, 300)}`, docs);
  }

  /**
   * stringify() of nodes of two documents, with a replacer that (once the first node is
   * written) runs lazy operations: makes documents (large ones grow memory while the
   * writer's session is open), walks and frees others, or frees the second node's
   * document, whose toJSON must then throw the freed error out of stringify.
   */
  private opStringifyReentrant(): void {
    this.count('stringify-reentrant');
    if (this.depth > 0) return;
    const a = this.pickNode(true);
    const b = this.pickNode(true);
    if (!a || !b || !isSmall(a.model) || !isSmall(b.model)) return;
    const codec = this.rng.pick(this.o.codecs);
    const action = this.rng.pick(['create', 'create-big', 'navigate', 'free-other', 'free-second']);
    this.note(`${codec.flavor}.stringify({first: ${this.nodeName(a)}, second: [${this.nodeName(b)}]}, replacer doing ${action} at "first")`);
    let fired = false;
    const replacer = (key: string, v: unknown) => {
      if (key === 'first' && !fired) {
        fired = true;
        this.depth++;
        try {
          this.runAction(action, [a.doc, b.doc], b.doc);
        } finally {
          this.depth--;
        }
      }
      return v;
    };
    const value = { first: a.node, second: [b.node, 'end'] };
    const what = `stringify with a replacer doing ${action}`;
    if (action === 'free-second') {
      this.expectFreed(what, () => codec.stringify(value, replacer), [a.doc, b.doc]);
      return;
    }
    const got = this.live(what, () => codec.stringify(value, replacer), [a.doc, b.doc]);
    this.stats.checks++;
    const want = JSON.stringify({ first: a.model, second: [b.model, 'end'] });
    if (got !== want) this.fail(`${what}: expected ${show(want, 300)}, got ${show(got, 300)}`, [a.doc, b.doc]);
  }

  /** parse() with a reviver that runs lazy operations part way through. */
  private opParseReentrant(): void {
    this.count('parse-reentrant');
    if (this.depth > 0) return;
    const d = containerDocument(this.rng);
    const codec = this.rng.pick(this.o.codecs);
    const action = this.rng.pick(['create', 'create-big', 'navigate', 'free-other']);
    const at = this.rng.int(4);
    this.note(`${codec.flavor}.parse(${show(d.text, 60)}, reviver doing ${action} at call ${at})`);
    let calls = 0;
    const reviver = (_k: string, v: unknown) => {
      if (calls++ === at) {
        this.depth++;
        try {
          this.runAction(action, [], undefined);
        } finally {
          this.depth--;
        }
      }
      return v;
    };
    const input = this.rng.chance(0.5) ? d.text : utf8.encode(d.text);
    const got = this.live(`parse with a reviver doing ${action}`, () => codec.parse(input, reviver), []);
    this.stats.checks++;
    const diff = jsonDiff(got, d.value);
    if (diff) this.fail(`parse with a reviver doing ${action}: differs at ${diff}\n  text: ${show(d.text, 300)}`);
  }

  /** What a callback does from inside another call. */
  private runAction(action: string, keep: DocRecord[], victim: DocRecord | undefined): void {
    if (action === 'create') {
      this.opCreate();
    } else if (action === 'create-big') {
      // (A document of a few MB: memory grows while the outer call is under way.)
      const made = this.makeBig();
      this.note(`(inside) lazy() of a ${made.text.length}-unit ${made.shape}`);
      const codec = this.rng.pick(this.o.codecs);
      const doc = this.live('lazy() of a large document inside a callback', () => codec.lazy(made.text), []) as any;
      this.checkValue('lazy() inside a callback', doc, made.model, undefined, '', []);
      const keys = Array.isArray(made.model) ? [0, (made.model as unknown[]).length - 1] : modelKeys(made.model as object).slice(-2);
      for (const k of keys) {
        const got = doc.get(k);
        const want = modelGet(made.model as object, k);
        const whole = got instanceof this.LazyNode ? (got as any).toJS() : got;
        if (jsonDiff(whole, want) !== '') this.fail(`(inside) large document .get(${show(k)}): expected ${show(want)}, got ${show(whole)}`);
      }
      doc.free();
    } else if (action === 'navigate') {
      for (let i = 0; i < 3; i++) this.rng.chance(0.5) ? this.opGet() : this.opAt();
    } else if (action === 'free-other') {
      const others = this.liveDocs().filter((d) => !keep.includes(d));
      if (others.length > 3) this.freeDoc(this.rng.pick(others), 'inside a callback');
    } else if (action === 'free-second' && victim) {
      this.freeDoc(victim, 'inside a callback, before its node is written');
    }
  }

  /** parse, stringify, minify, prettify, validate of other documents: memory churn. */
  private opOtherApi(): void {
    this.count('other-api');
    const codec = this.rng.pick(this.o.codecs);
    const rng = this.rng;
    const r = rng.int(10);
    if (r < 2) {
      // A large parse: the scratch buffer grows past what is kept, and is given back.
      if (this.churnTexts.length < 3) {
        const made = this.makeBig();
        this.churnTexts.push({ text: made.text, model: made.model });
      }
      const c = rng.pick(this.churnTexts);
      const bytes = rng.chance(0.5);
      this.note(`${codec.flavor}.parse(${c.text.length}-unit text${bytes ? ' as bytes' : ''})`);
      const got = this.live('parse of a large text', () => codec.parse(bytes ? utf8.encode(c.text) : c.text), []);
      this.stats.checks++;
      if (rng.chance(0.2)) {
        const diff = jsonDiff(got, c.model);
        if (diff) this.fail(`parse of a large text: differs at ${diff}`);
      } else if (Array.isArray(got) !== Array.isArray(c.model) || Object.keys(got).length !== modelKeys(c.model as object).length) {
        this.fail('parse of a large text: a different container');
      }
      return;
    }
    const doc = this.docs.length && rng.chance(0.7) ? rng.pick(this.docs) : undefined;
    const d = doc ? { text: doc.text, value: doc.model } : smallDocument(rng);
    if (d.text.length > 400_000) return;
    const input = rng.chance(0.5) && d.text.isWellFormed() ? utf8.encode(d.text) : d.text;
    const asText = (x: unknown) => (typeof x === 'string' ? x : new TextDecoder().decode(x as Uint8Array));
    const op = rng.pick(['stringify', 'minify', 'prettify', 'validate', 'parse']);
    this.note(`${codec.flavor}.${op}(${typeof input === 'string' ? 'text' : 'bytes'} of ${doc ? `d${doc.id}` : 'a new document'})`);
    let got: unknown;
    let want: unknown;
    switch (op) {
      case 'stringify':
        got = this.live('stringify', () => codec.stringify(d.value), []);
        want = JSON.stringify(d.value);
        break;
      case 'minify':
        got = this.live('minify', () => asText(codec.minify(input)), []);
        // (Strings and numbers verbatim: the same value, with no whitespace outside strings.)
        this.stats.checks++;
        if (jsonDiff(referenceParse(got as string), d.value) !== '') this.fail(`minify: a different value: ${show(got, 200)}`);
        return;
      case 'prettify':
        got = this.live('prettify', () => asText(codec.prettify(input, { indent: 2 })), []);
        this.stats.checks++;
        if (jsonDiff(referenceParse(got as string), d.value) !== '') this.fail(`prettify: a different value: ${show(got, 200)}`);
        return;
      case 'validate':
        got = this.live('validate', () => codec.validate(input), []);
        want = true;
        break;
      default: {
        got = this.live('parse', () => codec.parse(input), []);
        this.stats.checks++;
        const diff = jsonDiff(got, d.value);
        if (diff) this.fail(`parse: differs at ${diff}\n  text: ${show(d.text, 300)}`);
        return;
      }
    }
    this.stats.checks++;
    if (got !== want) this.fail(`${op}: expected ${show(want, 200)}, got ${show(got, 200)}`);
  }

  /** at() of a held document's text (its own copy: heads of long arrays, narrowed two-byte strings). */
  private opAtOnText(): void {
    this.count('at-text');
    if (this.docs.length === 0) return;
    // Large ones often: an array of 4 MiB or more is read from growing heads.
    const bigs = this.docs.filter((d) => d.big);
    const doc = bigs.length && this.rng.chance(0.3) ? this.rng.pick(bigs) : this.rng.pick(this.docs);
    const pointer = this.randomPointer(doc.model);
    if (typeof pointer !== 'string') return;
    const input = this.rng.chance(0.5) && doc.text.isWellFormed() ? utf8.encode(doc.text) : doc.text;
    const codec = this.rng.pick(this.o.codecs);
    const what = `${codec.flavor}.at(${typeof input === 'string' ? 'text' : 'bytes'} of d${doc.id}, ${show(pointer, 80)})`;
    this.note(what);
    const expected = evaluatePointer(doc.model, pointer);
    if (expected === INVALID_POINTER) return this.expectError(what, () => codec.at(input, pointer), SyntaxError, /invalid JSON Pointer/, [doc]);
    if (isContainer(expected) && !isSmall(expected)) return;
    const got = this.live(what, () => codec.at(input, pointer), [doc]);
    this.stats.checks++;
    const diff = jsonDiff(got, expected);
    if (diff) this.fail(`${what}: differs at ${diff}`, [doc]);
  }

  /**
   * A document one character away from a generated one: lazy() then toJS() (which reads
   * and checks all of it) give the reference parser's value, or a SyntaxError at one of
   * the two; then it is freed. Its errors must leave the other documents as they were.
   */
  private opMutatedDocument(): void {
    this.count('mutated');
    const d = containerDocument(this.rng);
    const text = mutate(this.rng, d.text);
    let model: unknown;
    let valid = true;
    try {
      model = referenceParse(text);
    } catch {
      valid = false;
    }
    const codec = this.rng.pick(this.o.codecs);
    this.note(`${codec.flavor}.lazy(mutated ${show(text, 120)}) -> toJS()`);
    let node: any;
    let value: unknown;
    try {
      node = codec.lazy(text);
      value = node instanceof this.LazyNode ? node.toJS() : node;
    } catch (e) {
      if (e instanceof StepMismatch) throw e;
      if (valid || !(e instanceof SyntaxError)) this.fail(`lazy(${show(text, 200)}).toJS(): threw ${describeError(e)}, expected ${valid ? show(model, 200) : 'a SyntaxError'}`);
      this.stats.checks++;
      if (node instanceof this.LazyNode) node.free();
      return;
    }
    this.stats.checks++;
    if (!valid) this.fail(`lazy(${show(text, 200)}).toJS(): expected a SyntaxError, got ${show(value, 200)}`);
    const diff = jsonDiff(value, model);
    if (diff) this.fail(`lazy(${show(text, 200)}).toJS(): differs at ${diff}`);
    if (node instanceof this.LazyNode) node.free();
  }

  // -------------------------------------------------------------------------------
  // Checkpoints: everything freed, wasm memory looked at.

  private async checkpoint(): Promise<void> {
    this.count('checkpoint');
    this.note('checkpoint: free every document, collect');
    for (const d of this.liveDocs()) {
      (d.root as any).free();
      d.freed = true;
    }
    this.docs = [];
    this.nodes = [];
    this.iters = [];
    if (this.o.collect) await this.o.collect();
    else await new Promise((resolve) => setTimeout(resolve, 0));
    const probes = this.o.codecs.map((c) => this.o.probe?.(c));
    if (probes.some((p) => p === undefined)) return;
    const memoryBytes = probes.map((p) => p!.memoryBytes());
    const liveAllocations = probes.map((p) => p!.liveAllocations());
    const ends = probes.map((p) => `${p!.endsBuilt()}/${p!.endsFreed()}`);
    this.stats.checkpoints.push({ step: this.step, memoryBytes, liveAllocations, ends });
    this.o.log?.(`checkpoint at step ${this.step}: memory ${memoryBytes.map((b) => `${(b / 1048576).toFixed(0)} MiB`).join(', ')}; live buffers ${liveAllocations.join(', ')}; container-end indexes built/freed ${ends.join(', ')}`);
    // With every document freed (and the dropped ones collected, when the runtime can
    // collect): no container-end index is left, and the buffers the codec keeps are its
    // own (codecKeeps).
    for (let i = 0; i < probes.length; i++) {
      const p = probes[i]!;
      const flavor = this.o.codecs[i].flavor;
      if (this.o.collect || !this.o.drop) {
        if (p.endsBuilt() !== p.endsFreed()) this.fail(`checkpoint (${flavor}): container-end indexes built ${p.endsBuilt()}, freed ${p.endsFreed()}, with every document freed`);
        const keeps = this.o.codecKeeps ?? 3;
        if (p.liveAllocations() > keeps) this.fail(`checkpoint (${flavor}): ${p.liveAllocations()} buffers still allocated with every document freed (the codec keeps ${keeps} at most)`);
      }
    }
  }
}

/**
 * `using held = resource` around a body, where the runtime has explicit resource
 * management (made from text: a runtime without it must still load this module).
 */
function makeUsingBlock(): ((resource: unknown, body: (held: any) => unknown) => unknown) | undefined {
  if (typeof Symbol.dispose !== 'symbol') return undefined;
  try {
    return new Function('resource', 'body', '{ using held = resource; return body(held); }') as (resource: unknown, body: (held: any) => unknown) => unknown;
  } catch {
    return undefined;
  }
}
