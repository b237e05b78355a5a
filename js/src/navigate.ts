// at() and lazy documents: JSON Pointer (RFC 6901) and on-demand access evaluated on the
// bytes in wasm memory. Only the containers on the path, the keys compared and the
// structure of skipped values are read; the value returned is parsed (and validated) in
// full. See cpp/core/navigate.h for what is and is not checked.
import type { WasmExports } from './exports.js';
import type { Memory, Region } from './memory.js';
import { checkNotBuilding } from './build.js';
import { BYTES_IN_WASM, outOfMemory } from './errors.js';
import { decodeUtf8 } from './utf8.js';
import { jsonParse } from './intrinsics.js';
import { ownElements } from './own-elements.js';

const NONE = 0xffffffff;
/** Value kinds (nav::kind); as `within`, the container a value is a member of (0: the root). */
export const KIND_OBJECT = 1;
export const KIND_ARRAY = 2;
export const ROOT = 0;
/** Array indexes are below 2^32 - 1, as in JS. */
const MAX_INDEX = 4294967294;
const encoder = new TextEncoder();

/**
 * What a lazy lookup gives: a node for an array or an object (tell them apart by `kind`
 * once narrowed with `instanceof LazyNode`, or by isArray() / isObject()), else the
 * scalar's value.
 */
export type LazyValue = LazyArrayNode | LazyObjectNode | string | number | boolean | null;

/** A LazyNode of an array: iterating it yields its elements. */
export interface LazyArrayNode extends LazyNode {
  readonly kind: 'array';
  [Symbol.iterator](): IterableIterator<LazyValue>;
  /** [index, element] pairs, as Array.prototype.entries gives them. */
  entries(): IterableIterator<[number, LazyValue]>;
}

/** A LazyNode of an object: iterating it yields [key, value] pairs. */
export interface LazyObjectNode extends LazyNode {
  readonly kind: 'object';
  [Symbol.iterator](): IterableIterator<[string, LazyValue]>;
  /** [key, value] pairs (as iteration), in the order Object.entries(toJS()) gives them. */
  entries(): IterableIterator<[string, LazyValue]>;
}

/** What the codec lends the navigator. */
export interface NavHost {
  wasm: WasmExports;
  memory: Memory;
  /**
   * Parses the value starting at byte `begin` of the document, in place, with what must
   * follow it: a member of a container (`within` KIND_OBJECT or KIND_ARRAY) or the
   * root (ROOT: the end); errors re-based to the document.
   */
  valueAt(region: Region, begin: number, source: string | Uint8Array, within: number): unknown;
  /** Throws the error of a failed call on the document at `ptr` (still in wasm memory). */
  fail(code: number, byteOffset: number, source: string | Uint8Array, len: number, ptr: number): never;
  inputFlags(source: string | Uint8Array): number;
  /**
   * Told when a navigation call read a key holding U+FFFD (at()'s first try on a string
   * checks then whether the string holds a lone surrogate: see codec.ts).
   */
  keySawReplacement?(source: string | Uint8Array): void;
  /** Parses a whole document given as a string, as parse() does without options (atNarrowed). */
  parseText?(text: string): unknown;
}

/**
 * Throws unless `pointer` is RFC 6901's: "" (the whole document), or "/"-separated
 * tokens whose '~' escapes are ~1 and ~0. Lookups pass the pointer's text to wasm as it
 * is; only a lookup in a listed container reads its tokens (LazyNode.at), which it
 * unescapes when this returns true (the pointer has a '~').
 */
function checkPointer(pointer: string): boolean {
  if (typeof pointer !== 'string') throw new TypeError('wasmjson: a JSON Pointer must be a string');
  if (pointer === '') return false;
  if (pointer[0] !== '/') throw new SyntaxError(`wasmjson: invalid JSON Pointer '${pointer}': it must be empty or start with '/'`);
  if (pointer.indexOf('~') < 0) return false;
  if (/~[^01]|~$/.test(pointer)) throw new SyntaxError(`wasmjson: invalid JSON Pointer '${pointer}': '~' must be followed by 0 or 1`);
  return true;
}

/**
 * A key with lone surrogates as WTF-8 (each surrogate as 3 bytes, as the core writes
 * them); well-formed keys go through placeKey.
 */
function wtf8KeyBytes(key: string): Uint8Array {
  // At most 3 bytes per UTF-16 unit.
  const out = new Uint8Array(key.length * 3);
  let n = 0;
  for (const ch of key) {
    const c = ch.codePointAt(0)!;
    if (c >= 0xd800 && c <= 0xdfff) {
      out[n++] = 0xe0 | (c >> 12);
      out[n++] = 0x80 | ((c >> 6) & 0x3f);
      out[n++] = 0x80 | (c & 0x3f);
    } else {
      n += encoder.encodeInto(ch, out.subarray(n)).written;
    }
  }
  return out.slice(0, n);
}

/**
 * Per codec (by its wasm exports: hosts made for one document share them): a buffer in
 * wasm memory that lookup keys and pointers are written into (grown as needed).
 */
const keyBuffers = new WeakMap<WasmExports, { ptr: number; capacity: number }>();

/**
 * Writes a well-formed key's (or pointer's) UTF-8 into the codec's key buffer: no
 * allocation per lookup (encoding to a new Uint8Array, then an owned region, cost more
 * than the lookup itself on small documents). The buffer is used only within one
 * wj_nav_child or wj_nav_path call.
 */
function placeKey(host: NavHost, key: string): { ptr: number; length: number } {
  const need = key.length * 3; // UTF-8 bytes per UTF-16 unit, at most
  let buffer = keyBuffers.get(host.wasm);
  if (buffer === undefined || buffer.capacity < need) {
    // Forgotten before it is freed: a throw before the new one is kept (a stack overflow
    // at any call below) must not leave a freed buffer to be written into.
    keyBuffers.delete(host.wasm);
    if (buffer !== undefined) host.wasm.wj_free(buffer.ptr);
    const capacity = Math.max(256, need);
    const ptr = host.wasm.wj_alloc(capacity) >>> 0;
    if (ptr === 0) throw outOfMemory(capacity);
    keyBuffers.set(host.wasm, (buffer = { ptr, capacity }));
  }
  return { ptr: buffer.ptr, length: host.memory.writeUtf8(key, buffer.ptr) };
}

/** A scalar's kind (nav::kind::scalar). */
const KIND_SCALAR = 3;

/**
 * A container's children, listed once: lookups by key or index then cost no scan. Only
 * offsets are kept (a child's kind is its first byte): no object per child, which made
 * listing the long arrays of canada.json or marine_ik.json cost more than the scan.
 */
interface ContainerIndex {
  /** Arrays: each element's offset, in order. */
  offsets: Uint32Array | undefined;
  /** Objects: the offset of the last value under each key (JSON.parse keeps the last duplicate). */
  byKey: Map<string, number> | undefined;
}

/** A document in wasm memory: a buffer of its own until free(). */
class LazyDocument {
  region: Region | undefined;
  /** Its registration with the FinalizationRegistry (see Slot), until free(). */
  slot: Slot | undefined;
  // Per container (by offset): its index once built, on its second lookup. The first
  // is left to wasm: a lookup by key reads all of the object anyway (the last duplicate
  // key wins), but listing it also makes a string and a map entry of every key (one
  // get() from a 1.3 KB object: 11.5 us listed, 2.7 us in wasm); a lookup in an array
  // reads only up to the index.
  // (The maps are made on first use: reading a field or two of a small document needs
  // none of them.)
  private readonly lookups = new Sightings();
  // Per container: pointers evaluated from it (LazyNode.at), which lists it on the second.
  private readonly pathLookups = new Sightings();
  private indexes: Map<number, ContainerIndex> | undefined;
  constructor(
    readonly host: NavHost,
    region: Region,
    readonly source: string | Uint8Array,
  ) {
    this.region = region;
  }
  live(): Region {
    if (!this.region) throw new Error('wasmjson: this lazy document has been freed');
    checkNotBuilding();
    return this.region;
  }
  /** The index of the container at offset, if built; else built on its second call here. */
  indexOnSecondLookup(node: LazyNode, offset: number): ContainerIndex | undefined {
    const index = this.indexes?.get(offset);
    if (index !== undefined) return index;
    return this.pathLookups.again(offset) ? this.indexOf(node, offset, true) : undefined;
  }
  /** The index of the container at offset: built when `always`, or on its second lookup. */
  indexOf(node: LazyNode, offset: number, always: boolean): ContainerIndex | undefined {
    let index = this.indexes?.get(offset);
    if (index !== undefined) return index;
    if (!always && !this.lookups.again(offset)) return undefined;
    index = node.listChildren();
    (this.indexes ??= new Map()).set(offset, index);
    return index;
  }
  /**
   * Counts the bytes a listing or a lookup just read. Listing a container reads all of
   * it, its nested containers included, and so does a lookup by key (the last duplicate
   * wins): walking down a deep nest level by level would read the same bytes once per
   * level above them (quadratic in the depth). Once listings and lookups have read the
   * document 16 times over (and 1 MiB), the ends of all its containers are found in one
   * pass, and from then on containers are skipped by lookup, not by reading them.
   * (Reading a few fields lists a few times the document: at twice, the index was built
   * for 1% of twitter.json's fields and made that read 1.3-1.8x slower.)
   */
  listed(bytes: number): void {
    this.listedBytes += bytes;
    const region = this.live();
    if (region.ends !== undefined || this.listedBytes < ENDS_AFTER_TIMES * region.len + ENDS_AFTER_BYTES) return;
    // (0 when memory ran out: the scans go on, and are not retried.)
    region.ends = this.host.wasm.wj_nav_ends_build(region.ptr, region.len) >>> 0;
  }
  private listedBytes = 0;

  /** The kind of the value at offset, from its first byte. */
  kindAt(offset: number): number {
    const b = this.host.memory.bytes()[this.live().ptr + offset];
    return b === 0x7b ? KIND_OBJECT : b === 0x5b ? KIND_ARRAY : KIND_SCALAR;
  }
}

/** Bytes lazy listings read (this many times the document, and more bytes) before its container ends are indexed. */
const ENDS_AFTER_TIMES = 16;
const ENDS_AFTER_BYTES = 1024 * 1024;

/**
 * Lookups counted per container (by offset). The first container is held in a field: a
 * map is made only when a second one is looked up (reading a field or two of a small
 * document needs none).
 */
class Sightings {
  private first = -1;
  private counts: Map<number, number> | undefined;
  /** Counts one more lookup of the container at offset; true from its second on. */
  again(offset: number): boolean {
    if (this.counts === undefined) {
      if (this.first < 0) {
        this.first = offset;
        return false;
      }
      if (this.first === offset) return true;
      this.counts = new Map();
      this.counts.set(this.first, 1);
    }
    const seen = (this.counts.get(offset) ?? 0) + 1;
    this.counts.set(offset, seen);
    return seen >= 2;
  }
}

/**
 * The safety net for documents never freed: a FinalizationRegistry releases the region
 * of a document collected before free(). What it watches is a slot, an object only its
 * document refers to, and what the callback gets is the slot's held record: the host
 * and region of the document the slot serves, emptied by free(). free() then puts the
 * slot in a pool, and the next lazy() takes it, registered already. Registrations cost
 * more than their call: registering every document (as its own target) made lazy() of a
 * 200-byte document, one field read and free(), 1.65-1.9x slower than with no registry
 * at all in sustained runs (bench/ab.mjs lazy-1pct, 250 ms per run in processes of their
 * own; 2 KB: 1.3x; in its profile, 36% of the time in the garbage collector; batches of
 * 8 ms each after a full collection, as bench/run.mjs times them, hide most of it), and
 * slots run as fast as no registry. A slot is registered once, without an unregister
 * token (a token costs a hash-table entry to add and one to remove). A document dropped
 * without free() takes its slot with it: both are collected, and the callback releases
 * its region.
 */
interface Held {
  // (Both emptied by free(): a pooled slot keeps no codec alive.)
  host: NavHost | undefined;
  region: Region | undefined;
}
interface Slot {
  // (The held record never refers to its slot: the registry holds it strongly.)
  readonly held: Held;
}
const registry =
  typeof FinalizationRegistry === 'function'
    ? new FinalizationRegistry<Held>((held) => {
        if (held.region !== undefined) held.host!.memory.release(held.region);
      })
    : undefined;

/** Slots of freed documents, ready for the next (own elements: own-elements.ts). */
const SLOT_POOL_MAX = 64;
const slotPool: (Slot | undefined)[] = ownElements<Slot | undefined>(SLOT_POOL_MAX, undefined);
let pooledSlots = 0;

/** A registered slot serving `region` of `host`: a pooled one, else a new one. */
function takeSlot(registry: FinalizationRegistry<Held>, host: NavHost, region: Region): Slot {
  let slot: Slot | undefined;
  if (pooledSlots > 0) {
    slot = slotPool[--pooledSlots]!;
    slotPool[pooledSlots] = undefined;
  } else {
    slot = { held: { host: undefined, region: undefined } };
    registry.register(slot, slot.held);
  }
  slot.held.host = host;
  slot.held.region = region;
  return slot;
}

/** Empties a slot (its callback then has nothing to release) and pools it. */
function returnSlot(slot: Slot): void {
  slot.held.host = undefined;
  slot.held.region = undefined;
  // (A slot left out of a full pool is collected, its callback finding nothing.)
  if (pooledSlots < SLOT_POOL_MAX) slotPool[pooledSlots++] = slot;
}

/** The first argument of LazyNode's constructor when this module calls it. */
const MADE_HERE: unique symbol = Symbol('LazyNode');

/** One value of a lazy document: a container to explore, or (via get/at) a primitive. */
export class LazyNode {
  /** (Made by lazy() and by lookups only: `new LazyNode()` is a TypeError.) */
  constructor(
    token: typeof MADE_HERE,
    private readonly doc: LazyDocument,
    private readonly offset: number,
    /** 'object' or 'array'. */
    readonly kind: 'object' | 'array',
    /** What this node is a member of: KIND_OBJECT, KIND_ARRAY or ROOT. */
    private readonly within: number,
  ) {
    if (token !== MADE_HERE) throw new TypeError('wasmjson: LazyNode is made by lazy() and its lookups, not by new (it is exported for instanceof)');
  }

  /** The child under a key (objects) or index (arrays): a LazyNode for containers, else its value. */
  get(key: string | number): LazyValue | undefined {
    // The key is converted once, before the document is looked at: its toString is user
    // code, which may free the document (a Symbol is a TypeError, as ToString makes it).
    const name = typeof key === 'number' ? '' : `${key}`;
    const region = this.doc.live();
    // Arrays: the index i; objects: the key k.
    let k: string | undefined;
    let i = 0;
    if (this.kind === 'array') {
      // As a JS array reads it: only canonical non-negative integers are elements.
      i = typeof key === 'number' ? key : isArrayIndexKey(name) ? Number(name) : -1;
      if (!Number.isInteger(i) || i < 0 || i > MAX_INDEX) return undefined;
    } else {
      k = typeof key === 'number' ? `${key}` : name;
    }
    const index = this.doc.indexOf(this, this.offset, false);
    if (index === undefined) {
      const found = child(this.doc.host, region, this.doc.source, this.offset, k, i, this.doc);
      return found === undefined ? undefined : this.materialize(found.offset, found.kind, this.kindCode());
    }
    const offset = k === undefined ? index.offsets![i] : index.byKey!.get(k);
    return offset === undefined ? undefined : this.materialize(offset, this.doc.kindAt(offset), this.kindCode());
  }

  /**
   * The value at a JSON Pointer relative to this node. Containers already looked up
   * once are listed (indexed) and stepped through; from the first that is not, the rest
   * of the pointer is evaluated in one wasm call, which reads the outermost object left
   * on the path on to its end (linear, whatever the depth). Reading 1% of the fields of
   * canada.json by pointers from the root otherwise read the document on to its end once
   * per pointer.
   */
  at(pointer: string): LazyValue | undefined {
    const escaped = checkPointer(pointer);
    const region = this.doc.live();
    let node = this as LazyArrayNode | LazyObjectNode;
    if (pointer === '') return node;
    // Token by token from the slash at `start`, while containers are listed: most
    // lookups are one call to wasm with the pointer as it is. What is left for wasm is
    // the pointer's tail from a token's slash: RFC 6901's escaping is one to one, so
    // that tail is the rest of the tokens escaped again.
    for (let start = 0; ; ) {
      const index = this.doc.indexOnSecondLookup(node, node.offset);
      if (index === undefined) {
        const found = path(this.doc.host, region, this.doc.source, node.offset, start === 0 ? pointer : pointer.slice(start), this.doc);
        return found === undefined ? undefined : node.materialize(found.offset, found.kind, found.within);
      }
      let end = pointer.indexOf('/', start + 1);
      const last = end < 0;
      if (last) end = pointer.length;
      const raw = pointer.slice(start + 1, end);
      const token = escaped ? raw.replace(/~1/g, '/').replace(/~0/g, '~') : raw;
      let offset: number | undefined;
      if (node.kind === 'object') offset = index.byKey!.get(token);
      else if (isArrayIndexKey(token)) offset = index.offsets![Number(token)]; // (undefined past the end)
      if (offset === undefined) return undefined;
      const kind = this.doc.kindAt(offset);
      if (last) return node.materialize(offset, kind, node.kindCode());
      if (kind !== KIND_OBJECT && kind !== KIND_ARRAY) return undefined;
      node = containerNode(this.doc, offset, kind, node.kindCode());
      start = end;
    }
  }

  /** Number of elements (arrays) or distinct keys (objects). */
  get length(): number {
    this.doc.live();
    return this.kind === 'array' ? this.doc.indexOf(this, this.offset, true)!.offsets!.length : this.keys().length;
  }

  /** An object's keys, in the order Object.keys(toJS()) gives them; [] for an array. */
  keys(): string[] {
    this.doc.live();
    if (this.kind !== 'object') return [];
    const all = [...this.doc.indexOf(this, this.offset, true)!.byKey!.keys()];
    const integers = all.filter(isArrayIndexKey).sort((a, b) => Number(a) - Number(b));
    return integers.length ? [...integers, ...all.filter((k) => !isArrayIndexKey(k))] : all;
  }

  /** Whether this node is an array (then typed as one: its iteration yields elements). */
  isArray(): this is LazyArrayNode {
    return this.kind === 'array';
  }

  /** Whether this node is an object (then typed as one: its iteration yields [key, value] pairs). */
  isObject(): this is LazyObjectNode {
    return this.kind === 'object';
  }

  /** Elements (arrays) or [key, value] pairs (objects, last duplicate wins). */
  [Symbol.iterator](): IterableIterator<LazyValue | [string, LazyValue]> {
    return this.kind === 'array' ? this.values() : this.pairs();
  }

  /** The elements (arrays) or the values in key order (objects: Object.values(toJS())'s order). */
  *values(): IterableIterator<LazyValue> {
    if (this.kind === 'array') {
      // (The index may be cached: an empty array reaches no element to check this.)
      this.doc.live();
      for (const offset of this.doc.indexOf(this, this.offset, true)!.offsets!) yield this.materialize(offset, this.doc.kindAt(offset), KIND_ARRAY);
    } else {
      for (const k of this.keys()) yield this.get(k)!;
    }
  }

  /** [index, element] pairs (arrays, as Array.prototype.entries) or [key, value] pairs (objects, as iteration). */
  *entries(): IterableIterator<[number, LazyValue] | [string, LazyValue]> {
    if (this.kind === 'array') {
      let i = 0;
      for (const v of this.values()) yield [i++, v];
    } else {
      yield* this.pairs();
    }
  }

  /** An object's [key, value] pairs, in keys() order. */
  private *pairs(): IterableIterator<[string, LazyValue]> {
    for (const k of this.keys()) yield [k, this.get(k)!];
  }

  /** The whole value as JSON.parse would give it. */
  toJS(): unknown {
    return this.materialize(this.offset, this.kindCode(), this.within, true);
  }

  /** What JSON.stringify (and wasmjson's stringify) write for the node: its value, toJS(). */
  toJSON(): unknown {
    return this.toJS();
  }

  /** Releases the document's wasm memory now; every node of it becomes unusable. */
  free(): void {
    const region = this.doc.region;
    if (!region) return;
    this.doc.region = undefined;
    // (The safety net's slot too: its callback must not release the region again.)
    const slot = this.doc.slot;
    if (slot !== undefined) {
      this.doc.slot = undefined;
      returnSlot(slot);
    }
    this.doc.host.memory.release(region);
  }

  [Symbol.dispose](): void {
    this.free();
  }

  /** @internal Lists the children (see ContainerIndex), by one wasm scan. */
  listChildren(): ContainerIndex {
    const { host, source } = this.doc;
    const region = this.doc.live();
    const r = call(host, source, region, host.wasm.wj_nav_entries(region.ptr, region.len, this.offset, region.ends ?? 0));
    const i32 = host.memory.wide().i32;
    const list = i32[r + 5] >>> 2;
    const count = i32[r + 4] >>> 0;
    const extent = (i32[r + 7] >>> 0) - this.offset;
    let index: ContainerIndex;
    if (this.kind === 'array') {
      // Each entry is its value's offset (u32).
      index = { offsets: new Uint32Array(i32.buffer, list * 4, count).slice(), byKey: undefined };
    } else {
      // Each entry is four u32: key begin, key end, key escaped, value offset.
      const bytes = host.memory.bytes();
      const byKey = new Map<string, number>();
      for (let i = 0; i < count; i++) {
        const at = list + 4 * i;
        const raw = decodeUtf8(bytes, region.ptr + (i32[at] >>> 0), region.ptr + (i32[at + 1] >>> 0));
        byKey.set(i32[at + 2] !== 0 ? (jsonParse(`"${raw}"`) as string) : raw, i32[at + 3] >>> 0);
      }
      index = { offsets: undefined, byKey };
    }
    // Last: it may grow wasm memory (the views above would then be stale).
    this.doc.listed(extent);
    return index;
  }

  private kindCode(): number {
    return this.kind === 'object' ? KIND_OBJECT : KIND_ARRAY;
  }

  /**
   * The value at offset, a member of a container of kind `within` (ROOT: the document
   * itself): a node for a container, unless `whole` asks for all of it as JS values.
   */
  private materialize(offset: number, kind: number, within: number, whole = false): LazyValue {
    if (!whole && (kind === KIND_OBJECT || kind === KIND_ARRAY)) {
      return containerNode(this.doc, offset, kind, within);
    }
    return memberValue(this.doc.host, this.doc.live(), this.doc.source, offset, kind, within) as LazyValue;
  }
}

/** The node of the object or array (kind KIND_OBJECT or KIND_ARRAY) at offset, typed by its kind. */
function containerNode(doc: LazyDocument, offset: number, kind: number, within: number): LazyArrayNode | LazyObjectNode {
  return new LazyNode(MADE_HERE, doc, offset, kind === KIND_OBJECT ? 'object' : 'array', within) as LazyArrayNode | LazyObjectNode;
}

const QUICK_SCALAR_BYTES = 256;

/**
 * The JS value at offset (of kind `kind`, a member of a container of kind `within`): a
 * short scalar read in JS (quickScalar), else parsed in wasm (which also checks it).
 */
function memberValue(host: NavHost, region: Region, source: string | Uint8Array, offset: number, kind: number, within: number): unknown {
  if (kind !== KIND_OBJECT && kind !== KIND_ARRAY) {
    const quick = quickScalar(host.memory.bytes(), region.ptr, offset, region.len, within, asciiText(source, region));
    if (quick !== undefined) return quick;
  }
  return host.valueAt(region, offset, source, within);
}

/** The document as text when it is all ASCII (its UTF-8 is as long as it is): byte offsets index it. */
function asciiText(source: string | Uint8Array, region: Region): string | undefined {
  return typeof source === 'string' && source.length === region.len ? source : undefined;
}

/**
 * A short scalar (string, number, literal), a member of a container (`within`), read in
 * JS without a wasm call: what reading many fields of a lazy document spends most on. A
 * string without escapes is its text; anything else goes through the engine's
 * JSON.parse. The document is bytes[base, base + len), the value at `offset`; `ascii`
 * is the document as text when it is all ASCII (then the value is sliced from it, not
 * decoded). undefined (never a JSON value) when unsure: the value is long, does not
 * parse alone, is not followed by a comma or its container's bracket, or contains
 * U+FFFD (which may stand for ill-formed UTF-8 or a lone surrogate of string input);
 * the caller then parses it in wasm, which also gives the positioned error.
 */
function quickScalar(bytes: Uint8Array, base: number, offset: number, len: number, within: number, ascii: string | undefined): LazyValue | undefined {
  if (within === ROOT) return undefined;
  const p = base + offset;
  const end = base + len;
  let q = p;
  const limit = Math.min(end, p + QUICK_SCALAR_BYTES);
  let plain = false;
  if (bytes[q] === 0x22) {
    plain = true;
    for (q++; ; q++) {
      if (q >= limit) return undefined;
      const b = bytes[q];
      if (b === 0x22) break;
      if (b === 0x5c) {
        plain = false;
        q++;
      } else if (b < 0x20) {
        return undefined;
      }
    }
    q++;
  } else {
    // Up to the next delimiter: ',', ']', '}' or whitespace.
    for (; q < limit; q++) {
      const b = bytes[q];
      if (b === 0x2c || b === 0x5d || b === 0x7d || b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09) break;
    }
    if (q === limit && limit !== end) return undefined;
  }
  if (!memberEndsAt(bytes, q, end, within)) return undefined;
  if (plain) {
    // The text between the quotes.
    if (ascii !== undefined) return ascii.slice(p + 1 - base, q - 1 - base);
    const text = decodeUtf8(bytes, p + 1, q - 1);
    return text.includes('\ufffd') ? undefined : text;
  }
  const literal = literalAt(bytes, p, q);
  if (literal !== undefined) return literal;
  const raw = ascii !== undefined ? ascii.slice(p - base, q - base) : decodeUtf8(bytes, p, q);
  if (ascii === undefined && raw.includes('\ufffd')) return undefined;
  try {
    return jsonParse(raw) as LazyValue;
  } catch {
    return undefined;
  }
}

/**
 * The literal or integer (of up to 15 digits: exact in a double) that bytes[p, q) spell
 * exactly as JSON writes it, else undefined (quickScalar then has JSON.parse read the
 * text): read from the bytes, with no string to make (decoding the bytes was a tenth
 * of an at() of a number in a 2 KB document).
 */
function literalAt(bytes: Uint8Array, p: number, q: number): number | boolean | null | undefined {
  const n = q - p;
  const b = bytes[p];
  if (n === 4 && b === 0x74) return bytes[p + 1] === 0x72 && bytes[p + 2] === 0x75 && bytes[p + 3] === 0x65 ? true : undefined;
  if (n === 4 && b === 0x6e) return bytes[p + 1] === 0x75 && bytes[p + 2] === 0x6c && bytes[p + 3] === 0x6c ? null : undefined;
  if (n === 5 && b === 0x66) {
    return bytes[p + 1] === 0x61 && bytes[p + 2] === 0x6c && bytes[p + 3] === 0x73 && bytes[p + 4] === 0x65 ? false : undefined;
  }
  const negative = b === 0x2d;
  let i = negative ? p + 1 : p;
  const digits = q - i;
  // (A leading zero is JSON's only for 0 itself; -0 stays -0, as JSON.parse gives it.)
  if (digits < 1 || digits > 15 || (bytes[i] === 0x30 && digits > 1)) return undefined;
  let v = 0;
  for (; i < q; i++) {
    const d = bytes[i] - 0x30;
    if (d < 0 || d > 9) return undefined;
    v = v * 10 + d;
  }
  return negative ? -v : v;
}

/**
 * Whether a member of a `within` container may end at bytes[at]: a comma or the
 * container's closing bracket follows (after whitespace) before `end`.
 */
function memberEndsAt(bytes: Uint8Array, at: number, end: number, within: number): boolean {
  while (bytes[at] === 0x20 || bytes[at] === 0x0a || bytes[at] === 0x0d || bytes[at] === 0x09) at++;
  return at < end && (bytes[at] === 0x2c || bytes[at] === (within === KIND_OBJECT ? 0x7d : 0x5d));
}

/** Whether a key names an array element (a canonical index below 2^32 - 1). */
function isArrayIndexKey(k: string): boolean {
  // (By its characters: a lazy document asks this of every token of every pointer.)
  const n = k.length;
  if (n === 0 || n > 10) return false;
  if (k.charCodeAt(0) === 0x30) return n === 1;
  for (let i = 0; i < n; i++) {
    const c = k.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return false;
  }
  return n < 10 || Number(k) <= MAX_INDEX;
}

/** Runs a navigation export and returns its report's index, throwing its error. */
function call(host: NavHost, source: string | Uint8Array, region: Region, reportPtr: number): number {
  const r = reportPtr >>> 2;
  const i32 = host.memory.wide().i32;
  if (i32[r] !== 0) host.fail(i32[r], i32[r + 1] >>> 0, source, region.len, region.ptr);
  if (i32[r + 8] !== 0) host.keySawReplacement?.(source);
  return r;
}

/**
 * After a lookup (wj_nav_child, wj_nav_path) from the container at offset: counts what
 * it read towards the document's container ends (LazyDocument.listed), unless they are
 * already known.
 */
function countRead(host: NavHost, region: Region, r: number, offset: number, reads: LazyDocument | undefined): void {
  if (reads === undefined || region.ends !== undefined) return;
  const reach = host.memory.wide().i32[r + 7] >>> 0;
  if (reach > offset) reads.listed(reach - offset);
}

/**
 * How far a path lookup got through the array at the top, when its first token indexes
 * one: the element it read last (index, and byte offset where it starts; 0: none).
 * at() reads a long array from growing heads of the input, each from the last one's
 * progress (wj_nav_path's resume).
 */
export interface PathProgress {
  index: number;
  offset: number;
}

/**
 * The value a (non-empty, valid) JSON Pointer leads to from the container at offset:
 * one wasm call for the whole path; undefined when there is none. With `progress`, the
 * lookup resumes from it and records its own there (also when it fails).
 */
function path(
  host: NavHost,
  region: Region,
  source: string | Uint8Array,
  offset: number,
  pointer: string,
  /** The lazy document the lookup is made in (what it reads is counted), if any. */
  reads?: LazyDocument,
  progress?: PathProgress,
): { offset: number; kind: number; within: number } | undefined {
  let reportPtr: number;
  const resumeIndex = progress?.index ?? 0;
  const resumeOffset = progress?.offset ?? 0;
  if (pointer.isWellFormed()) {
    const { ptr, length } = placeKey(host, pointer);
    reportPtr = host.wasm.wj_nav_path(region.ptr, region.len, offset, ptr, length, region.ends ?? 0, resumeIndex, resumeOffset);
  } else {
    const bytes = wtf8KeyBytes(pointer);
    const pointerRegion = host.memory.acquireOwned(bytes);
    try {
      reportPtr = host.wasm.wj_nav_path(region.ptr, region.len, offset, pointerRegion.ptr, bytes.length, region.ends ?? 0, resumeIndex, resumeOffset);
    } finally {
      host.memory.release(pointerRegion);
    }
  }
  if (progress !== undefined) {
    // (Before call(), which throws the lookup's error.)
    const i32 = host.memory.wide().i32;
    const at = (reportPtr >>> 2) + 9;
    if (i32[at + 1] !== 0) {
      progress.index = i32[at] >>> 0;
      progress.offset = i32[at + 1] >>> 0;
    }
  }
  const r = call(host, source, region, reportPtr);
  const i32 = host.memory.wide().i32;
  const value = i32[r + 2] >>> 0;
  const found = value === NONE ? undefined : { offset: value, kind: i32[r + 3], within: i32[r + 6] };
  // Last: it may grow wasm memory (the view above would then be stale).
  countRead(host, region, r, offset, reads);
  return found;
}

function child(
  host: NavHost,
  region: Region,
  source: string | Uint8Array,
  offset: number,
  key: string | undefined,
  index: number,
  /** The lazy document the lookup is made in (what it reads is counted), if any. */
  reads?: LazyDocument,
): { offset: number; kind: number } | undefined {
  let reportPtr: number;
  if (key === undefined) {
    reportPtr = host.wasm.wj_nav_child(region.ptr, region.len, offset, 0, 0, index, region.ends ?? 0);
  } else if (key.isWellFormed()) {
    const { ptr, length } = placeKey(host, key);
    reportPtr = host.wasm.wj_nav_child(region.ptr, region.len, offset, ptr, length, 0, region.ends ?? 0);
  } else {
    const bytes = wtf8KeyBytes(key);
    const keyRegion = host.memory.acquireOwned(bytes);
    try {
      reportPtr = host.wasm.wj_nav_child(region.ptr, region.len, offset, keyRegion.ptr, bytes.length, 0, region.ends ?? 0);
    } finally {
      host.memory.release(keyRegion);
    }
  }
  const r = call(host, source, region, reportPtr);
  const i32 = host.memory.wide().i32;
  const value = i32[r + 2] >>> 0;
  const found = value === NONE ? undefined : { offset: value, kind: i32[r + 3] };
  countRead(host, region, r, offset, reads);
  return found;
}

function root(host: NavHost, region: Region, source: string | Uint8Array): { offset: number; kind: number } {
  const r = call(host, source, region, host.wasm.wj_nav_root(region.ptr, region.len, host.inputFlags(source)));
  const i32 = host.memory.wide().i32;
  return { offset: i32[r + 2] >>> 0, kind: i32[r + 3] };
}

/**
 * at(input, pointer): the value at the pointer, or undefined. With `progress` (a
 * pointer whose first token indexes the array at the top), the lookup resumes from it
 * and records its own there (see PathProgress).
 */
export function at(host: NavHost, source: string | Uint8Array, pointer: string, progress?: PathProgress): unknown {
  checkPointer(pointer);
  const region = host.memory.acquire(source);
  try {
    const { offset, kind } = root(host, region, source);
    if (pointer === '') return host.valueAt(region, offset, source, ROOT);
    if (kind !== KIND_OBJECT && kind !== KIND_ARRAY) {
      // A scalar has no children, if it is a document at all.
      host.valueAt(region, offset, source, ROOT);
      return undefined;
    }
    const found = path(host, region, source, offset, pointer, undefined, progress);
    return found === undefined ? undefined : memberValue(host, region, source, found.offset, found.kind, found.within);
  } finally {
    host.memory.release(region);
  }
}

/** What atNarrowed returns when it leaves the answer to at(). */
export const NOT_NARROWED: unique symbol = Symbol('wasmjson: not narrowed');

/**
 * at() on a string read as its units narrowed to bytes (Memory.acquireNarrowed,
 * cpp/core/narrowed_units.h), for a pointer that is ASCII without 0x7F: its lookup then
 * reads the same document as from the string's UTF-8, and byte offsets are the string's.
 * The value found is read from the bytes when its text is all ASCII, else parsed from
 * the string's slice (after the check parse() makes of what follows a member).
 * NOT_NARROWED where it does not answer: on any error, which at() then finds again in
 * the UTF-8 (and places and words as JSON.parse would), and for a document that is a
 * scalar. `host` throws NOT_NARROWED from fail(), and parses with no error rewriting.
 */
export function atNarrowed(host: NavHost, source: string, pointer: string, progress?: PathProgress): unknown {
  // (Outside the try: an invalid pointer is at()'s SyntaxError whatever the document. The
  // lookup itself would not see it when no key matches the token before its bad '~'.)
  checkPointer(pointer);
  let region: Region | undefined;
  try {
    region = host.memory.acquireNarrowed(source);
    const top = root(host, region, source);
    if (top.kind !== KIND_OBJECT && top.kind !== KIND_ARRAY) return NOT_NARROWED;
    const found = path(host, region, source, top.offset, pointer, undefined, progress);
    if (found === undefined) return undefined;
    const r = call(host, source, region, host.wasm.wj_nav_value_end(region.ptr, region.len, found.offset));
    const i32 = host.memory.wide().i32;
    if (i32[r + 4] === 0) return memberValue(host, region, source, found.offset, found.kind, found.within);
    // (What follows the value is ASCII: the narrowed bytes hold it as it is.)
    const end = i32[r + 7] >>> 0;
    if (!memberEndsAt(host.memory.bytes(), region.ptr + end, region.ptr + region.len, found.within)) return NOT_NARROWED;
    return host.parseText!(source.slice(found.offset, end));
  } catch {
    return NOT_NARROWED;
  } finally {
    if (region !== undefined) host.memory.release(region);
  }
}

/** lazy(input): the root of a document kept in wasm memory (a LazyNode, or the value itself). */
export function lazy(host: NavHost, source: string | Uint8Array): LazyValue {
  const region = host.memory.acquireOwned(source);
  // The region is this call's to release until a node holding it is returned: a throw
  // part way (the document's error, or a stack overflow at any call) must not leave it
  // in wasm memory for good.
  let handedOut = false;
  let slot: Slot | undefined;
  try {
    const r = root(host, region, source);
    if (r.kind !== KIND_OBJECT && r.kind !== KIND_ARRAY) return host.valueAt(region, r.offset, source, ROOT) as LazyValue;
    // Errors found later are described from the document's copy in wasm memory: the
    // caller's bytes may change or be detached meanwhile.
    const doc = new LazyDocument(host, region, typeof source === 'string' ? source : BYTES_IN_WASM);
    if (registry !== undefined) slot = doc.slot = takeSlot(registry, host, region);
    const node = containerNode(doc, r.offset, r.kind, ROOT);
    handedOut = true;
    return node;
  } finally {
    if (!handedOut) {
      // (Emptied as free() does: the registry then has nothing left to release.)
      if (slot !== undefined) returnSlot(slot);
      host.memory.release(region);
    }
  }
}
