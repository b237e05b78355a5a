// Short text from memory (js/src/utf8.ts): in Node, up to 8 bytes of ASCII are joined a
// character at a time instead of a Buffer call; longer or non-ASCII text takes the
// engine's decoder. Both routes must give the decoder's string, at every length around
// the cut and with a non-ASCII character at every place; and the results of stringify()
// and parse() whose text is that short must be native JSON's.
import { describe, expect, it } from 'vitest';
import { decodeAscii, decodeUtf8 } from '../../js/src/utf8.js';
import { codecFor, FLAVORS } from './support/flavors.js';

const decoder = new TextDecoder();
const encoder = new TextEncoder();
const ASCII = 'a"\\\u0000\u001f ~\u007f0Zz';

/** Text of `n` ASCII characters, taken from ASCII at offset `seed`. */
function asciiText(n: number, seed: number): string {
  let text = '';
  for (let i = 0; i < n; i++) text += ASCII[(seed + i) % ASCII.length];
  return text;
}

describe('short text from memory', () => {
  it('decodes ASCII of 0 to 12 bytes, at any offset, as TextDecoder does', () => {
    for (let n = 0; n <= 12; n++) {
      for (const offset of [0, 1, 7]) {
        const text = asciiText(n, n + offset);
        const bytes = new Uint8Array(offset + n + 3).fill(0x41);
        bytes.set(encoder.encode(text), offset);
        expect(decodeAscii(bytes, offset, offset + n)).toBe(text);
        expect(decodeUtf8(bytes, offset, offset + n)).toBe(text);
      }
    }
  });

  it('decodes UTF-8 of up to 10 ASCII bytes and a non-ASCII character, at every place', () => {
    for (const wide of ['\u0080', '\u00ff', '\u0416', '\u20ac', '\ud83d\ude00']) {
      for (let n = 0; n <= 10; n++) {
        for (let at = 0; at <= n; at++) {
          const text = asciiText(at, 3) + wide + asciiText(n - at, 5);
          const bytes = encoder.encode(text);
          expect(decodeUtf8(bytes, 0, bytes.length)).toBe(decoder.decode(bytes));
        }
      }
    }
  });
});

for (const flavor of FLAVORS) {
  describe(`stringify() and parse() with short text (${flavor})`, async () => {
    const { parse, stringify } = await codecFor(flavor);

    it('are native JSON for values whose text is short', () => {
      const values: unknown[] = [0, 1, -1, 1.5, 1e21, -0, true, false, null, [], {}, [1, 2], { a: 1 }, { a: 'x' }];
      for (let n = 0; n <= 10; n++) {
        values.push(asciiText(n, n));
        values.push(asciiText(n, 0) + '\u00e9');
        values.push([asciiText(n, 2)]);
      }
      for (const value of values) {
        const text = JSON.stringify(value);
        expect(stringify(value)).toBe(text);
        expect(parse(encoder.encode(text))).toEqual(JSON.parse(text));
        expect(parse(text)).toEqual(JSON.parse(text));
      }
    });
  });
}
