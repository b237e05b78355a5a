// RFC 8785 JSON Canonicalization Scheme: object keys sorted by UTF-16 code units, no
// whitespace, strings escaped as JSON.stringify escapes them, numbers in ECMAScript's
// shortest form. What JCS forbids is an error: lone surrogates in strings or keys, and
// non-finite numbers. Values are first converted as JSON.stringify converts them (toJSON,
// boxed primitives; undefined, functions and symbols left out of objects and written as
// null in arrays). Iterative: nesting depth is bounded by memory, not the call stack.
// JSON text (strings, bytes) is canonicalized in wasm instead (cpp/core/canonicalize.h,
// codec.ts); it comes here only for what this file rejects, so the errors are these.

import { apply, isArray, objectKeys, K_OBJECT, K_OPAQUE, K_RAW, kindOf, lengthOf, unbox } from './boxed.js';
import { ownElements, withOwnElements } from './own-elements.js';
import { MAX_DEPTH } from './stringify.js';

export class CanonicalizationError extends TypeError {
  constructor(message: string) {
    super(`wasmjson.canonicalize: ${message}`);
    this.name = 'TypeError';
  }
}

/**
 * An object or array converted as JSON.stringify converts it: its members in the order
 * JSON.stringify reads them (own keys in property order, members left out that it
 * leaves out), each one a primitive already written as text, or a container. Members
 * lie in the flat arrays of one canonicalization (Members), from `start`.
 */
interface Converted {
  isObject: boolean;
  start: number;
  count: number;
}

/**
 * The members of every converted container, a slot each (keys for objects' members):
 * one pair of growable arrays, not two arrays per container. Own elements, made before
 * they are written (own-elements.ts).
 */
interface Members {
  keys: string[];
  values: (string | Converted)[];
  used: number;
}

/** A container being converted: the value, the keys it had when opened, the next member. */
interface Frame {
  value: object;
  keys: string[] | undefined;
  length: number;
  next: number;
  into: Converted;
}

const OMIT = Symbol('omit');

/** JSON.stringify's SerializeJSONProperty conversion, minus the writing. */
function convert(holder: object, key: string, value: unknown): unknown {
  // (Functions are objects: a toJSON of theirs counts, as in JSON.stringify.)
  if ((typeof value === 'object' && value !== null) || typeof value === 'function' || typeof value === 'bigint') {
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') value = apply(toJSON, value, [key]);
  }
  if (typeof value === 'object' && value !== null && !isArray(value)) {
    const kind = kindOf(value);
    if (kind === K_RAW) {
      // Raw JSON text holds a primitive written as its author chose (often a number
      // beyond double precision); JCS fixes one form, which that text may not be in.
      throw new CanonicalizationError(`JSON.rawJSON(${JSON.stringify((value as { rawJSON: string }).rawJSON)}) cannot be canonicalized`);
    }
    if (kind !== K_OBJECT && kind !== K_OPAQUE) value = unbox(value, kind);
  }
  void holder;
  if (value === undefined || typeof value === 'function' || typeof value === 'symbol') return OMIT;
  return value;
}

function quote(s: string, where: string): string {
  if (!s.isWellFormed()) throw new CanonicalizationError(`${where} contains a lone surrogate, which JCS forbids`);
  return JSON.stringify(s);
}

/** Writes a primitive, or returns undefined for objects (which the caller opens). */
function primitive(v: unknown, where: string): string | undefined {
  switch (typeof v) {
    case 'string':
      return quote(v, where);
    case 'number':
      if (!Number.isFinite(v)) throw new CanonicalizationError(`${where} is ${v}, which JCS forbids`);
      return String(v);
    case 'boolean':
      return v ? 'true' : 'false';
    case 'bigint':
      throw new TypeError('Do not know how to serialize a BigInt');
    default:
      return v === null ? 'null' : undefined;
  }
}

export function canonicalizeValue(root: unknown): string {
  const first = convert({ '': root }, '', root);
  if (first === OMIT) return undefined as unknown as string;
  const p = primitive(first, 'the value');
  if (p !== undefined) return p;
  const members: Members = { keys: ownElements(64, ''), values: ownElements<string | Converted>(64, ''), used: 0 };
  return write(convertAll(first as object, members), members);
}

/**
 * Pass 1: every getter, toJSON and proxy trap runs in JSON.stringify's order (depth
 * first, members in property order), whatever order JCS then writes them in: a getter
 * that changes a member not yet read changes it as it would for JSON.stringify.
 * (Read in sorted order, `{ get b() { o.a = 2; return 0 }, a: 1 }` gave "a":1.)
 */
function convertAll(top: object, members: Members): Converted {
  // The open containers: `depth` frames (own-elements.ts).
  let stack: Frame[] = ownElements(16, undefined as unknown as Frame);
  let depth = 0;
  const onPath = new Set<object>();

  const open = (v: object, where: string): Converted => {
    if (onPath.has(v)) throw new TypeError(`Converting circular structure to JSON (at ${where})`);
    // A toJSON that returns a new object at every level never ends (see MAX_DEPTH).
    if (depth >= MAX_DEPTH) throw new RangeError(`wasmjson.canonicalize: more than ${MAX_DEPTH} containers open at once (does a toJSON return a new container at every level?)`);
    onPath.add(v);
    if (depth === stack.length) stack = withOwnElements(stack, depth + 1, undefined as unknown as Frame);
    const keys = isArray(v) ? undefined : objectKeys(v);
    const length = keys ? keys.length : lengthOf(v as unknown[]);
    // Slots for all its members now: its nested containers take theirs after them.
    const end = members.used + length;
    if (end > members.values.length) {
      members.keys = withOwnElements(members.keys, end, '');
      members.values = withOwnElements(members.values, end, '');
    }
    const into: Converted = { isObject: keys !== undefined, start: members.used, count: 0 };
    members.used = end;
    stack[depth++] = { value: v, keys, length, next: 0, into };
    return into;
  };

  const result = open(top, 'the top level');
  while (depth > 0) {
    const f = stack[depth - 1];
    if (f.next === f.length) {
      onPath.delete(f.value);
      stack[--depth] = undefined as unknown as Frame;
      continue;
    }
    const index = f.next++;
    const key = f.keys ? f.keys[index] : String(index);
    const v = convert(f.value, key, (f.value as Record<string, unknown>)[key]);
    const into = f.into;
    if (v === OMIT) {
      if (!into.isObject) members.values[into.start + into.count++] = 'null';
      continue;
    }
    const text = primitive(v, `the value at ${JSON.stringify(key)}`);
    const slot = into.start + into.count++;
    if (into.isObject) members.keys[slot] = key;
    // (Read back after open(), which may replace the arrays: assigned after it returns.)
    const member = text !== undefined ? text : open(v as object, JSON.stringify(key));
    members.values[slot] = member;
  }
  return result;
}

/** A container being written: its members' order (objects: sorted by key), the next. */
interface Writing {
  c: Converted;
  order: Uint32Array | undefined;
  next: number;
}

/** Pass 2: the converted value as JCS text, object members sorted by UTF-16 code units. */
function write(top: Converted, members: Members): string {
  const { keys, values } = members;
  let out = '';
  let stack: Writing[] = ownElements(16, undefined as unknown as Writing);
  let depth = 0;
  const open = (c: Converted) => {
    if (depth === stack.length) stack = withOwnElements(stack, depth + 1, undefined as unknown as Writing);
    let order: Uint32Array | undefined;
    if (c.isObject) {
      if (c.count > 1) {
        const start = c.start;
        const n = c.count;
        order = new Uint32Array(n);
        // (Keys of one object are distinct: no tie to break.) Most objects have a few
        // dozen keys: an insertion sort, without a comparator call per comparison.
        if (n <= 32) {
          for (let i = 0; i < n; i++) {
            const slot = start + i;
            const key = keys[slot];
            let j = i;
            for (; j > 0 && keys[order[j - 1]] > key; j--) order[j] = order[j - 1];
            order[j] = slot;
          }
        } else {
          for (let i = 0; i < n; i++) order[i] = start + i;
          order.sort((a, b) => (keys[a] < keys[b] ? -1 : 1));
        }
      }
      out += '{';
    } else {
      out += '[';
    }
    stack[depth++] = { c, order, next: 0 };
  };
  open(top);
  while (depth > 0) {
    const w = stack[depth - 1];
    const c = w.c;
    if (w.next === c.count) {
      out += c.isObject ? '}' : ']';
      stack[--depth] = undefined as unknown as Writing;
      continue;
    }
    const slot = w.order ? w.order[w.next] : c.start + w.next;
    if (w.next++ > 0) out += ',';
    if (c.isObject) out += `${quote(keys[slot], `the key ${JSON.stringify(keys[slot])}`)}:`;
    const v = values[slot];
    if (typeof v === 'string') out += v;
    else open(v);
  }
  return out;
}
