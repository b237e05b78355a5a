// RFC 8785 JSON Canonicalization Scheme: what it forbids, and the errors that say so.
//
// Both routes end in wasm (codec.ts): JSON text is canonicalized as it is
// (cpp/core/canonicalize.h); a value is serialized as stringify() serializes it (toJSON,
// getters, proxies and key order run exactly as in JSON.stringify), refusing non-finite
// numbers and JSON.rawJSON values on the way (stringify.ts), by a serializer that puts
// each object's members in key order as it writes them (cpp/core/writer_sort.h); what it
// cannot sort (keys with escapes) is canonicalized as text where it left it. JCS also forbids lone surrogates, which wasm finds in the
// text; the message naming the place is made here, from the value parse() makes of the
// text (no user code runs on that path).

import { isArray, jsonStringify, objectKeys } from './intrinsics.js';
import { ownElements, withOwnElements } from './own-elements.js';

export class CanonicalizationError extends TypeError {
  constructor(message: string) {
    super(`wasmjson.canonicalize: ${message}`);
    this.name = 'TypeError';
  }
}

/** A non-finite number, at member `key` (undefined: the value itself). */
export function notFiniteError(n: number, key?: string): CanonicalizationError {
  return new CanonicalizationError(`${placeOf(key)} is ${n}, which JCS forbids`);
}

function placeOf(key: string | undefined): string {
  return key === undefined ? 'the value' : `the value at ${jsonStringify(key)}`;
}

/**
 * A JSON.rawJSON value: raw JSON text holds a primitive written as its author chose
 * (often a number beyond double precision); JCS fixes one form, which that text may not
 * be in.
 */
export function rawJsonError(text: string): CanonicalizationError {
  return new CanonicalizationError(`JSON.rawJSON(${jsonStringify(text)}) cannot be canonicalized`);
}

/**
 * What JCS forbids in `root`, a value parse() made, as the error naming its place: the
 * first non-finite number depth first in property order (the one canonicalize(value)
 * stops at), else a lone surrogate in a key or a string; undefined when there is none.
 */
export function forbiddenIn(root: unknown): CanonicalizationError | undefined {
  return firstForbidden(root, false) ?? firstForbidden(root, true);
}

/** One walk of forbiddenIn's, for non-finite numbers or (`surrogates`) for lone surrogates. */
function firstForbidden(root: unknown, surrogates: boolean): CanonicalizationError | undefined {
  // The values still to look at, with their keys (own-elements.ts: no push).
  let values: unknown[] = ownElements<unknown>(16, undefined);
  let keys: (string | undefined)[] = ownElements<string | undefined>(16, undefined);
  values[0] = root;
  let n = 1;
  while (n !== 0) {
    const v = values[--n];
    const key = keys[n];
    values[n] = undefined;
    if (typeof v === 'number') {
      if (!surrogates && !Number.isFinite(v)) return notFiniteError(v, key);
    } else if (typeof v === 'string') {
      if (surrogates && !v.isWellFormed()) return new CanonicalizationError(`${placeOf(key)} contains a lone surrogate, which JCS forbids`);
    } else if (typeof v === 'object' && v !== null) {
      const members = objectKeys(v);
      const object = !isArray(v);
      if (n + members.length > values.length) {
        values = withOwnElements(values, n + members.length, undefined);
        keys = withOwnElements(keys, n + members.length, undefined);
      }
      // Last member first: the first is looked at next.
      for (let i = members.length - 1; i >= 0; i--) {
        const k = members[i];
        if (surrogates && object && !k.isWellFormed()) {
          return new CanonicalizationError(`the key ${jsonStringify(k)} contains a lone surrogate, which JCS forbids`);
        }
        values[n] = (v as Record<string, unknown>)[k];
        keys[n++] = k;
      }
    }
  }
  return undefined;
}
