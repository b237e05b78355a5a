// Text as long as the longest string (V8: 2^29 - 24 units, Node and Chromium) through
// stringify and encode: 4 GB of memory at its peak (a 512 MB string, its UTF-16 units in
// wasm memory, the output), so in Node only.
import { describe, expect, it } from 'vitest';
import { encode as exportedEncode, stringify as exportedStringify } from 'wasmjson';

const longestV8String = 2 ** 29 - 24;

describe('a string or key as long as the longest string', () => {
  it('sends a string or key as long as the longest string alone (joined to others it would pass it): encode writes it', () => {
    const big = 'x'.repeat(longestV8String);
    const tail = (bytes: Uint8Array, n: number) => new TextDecoder().decode(bytes.subarray(bytes.length - n));
    const head = (bytes: Uint8Array, n: number) => new TextDecoder().decode(bytes.subarray(0, n));
    let out = exportedEncode({ a: big, b: 1 })!;
    expect([out.length, head(out, 8), tail(out, 9)]).toStrictEqual([big.length + 14, '{"a":"xx', 'x","b":1}']);
    out = exportedEncode(['k', big])!;
    expect([out.length, head(out, 8), tail(out, 4)]).toStrictEqual([big.length + 8, '["k","xx', 'xx"]']);
    out = exportedEncode({ k: 1, [big]: 2 })!;
    expect([out.length, head(out, 10), tail(out, 5)]).toStrictEqual([big.length + 12, '{"k":1,"xx', 'x":2}']);
    // stringify: the RangeError, after the rest of the walk.
    expect(() => exportedStringify({ a: big, b: 1 })).toThrow(new RangeError('Invalid string length'));
    // (Not compared with Node 26's own: JSON.stringify({ a: big, b: 1n }) aborts the
    // process, "Zone Allocation failed".)
    expect(() => exportedStringify({ a: big, b: 1n })).toThrow(new TypeError('Do not know how to serialize a BigInt'));
    expect(exportedStringify({ a: 'x', b: 1 })).toBe('{"a":"x","b":1}');
  });
});
