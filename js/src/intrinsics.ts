// Built-ins the library calls, taken once when it loads. A program may replace the
// globals afterwards, wasmjson's own parse and stringify among the replacements (they are
// drop-ins for JSON's): the library's own steps must not go through them, which would
// change what it computes, or re-enter it mid-call (parse() refuses a call from user code
// while it builds its result, and compiling an object shape's constructor happens then).

/** JSON.parse (unescaping a string literal the wasm copy could not carry; reading a scalar's text). */
export const jsonParse: (text: string) => unknown = JSON.parse;
/** JSON.stringify (string literals in compiled code and in messages). */
export const jsonStringify: (value: unknown) => string = JSON.stringify;
/**
 * Calls fn with `this` and arguments as a direct call does (JSON.stringify's Call):
 * never through a `call` property the function (or a Proxy) may have of its own.
 */
export const apply = Reflect.apply;
export const isArray = Array.isArray;
export const objectKeys = Object.keys;
export const getPrototypeOf = Object.getPrototypeOf;
export const getOwnPropertyDescriptor = Object.getOwnPropertyDescriptor;
