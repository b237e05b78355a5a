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

interface Frame {
  value: object;
  /** Sorted keys (objects) or undefined (arrays). */
  keys: string[] | undefined;
  length: number;
  next: number;
  wroteAny: boolean;
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
  const holder = { '': root };
  const first = convert(holder, '', root);
  if (first === OMIT) return undefined as unknown as string;
  let out = '';
  // The open containers: `depth` frames (own-elements.ts).
  let stack: Frame[] = ownElements(16, undefined as unknown as Frame);
  let depth = 0;
  const onPath = new Set<object>();

  const open = (v: object, where: string) => {
    if (onPath.has(v)) throw new TypeError(`Converting circular structure to JSON (at ${where})`);
    // A toJSON that returns a new object at every level never ends (see MAX_DEPTH).
    if (depth >= MAX_DEPTH) throw new RangeError(`wasmjson.canonicalize: more than ${MAX_DEPTH} containers open at once (does a toJSON return a new container at every level?)`);
    onPath.add(v);
    if (depth === stack.length) stack = withOwnElements(stack, depth + 1, undefined as unknown as Frame);
    if (isArray(v)) {
      out += '[';
      stack[depth++] = { value: v, keys: undefined, length: lengthOf(v), next: 0, wroteAny: false };
    } else {
      out += '{';
      const keys = objectKeys(v).sort();
      stack[depth++] = { value: v, keys, length: keys.length, next: 0, wroteAny: false };
    }
  };

  const p = primitive(first, 'the value');
  if (p !== undefined) return p;
  open(first as object, 'the top level');
  while (depth > 0) {
    const f = stack[depth - 1];
    if (f.next === f.length) {
      out += f.keys ? '}' : ']';
      onPath.delete(f.value);
      stack[--depth] = undefined as unknown as Frame;
      continue;
    }
    const index = f.next++;
    const key = f.keys ? f.keys[index] : String(index);
    const v = convert(f.value, key, (f.value as Record<string, unknown>)[key]);
    if (f.keys) {
      if (v === OMIT) continue;
      out += `${f.wroteAny ? ',' : ''}${quote(key, `the key ${JSON.stringify(key)}`)}:`;
    } else if (f.wroteAny) {
      out += ',';
    }
    f.wroteAny = true;
    if (v === OMIT) {
      out += 'null';
      continue;
    }
    const text = primitive(v, `the value at ${JSON.stringify(key)}`);
    if (text !== undefined) out += text;
    else open(v as object, JSON.stringify(key));
  }
  return out;
}
