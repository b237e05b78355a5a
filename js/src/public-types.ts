// Types and classes every entry point exports alongside the functions.
export { JsonSyntaxError, type ErrorCode } from './errors.js';
export type { Flavor } from './exports.js';
export type { Codec, JsonInput, ParseOptions, PrettifyOptions, ValidateOptions, ValidationResult } from './codec.js';
export type { Reviver } from './revive.js';
export type { Implementation, InitOptions, SyncInitOptions, WasmSource } from './facade.js';
export type { StringInput } from './memory.js';
export { LazyNode, type LazyValue, type LazyArrayNode, type LazyObjectNode } from './navigate.js';
export type { EncodeOptions, Replacer } from './stringify.js';
export { CanonicalizationError } from './canonicalize.js';
