// JSON.parse's reviver walk (ECMA-262 InternalizeJSONProperty, with the JSON.parse
// source text access extension), iteratively: a post-order walk over an explicit stack,
// so a deep document cannot overflow the call stack.
import { lengthOf } from './boxed.js';
import { apply } from './intrinsics.js';
import { defineData, type ParseRecord } from './build.js';
import { ownElements, withOwnElements } from './own-elements.js';

export type Reviver = (this: unknown, key: string, value: unknown, context: { source?: string }) => unknown;

interface Frame {
  holder: object;
  key: string;
  record: ParseRecord | undefined;
  value: unknown;
  /** Child keys (objects) or undefined (arrays, primitives). */
  keys: string[] | undefined;
  length: number;
  next: number;
}

function isObject(v: unknown): v is object {
  return (typeof v === 'object' && v !== null) || typeof v === 'function';
}

export function revive(value: unknown, root: ParseRecord | undefined, reviver: Reviver): unknown {
  const holder: Record<string, unknown> = {};
  defineData(holder, '', value);
  // The frames of the values being visited: `depth` of them (own-elements.ts).
  let stack: Frame[] = ownElements(16, undefined as unknown as Frame);
  stack[0] = enter(holder, '', root);
  let depth = 1;
  for (;;) {
    const f = stack[depth - 1];
    if (f.next < f.length) {
      const index = f.next++;
      const key = f.keys ? f.keys[index] : String(index);
      let child: ParseRecord | undefined;
      if (f.record) {
        // (A reviver may have lengthened the array past the elements parsed.)
        const elements = f.record.elements;
        child = f.keys ? f.record.entries?.get(key) : elements !== undefined && index < elements.length ? elements[index] : undefined;
      }
      if (depth === stack.length) stack = withOwnElements(stack, depth + 1, undefined as unknown as Frame);
      stack[depth++] = enter(f.value as object, key, child);
      continue;
    }
    // (A literal defines `source` as an own property; assigning it could meet a setter.)
    const context: { source?: string } =
      f.record && !isObject(f.value) && f.record.source !== undefined ? { source: f.record.source } : {};
    const revived = apply(reviver, f.holder, [f.key, f.value, context]);
    stack[--depth] = undefined as unknown as Frame;
    if (depth === 0) return revived;
    const parent = stack[depth - 1].value as object;
    if (revived === undefined) Reflect.deleteProperty(parent, f.key);
    else Reflect.defineProperty(parent, f.key, { __proto__: null, value: revived, writable: true, enumerable: true, configurable: true } as PropertyDescriptor);
  }
}

/** Reads holder[key] and prepares to visit its children, as the spec orders it. */
function enter(holder: object, key: string, record: ParseRecord | undefined): Frame {
  const value = (holder as Record<string, unknown>)[key];
  // The record describes this value only while it is still the value that was parsed.
  if (record && !Object.is(record.value, value)) record = undefined;
  let keys: string[] | undefined;
  let length = 0;
  if (isObject(value)) {
    if (Array.isArray(value)) {
      length = lengthOf(value as { length: unknown });
    } else {
      keys = Object.keys(value);
      length = keys.length;
    }
  }
  return { holder, key, record, value, keys, length, next: 0 };
}

