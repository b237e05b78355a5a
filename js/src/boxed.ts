// Boxed primitives (new Number(1), Object('s'), Object(1n)) and JSON.rawJSON values, as
// JSON.stringify's SerializeJSONProperty recognises them: by internal slot ([[NumberData]],
// [[StringData]], [[BooleanData]], [[BigIntData]], [[IsRawJSON]]), not by prototype. Plain
// objects pay one prototype test (kindOf).

import { apply, getOwnPropertyDescriptor, getPrototypeOf } from './intrinsics.js';

/** What classify() finds. */
export const K_OBJECT = 0;
export const K_NUMBER = 1;
export const K_STRING = 2;
export const K_BOOLEAN = 3;
export const K_BIGINT = 4;
export const K_RAW = 5;
/**
 * An object whose prototype cannot be read (a proxy whose getPrototypeOf trap throws):
 * no box; its members are read by key (a for-in would ask for the prototype too).
 */
export const K_OPAQUE = 6;

// (The slot readers here are taken once, as intrinsics.ts's built-ins: JSON.stringify's
// own steps do not go through globals a program may replace.)
const isRawJSON: ((v: unknown) => boolean) | undefined = (JSON as { isRawJSON?: (v: unknown) => boolean }).isRawJSON;

/**
 * The value of target's own data property `key`, else undefined: no getter runs. (An
 * accessor's descriptor has no own `value`: read through it, one on Object.prototype
 * would answer.)
 */
export function ownDataValue(target: object, key: PropertyKey): unknown {
  const d = getOwnPropertyDescriptor(target, key);
  return d !== undefined && Object.hasOwn(d, 'value') ? d.value : undefined;
}
export const numberValueOf = Number.prototype.valueOf;
export const stringValueOf = String.prototype.valueOf;
const booleanValueOf = Boolean.prototype.valueOf;
const bigintValueOf: ((this: unknown) => bigint) | undefined =
  typeof BigInt === 'function' ? BigInt.prototype.valueOf : undefined;

const ObjectPrototype = Object.prototype;
const NumberPrototype = Number.prototype;
const StringPrototype = String.prototype;
const BooleanPrototype = Boolean.prototype;
const BigIntPrototype: object | undefined = typeof BigInt === 'function' ? BigInt.prototype : undefined;

/**
 * The kind of the object `value` (not an array). Plain objects (prototype
 * Object.prototype) cost one test. Number.prototype, String.prototype and
 * Boolean.prototype are themselves boxes (of 0, '' and false), with Object.prototype as
 * their prototype. A proxy whose getPrototypeOf trap throws is K_OPAQUE: it has no
 * slots, and JSON.stringify never asks for its prototype.
 */
export function kindOf(value: object): number {
  let proto: object | null;
  try {
    proto = getPrototypeOf(value);
  } catch {
    return K_OPAQUE;
  }
  if (proto === ObjectPrototype) {
    return value === NumberPrototype ? K_NUMBER : value === StringPrototype ? K_STRING : value === BooleanPrototype ? K_BOOLEAN : K_OBJECT;
  }
  return classify(value, proto);
}

/**
 * The kind of `value`, whose prototype is `proto`. The slot is what decides; the
 * prototype chain only picks which slot to test, so a boxed value with an unrelated
 * prototype set by Object.setPrototypeOf, or with none, reads as an object
 * (JSON.stringify would unbox it). The chain is compared with this realm's prototypes
 * by identity, not by instanceof, which would read Symbol.hasInstance and the global
 * Number, String, ... bindings (a program may replace them; JSON.stringify never looks).
 */
function classify(value: object, proto: object | null): number {
  if (proto === null) return isRawJSON !== undefined && isRawJSON(value) ? K_RAW : K_OBJECT;
  try {
    for (let p: object | null = proto; p !== null; p = getPrototypeOf(p)) {
      if (p === ObjectPrototype) return K_OBJECT;
      if (p === NumberPrototype) return hasSlot(numberValueOf, value) ? K_NUMBER : K_OBJECT;
      if (p === StringPrototype) return hasSlot(stringValueOf, value) ? K_STRING : K_OBJECT;
      if (p === BooleanPrototype) return hasSlot(booleanValueOf, value) ? K_BOOLEAN : K_OBJECT;
      if (p === BigIntPrototype) return hasSlot(bigintValueOf!, value) ? K_BIGINT : K_OBJECT;
    }
  } catch {
    return K_OBJECT;  // a proxy on the chain whose trap threw
  }
  // From another realm (an iframe, a vm context): its Number.prototype is not ours.
  const kind = foreignKind(proto);
  return kind !== K_OBJECT && hasSlot(slotTest(kind), value) ? kind : K_OBJECT;
}

/** Whether `value` has the internal slot that `valueOf` (a built-in) requires. */
export function hasSlot(valueOf: (this: any) => unknown, value: object): boolean {
  try {
    apply(valueOf, value, []);
    return true;
  } catch {
    return false;
  }
}

/**
 * The specification's ToNumber: user valueOf / @@toPrimitive may run, and a BigInt or a
 * Symbol throws a TypeError (Number() would convert a BigInt instead).
 */
export function toNumber(v: unknown): number {
  return +(v as number);
}

/** The specification's ToLength (an array-like's length: 0 up to 2^53 - 1), by ToNumber. */
export function toLength(v: unknown): number {
  const n = toNumber(v);
  if (!(n > 0)) return 0;
  return Math.min(Math.floor(n), Number.MAX_SAFE_INTEGER);
}

/** LengthOfArrayLike: an array's length (a proxy's `length` may be anything). */
export function lengthOf(a: { length: unknown }): number {
  const n = a.length;
  return typeof n === 'number' && n === n >>> 0 ? n : toLength(n);
}

/** The primitive in a boxed value, as SerializeJSONProperty takes it out. */
export function unbox(value: object, kind: number): unknown {
  switch (kind) {
    case K_NUMBER:
      return toNumber(value);
    case K_STRING:
      return String(value); // ToString: may call a user toString
    case K_BOOLEAN:
      return apply(booleanValueOf, value, []);
    default:
      return apply(bigintValueOf!, value, []);
  }
}

function slotTest(kind: number): (this: any) => unknown {
  return kind === K_NUMBER ? numberValueOf : kind === K_STRING ? stringValueOf : kind === K_BOOLEAN ? booleanValueOf : bigintValueOf!;
}

/** Per foreign prototype: the kind of box its objects may be (tested once, then kept). */
const foreignKinds = new WeakMap<object, number>();

/**
 * Which realm's Number/String/Boolean/BigInt.prototype `proto` is or inherits from. The
 * first three are themselves boxes (Number.prototype holds [[NumberData]] 0);
 * BigInt.prototype is ordinary, known by its own @@toStringTag.
 */
function foreignKind(proto: object): number {
  let kind = foreignKinds.get(proto);
  if (kind !== undefined) return kind;
  kind = K_OBJECT;
  for (let p: object | null = proto; p !== null; p = getPrototypeOf(p)) {
    if (hasSlot(numberValueOf, p)) kind = K_NUMBER;
    else if (hasSlot(stringValueOf, p)) kind = K_STRING;
    else if (hasSlot(booleanValueOf, p)) kind = K_BOOLEAN;
    else if (bigintValueOf !== undefined && ownDataValue(p, Symbol.toStringTag) === 'BigInt') kind = K_BIGINT;
    else continue;
    break;
  }
  foreignKinds.set(proto, kind);
  return kind;
}
