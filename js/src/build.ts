// Tape -> JS values (docs/TAPE.md). Iterative: values wait on an explicit value stack
// until their container closes, so depth is limited by memory only. Nothing here calls
// user code, so the tape (in wasm memory) is fully consumed before a reviver or
// anything else can run.
//
// Containers are made when they close: an array is one slice of the value stack; an
// object whose shape (key sequence, numbered by wasm) was seen before is made by a
// cached constructor holding one object literal, else property by property.

import { jsonParse, jsonStringify } from './intrinsics.js';
import { concat, grownTyped, ownElements, withOwnElements } from './own-elements.js';
import { unescapeSource } from './unescape.js';

const T_NULL = 0;
const T_FALSE = 1;
const T_TRUE = 2;
const T_INT = 3;
const T_DOUBLE = 4;
/** kDouble with payload kHeapPiece: the string heap's next piece begins (no value). */
const T_HEAP_PIECE = (2 << 4) | T_DOUBLE;
const T_STRING = 5;
const T_STRING_ESC = 6;
const T_KEY = 7;
const T_KEY_NEW = 8;
const T_KEY_NEW_ESC = 9;
const T_ARRAY_BEGIN = 10;
const T_OBJECT_BEGIN = 11;
const T_ARRAY_END = 12;
const T_OBJECT_END = 13;
const T_NUMBER_ARRAY = 14;
const T_SCALAR_ARRAY = 15;
/** Literals by tape tag (T_NULL, T_FALSE, T_TRUE). */
const LITERALS = [null, false, true];
const NO_ID = (1 << 28) - 1;

/**
 * When a shape's objects are made by a constructor of its own (compiled by new Function,
 * about 100 us each in V8, where an object made by assignment costs a few hundred ns
 * more than one made by it): once the shape recurs in a second document (a program that
 * parses the same kinds of documents again, whose later parses then pay nothing), or is
 * seen this many times in one (the most sightings counts hold: a huge document of
 * records). The second sighting alone, the rule before, compiled one per shape of a
 * document parsed once: with keys new to the codec (bench/cold.mjs) twitter.json parsed
 * at 0.17x native, github_events.json at 0.22x; with this rule 0.83x and 0.73x (at 128
 * sightings: 0.65x and 0.74x), and recurring documents as fast as before from their
 * third parse on.
 */
const SIGHTINGS_BEFORE_CONSTRUCTOR = 255;
/**
 * ... but in one document, only when 32 times the tape read so far is still ahead: the
 * shape is then expected to recur thousands of times more, enough for its constructor
 * to be optimized. A new constructor runs interpreted at first, slower than assignment
 * (new Function plus 100 calls: 75 us; 100 objects of 3 keys by assignment: 36 us).
 * Records of 5 keys parsed cold (each document once, keys new), compiled at the 255th
 * sighting against never: 2000 records 0.49-0.64x native against 0.56-0.80x, 5000
 * 0.55-0.81x against 0.80-0.87x, 10000 1.03-1.07x against 0.82-0.92x: with 32, the
 * 255th record is read after 1/32 of the document at about 8000 records. With this rule the corpus cold went
 * from 0.79-0.81x to 0.88-0.89x native (apache_builds.json 0.27x to 0.55-0.60x,
 * instruments.json 0.41x to 0.64x, citm_catalog.json 0.78x to 0.96-1.00x), warm parse
 * unchanged. A shape that does not compile counts again from 0 (sightings are bytes).
 */
const CONSTRUCTOR_TAPE_AHEAD = 32;

type ObjectConstructor = (values: unknown[], base: number) => object;

/**
 * Objects with at least this many members are built in dictionary mode, as V8's JSON.parse
 * makes them from 128 members on: made with a null prototype (V8 makes such objects as
 * hash tables), filled, then given Object.prototype. Filled by assignment instead, each
 * new key would first add a hidden-class transition: A/B on parse(bytes), 1.02-1.05x on
 * gen:catalog.json and update-center.json; 2.6x on building a 4000-key object alone.
 */
const DICTIONARY_MIN = 128;

const ObjectPrototype = Object.prototype;

/**
 * Key ids and shape ids the tables have room for at first. Wasm hands out up to 8192
 * and 16384 before it resets its tables (key_table.h kMaxKeys, shape_table.h kMaxNodes);
 * the tables grow (doubling) when a document brings an id past them. Made at their full
 * size (24K elements, 300 KB), they were most of load(): 8.5-11.4 ms against 3.7-4.5 ms
 * now (Node 26, this machine, where memory written for the first time is slow), for
 * documents most of which use a few dozen keys and shapes.
 */
const KEY_IDS = 512;
const SHAPE_IDS = 512;

/**
 * Key strings and object constructors by wasm id, kept across parses. An id past their
 * elements (own-elements.ts) grows the tables first: a new key's id at its T_KEY_NEW
 * entry, a shape's at its object's begin entry (its end entry has the same id).
 */
export class KeyCache {
  /** `allowEval`: whether constructors may be compiled (makeConstructor). */
  constructor(readonly allowEval = true) {}
  strings: string[] = ownElements(KEY_IDS, '');
  constructors: (ObjectConstructor | undefined)[] = ownElements(SHAPE_IDS, undefined);
  sightings = new Uint8Array(SHAPE_IDS);
  /** By shape: the last document (documents counter) it was seen in. */
  lastDocument = new Int32Array(SHAPE_IDS);
  /** Documents built so far (from 1: 0 in lastDocument is "none"). */
  documents = 0;
  /**
   * By shape: 1 when its keys pass every check of parse's options (no key repeats,
   * none is `__proto__` or `constructor`), so objects of that shape skip the checks.
   */
  unchecked = new Uint8Array(SHAPE_IDS);
  /**
   * By shape: the last document (documents counter) in which its keys were found to be
   * none that Object.prototype has, so that its objects made by assignment need no check.
   */
  plainIn = new Int32Array(SHAPE_IDS);
  /**
   * Past the highest key id and shape id written since the last clear(): what clear()
   * must empty. (Every failed parse clears: a sweep of the whole tables would cost a
   * small document's error path several times its parse.)
   */
  keysUsed = 0;
  shapesUsed = 0;
  clear(): void {
    this.strings.fill('', 0, this.keysUsed);
    this.constructors.fill(undefined, 0, this.shapesUsed);
    this.sightings.fill(0, 0, this.shapesUsed);
    this.lastDocument.fill(0, 0, this.shapesUsed);
    this.unchecked.fill(0, 0, this.shapesUsed);
    this.plainIn.fill(0, 0, this.shapesUsed);
    this.keysUsed = 0;
    this.shapesUsed = 0;
  }
  /** Room for key id `id` and shape id `shape`. */
  grow(id: number, shape: number): void {
    this.strings = withOwnElements(this.strings, id + 1, '');
    this.constructors = withOwnElements(this.constructors, shape + 1, undefined);
    this.sightings = grownTyped(this.sightings, shape + 1);
    this.lastDocument = grownTyped(this.lastDocument, shape + 1);
    this.unchecked = grownTyped(this.unchecked, shape + 1);
    this.plainIn = grownTyped(this.plainIn, shape + 1);
  }
}

/**
 * Defines an own data property, as JSON.parse does. (Plain assignment would not for keys
 * Object.prototype has: `__proto__` would change the prototype; a setter or a read-only
 * property would intercept the store. The descriptor has no prototype, so no `get` or
 * `set` an Object.prototype may have found its way into.)
 */
export function defineData(obj: object, key: PropertyKey, value: unknown): void {
  Object.defineProperty(obj, key, { __proto__: null, value, writable: true, enumerable: true, configurable: true } as PropertyDescriptor);
}

// Whether this realm may compile code (a Content-Security-Policy without
// 'unsafe-eval' forbids it): checked once, when a constructor is first wanted.
let evalAllowed: boolean | undefined;

/**
 * A function returning `{k0: values[base], k1: values[base + 1], ...}`. Keys are JSON
 * string literals (valid JS); `__proto__` is a computed key, which defines a property
 * instead of setting the prototype. Literal properties are defined, never assigned.
 */
function makeConstructor(keys: string[]): ObjectConstructor | undefined {
  if (evalAllowed === undefined) {
    try {
      evalAllowed = new Function('return 1')() === 1;
    } catch {
      evalAllowed = false;
    }
  }
  if (!evalAllowed) return undefined;
  const props = keys.map((k, i) => `${k === '__proto__' ? `[${jsonStringify(k)}]` : jsonStringify(k)}:v[b+${i}]`);
  return new Function('v', 'b', `return {${props.join(',')}}`) as ObjectConstructor;
}

/** The memory views and positions of one tape. */
export interface Tape {
  /**
   * All unescaped strings of the document as one JS string, when the side buffer is
   * valid UTF-16 (no \u-escaped surrogates): escaped strings are then slices of it,
   * one native decode per document instead of one string build per escaped string.
   */
  escaped: string | undefined;
  /**
   * The escaped strings whose text is ASCII, decoded back to back (the heap of a parse
   * without a string heap, read as Latin-1): entries whose begin word is negative (bit
   * 31 set, docs/TAPE.md) are slices of it. With asciiSource, undefined until a string
   * first needs it (decodeAscii makes it).
   */
  ascii: string | undefined;
  /**
   * The document's text, when its heap is left undecoded: where a decoder call costs
   * more than undoing a few escapes in JS (browsers), a small heap (little escaped
   * text), and the document is a string. Such strings with few escapes are then
   * unescaped from it (unescape.ts); one with more decodes the heap.
   */
  asciiSource: string | undefined;
  decodeAscii: (() => string) | undefined;
  words: Int32Array; // all of memory as i32
  start: number; // index of the first word
  end: number; // index after the last word
  numbers: Float64Array; // all of memory as f64
  numbersStart: number;
  utf16: Uint16Array; // all of memory as u16
  utf16Start: number;
  /**
   * With a string heap read in pieces: the next piece's text, asked for at each piece
   * marker of the tape (whose later string offsets count from that piece's start).
   */
  nextPiece: (() => string) | undefined;
}

export function utf16String(u16: Uint16Array, begin: number, end: number): string {
  if (end - begin <= 2048) return String.fromCharCode.apply(null, u16.subarray(begin, end) as unknown as number[]);
  let s = '';
  for (let i = begin; i < end; i += 2048) {
    s += String.fromCharCode.apply(null, u16.subarray(i, Math.min(end, i + 2048)) as unknown as number[]);
  }
  return s;
}

/** Source record of one parsed value, for revivers (JSON.parse source text access). */
export interface ParseRecord {
  value: unknown;
  /** Exact source text, for primitives. */
  source?: string;
  /** For arrays. */
  elements?: ParseRecord[];
  /** For objects: the record of the last value stored under each key. */
  entries?: Map<string, ParseRecord>;
}

/**
 * What parse's checking options ask of the document's objects and nesting (see
 * ParseOptions): checked as values are built, so a parse without them pays nothing.
 */
export interface BuildPolicy {
  /** duplicateKeys: 'error'. */
  duplicateKeys: boolean;
  /** protoAction for `__proto__` keys, constructorAction for `constructor` keys whose value has an own `prototype`. */
  protoKeys: KeyAction;
  constructorKeys: KeyAction;
  /** Containers may nest this deep (Infinity: no limit). */
  maxDepth: number;
  /**
   * validate(): the checks only, no value kept. Arrays and objects end as placeholders,
   * so the heap holds the open containers' members, never the document's value (a 30 MB
   * file of 10 M objects took 1.6 GB built).
   */
  discardValues: boolean;
}

/** What a discarded object or array stands for: only whether it has an own `prototype` matters (checkObject). */
const DISCARDED = null;
const DISCARDED_WITH_PROTOTYPE = Object.freeze({ prototype: undefined });
export const KEEP = 0;
export const REJECT = 1;
export const REMOVE = 2;
export type KeyAction = typeof KEEP | typeof REJECT | typeof REMOVE;

/**
 * A document the policy refuses, thrown by buildValue; the codec turns it into a
 * positioned SyntaxError (locate.ts finds the place in the source, on this error path only).
 */
export class PolicyViolation {
  constructor(
    readonly kind: 'duplicate' | 'proto' | 'constructor' | 'depth',
    /** The object, counted in document order of '{' from 0 (not for 'depth'). */
    readonly objectIndex: number,
    /** The member of that object, counted from 0 (not for 'depth'). */
    readonly member: number,
    readonly key: string,
  ) {}
}

// The stacks are reused across calls (and emptied after each, so they keep nothing
// alive); a nested parse from a reviver runs after the outer build has finished. They
// are used only below their length, and grown first (own-elements.ts): the value
// stacks when top reaches it, the container stacks when depth does.
let values: unknown[] = ownElements(1024, undefined);
let valueKeys: string[] = ownElements(1024, '');
// (Its free elements hold undefined.)
let valueRecs: ParseRecord[] = ownElements(1024, undefined as unknown as ParseRecord);
// Per open container: the value stack's top when it opened, and its parent's key and
// storeKeys (1 or 0).
let bases = new Int32Array(64);
let savedKeys: string[] = ownElements(64, '');
let savedStoreKeys = new Uint8Array(64);
// With a policy: per open object, its index in document order.
let objectIndexes = new Int32Array(64);

/**
 * Stack and scratch lengths kept between calls (8 bytes an element): longer ones, grown
 * by a large document, are dropped by the next call that did not need them (a call that
 * needs them every time keeps them). Kept for good, a 3-million-element array had left
 * 128 MB of heap behind under every later parse.
 */
const KEEP_ELEMENTS = 1 << 16;
// Whether this call's arrays needed numberArray's or scalarArray's scratch past it.
let largeScratch = false;

function growValueStacks(min: number): void {
  values = withOwnElements(values, min, undefined);
  valueKeys = withOwnElements(valueKeys, values.length, '');
  valueRecs = withOwnElements(valueRecs, values.length, undefined as unknown as ParseRecord);
}

function growContainerStacks(min: number): void {
  bases = grownTyped(bases, min);
  savedKeys = withOwnElements(savedKeys, bases.length, '');
  savedStoreKeys = grownTyped(savedStoreKeys, bases.length);
}

/**
 * Builds the value. `text` is the document as a JS string (tape offsets index it), or
 * with a string heap, its current piece (replaced at each piece marker).
 * With `records`, every primitive entry carries two extra words (its source range) and
 * a ParseRecord tree is built alongside; it is returned in records.root.
 */
/** Where string values come from: the document as one string, or a per-string decoder. */
export interface TextSource {
  slice(begin: number, end: number): string;
}

/**
 * Builds in progress. A build calls no user code of its own, but some reaches it: an
 * Array species constructor or getter (the slices that make arrays consult them) or a
 * built-in the program replaced (README). Such code calling into wasm would overwrite
 * the tape the build is reading, or grow memory under the views it holds: the value
 * built would be silently wrong (a parse from a species constructor made one of
 * `undefined`). Every entry into wasm first calls checkNotBuilding().
 */
let building = 0;

/** Throws when a build is in progress (see `building`). */
export function checkNotBuilding(): void {
  if (building !== 0) {
    throw new Error(
      'wasmjson: called while parse() builds its result, from user code that building reached (an Array species constructor or getter, or a replaced built-in): the call would overwrite what the build reads',
    );
  }
}

export function buildValue(
  tape: Tape,
  text: TextSource,
  keys: KeyCache,
  records: { root?: ParseRecord } | undefined,
  /** The source string is not well-formed UTF-16: escaped strings are re-read from it. */
  illFormed: boolean,
  policy?: BuildPolicy,
): unknown {
  const w32 = tape.words;
  const f64 = tape.numbers;
  const withSource = records !== undefined;
  // (After 2^31 - 1 documents, back to 1: never 0.)
  const docNumber = (keys.documents = keys.documents === 0x7fffffff ? 1 : keys.documents + 1);
  let key = '';
  // Whether values of the open container need their keys kept: in objects, unless the
  // object's shape (on its begin word) already has a constructor, which knows its keys.
  let storeKeys = false;
  let top = 0;
  let highWater = 1; // the stack's extent in this call (checked when containers close)
  let depth = 0; // open containers
  const checking = policy !== undefined;
  let objectsOpened = 0;
  let objectsOpen = 0;

  let ni = tape.numbersStart;
  let i = tape.start;
  const end = tape.end;

  building++;
  try {
    while (i < end) {
      const w = w32[i];
      let v: unknown;
      let rec: ParseRecord | undefined;
      switch (w & 15) {
        case T_NULL:
          v = null;
          i += 1;
          break;
        case T_FALSE:
          v = false;
          i += 1;
          break;
        case T_TRUE:
          v = true;
          i += 1;
          break;
        case T_INT:
          v = w >> 4;
          i += 1;
          break;
        case T_DOUBLE:
          if (w === T_DOUBLE) {
            v = f64[ni++];
            i += 1;
          } else if (w === T_HEAP_PIECE) {
            text = tape.nextPiece!();
            i += 1;
            continue;
          } else {
            // An integer literal as text (options.bigint): its digits, as a string's range.
            v = BigInt(text.slice(w32[i + 1], w32[i + 2]));
            i += 3;
          }
          break;
        case T_STRING:
          v = text.slice(w32[i + 1], w32[i + 2]);
          i += 3;
          break;
        case T_STRING_ESC:
          v = escapedString(tape, text, illFormed, i);
          i += 5;
          break;
        case T_KEY: {
          if (!storeKeys) {
            i += 1;
            continue;
          }
          const id = w >>> 4;
          key = keys.strings[id];
          i += 1;
          continue;
        }
        case T_KEY_NEW:
        case T_KEY_NEW_ESC: {
          if ((w & 15) === T_KEY_NEW) {
            key = text.slice(w32[i + 1], w32[i + 2]);
            i += 3;
          } else {
            key = escapedString(tape, text, illFormed, i);
            i += 5;
          }
          const id = w >>> 4;
          if (id !== NO_ID) {
            if (id >= keys.keysUsed) {
              if (id >= keys.strings.length) keys.grow(id, 0);
              keys.keysUsed = id + 1;
            }
            keys.strings[id] = key;
          }
          continue;
        }
        case T_ARRAY_BEGIN:
        case T_OBJECT_BEGIN:
          if (depth === bases.length) growContainerStacks(depth + 1);
          bases[depth] = top;
          savedKeys[depth] = key;
          savedStoreKeys[depth] = storeKeys ? 1 : 0;
          depth++;
          if ((w >>> 4) >= keys.constructors.length) keys.grow(0, w >>> 4);
          // A policy reads the keys of objects whose shape has not passed its checks.
          storeKeys =
            (w & 15) === T_OBJECT_BEGIN &&
            (withSource ||
              (w >>> 4) === 0 ||
              keys.constructors[w >>> 4] === undefined ||
              (checking && (keys.unchecked[w >>> 4] !== 1 || policy.discardValues)));
          if (checking) {
            if (depth > policy.maxDepth) throw new PolicyViolation('depth', 0, 0, '');
            if ((w & 15) === T_OBJECT_BEGIN) {
              objectIndexes = grownTyped(objectIndexes, objectsOpen + 1);
              objectIndexes[objectsOpen++] = objectsOpened++;
            }
          }
          i += 1;
          continue;
        case T_ARRAY_END: {
          const base = bases[--depth];
          if (top > highWater) highWater = top;
          // Empty and one-element arrays as literals: cheaper than a slice() call.
          if (checking && policy.discardValues) v = DISCARDED;
          else v = top === base ? [] : top - base === 1 ? [values[base]] : values.slice(base, top);
          if (withSource) rec = { value: v, elements: valueRecs.slice(base, top) };
          top = base;
          key = savedKeys[depth];
          storeKeys = savedStoreKeys[depth] === 1;
          i += 1;
          break;
        }
        case T_NUMBER_ARRAY:
          // (An array of numbers and literals has no begin entry: its depth is checked here.)
          if (checking && depth >= policy.maxDepth) throw new PolicyViolation('depth', 0, 0, '');
          v = checking && policy.discardValues ? DISCARDED : numberArray(f64, ni, w32[i + 1]);
          ni += w32[i + 1];
          i += 2;
          break;
        case T_SCALAR_ARRAY:
          if (checking && depth >= policy.maxDepth) throw new PolicyViolation('depth', 0, 0, '');
          v = checking && policy.discardValues ? DISCARDED : scalarArray(f64, w32, ni, w32[i + 1]);
          ni += w32[i + 1];
          i += 2;
          break;
        case T_OBJECT_END: {
          const base = bases[--depth];
          if (top > highWater) highWater = top;
          let shape = w >>> 4;
          // The policy's checks (once per shape when its keys need none); removed members
          // no longer match the shape.
          if (checking) {
            const objectIndex = objectIndexes[--objectsOpen];
            if (shape === 0 || keys.unchecked[shape] !== 1) {
              const kept = checkObject(policy, objectIndex, base, top, withSource);
              if (kept !== top) {
                top = kept;
                shape = 0;
              } else if (shape !== 0 && needsNoChecks(base, top)) {
                keys.unchecked[shape] = 1;
                if (shape >= keys.shapesUsed) keys.shapesUsed = shape + 1;
              }
            }
            if (policy.discardValues) {
              v = policy.constructorKeys !== KEEP && hasKey(base, top, 'prototype') ? DISCARDED_WITH_PROTOTYPE : DISCARDED;
              top = base;
              key = savedKeys[depth];
              storeKeys = savedStoreKeys[depth] === 1;
              i += 1;
              break;
            }
          }
          let make = shape ? keys.constructors[shape] : undefined;
          if (make === undefined && shape) {
            const seen = keys.sightings[shape] + 1;
            keys.sightings[shape] = seen;
            // Its first sighting in this document, after one in another: it recurs. (Its
            // constructor is made then; without one, under a CSP, a shape only counts.)
            const last = keys.lastDocument[shape];
            keys.lastDocument[shape] = docNumber;
            // (The constructor, if made, is at the same shape.)
            if (shape >= keys.shapesUsed) keys.shapesUsed = shape + 1;
            if ((seen >= SIGHTINGS_BEFORE_CONSTRUCTOR && end - i >= (i - tape.start) * CONSTRUCTOR_TAPE_AHEAD) || (last !== docNumber && last !== 0)) {
              if (keys.allowEval) make = keys.constructors[shape] = makeConstructor(valueKeys.slice(base, top));
            }
          }
          let o: any;
          if (make !== undefined) {
            o = make(values, base);
          } else if (top - base < DICTIONARY_MIN) {
            o = {};
            if (shape !== 0 && keys.plainIn[shape] === docNumber) {
              for (let j = base; j < top; j++) o[valueKeys[j]] = values[j];
            } else {
              // Keys Object.prototype has are defined, never assigned. Checked once per
              // shape and document, not cached longer: Object.prototype may change
              // between parses (never during one: no user code runs here).
              let plain = true;
              for (let j = base; j < top; j++) {
                const k = valueKeys[j];
                if (!(k in ObjectPrototype)) o[k] = values[j];
                else {
                  defineData(o, k, values[j]);
                  plain = false;
                }
              }
              if (plain && shape !== 0) keys.plainIn[shape] = docNumber;
            }
          } else {
            // Without a prototype, no key can reach a setter: assignment defines each one.
            o = Object.create(null);
            for (let j = base; j < top; j++) o[valueKeys[j]] = values[j];
            Object.setPrototypeOf(o, ObjectPrototype);
          }
          v = o;
          if (withSource) {
            const entries = new Map<string, ParseRecord>();
            for (let j = base; j < top; j++) entries.set(valueKeys[j], valueRecs[j]);
            rec = { value: o, entries };
          }
          top = base;
          key = savedKeys[depth];
          storeKeys = savedStoreKeys[depth] === 1;
          i += 1;
          break;
        }
        default:
          throw new Error(`wasmjson: corrupt tape (tag ${w & 15} at word ${i})`);
      }
      if (withSource && rec === undefined) {
        // A primitive: two words with its source range follow.
        rec = { value: v, source: text.slice(w32[i], w32[i + 1]) };
        i += 2;
      }
      if (top === values.length) growValueStacks(top + 1);
      values[top] = v;
      // Keys matter only to objects made property by property (or whose constructor is
      // still to be made): array elements and most objects skip the store.
      if (storeKeys) valueKeys[top] = key;
      if (withSource) valueRecs[top] = rec!;
      top++;
    }
    if (records) records.root = valueRecs[0];
    return values[0];
  } finally {
    building--;
    // Keep the stacks' storage for the next call, but nothing they pointed to. (A loop
    // for small documents: a call to fill() costs more than clearing a few slots.)
    if (highWater <= 16) for (let j = 0; j < highWater; j++) values[j] = undefined;
    else values.fill(undefined, 0, highWater);
    if (withSource) valueRecs.fill(undefined as unknown as ParseRecord, 0, highWater);
    if (values.length > KEEP_ELEMENTS && highWater <= KEEP_ELEMENTS) {
      values = ownElements(1024, undefined);
      valueKeys = ownElements(1024, '');
      valueRecs = ownElements(1024, undefined as unknown as ParseRecord);
    }
    if (!largeScratch && (doubles.length > KEEP_ELEMENTS || scalars.length > KEEP_ELEMENTS)) {
      doubles = [0.5];
      scalars = ownElements(64, null);
    }
    largeScratch = false;
  }
}

/** Whether one of the keys at [base, top) of the value stack is `k`. */
function hasKey(base: number, top: number, k: string): boolean {
  for (let j = base; j < top; j++) if (valueKeys[j] === k) return true;
  return false;
}

/** Whether the keys at [base, top) of the value stack pass every check whatever their values. */
function needsNoChecks(base: number, top: number): boolean {
  for (let j = base; j < top; j++) {
    const k = valueKeys[j];
    if (k === '__proto__' || k === 'constructor') return false;
    for (let q = base; q < j; q++) if (valueKeys[q] === k) return false;
  }
  return true;
}

/**
 * Applies the policy to the object whose members are the value stack's [base, top):
 * throws a PolicyViolation, or removes the members the policy removes (compacting the
 * stacks). Returns the new top (`top` when nothing was removed).
 */
function checkObject(policy: BuildPolicy, objectIndex: number, base: number, top: number, withSource: boolean): number {
  const n = top - base;
  if (policy.duplicateKeys && n > 1) {
    if (n <= 16) {
      for (let j = base + 1; j < top; j++) {
        const k = valueKeys[j];
        for (let q = base; q < j; q++) {
          if (valueKeys[q] === k) throw new PolicyViolation('duplicate', objectIndex, j - base, k);
        }
      }
    } else {
      const seen = new Set<string>();
      for (let j = base; j < top; j++) {
        const k = valueKeys[j];
        if (seen.has(k)) throw new PolicyViolation('duplicate', objectIndex, j - base, k);
        seen.add(k);
      }
    }
  }
  if (policy.protoKeys === KEEP && policy.constructorKeys === KEEP) return top;
  let out = base;
  for (let j = base; j < top; j++) {
    const k = valueKeys[j];
    let action: KeyAction = KEEP;
    if (k === '__proto__') {
      action = policy.protoKeys;
    } else if (k === 'constructor' && policy.constructorKeys !== KEEP) {
      const v = values[j];
      if (typeof v === 'object' && v !== null && Object.prototype.hasOwnProperty.call(v, 'prototype')) action = policy.constructorKeys;
    }
    if (action === REJECT) throw new PolicyViolation(k === '__proto__' ? 'proto' : 'constructor', objectIndex, j - base, k);
    if (action === REMOVE) continue;
    if (out !== j) {
      values[out] = values[j];
      valueKeys[out] = k;
      if (withSource) valueRecs[out] = valueRecs[j];
    }
    out++;
  }
  return out;
}

/**
 * The array of the n doubles at f64[at...]; elements stay unboxed. The cheapest way
 * depends on n (measured on Node 26): literals for the short arrays of coordinate files
 * (canada: parse 1.5x faster than pushing), else a slice of a scratch array of doubles
 * filled in order (microbenchmark, ns per element against filling a preallocated array:
 * 1.2 vs 1.4 at 10,000, 3.0 vs 1.9 at 20; parse of the corpus measured the same either
 * way). A preallocated array `new Array(n)` would be filled by assigning
 * elements it does not have yet, which an index setter on a prototype would take
 * (own-elements.ts); literals and slice() define them.
 */
function numberArray(f64: Float64Array, at: number, n: number): number[] {
  switch (n) {
    case 0:
      return [];
    case 1:
      return [f64[at]];
    case 2:
      return [f64[at], f64[at + 1]];
    case 3:
      return [f64[at], f64[at + 1], f64[at + 2]];
    case 4:
      return [f64[at], f64[at + 1], f64[at + 2], f64[at + 3]];
    case 5:
      return [f64[at], f64[at + 1], f64[at + 2], f64[at + 3], f64[at + 4]];
    case 6:
      return [f64[at], f64[at + 1], f64[at + 2], f64[at + 3], f64[at + 4], f64[at + 5]];
  }
  // (Doubled by concat of itself: arrays from ownElements() share one allocation site,
  // whose elements kind other callers make generic, which would box every double.)
  while (n > doubles.length) doubles = concat(doubles, doubles);
  if (n > KEEP_ELEMENTS) largeScratch = true;
  const a = doubles;
  for (let k = 0; k < n; k++) a[k] = f64[at + k];
  return a.slice(0, n);
}
// numberArray's scratch: only doubles ever stored (0.5, not 0: a small integer would
// make it an array of tagged values, and its slices too).
let doubles: number[] = [0.5];

/**
 * The array of the n scalars at f64[at...]: numbers, and literals held as NaNs whose
 * high word says so and whose low word is the literal's tag (w32 views the same memory).
 * One loop instead of an entry, a value-stack store and a slice per element
 * (truenull.json, 2000 literals: parse 1.23x faster). Filled in a scratch array and
 * sliced, as numberArray.
 */
function scalarArray(f64: Float64Array, w32: Int32Array, at: number, n: number): unknown[] {
  if (n > scalars.length) scalars = withOwnElements(scalars, n, null);
  if (n > KEEP_ELEMENTS) largeScratch = true;
  const a = scalars;
  for (let k = 0; k < n; k++) {
    const x = f64[at + k];
    // Only literals are NaN (no JSON number is).
    a[k] = x === x ? x : LITERALS[w32[(at + k) * 2] & 3];
  }
  return a.slice(0, n);
}
let scalars: unknown[] = ownElements(64, null);

/**
 * The string of a string-esc or key-new-esc entry at word i: a slice of all escaped
 * strings decoded at once, else its UTF-16 units, else (source with lone surrogates) its
 * raw text decoded by the engine. (Not a closure: none is made per document.)
 */
function escapedString(tape: Tape, text: TextSource, illFormed: boolean, i: number): string {
  const w32 = tape.words;
  const begin = w32[i + 1];
  if (begin < 0) {
    const from = begin & 0x7fffffff;
    const end = w32[i + 2];
    if (tape.ascii === undefined) {
      // The units the escapes save: 1 for each one-letter escape, 5 for each \u escape.
      const shrink = w32[i + 4] - w32[i + 3] - (end - from);
      if (shrink <= FEW_ESCAPES) return unescapeSource(tape.asciiSource!, w32[i + 3], w32[i + 4], shrink);
      tape.ascii = tape.decodeAscii!();
    }
    return tape.ascii.slice(from, end);
  }
  return tape.escaped !== undefined
    ? tape.escaped.slice(begin, w32[i + 2])
    : illFormed
      ? rawString(text, w32[i + 3], w32[i + 4])
      : utf16String(tape.utf16, tape.utf16Start + begin, tape.utf16Start + w32[i + 2]);
}

/** With Tape.asciiSource: strings whose escapes save at most this many units are unescaped in JS. */
const FEW_ESCAPES = 8;

/**
 * An escaped string read from source text that has lone surrogates (which the UTF-8
 * copy in wasm could not carry): the engine's own JSON.parse decodes the literal.
 */
function rawString(text: TextSource, begin: number, end: number): string {
  return jsonParse(`"${text.slice(begin, end)}"`) as string;
}
