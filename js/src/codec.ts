// The API over one wasm instance. Each call crosses the boundary once per document.
import { codeName, JsonSyntaxError, outOfMemory, type ErrorSource } from './errors.js';
import { FLAG_SKIP_BOM, type Flavor, type WasmExports } from './exports.js';
import { Memory } from './memory.js';

export type JsonInput = string | Uint8Array | ArrayBuffer | DataView;

export interface ValidationResult {
  valid: boolean;
  /** Present when `valid` is false: what is wrong and where. */
  error?: JsonSyntaxError;
}

export interface ValidateOptions {
  /** Return a ValidationResult that says why, instead of a boolean. */
  explain?: boolean;
}

export interface Codec {
  readonly flavor: Flavor;
  validate(input: JsonInput): boolean;
  validate(input: JsonInput, options: ValidateOptions & { explain: true }): ValidationResult;
  validate(input: JsonInput, options?: ValidateOptions): boolean | ValidationResult;
}

const KERNELS: Record<number, Flavor | undefined> = { 1: 'swar64', 2: 'simd128' };
const OUT_OF_MEMORY = 18;

export function createCodec(instance: WebAssembly.Instance): Codec {
  const wasm = instance.exports as unknown as WasmExports;
  wasm._initialize();
  const flavor = KERNELS[wasm.wj_kernel()];
  if (!flavor) throw new Error('wasmjson: this .wasm file is not a wasmjson SIMD128 or SWAR64 build');
  const memory = new Memory(wasm);

  function validate(input: JsonInput, options?: ValidateOptions): boolean | ValidationResult {
    const bytesOrText = asInput(input, 'validate');
    const region = memory.acquire(bytesOrText);
    let code: number;
    let offset = 0;
    try {
      code = wasm.wj_validate(region.ptr, region.len, typeof bytesOrText === 'string' ? 0 : FLAG_SKIP_BOM);
      if (code !== 0) offset = wasm.wj_error_offset() >>> 0;
    } finally {
      memory.release(region);
    }
    if (code === OUT_OF_MEMORY) throw outOfMemory(region.len);
    if (!options?.explain) return code === 0;
    if (code === 0) return { valid: true };
    return { valid: false, error: syntaxError(code, offset, bytesOrText) };
  }

  return { flavor, validate: validate as Codec['validate'] };
}

/** Strings stay strings; every kind of byte container becomes a Uint8Array view. */
function asInput(input: unknown, fn: string): string | Uint8Array {
  if (typeof input === 'string') return input;
  if (input instanceof Uint8Array) return input;
  if (input instanceof ArrayBuffer) return new Uint8Array(input);
  if (ArrayBuffer.isView(input)) return new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
  if (typeof SharedArrayBuffer !== 'undefined' && input instanceof SharedArrayBuffer) return new Uint8Array(input);
  throw new TypeError(
    `wasmjson.${fn}: expected a string, Uint8Array, Buffer, ArrayBuffer or DataView, got ${describe(input)}`,
  );
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (typeof v === 'object') return (v as object).constructor?.name ?? 'object';
  return typeof v;
}

/**
 * Builds the SyntaxError for a failed call. The wasm offset is in bytes; for string
 * input it becomes a UTF-16 index by decoding the encoded prefix (error path only).
 */
function syntaxError(code: number, byteOffset: number, source: ErrorSource): JsonSyntaxError {
  let offset = byteOffset;
  if (typeof source === 'string') offset = utf16Index(source, byteOffset);
  return new JsonSyntaxError(codeName(code), offset, source);
}

/** The UTF-16 index of the character at UTF-8 byte offset `byteOffset` of `text`. */
function utf16Index(text: string, byteOffset: number): number {
  let bytes = 0;
  let i = 0;
  while (i < text.length && bytes < byteOffset) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        bytes += 4;
        i += 2;
        continue;
      }
      bytes += 3;
    } else bytes += 3;
    i++;
  }
  return i;
}
