// stringify() and encode(): JSON.stringify's output, byte for byte, as a string or as
// UTF-8 bytes. JS walks the value graph (it alone can call toJSON, replacers and
// getters, in the spec's order) and writes a compact command stream; wasm formats the
// JSON text into one reusable output buffer (cpp/core/writer.h). The stream format is
// docs/BOUNDARY.md's "Serializing" section and cpp/core/writer_commands.h.
//
// The walk is iterative: open containers live on an explicit stack, so a 1,000,000-deep
// array stringifies. Strings, numbers and commands travel in batches: one boundary
// crossing per batch, never one per value.
import { hasSlot, K_OBJECT, K_OPAQUE, K_RAW, kindOf, lengthOf, numberValueOf, ownDataValue, stringValueOf, toLength, toNumber, unbox } from './boxed.js';
import { apply, getPrototypeOf, isArray, objectKeys } from './intrinsics.js';
import { checkNotBuilding } from './build.js';
import { notFiniteError, rawJsonError } from './canonicalize.js';
import { outOfMemory } from './errors.js';
import { copiesByLoop, copyOut } from './memory.js';
import type { StringBuiltins } from './string-builtins.js';
import { optionOf } from './options.js';
import { EVERY_ENGINE_REACHES, fitsInString, stringTooLong } from './string-limit.js';
import { concat, ownElements, withOwnElements } from './own-elements.js';
import type { WasmExports } from './exports.js';
import { decodeAscii, decodeUtf8In, NodeBufferCtor, type NodeBuffer } from './utf8.js';

/** JSON.stringify's replacer: a function (holder, key, value), or a list of property names. */
export type Replacer = ((this: any, key: string, value: any) => any) | readonly (string | number)[] | null;

export interface EncodeOptions {
  /** As JSON.stringify's second argument. */
  replacer?: Replacer;
  /** As JSON.stringify's third argument: spaces (at most 10) or a string (first 10 characters). */
  space?: string | number | null;
  /**
   * BigInt values: 'throw' (default) a TypeError as JSON.stringify does, or write them
   * as 'number' literals (123n -> 123). A BigInt.prototype.toJSON is honoured either way.
   */
  bigint?: 'throw' | 'number';
}

// Command tags (cpp/core/writer_commands.h).
const T_NULL = 0;
const T_FALSE = 1;
const T_TRUE = 2;
const T_INT = 3;
const T_DOUBLE = 4;
const T_STRING = 5;
const T_KEY = 6;
const T_KEY_NEW = 7;
const T_KEY_STRING = 8;
const T_ARRAY_BEGIN = 9;
const T_ARRAY_END = 10;
const T_OBJECT_BEGIN = 11;
const T_OBJECT_END = 12;
const T_RAW = 13;
/** A length payload that says "the length is the next word". */
const LONG = (1 << 28) - 1;

// wj_write statuses, wj_writer_begin flags, output flags.
const S_OUT_OF_MEMORY = 18;
const S_RESEND_UTF16 = 19;
const F_PRETTY = 1;
const F_KEEP_LONE_SURROGATES = 2;
const OUT_NON_ASCII = 1;
const OUT_WTF8 = 2;
const OUT_LONE_ESCAPE = 4; // a lone surrogate written as \udxxx
const OUT_UNSORTED = 8; // (W_CANONICAL) members not all sorted
// wj_write's mode bits: strings are UTF-8; the batch starts a document (compact);
// keep lone surrogates of raw text (with W_BEGIN); sort members (canonicalize, with W_BEGIN).
const W_UTF8 = 1;
const W_BEGIN = 2;
const W_KEEP_LONE = 4;
const W_CANONICAL = 8;
/** Strings areas larger than this are given back after the document. */
const KEEP_BYTES = 16 * 1024 * 1024;

/** Key cache limits (cpp/core/writer_keys.h). */
const MAX_KEYS = 8192;
const MAX_KEY_LENGTH = 64;
/** A batch is sent when its string data passes this many UTF-16 units. */
const STRING_BATCH = 32 * 1024;
/**
 * Longer batches (a long string) go as UTF-16 units even where encodeInto is the usual
 * copy: wasm escapes long UTF-16 strings piece by piece, but UTF-8 only whole, with room
 * for 6 bytes a unit (writer_escape.h kEscapePieceUnits), which fails from about 300
 * million units. (Far below that: the UTF-16 copy is a JS loop there, slower than
 * encodeInto.)
 */
const UTF8_BATCH_MAX = 1 << 26;
/** Open containers checked by scanning; deeper ones also go into a Set. */
const SCAN_DEPTH = 32;
/**
 * The most containers open at once: far past where JSON.stringify's recursion runs out of
 * stack (some thousands of levels in V8), but a limit all the same. A toJSON or replacer
 * that returns a new container at every level (no object repeats, so no cycle) never
 * ends; JSON.stringify soon throws a RangeError, and so does this walk here, at about
 * 0.5 GB of walk state, instead of growing until the Set's size limit (2^24) or memory
 * gives out, which can abort the process.
 */
export const MAX_DEPTH = 1 << 21;
/**
 * An object's members are read in a for-in loop (walk()), which starts over after each
 * member that is a container, skipping the members done. Past this many done, the rest
 * are read by key (a skipped member costs about 2 ns, a keyed read about 30).
 */
const FOR_IN_RESUME_MAX = 32;
/**
 * Larger objects are read by key. V8 keeps objects of many properties as hash tables
 * (JSON.parse makes them so from 128), and a for-in over one first lists and sorts all
 * its keys, at every restart.
 */
const FOR_IN_MAX_KEYS = 64;

/**
 * Whether an object's first key looks like an array index: its integer keys come first,
 * and a for-in over such keys makes a string of each index anew.
 */
function isIndexLike(k: string | undefined): boolean {
  return k !== undefined && (k.charCodeAt(0) - 48) >>> 0 < 10;
}
/** Arrays longer than this have no text within V8's longest string (2^29 - 24 units). */
const MAX_ARRAY_LENGTH = 2 ** 28 - 12;
/** encode's output has no string to fit: arrays longer than this have no text within its 2 GiB - 64 KiB. */
const MAX_ENCODED_ARRAY_LENGTH = 2 ** 30 - 2 ** 15;

// Where the walk is: at the top (the root value), in an array, in an object.
const AT_TOP = 0;
const IN_ARRAY = 1;
const IN_OBJECT = 2;

const encoder = new TextEncoder();

/**
 * Batches up to this many ops, numbers or string units are copied by a loop (outside
 * Node, longer string batches too: memory.ts, copiesByLoop).
 */
const SMALL_BATCH = 48;

/** The exports of cpp/boundary/exports_write.cpp (docs/BOUNDARY.md, "Serializing"). */
export interface WriterExports {
  /** A new write session (a pointer to its report), or 0 when memory cannot grow. */
  wj_writer_new(): number;
  wj_writer_free(session: number): void;
  /** Makes the session's strings area hold `bytes` bytes; returns a status. */
  wj_writer_strings(session: number, bytes: number): number;
  /** Starts a document; the gap's UTF-16 units are at the start of the strings area. */
  wj_writer_begin(session: number, flags: number, gapUnits: number): number;
  /** Formats one batch; returns a status (0 ok, 18 out of memory, 19 resend as UTF-16). */
  wj_write(session: number, opCount: number, numberCount: number, stringBytes: number, mode: number): number;
  wj_writer_reset_keys(): void;
  wj_writer_trim(session: number): void;
  /** Makes room for the padding after the output (wj_canonicalize reads it there); returns a status. */
  wj_writer_pad(session: number): number;
}
type Exports = WasmExports & WriterExports;

/** One document in progress: a wasm write session and the JS arrays batches are built in. */
interface Session {
  ptr: number; // write_session* (its report is at ptr)
  ops: Int32Array;
  nums: Float64Array;
  /** wj_write mode bits that start the document with the next batch (0 once started). */
  begin: number;
  /** The output becomes a JS string: past what one can hold, nothing more is written (flush). */
  text: boolean;
  /**
   * The text outgrew every string: the walk goes on, as JSON.stringify's does (its later
   * getters, toJSON and errors run and win), writing nothing more; at its end the
   * RangeError.
   */
  overflowed: boolean;
  /**
   * For canonicalize(value): a non-finite number or a JSON.rawJSON value is an error, as
   * RFC 8785 has no form for either (both take the walk's general path).
   */
  canonical: boolean;
}

/** Per-codec state shared by the walks (the key cache) and the wasm plumbing. */
class Writer {
  readonly keyIds = new Map<string, number>();
  nextKeyId = 0;
  /** Keys given ids in the batch being built (forgotten if the walk throws). */
  readonly pendingKeys = new Set<string>();
  /** Key lists seen by outermost calls, by first key, with their keys' ids. */
  private shapes = new Map<string | undefined, Shape[]>();
  private shapeCount = 0;
  /** Calls in progress: only the outermost one uses the key cache. */
  active = 0;
  private idle: Session | undefined;
  /**
   * The outermost call's walk state, kept from call to call: no arrays to make per call,
   * and its last shape per depth still holds when the next call's objects have the same
   * keys (small documents stringified one after another). Nested calls make their own.
   */
  walkState: WalkState = newWalkState();

  /**
   * `builtins`: the codec's string builtins module (memory.ts; outside Node, where the
   * engine has JS String Builtins): long string batches go in as their units through
   * it, not through encodeInto, and short ASCII output comes out through it.
   */
  constructor(
    readonly wasm: Exports,
    private readonly builtins: StringBuiltins | undefined,
  ) {}

  /** The shape of key list `keys` (outermost calls only: its ids may be defined by the caller). */
  shape(keys: readonly string[]): Shape {
    const first = keys[0];
    let list = this.shapes.get(first);
    if (list === undefined) {
      if (this.shapeCount >= MAX_SHAPES) this.forgetShapes();
      list = [];
    }
    for (let i = 0; i < list.length; i++) if (sameKeys(list[i].keys, keys)) return list[i];
    const shape: Shape = { keys, ids: ownElements(keys.length, UNKNOWN) };
    if (list.length < SHAPES_PER_KEY) {
      // (A longer copy, not push: own-elements.ts)
      this.shapes.set(first, concat(list, [shape]));
      this.shapeCount++;
    } else {
      list[this.shapeCount++ % SHAPES_PER_KEY] = shape;
    }
    return shape;
  }

  /** Drops every shape: their ids are no longer valid (or the cache is full). */
  forgetShapes(): void {
    this.shapes.clear();
    this.shapeCount = 0;
    this.walkState.lastShape.fill(undefined);
  }

  acquire(): Session {
    const idle = this.idle;
    if (idle !== undefined) {
      this.idle = undefined;
      return idle;
    }
    const ptr = this.wasm.wj_writer_new() >>> 0;
    if (ptr === 0) throw outOfMemory();
    // The caller's try/finally (which releases the session) starts only once this
    // returns: a throw in between (a stack overflow in a nested call, out of JS heap)
    // would leave the session allocated and unreachable, and enough of them fill wasm
    // memory for good.
    try {
      this.views();
      const r = ptr >>> 2;
      return { ptr, ops: new Int32Array(this.i32[r + 1]), nums: new Float64Array(this.i32[r + 3]), begin: 0, text: false, overflowed: false, canonical: false };
    } catch (e) {
      this.wasm.wj_writer_free(ptr);
      throw e;
    }
  }

  release(s: Session): void {
    if (this.idle === undefined) {
      this.idle = s;
      this.views();
      if (this.i32[(s.ptr >>> 2) + 5] >>> 0 > KEEP_BYTES) this.wasm.wj_writer_trim(s.ptr);
    } else {
      this.wasm.wj_writer_free(s.ptr);
    }
  }

  // Views of wasm memory, re-made after it grows (any wasm call, or user code that calls
  // into the codec, may grow it).
  private i32 = new Int32Array(0);
  private f64 = new Float64Array(0);
  private u16 = new Uint16Array(0);
  private u8 = new Uint8Array(0);
  private nodeBuffer: NodeBuffer | undefined;
  private views(): void {
    // Growth detaches the old buffer, leaving its views empty (see memory.ts).
    if (this.u8.length !== 0) return;
    const buffer = this.wasm.memory.buffer;
    const i32 = new Int32Array(buffer);
    const f64 = new Float64Array(buffer);
    const u16 = new Uint16Array(buffer);
    // Node's Buffer, when present: its ucs2Write copies a whole batch of strings in one call
    // (called directly: Buffer.prototype.write's argument checks cost ~20% of the copy).
    const nodeBuffer = NodeBufferCtor?.from(buffer);
    // All made before any is kept, u8 (the test above) last: a throw part way (a stack
    // overflow) must not leave fresh views next to a stale one.
    this.i32 = i32;
    this.f64 = f64;
    this.u16 = u16;
    this.nodeBuffer = nodeBuffer;
    this.u8 = new Uint8Array(buffer);
  }

  /** Starts a document in session s: with a gap now, else with the first batch. */
  begin(s: Session, gap: string, flags: number): void {
    if (gap.length === 0) {
      s.begin = W_BEGIN | (flags & F_KEEP_LONE_SURROGATES ? W_KEEP_LONE : 0) | (s.canonical ? W_CANONICAL : 0);
      return;
    }
    this.views();
    const at = this.i32[(s.ptr >>> 2) + 4] >>> 1;
    for (let i = 0; i < gap.length; i++) this.u16[at + i] = gap.charCodeAt(i);
    this.wasm.wj_writer_begin(s.ptr, flags | F_PRETTY, gap.length);
    s.begin = 0;
  }

  /** Sends one batch: op words, numbers and the strings (all concatenated) to wasm. */
  flush(s: Session, opCount: number, numCount: number, strings: string): void {
    // (Dropped: the keys it defines stay pending, and the walk's end forgets them.)
    if (s.overflowed) return;
    const wasm = this.wasm;
    const r = s.ptr >>> 2;
    this.views();
    // Small batches (small documents) by loops: a subarray and a set() call cost more.
    const i32 = this.i32;
    const opsAt = i32[r] >>> 2;
    if (opCount <= SMALL_BATCH) for (let j = 0; j < opCount; j++) i32[opsAt + j] = s.ops[j];
    else i32.set(s.ops.subarray(0, opCount), opsAt);
    if (numCount !== 0) {
      const numsAt = i32[r + 2] >>> 3;
      if (numCount <= SMALL_BATCH) for (let j = 0; j < numCount; j++) this.f64[numsAt + j] = s.nums[j];
      else this.f64.set(s.nums.subarray(0, numCount), numsAt);
    }
    let bytes = 0;
    let mode = s.begin;
    const units = strings.length;
    if (units !== 0) {
      // Room for UTF-16 (2 bytes a unit) or UTF-8 (at most 3 bytes a unit).
      // (encodeInto is the copy only without Node's Buffer and string builtins, and not
      // for canonicalize(value): wasm sorts no members from a UTF-8 batch on.)
      const encodesInto = NodeBufferCtor === undefined && this.builtins === undefined && !s.canonical;
      const need = encodesInto && units <= UTF8_BATCH_MAX ? units * 3 : units * 2;
      if (need > this.i32[r + 5] >>> 0) {
        if (wasm.wj_writer_strings(s.ptr, need) !== 0) throw outOfMemory();
        this.views();
      }
      const at = this.i32[r + 4] >>> 0;
      const byLoop = encodesInto ? units > UTF8_BATCH_MAX : this.nodeBuffer === undefined && this.builtins === undefined;
      if (units <= SMALL_BATCH || copiesByLoop(units) || byLoop) {
        // The code units themselves (the UTF-16 form wj_write also takes).
        const u16 = this.u16;
        const base = at >>> 1;
        for (let j = 0; j < units; j++) u16[base + j] = strings.charCodeAt(j);
        bytes = units * 2;
      } else if (this.nodeBuffer !== undefined) {
        bytes = this.nodeBuffer.ucs2Write(strings, at, need);
      } else if (this.builtins !== undefined) {
        bytes = this.builtins.copy(strings, at) * 2;
      } else {
        bytes = encoder.encodeInto(strings, this.u8.subarray(at, at + need)).written;
        mode |= W_UTF8;
      }
    }
    let status = wasm.wj_write(s.ptr, opCount, numCount, bytes, mode);
    if (status === S_RESEND_UTF16) {
      // A lone surrogate (or a pair split between two strings) hides in the UTF-8: send
      // the code units themselves.
      this.views();
      const u16 = this.u16;
      const at = this.i32[r + 4] >>> 1;
      for (let i = 0; i < units; i++) u16[at + i] = strings.charCodeAt(i);
      status = wasm.wj_write(s.ptr, opCount, numCount, units * 2, mode & ~W_UTF8);
    }
    if (status !== 0) {
      if (status === S_OUT_OF_MEMORY) throw outOfMemory();
      // The batch was malformed (a tampered built-in?): key ids it defined before failing
      // are not to be trusted on either side.
      this.keyIds.clear();
      this.nextKeyId = 0;
      this.forgetShapes();
      this.wasm.wj_writer_reset_keys();
      throw new Error(`wasmjson: internal error ${status} from wj_write`);
    }
    s.begin = 0;
    this.views(); // (wj_write may have grown memory)
    if (s.text) {
      // Output that no string can hold: nothing more is written (a 1,000,000-deep array
      // with an indent wrote 4 GiB, which the instance then keeps), and the walk ends in
      // JSON.stringify's error. Its length in units is at least a third of its UTF-8 bytes.
      const len = this.i32[r + 7] >>> 0;
      if (len > EVERY_ENGINE_REACHES && !fitsInString(this.i32[r + 8] & (OUT_NON_ASCII | OUT_WTF8) ? Math.ceil(len / 3) : len)) {
        s.overflowed = true;
      }
    }
    // The outermost call's new keys have reached wasm. (A nested call defines none, and
    // must not forget the outer call's: they may still wait in its unsent batch.)
    // (Checked first: setting an array's length costs more than reading it.)
    if (this.active === 1 && this.pendingKeys.size !== 0) this.pendingKeys.clear();
  }

  /** The finished document as a string. */
  text(s: Session): string {
    this.views();
    const r = s.ptr >>> 2;
    const ptr = this.i32[r + 6] >>> 0;
    const end = ptr + (this.i32[r + 7] >>> 0);
    const flags = this.i32[r + 8];
    try {
      if (flags & OUT_WTF8) return decodeWtf8(this.u8, ptr, end);
      if (!(flags & OUT_NON_ASCII)) return decodeAscii(this.u8, ptr, end, this.builtins?.latin1);
      return decodeUtf8In(this.wasm, ptr, end);
    } catch (e) {
      // Longer than a string can be: JSON.stringify's own error.
      if (e instanceof RangeError || (e as { code?: unknown })?.code === 'ERR_STRING_TOO_LONG') throw stringTooLong();
      throw e;
    }
  }

  /** The finished document as a new Uint8Array. */
  bytes(s: Session): Uint8Array<ArrayBuffer> {
    this.views();
    const r = s.ptr >>> 2;
    const ptr = this.i32[r + 6] >>> 0;
    return copyOut(this.u8, ptr, ptr + (this.i32[r + 7] >>> 0));
  }

  /**
   * The finished document where it is in wasm memory, with room for the padding after
   * it: [ptr, ptr + len).
   */
  /**
   * Whether a canonicalize(value) session's output is RFC 8785's text as it is: every
   * object's members were sorted as it closed, and no string holds a lone surrogate.
   */
  canonical(s: Session): boolean {
    this.views();
    return (this.i32[(s.ptr >>> 2) + 8] & (OUT_UNSORTED | OUT_LONE_ESCAPE | OUT_WTF8)) === 0;
  }

  padded(s: Session): { ptr: number; len: number } {
    if (this.wasm.wj_writer_pad(s.ptr) !== 0) throw outOfMemory();
    this.views();
    const r = s.ptr >>> 2;
    return { ptr: this.i32[r + 6] >>> 0, len: this.i32[r + 7] >>> 0 };
  }

  /** Runs one document through a session; `finish` reads the output. */
  run<T>(
    value: unknown,
    replacer: unknown,
    space: unknown,
    bigints: boolean,
    keepLone: boolean,
    finish: (s: Session) => T,
    canonical = false,
  ): T | undefined {
    checkNotBuilding();
    // Argument processing in the spec's order: the replacer list, then the gap.
    let replacerFn: ((this: unknown, key: string, value: unknown) => unknown) | undefined;
    let propertyList: string[] | undefined;
    if (typeof replacer === 'function') replacerFn = replacer as typeof replacerFn;
    else if (isArray(replacer)) propertyList = toPropertyList(replacer);
    const gap = toGap(space);
    if (!keepLone && pairsAcrossRepeats(gap)) {
      // encode: TextEncoder reads the whole text, where such a gap's repetitions (depth
      // 2 and deeper) join a high and a low surrogate into one character; written one
      // gap at a time they would be two U+FFFD. The text is made with lone surrogates
      // kept, then encoded as TextEncoder encodes it.
      keepLone = true;
      finish = ((s: Session) => encoder.encode(this.text(s))) as unknown as (s: Session) => T;
    }

    const outermost = this.active === 0;
    if (outermost && this.nextKeyId >= MAX_KEYS) {
      this.keyIds.clear();
      this.nextKeyId = 0;
      this.forgetShapes();
      this.wasm.wj_writer_reset_keys();
    }
    const s = this.acquire();
    s.text = keepLone; // (the text route: stringify, and encode of a gap that pairs surrogates)
    s.overflowed = false;
    s.canonical = canonical;
    this.active++;
    try {
      this.begin(s, gap, keepLone ? F_KEEP_LONE_SURROGATES : 0);
      if (!walk(this, s, value, replacerFn, propertyList, bigints, outermost)) return undefined;
      if (s.overflowed) throw stringTooLong();
      return finish(s);
    } catch (e) {
      // Keys given ids in a batch that never reached wasm must not be used again.
      if (outermost) {
        for (const k of this.pendingKeys) this.keyIds.delete(k);
        this.pendingKeys.clear();
        this.forgetShapes(); // some may hold those ids
        // The walk stopped with containers open: drop them (and what they hold).
        this.walkState.stack.fill(undefined);
        this.walkState.open.fill(undefined as unknown as object);
      }
      throw e;
    } finally {
      this.active--;
      this.release(s);
    }
  }
}

/**
 * Serializes `root` into session s (SerializeJSONProperty, iteratively). Returns false
 * when the root itself serializes to nothing (undefined, a function, a symbol).
 *
 * Two paths: tight loops over the current array's elements and (in a for-in) the current
 * object's members that write primitives (strings, numbers, booleans, null, undefined)
 * on the spot, and the general path below them for everything else: objects (toJSON,
 * boxed values, raw JSON, cycle check, opening a container), BigInt, every value when a
 * replacer function is given, and members read by key (objects the for-in does not
 * take). The primitive writes are spelled out in each (a call per value costs more).
 * Members read by key once had a tight loop of their own: removing it measured 0.97-1.02x
 * (Node 26, within noise; citm_catalog.json and update-center.json, whose large and
 * index-keyed objects take that route, 0.97-1.05x).
 */
function walk(
  w: Writer,
  s: Session,
  root: unknown,
  replacer: ((this: unknown, key: string, value: unknown) => unknown) | undefined,
  propertyList: string[] | undefined,
  bigints: boolean,
  cacheKeys: boolean,
): boolean {
  const ops = s.ops;
  const nums = s.nums;
  const opLimit = ops.length - 4;
  const numLimit = nums.length;
  const fast = replacer === undefined;
  // Key ids per open object's key index, cached per depth by key list (see below), and
  // the open containers (`level` of them). Emptied as they close. Grown (growWalkState)
  // before a container opens past their length.
  const state = cacheKeys ? w.walkState : newWalkState();
  let { lastShape, idsAt, stack, open } = state;
  let level = 0;
  let ids: number[] = NO_IDS;
  let op = 0;
  let nb = 0;
  let strings = '';

  let deep: Set<object> | undefined;
  // Objects read by key only (kindOf: K_OPAQUE), none in almost every call.
  let opaque: WeakSet<object> | undefined;
  let holder: any = replacer !== undefined ? { '': root } : undefined;
  let keys: readonly string[] | null = null;
  let index = 0;
  let length = 0;
  let where = AT_TOP;
  let key = '';
  let value: any = root;

  general: for (;;) {
    // toJSON, then the replacer function.
    let type = typeof value;
    if (type === 'object' ? value !== null : type === 'function' || type === 'bigint') {
      const toJSON = value.toJSON;
      if (typeof toJSON === 'function') {
        value = apply(toJSON, value, [where === IN_ARRAY ? String(index - 1) : key]);
        type = typeof value;
      }
    }
    if (replacer !== undefined) {
      value = apply(replacer, holder, [where === IN_ARRAY ? String(index - 1) : key, value]);
      type = typeof value;
    }

    if (type === 'undefined' || type === 'function' || type === 'symbol') {
      if (where === IN_ARRAY) ops[op++] = T_NULL;
      else if (where === AT_TOP) return false;
    } else {
      // Long text (a key or value of STRING_BATCH units or more: the fast paths leave them
      // here) starts a batch: joined to a batch's text it could pass the longest string
      // (a RangeError of the engine's, not JSON.stringify's, and where encode has room for
      // the bytes). The batch is sent before the text is added, and after it by `next`.
      if (where === IN_OBJECT) {
        if ((key.length | strings.length) >= STRING_BATCH && strings.length !== 0) {
          w.flush(s, op, nb, strings);
          op = nb = 0;
          strings = '';
        }
        op = putKey(w, ops, op, ids, index - 1, key, cacheKeys);
        if (op < 0) {
          op = ~op;
          strings += key;
        }
      }
      // A value written as its text (a string, BigInt digits, raw JSON), added below.
      let text: string | undefined;
      let textTag = T_STRING;
      for (;;) {
        if (type === 'string') {
          text = value;
        } else if (type === 'number') {
          // (Every non-finite number comes this way.)
          if (s.canonical && value - value !== 0) throw notFiniteError(value, where === AT_TOP ? undefined : where === IN_ARRAY ? String(index - 1) : key);
          // Integers of up to 28 bits travel in the op word itself (-0 too: it writes 0).
          const word = value << 4;
          if (word >> 4 === value) {
            ops[op++] = word | T_INT;
          } else {
            ops[op++] = T_DOUBLE;
            nums[nb++] = value;
          }
        } else if (type === 'boolean') {
          ops[op++] = value ? T_TRUE : T_FALSE;
        } else if (type === 'bigint') {
          if (!bigints) throw new TypeError('Do not know how to serialize a BigInt');
          text = value.toString();
          textTag = T_RAW;
        } else if (value === null) {
          ops[op++] = T_NULL;
        } else {
          const array = isArray(value);
          if (!array) {
            // Boxed primitives and JSON.rawJSON values (rare: plain objects pay one test).
            const kind = kindOf(value);
            if (kind === K_OPAQUE) {
              (opaque ??= new WeakSet()).add(value);
            } else if (kind !== K_OBJECT) {
              if (kind === K_RAW) {
                text = value.rawJSON as string;
                if (s.canonical) throw rawJsonError(text);
                textTag = T_RAW;
                break;
              }
              value = unbox(value, kind);
              type = typeof value;
              continue;
            }
          }
          // Cycle check against the open containers.
          const depth = level;
          if (depth !== 0) {
            const scan = depth < SCAN_DEPTH ? depth : SCAN_DEPTH;
            for (let j = 0; j < scan; j++) {
              if (open[j] === value) throw circularError(open, level, stack, j, index, where, key);
            }
            if (depth > SCAN_DEPTH && deep!.has(value)) {
              throw circularError(open, level, stack, open.indexOf(value), index, where, key);
            }
          }
          if (depth >= MAX_DEPTH) {
            throw new RangeError(
              s.canonical
                ? `wasmjson.canonicalize: more than ${MAX_DEPTH} containers open at once (does a toJSON return a new container at every level?)`
                : `stringify: more than ${MAX_DEPTH} containers open at once (does a toJSON or replacer return a new container at every level?)`,
            );
          }
          if (depth === open.length) {
            growWalkState(state, depth + 1);
            ({ lastShape, idsAt, stack, open } = state);
          }
          open[depth] = value;
          level = depth + 1;
          if (depth >= SCAN_DEPTH) (deep ??= new Set()).add(value);
          const sp = depth * 5;
          stack[sp] = holder;
          stack[sp + 1] = keys;
          stack[sp + 2] = index;
          stack[sp + 3] = length;
          stack[sp + 4] = where;
          holder = value;
          index = 0;
          if (array) {
            keys = null;
            length = lengthOf(value);
            // Its text would outgrow any string ('[', then a character and a comma each):
            // JSON.stringify's error now, not after reading every element. (encode's
            // bytes have room for more, up to the output's ceiling.)
            if (length > MAX_ARRAY_LENGTH && (s.text || length > MAX_ENCODED_ARRAY_LENGTH)) {
              throw s.text ? stringTooLong() : outOfMemory();
            }
            where = IN_ARRAY;
            ops[op++] = T_ARRAY_BEGIN;
          } else {
            keys = propertyList ?? objectKeys(value);
            length = keys.length;
            where = IN_OBJECT;
            ops[op++] = T_OBJECT_BEGIN;
            // The key ids of this object's keys, shared by every object with the same
            // key list (records repeat a few): the last one at this depth, else the
            // codec's shape cache. Nested calls keep to their own (they define no ids).
            const last = lastShape[depth];
            if (last !== undefined && (last.keys === keys || sameKeys(last.keys, keys))) {
              ids = last.ids;
            } else {
              const shape = cacheKeys ? w.shape(keys) : { keys, ids: ownElements(length, UNKNOWN) };
              lastShape[depth] = shape;
              ids = shape.ids;
            }
            idsAt[depth] = ids;
          }
        }
        break;
      }
      if (text !== undefined) {
        if ((text.length | strings.length) >= STRING_BATCH && strings.length !== 0) {
          w.flush(s, op, nb, strings);
          op = nb = 0;
          strings = '';
        }
        op = putLength(ops, op, textTag, text.length);
        strings += text;
      }
    }

    // The next values of the current container, then closing finished containers.
    next: for (;;) {
      if (op > opLimit || nb >= numLimit || strings.length > STRING_BATCH) {
        w.flush(s, op, nb, strings);
        op = 0;
        nb = 0;
        strings = '';
      }
      if (where === IN_ARRAY) {
        while (index < length) {
          const x = holder[index++];
          if (fast) {
            // Primitives on the spot (no toJSON lookup applies to them).
            if (typeof x === 'number') {
              const word = x << 4;
              if (word >> 4 === x) {
                ops[op++] = word | T_INT;
              } else if (x - x === 0) {
                ops[op++] = T_DOUBLE;
                nums[nb++] = x;
                if (nb >= numLimit) continue next;
              } else {
                // Not finite: the general path (canonicalize refuses it there).
                value = x;
                continue general;
              }
            } else if (typeof x === 'string' && x.length < STRING_BATCH) {
              op = putLength(ops, op, T_STRING, x.length);
              strings += x;
              if (strings.length > STRING_BATCH) continue next;
            } else if (x === null || x === undefined) {
              ops[op++] = T_NULL;
            } else if (typeof x === 'boolean') {
              ops[op++] = x ? T_TRUE : T_FALSE;
            } else {
              value = x;
              continue general;
            }
            if (op > opLimit) continue next;
            continue;
          }
          value = x;
          continue general;
        }
      } else if (where === IN_OBJECT) {
        // Members by for-in first (see FOR_IN_RESUME_MAX): its loads read the field by
        // the receiver's enumeration index, where holder[keys[i]] is a megamorphic keyed
        // load (twitter.json: 6 ns against 33 per member). Every key it yields must be
        // the next of the snapshot `keys` (taken when the object opened, as
        // JSON.stringify's): the same Gets in the same order. On the first key that is
        // not (a getter deleted or added one), the rest are read by key, from `keys`.
        if (fast && propertyList === undefined && index <= FOR_IN_RESUME_MAX && length <= FOR_IN_MAX_KEYS && !isIndexLike(keys![0]) &&
            (opaque === undefined || !opaque.has(holder))) {
          let skip = index;
          // Whether the for-in itself is running (not a member's getter): its steps call
          // Proxy traps that JSON.stringify never calls (ownKeys and
          // getOwnPropertyDescriptor again, getPrototypeOf and has of proxies in the
          // prototype chain). One of those that throws ends the for-in: the rest is read
          // by key, as natively (and the object's later members too). What a getter
          // throws is native's error too.
          let stepping = true;
          try {
            for (const k in holder) {
              stepping = false;
              if (skip !== 0) {
                skip--;
                stepping = true;
                continue;
              }
              if (index === length || k !== keys![index]) break;
              index++;
              const x = holder[k];
              let tag: number;
              if (typeof x === 'string' && x.length < STRING_BATCH) tag = T_STRING; // (long: as objects)
              else if (typeof x === 'number' && x - x === 0) tag = T_INT; // (not finite: as objects)
              else if (x === null) tag = T_NULL;
              else if (typeof x === 'boolean') tag = T_TRUE;
              else if (x === undefined) {
                stepping = true;
                continue;
              } else {
                key = k;
                value = x;
                continue general;
              }
              const at = op;
              op = putKey(w, ops, op, ids, index - 1, k, cacheKeys);
              if (op < 0) {
                if (k.length >= STRING_BATCH) {
                  // A long key (never cached: putKey changed only ops): the general path puts it.
                  op = at;
                  key = k;
                  value = x;
                  continue general;
                }
                op = ~op;
                strings += k;
              }
              if (tag === T_STRING) {
                op = putLength(ops, op, T_STRING, (x as string).length);
                strings += x;
              } else if (tag === T_INT) {
                const word = (x as number) << 4;
                if (word >> 4 === x) {
                  ops[op++] = word | T_INT;
                } else {
                  ops[op++] = T_DOUBLE;
                  nums[nb++] = x as number;
                }
              } else if (tag === T_NULL) {
                ops[op++] = T_NULL;
              } else {
                ops[op++] = x ? T_TRUE : T_FALSE;
              }
              if (op > opLimit || nb >= numLimit || strings.length > STRING_BATCH) continue next;
              stepping = true;
            }
          } catch (e) {
            if (!stepping) throw e;
            (opaque ??= new WeakSet()).add(holder);
          }
        }
        if (index < length) {
          key = keys![index++];
          value = holder[key];
          continue general;
        }
      }
      if (where === AT_TOP) {
        w.flush(s, op, nb, strings);
        if (cacheKeys && open.length > KEEP_LEVELS) trimWalkState(w);
        return true;
      }
      ops[op++] = where === IN_ARRAY ? T_ARRAY_END : T_OBJECT_END;
      const closed = open[--level];
      open[level] = undefined as unknown as object;
      if (deep !== undefined && level >= SCAN_DEPTH) deep.delete(closed);
      const sp = level * 5;
      holder = stack[sp];
      keys = stack[sp + 1];
      index = stack[sp + 2];
      length = stack[sp + 3];
      where = stack[sp + 4];
      stack[sp] = stack[sp + 1] = undefined;
      if (where === IN_OBJECT) ids = idsAt[level - 1];
    }
  }
}

/** The arrays a walk works in (see Writer.walkState). */
interface WalkState {
  /** Per depth, the shape of the last object opened there. */
  lastShape: (Shape | undefined)[];
  /** Per depth, the key ids of the open object there. */
  idsAt: number[][];
  /** Per open container, its parent's (holder, keys, index, length, where). */
  stack: any[];
  /** The open containers (the cycle check). */
  open: object[];
}

function newWalkState(): WalkState {
  return { lastShape: ownElements(8, undefined), idsAt: ownElements(8, NO_IDS), stack: ownElements(40, undefined), open: ownElements(8, undefined as unknown as object) };
}

/** Open containers a Writer's walk state keeps room for between calls (see walk's end). */
const KEEP_LEVELS = 4096;

/**
 * After a call, with the walk state grown past KEEP_LEVELS: drops it when this call did
 * not open that many containers (kept, a 100,000-deep value left 8 MB of heap behind for
 * good). Told without a cost per container: opening one at depth KEEP_LEVELS stores its
 * parent's `where` (0-2) in the stack slot that holds DEEP_UNUSED after a check.
 */
function trimWalkState(w: Writer): void {
  const slot = 5 * KEEP_LEVELS + 4;
  if (w.walkState.stack[slot] === DEEP_UNUSED) w.walkState = newWalkState();
  else w.walkState.stack[slot] = DEEP_UNUSED;
}
const DEEP_UNUSED = -1;

/** Makes room in `state` for `levels` open containers. */
function growWalkState(state: WalkState, levels: number): void {
  state.open = withOwnElements(state.open, levels, undefined as unknown as object);
  const n = state.open.length;
  state.lastShape = withOwnElements(state.lastShape, n, undefined);
  state.idsAt = withOwnElements(state.idsAt, n, NO_IDS);
  state.stack = withOwnElements(state.stack, 5 * n, undefined);
}

/** An object's key list and the ids of its keys (UNKNOWN until first written). */
interface Shape {
  keys: readonly string[];
  ids: number[];
}
const SHAPES_PER_KEY = 8;
const MAX_SHAPES = 4096;

/** Key ids (walk): not looked up yet; a key that is not cached (long, or table full). */
const UNKNOWN = -0x40000000;
const NO_ID = -0x40000001;
/** The ids of no object (before the first opens). */
const NO_IDS: number[] = [];

/**
 * The id of key k: >= 0 when wasm has it, -(id + 1) for a new id the caller must define
 * (kKeyNew) now, NO_ID for a key written out each time. Only the outermost call defines.
 */
function keyId(w: Writer, k: string, cacheKeys: boolean): number {
  const id = w.keyIds.get(k);
  if (id !== undefined) return cacheKeys ? id : NO_ID;
  if (!cacheKeys || k.length > MAX_KEY_LENGTH || w.nextKeyId >= MAX_KEYS) return NO_ID;
  const fresh = w.nextKeyId++;
  w.keyIds.set(k, fresh);
  w.pendingKeys.add(k);
  return -fresh - 1;
}

/**
 * Writes the key op(s) for key k, the i-th of the open object (its id cached in ids).
 * Returns the next op index, bitwise-negated (~op) when k's characters must follow in
 * the strings: a key defined now (kKeyNew; a plain kKey from then on) or not cached.
 */
function putKey(w: Writer, ops: Int32Array, op: number, ids: number[], i: number, k: string, cacheKeys: boolean): number {
  let id = ids[i];
  if (id === UNKNOWN) id = ids[i] = keyId(w, k, cacheKeys);
  if (id >= 0) {
    ops[op] = (id << 4) | T_KEY;
    return op + 1;
  }
  if (id !== NO_ID) {
    ids[i] = id = -id - 1;
    ops[op] = (id << 4) | T_KEY_NEW;
    ops[op + 1] = k.length;
    return ~(op + 2);
  }
  return ~putLength(ops, op, T_KEY_STRING, k.length);
}

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length || a[0] !== b[0]) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function putLength(ops: Int32Array, op: number, tag: number, length: number): number {
  if (length < LONG) {
    ops[op] = (length << 4) | tag;
    return op + 1;
  }
  ops[op] = (LONG << 4) | tag;
  ops[op + 1] = length;
  return op + 2;
}

/** The replacer array as a property list: strings and numbers (or boxed ones), de-duplicated. */
function toPropertyList(replacer: { length: unknown; [i: number]: unknown }): string[] {
  // A Set keeps the first occurrence's place; Array.from defines the list's elements.
  const seen = new Set<string>();
  const n = toLength(replacer.length);
  for (let i = 0; i < n; i++) {
    const v = replacer[i];
    let item: string | undefined;
    if (typeof v === 'string') item = v;
    else if (typeof v === 'number') item = String(v);
    else if (typeof v === 'object' && v !== null && (hasSlot(stringValueOf, v) || hasSlot(numberValueOf, v))) item = String(v);
    if (item !== undefined) seen.add(item);
  }
  return Array.from(seen);
}

/** Whether a gap ends with a high surrogate and starts with a low one (two repetitions make a pair). */
function pairsAcrossRepeats(gap: string): boolean {
  const first = gap.charCodeAt(0);
  const last = gap.charCodeAt(gap.length - 1);
  return first >= 0xdc00 && first <= 0xdfff && last >= 0xd800 && last <= 0xdbff;
}

/** JSON.stringify's gap from its space argument (also prettify's indent). */
export function toGap(space: unknown): string {
  if (typeof space === 'object' && space !== null) {
    if (hasSlot(numberValueOf, space)) space = toNumber(space);
    else if (hasSlot(stringValueOf, space)) space = String(space);
  }
  if (typeof space === 'number') {
    const n = Math.min(10, Math.trunc(space) || 0);
    return n >= 1 ? ' '.repeat(n) : '';
  }
  if (typeof space === 'string') return space.length <= 10 ? space : space.slice(0, 10);
  return '';
}

/** V8's TypeError for a cyclic structure, naming the path around the circle. */
function circularError(open: object[], size: number, stack: any[], start: number, index: number, where: number, key: string): TypeError {
  // The key that led from open[i - 1] to open[i] is in open[i - 1]'s state, which the
  // stack holds at level i (the current container's is live).
  const keyAt = (i: number): string => {
    const level = i * 5;
    const w = stack[level + 4] as number;
    const ks = stack[level + 1] as readonly string[] | null;
    const ix = stack[level + 2] as number;
    return describeKey(w, ks, ix);
  };
  let message = `Converting circular structure to JSON\n    --> starting at object with constructor '${constructorName(open[start])}'`;
  const prefixEnd = Math.min(size, start + 3);
  for (let i = start + 1; i < prefixEnd; i++) message += `\n    |     ${keyAt(i)} -> object with constructor '${constructorName(open[i])}'`;
  if (size > prefixEnd + 1) message += '\n    |     ...';
  for (let i = Math.max(prefixEnd, size - 1); i < size; i++) {
    message += `\n    |     ${keyAt(i)} -> object with constructor '${constructorName(open[i])}'`;
  }
  message += `\n    --- ${where === IN_ARRAY ? `index ${index - 1}` : propertyName(key)} closes the circle`;
  return new TypeError(message);
}

function describeKey(where: number, keys: readonly string[] | null, index: number): string {
  return where === IN_ARRAY || keys === null ? `index ${index - 1}` : propertyName(keys[index - 1]);
}

/** A key as V8's message names it (the empty key has no name there). */
function propertyName(key: string): string {
  return key === '' ? '<anonymous>' : `property '${key}'`;
}

/**
 * The name V8's message gives an object (JSReceiver::GetConstructorName), read without
 * running user code (no getters; a Proxy's traps may still run). V8 first takes the
 * constructor the object was made by (`new F()`), unless it is anonymous or Object; the
 * nearest stand-in JS can see is its prototype's own `constructor` when that function's
 * `prototype` is the prototype. Then, from the object up its prototype chain, the first
 * level with a string @@toStringTag data property gives it (even ''), or with a
 * `constructor` data property that is a function named other than '' and 'Object' (the
 * object's own `constructor` is not looked at). Else 'Object' ('Array' for arrays: an
 * array subclass is named as its class; a proxy of an array, which V8 names 'Object',
 * cannot be told apart and is named 'Array').
 */
function constructorName(o: object): string {
  const nameOf = (c: unknown): string => {
    if (typeof c !== 'function') return '';
    const name = ownDataValue(c, 'name');
    return typeof name === 'string' && name !== 'Object' ? name : '';
  };
  try {
    const proto = getPrototypeOf(o);
    if (proto !== null) {
      const made = ownDataValue(proto, 'constructor');
      const name = nameOf(made);
      if (name !== '' && ownDataValue(made as object, 'prototype') === proto) return name;
    }
    for (let p: object | null = o; p !== null; p = getPrototypeOf(p)) {
      const tag = ownDataValue(p, Symbol.toStringTag);
      if (typeof tag === 'string') return tag;
      if (p !== o) {
        const name = nameOf(ownDataValue(p, 'constructor'));
        if (name !== '') return name;
      }
    }
  } catch {
    // A proxy trap threw: fall back to the generic name.
  }
  return isArray(o) ? 'Array' : 'Object';
}

/** UTF-8 with lone surrogates as WTF-8 (raw JSON text kept them) -> the JS string. */
function decodeWtf8(bytes: Uint8Array, begin: number, end: number): string {
  let s = '';
  // UTF-16 units, flushed into s every 4096 (a typed array: own-elements.ts).
  const chunk = new Uint16Array(4098);
  let n = 0;
  for (let i = begin; i < end; ) {
    const c = bytes[i];
    let cp: number;
    if (c < 0x80) {
      cp = c;
      i += 1;
    } else if (c < 0xe0) {
      cp = ((c & 0x1f) << 6) | (bytes[i + 1] & 0x3f);
      i += 2;
    } else if (c < 0xf0) {
      cp = ((c & 0x0f) << 12) | ((bytes[i + 1] & 0x3f) << 6) | (bytes[i + 2] & 0x3f);
      i += 3;
    } else {
      cp = ((c & 0x07) << 18) | ((bytes[i + 1] & 0x3f) << 12) | ((bytes[i + 2] & 0x3f) << 6) | (bytes[i + 3] & 0x3f);
      i += 4;
    }
    if (cp >= 0x10000) {
      cp -= 0x10000;
      chunk[n++] = 0xd800 + (cp >> 10);
      chunk[n++] = 0xdc00 + (cp & 0x3ff);
    } else {
      chunk[n++] = cp;
    }
    if (n >= 4096) {
      s += String.fromCharCode.apply(null, chunk.subarray(0, n) as unknown as number[]);
      n = 0;
    }
  }
  return s + String.fromCharCode.apply(null, chunk.subarray(0, n) as unknown as number[]);
}

/**
 * Typed as JSON.stringify is: the result is undefined (not a string) exactly where
 * JSON.stringify's is (undefined, a function or a symbol at the top, or made so there by
 * toJSON or the replacer).
 */
export interface Serializer {
  stringify(value: unknown, replacer?: Replacer, space?: string | number | null): string;
  encode(value: unknown, options?: EncodeOptions): Uint8Array<ArrayBuffer>;
  /**
   * canonicalize(value): the value serialized as stringify() serializes it (its numbers
   * as Number::toString writes them), but a non-finite number or a JSON.rawJSON value is
   * a CanonicalizationError, and each object's members sorted by key as wasm writes them
   * (cpp/core/writer_sort.h). That is the RFC 8785 text, returned, unless wasm could not
   * sort (a key with an escape) or a string holds a lone surrogate: then `finish` gets
   * the text where it is in wasm memory (with room for the padding after it), and its
   * string on demand. Undefined where stringify() gives undefined.
   */
  serializeForCanonical<T>(value: unknown, finish: (ptr: number, len: number, text: () => string) => T): T | string | undefined;
}

/** stringify() and encode() over one wasm instance. */
export function createSerializer(wasm: WasmExports, builtins?: StringBuiltins): Serializer {
  const w = new Writer(wasm as Exports, builtins);
  const text = (s: Session) => w.text(s);
  const bytes = (s: Session) => w.bytes(s);
  return {
    stringify(value: unknown, replacer?: Replacer, space?: string | number | null): string {
      return w.run(value, replacer, space, false, true, text) as string;
    },
    encode(value: unknown, options?: EncodeOptions): Uint8Array<ArrayBuffer> {
      const bigint = optionOf(options, 'bigint');
      if (bigint !== undefined && bigint !== 'throw' && bigint !== 'number') {
        throw new TypeError(`wasmjson.encode: options.bigint must be 'throw' or 'number', got ${String(bigint)}`);
      }
      const replacer = optionOf(options, 'replacer') as Replacer | undefined;
      const space = optionOf(options, 'space') as EncodeOptions['space'];
      return w.run(value, replacer, space, bigint === 'number', false, bytes) as Uint8Array<ArrayBuffer>;
    },
    serializeForCanonical<T>(value: unknown, finish: (ptr: number, len: number, text: () => string) => T): T | string | undefined {
      // Kept as text would be (the output becomes a string): no raw text reaches it, so
      // lone surrogates are only ever escaped.
      return w.run(
        value,
        undefined,
        undefined,
        false,
        true,
        (s): T | string => {
          if (w.canonical(s)) return w.text(s);
          const { ptr, len } = w.padded(s);
          return finish(ptr, len, () => w.text(s));
        },
        true,
      );
    },
  };
}
