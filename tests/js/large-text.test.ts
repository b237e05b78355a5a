// Text of 256 KiB and more is decoded from wasm memory in 64 KiB pieces that are joined
// (js/src/utf8.ts). These documents put multi-byte characters and surrogate pairs across
// every piece boundary, for each way a cut can fall inside one, and check each decoding
// path against native JSON: UTF-8 (outputs, parse(bytes)'s string heap), ASCII, and
// UTF-16 (escaped strings).
import { describe, expect, it } from 'vitest';
import { codecFor, FLAVORS } from './support/flavors.js';

const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder();

/** A long run of `unit`, behind `shift` ASCII bytes so that cuts land at each offset in it. */
function run(unit: string, shift: number, bytes: number): string {
  return 'x'.repeat(shift) + unit.repeat(Math.ceil(bytes / utf8.encode(unit).length));
}

/** Documents of about 700 KB: one long string, an array of many, and a mix with ASCII. */
function documents(): unknown[] {
  const docs: unknown[] = [];
  for (const unit of ['é', '€', '😀', 'a€😀é']) {
    for (let shift = 0; shift < 4; shift++) {
      docs.push([run(unit, shift, 700_000)]);
      docs.push({ list: Array.from({ length: 7000 }, (_, i) => run(unit, (shift + i) % 4, 97)) });
    }
  }
  docs.push({ ascii: run('abc', 0, 900_000), more: Array.from({ length: 20000 }, (_, i) => `item-${i}`) });
  return docs;
}

for (const flavor of FLAVORS) {
  describe(`large text decoded in pieces (${flavor})`, async () => {
    const codec = await codecFor(flavor);
    const docs = documents();

    it('minify and prettify of strings return what JSON.stringify returns', () => {
      for (const doc of docs) {
        const text = JSON.stringify(doc, null, 1);
        expect(codec.minify(text)).toBe(JSON.stringify(doc));
        expect(codec.prettify(JSON.stringify(doc), { indent: 2 })).toBe(JSON.stringify(doc, null, 2));
      }
    });

    it('parse(bytes) builds the values JSON.parse builds (string heap in UTF-8 and ASCII)', () => {
      for (const doc of docs) {
        const text = JSON.stringify(doc);
        expect(codec.parse(utf8.encode(text))).toStrictEqual(JSON.parse(text));
      }
    });

    it('parse(bytes) reads a string heap of many pieces (keys, escapes, BigInt text)', () => {
      // The heap's pieces begin every 64 KiB at a string: keys met for the first time,
      // strings whose escapes decode to ASCII, non-ASCII ones and integer text all land
      // on both sides of piece starts.
      const members: string[] = [];
      for (let i = 0; i < 6000; i++) {
        const pad = 'p'.repeat(i % 37);
        members.push(
          `"key${i}${pad}": {"s": "${pad}\\n\\u0041${i}", "t": "é${pad}${i}", "n": ${90071992547409930n + BigInt(i)}, "k${i % 7}": "${pad}"}`,
        );
      }
      const text = `{${members.join(',')}}`;
      const bytes = utf8.encode(text);
      expect(codec.parse(bytes)).toStrictEqual(JSON.parse(text));
      const big = codec.parse(bytes, { bigint: 'unsafe' }) as Record<string, { n: bigint; s: string }>;
      const keys = Object.keys(JSON.parse(text));
      expect(Object.keys(big)).toStrictEqual(keys);
      keys.forEach((k, i) => {
        expect(big[k].n).toBe(90071992547409930n + BigInt(i));
        expect(big[k].s).toBe(`${'p'.repeat(i % 37)}\nA${i}`);
      });
    });

    it('parse reads long escaped text (UTF-16 pieces) as JSON.parse does', () => {
      for (let shift = 0; shift < 4; shift++) {
        // Strings with an escape are decoded to UTF-16 in wasm; their text passes 256 KiB,
        // with pairs (from raw 4-byte characters) at each offset from the cuts.
        const escaped = 'x'.repeat(shift) + '😀\\u00e9'.repeat(60_000);
        const text = `["${escaped}", {"k": "\\u20ac${'😀'.repeat(30_000)}"}]`;
        expect(codec.parse(text)).toStrictEqual(JSON.parse(text));
        expect(codec.parse(utf8.encode(text))).toStrictEqual(JSON.parse(text));
      }
    });

    it('stringify and encode of large values match JSON.stringify', () => {
      for (const doc of docs) {
        expect(codec.stringify(doc)).toBe(JSON.stringify(doc));
        expect(fromUtf8.decode(codec.encode(doc))).toBe(JSON.stringify(doc));
      }
    });
  });
}
