// Boxed primitives (new Number(1), Object('s'), Object(1n)) and JSON.rawJSON values, as
// JSON.stringify's SerializeJSONProperty recognises them: by internal slot ([[NumberData]],
// [[StringData]], [[BooleanData]], [[BigIntData]], [[IsRawJSON]]), not by prototype. Only
// objects whose prototype is not Object.prototype come here, so plain objects pay nothing.

/** What classify() finds. */
export const K_OBJECT = 0;
export const K_NUMBER = 1;
export const K_STRING = 2;
export const K_BOOLEAN = 3;
export const K_BIGINT = 4;
export const K_RAW = 5;

const isRawJSON: ((v: unknown) => boolean) | undefined = (JSON as { isRawJSON?: (v: unknown) => boolean }).isRawJSON;
/**
 * Calls fn with `this` and arguments as a direct call does (JSON.stringify's Call):
 * never through a `call` property the function (or a Proxy) may have of its own.
 * Taken once, so later changes to Reflect do not reach it.
 */
export const apply = Reflect.apply;
// (The other built-ins the writers rely on, taken once likewise: JSON.stringify's own
// steps do not go through globals a program may replace.)
export const isArray = Array.isArray;
export const objectKeys = Object.keys;
export const getPrototypeOf = Object.getPrototypeOf;
const getOwnPropertyDescriptor = Object.getOwnPropertyDescriptor;

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

/**
 * The kind of `value`, whose prototype is `proto`. The slot is what decides; instanceof
 * only picks which slot to test, so a boxed value with an unrelated prototype set by
 * Object.setPrototypeOf, or with none, reads as an object (JSON.stringify would unbox it).
 */
export function classify(value: object, proto: object | null): number {
  if (proto === null) return isRawJSON !== undefined && isRawJSON(value) ? K_RAW : K_OBJECT;
  if (value instanceof Number) return hasSlot(numberValueOf, value) ? K_NUMBER : K_OBJECT;
  if (value instanceof String) return hasSlot(stringValueOf, value) ? K_STRING : K_OBJECT;
  if (value instanceof Boolean) return hasSlot(booleanValueOf, value) ? K_BOOLEAN : K_OBJECT;
  if (bigintValueOf !== undefined && value instanceof BigInt) return hasSlot(bigintValueOf, value) ? K_BIGINT : K_OBJECT;
  if (value instanceof Object) return K_OBJECT;
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

/** The primitive in a boxed value, as SerializeJSONProperty takes it out. */
export function unbox(value: object, kind: number): unknown {
  switch (kind) {
    case K_NUMBER:
      return Number(value); // ToNumber: may call a user valueOf
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
