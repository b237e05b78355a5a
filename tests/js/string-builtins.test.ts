// The string builtins module (js/src/string-builtins.ts): a wasm module written as bytes
// that copies a string's UTF-16 units into linear memory, and makes strings of units in
// memory, through the engine's JS String Builtins. Browsers send two-byte strings and
// long stringify batches through it, and make the parse's unescaped strings with it;
// here it is checked on its own, unit for unit, in every runtime the tests run in (both
// have the builtins).
import { describe, expect, it } from 'vitest';
import { stringBuiltins, stringBuiltinsModule } from '../../js/src/string-builtins.js';

const KEPT_UNITS = 65536;

function copyAndRead(copy: (text: string, ptr: number) => number, memory: WebAssembly.Memory, text: string, ptr: number): number[] {
  const u16 = new Uint16Array(memory.buffer);
  // Sentinels around the destination: nothing before or after the units is written.
  u16[(ptr >>> 1) - 1] = 0xbeef;
  u16[(ptr >>> 1) + text.length] = 0xcafe;
  expect(copy(text, ptr)).toBe(text.length);
  const view = new Uint16Array(memory.buffer);
  expect(view[(ptr >>> 1) - 1]).toBe(0xbeef);
  expect(view[(ptr >>> 1) + text.length]).toBe(0xcafe);
  return Array.from(view.subarray(ptr >>> 1, (ptr >>> 1) + text.length));
}

function units(text: string): number[] {
  return Array.from({ length: text.length }, (_, i) => text.charCodeAt(i));
}

describe('string builtins module (JS String Builtins)', () => {
  it('is valid wasm and links where the engine has the builtins', () => {
    expect(WebAssembly.validate(stringBuiltinsModule(), { builtins: ['js-string'] } as never)).toBe(true);
    const memory = new WebAssembly.Memory({ initial: 1 });
    expect(typeof stringBuiltins(memory)?.copy).toBe('function');
  });

  it('copies every unit of one-byte, two-byte, sliced and concatenated strings', () => {
    const memory = new WebAssembly.Memory({ initial: 64 });
    const copy = stringBuiltins(memory)!.copy;
    const all = String.fromCharCode(...Array.from({ length: 0x10000 }, (_, i) => i).filter((u) => u % 7 === 0 || u < 0x100));
    const samples = [
      '',
      'a',
      'plain ASCII, "quoted" \\ text',
      'Latin-1: caf\u00e9 \u00ff\u0080',
      '\u4e16\u754c \ud83d\ude00 \u0416',
      'lone \ud800 and \udfff, reversed \udc00\ud800',
      all,
      all.slice(1000, 5000),
      'x'.repeat(300) + '\u4e16'.repeat(300),
    ];
    for (const text of samples) expect(copyAndRead(copy, memory, text, 64)).toStrictEqual(units(text));
    // At another place, after a longer string: nothing of it is left over.
    expect(copyAndRead(copy, memory, 'ab', 64)).toStrictEqual(units('ab'));
    expect(copyAndRead(copy, memory, 'cd', 1000)).toStrictEqual(units('cd'));
  });

  it('strings around the kept array\'s length, and longer ones', () => {
    const memory = new WebAssembly.Memory({ initial: 64 });
    const copy = stringBuiltins(memory)!.copy;
    for (const n of [KEPT_UNITS - 1, KEPT_UNITS, KEPT_UNITS + 1, 3 * KEPT_UNITS + 5]) {
      const text = Array.from({ length: n }, (_, i) => String.fromCharCode(i % 3 === 0 ? 0x4e00 + (i % 5000) : 0x20 + (i % 90))).join('');
      expect(copyAndRead(copy, memory, text, 256), `${n}`).toStrictEqual(units(text));
      // A short one right after a long one goes through the kept array again.
      expect(copyAndRead(copy, memory, '\u00e9x', 256)).toStrictEqual(units('\u00e9x'));
    }
  });

  it('writing past the end of memory traps, and the copier still works after', () => {
    const memory = new WebAssembly.Memory({ initial: 1 });
    const copy = stringBuiltins(memory)!.copy;
    expect(() => copy('x'.repeat(100), 65536 - 100)).toThrow(WebAssembly.RuntimeError);
    expect(copyAndRead(copy, memory, '\u4e16', 8)).toStrictEqual(units('\u4e16'));
    // After growth the same copier writes into the grown memory.
    memory.grow(1);
    expect(copyAndRead(copy, memory, 'y'.repeat(40), 65536 + 100)).toStrictEqual(units('y'.repeat(40)));
  });

  it('units: strings of the units in memory, whatever they hold, around the kept array\'s length', () => {
    const memory = new WebAssembly.Memory({ initial: 64 });
    const { units: decode, copy } = stringBuiltins(memory)!;
    const text = Array.from({ length: 3 * KEPT_UNITS + 7 }, (_, i) =>
      String.fromCharCode(i % 11 === 0 ? 0xd800 + (i % 0x800) : i % 5 === 0 ? 0x4e00 + (i % 5000) : 0x20 + (i % 95)),
    ).join('');
    copy(text, 1024);
    for (const n of [0, 1, 2, 3, 4, 5, 100, KEPT_UNITS - 1, KEPT_UNITS, KEPT_UNITS + 1, text.length]) {
      for (const at of [1024, 1026]) {
        if ((at - 1024) / 2 + n > text.length) continue;
        const got = decode(at, n);
        const want = text.slice((at - 1024) / 2, (at - 1024) / 2 + n);
        expect(got === want, `${n} units at ${at}`).toBe(true);
      }
    }
    // One-byte text comes back as text (the engine may store it in one byte a unit).
    copy('plain text', 64);
    expect(decode(64, 10)).toBe('plain text');
    expect(() => decode(65536 * 64 - 2, 2)).toThrow(WebAssembly.RuntimeError);
  });

  it('latin1: strings of the bytes in memory, one unit each, around the kept array\'s length', () => {
    const memory = new WebAssembly.Memory({ initial: 64 });
    const { latin1 } = stringBuiltins(memory)!;
    const bytes = new Uint8Array(memory.buffer);
    const n = 2 * KEPT_UNITS + 9;
    for (let i = 0; i < n; i++) bytes[4096 + i] = (i * 37 + (i >> 8)) & 0xff;
    const text = String.fromCharCode(...Array.from({ length: 4096 }, (_, i) => bytes[4096 + i]));
    for (const len of [0, 1, 2, 3, 4, 5, 7, 8, 9, 63, 64, 65, 320, 4096]) {
      for (const at of [4096, 4097, 4099]) {
        if (at - 4096 + len > 4096) continue;
        expect(latin1(at, len) === text.slice(at - 4096, at - 4096 + len), `${len} bytes at ${at}`).toBe(true);
      }
    }
    for (const len of [KEPT_UNITS - 1, KEPT_UNITS, KEPT_UNITS + 1, n]) {
      const got = latin1(4096, len);
      expect(got.length).toBe(len);
      let same = true;
      for (let i = 0; i < len && same; i++) same = got.charCodeAt(i) === bytes[4096 + i];
      expect(same, `${len} bytes`).toBe(true);
    }
    expect(() => latin1(65536 * 64 - 2, 3)).toThrow(WebAssembly.RuntimeError);
  });
});
