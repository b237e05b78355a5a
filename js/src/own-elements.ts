// The library's own arrays (stacks, tables, scratch) are read and written only at
// elements they have. An element an array lacks is looked up on its prototypes, and a
// prototype-polluting merge (`Object.prototype[1] = 'x'`) or an accessor defined there
// would answer the read or take the store; JSON.parse and JSON.stringify never meet
// either, so neither may we. Elements are therefore made only by array literals,
// concat and slice, which define them (CreateDataProperty) instead of assigning them
// (push, `a[a.length] = x` and fill() over holes assign); users of these arrays track
// their lengths and grow them through these functions first.
// (Typed arrays need none of this: their elements never reach a prototype.)

// The built-in concat, taken once: loops that double an array by it must end whatever a
// program later puts in Array.prototype.concat (one that did not grow the array hung them).
const arrayConcat = Array.prototype.concat;
const apply = Reflect.apply;

/** a's elements then b's, in a new array (the built-in Array.prototype.concat). */
export function concat<T>(a: T[], b: T[]): T[] {
  return apply(arrayConcat, a, [b]) as T[];
}

/** A new array of `length` own elements, each `fill`. */
export function ownElements<T>(length: number, fill: T): T[] {
  // Doubled by concat from a literal: the array stays packed (Array.from makes a holey
  // one). The literal is one allocation site for every caller, so its elements are
  // generic: an array meant for unboxed doubles is better grown from its own literal
  // (build.ts, numberArray).
  let a = [fill];
  while (a.length < length) a = concat(a, a);
  return a.length === length ? a : a.slice(0, length);
}

/** `array` with at least `min` own elements: itself if it has them, else a longer copy (new ones `fill`). */
export function withOwnElements<T>(array: T[], min: number, fill: T): T[] {
  if (array.length >= min) return array;
  return concat(array, ownElements(Math.max(min, 2 * array.length, 16) - array.length, fill));
}

/** `array` itself if it has `min` elements, else a copy with room for them (zeros after its own). */
export function grownTyped<A extends Int32Array<ArrayBuffer> | Uint8Array<ArrayBuffer>>(array: A, min: number): A {
  if (array.length >= min) return array;
  const grown = new (array.constructor as new (length: number) => A)(Math.max(min, 2 * array.length, 16));
  grown.set(array);
  return grown;
}
