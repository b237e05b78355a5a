// minify() and prettify(): whitespace rewritten, strings and numbers byte for byte.
import { describe, expect, it } from 'vitest';
import { sharedCorpus } from './support/shared.js';
import * as wasmjson from 'wasmjson';
import { codecFor, FLAVORS } from './support/flavors.js';
import { watchedCodec } from './support/watched-codec.js';

const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder();

/** Deterministic documents whose numbers are in JS's own form, so JSON.stringify is the oracle. */
function* documents(count: number): Generator<unknown> {
  let seed = 99;
  const rnd = (n: number) => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed % n;
  };
  const strings = ['', 'a', 'é', '😀', 'line\nbreak', 'q"uote', 'back\\slash', '\u0001', 'tab\t', 'ключ'];
  const value = (depth: number): unknown => {
    const k = rnd(depth > 4 ? 5 : 8);
    if (k === 0) return null;
    if (k === 1) return rnd(2) === 0;
    if (k === 2) return (rnd(2000000) - 1000000) / [1, 10, 1000][rnd(3)];
    if (k === 3 || k === 4) return strings[rnd(strings.length)];
    if (k === 5 || k === 6) return Array.from({ length: rnd(5) }, () => value(depth + 1));
    const o: Record<string, unknown> = {};
    for (let i = rnd(5); i > 0; i--) o[strings[rnd(strings.length)] + rnd(3)] = value(depth + 1);
    return o;
  };
  for (let i = 0; i < count; i++) yield value(0);
}

for (const flavor of FLAVORS) {
  describe(`minify / prettify (${flavor})`, async () => {
    const codec = await codecFor(flavor);

    it('agree with JSON.stringify on generated documents, from strings and bytes', () => {
      for (const doc of documents(1500)) {
        const spaced = JSON.stringify(doc, null, 3);
        expect(codec.minify(spaced)).toBe(JSON.stringify(doc));
        expect(fromUtf8.decode(codec.minify(utf8.encode(spaced)))).toBe(JSON.stringify(doc));
        for (const indent of [2, '\t', 4]) {
          expect(codec.prettify(JSON.stringify(doc), { indent })).toBe(JSON.stringify(doc, null, indent));
        }
      }
    });

    // The SWAR64 kernel skips a gap a run of one byte at a time (a line feed, then the
    // indentation); every kernel must skip exactly JSON's four whitespace bytes.
    it('skip gaps of every shape and stop at a byte that is not whitespace', () => {
      const doc = '{"a":[1,true,{"b":null}],"c":"x"}';
      const gaps: string[] = [];
      for (let n = 1; n <= 40; n += 3) {
        for (const c of [' ', '\t', '\n', '\r']) gaps.push(c.repeat(n));
        gaps.push('\n' + ' '.repeat(n), ' \n' + ' '.repeat(n), '\r\n' + '\t'.repeat(n), '\n' + ' '.repeat(n) + '\n' + ' '.repeat(n >> 1));
      }
      let seed = 5;
      for (let i = 0; i < 40; i++) {
        let g = '';
        for (let n = 1 + (i % 37); n > 0; n--) g += ' \t\n\r'[(seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 30];
        gaps.push(g);
      }
      const places = [0, doc.length];
      for (let i = 1; i < doc.length; i++) if ('{}[],:'.includes(doc[i - 1])) places.push(i);
      for (const gap of gaps) {
        for (const at of places) {
          const text = doc.slice(0, at) + gap + doc.slice(at);
          expect(codec.minify(text)).toBe(doc);
          expect(fromUtf8.decode(codec.minify(utf8.encode(text)))).toBe(doc);
          expect(codec.parse(utf8.encode(text))).toEqual(JSON.parse(doc));
          expect(codec.validate(text)).toBe(true);
        }
        // A byte that is not JSON whitespace anywhere in the gap is an error there.
        for (let j = 0; j < gap.length; j += 5) {
          for (const bad of ['\u000b', '\u000c', '\u00a0']) {
            const text = doc.slice(0, 6) + gap.slice(0, j) + bad + gap.slice(j + 1) + doc.slice(6);
            expect(() => JSON.parse(text)).toThrow(SyntaxError);
            let error: { offset?: number } | undefined;
            try {
              codec.parse(text);
            } catch (e) {
              error = e as { offset?: number };
            }
            expect(error, JSON.stringify(text)).toBeInstanceOf(SyntaxError);
            expect(error!.offset, JSON.stringify(text)).toBe(6 + j);
          }
        }
      }
    });

    it('copy numbers and escapes verbatim', () => {
      const text = '[ 1.50 , -0.0 , 1e400 , 12345678901234567890 , "\\u00e9\\/" , {"k\\n" : 1E+2} ]';
      expect(codec.minify(text)).toBe('[1.50,-0.0,1e400,12345678901234567890,"\\u00e9\\/",{"k\\n":1E+2}]');
      expect(codec.prettify('{"a":[],"b":{},"c":[1]}')).toBe('{\n  "a": [],\n  "b": {},\n  "c": [\n    1\n  ]\n}');
    });

    it('take the indent as JSON.stringify takes space', () => {
      const v = { a: [1, { b: 2 }] };
      const text = JSON.stringify(v);
      for (const indent of [0, 1, 10, 20, -3, 2.7, '', '-', '0123456789abc', new Number(3), new String('..'), null, true, {}, NaN]) {
        expect(codec.prettify(text, { indent: indent as never })).toBe(JSON.stringify(v, null, indent as never));
      }
      expect(codec.prettify(text)).toBe(JSON.stringify(v, null, 2));
      expect(codec.prettify(text, { indent: undefined })).toBe(JSON.stringify(v, null, 2));
    });

    it('write a non-ASCII indent into the output of an ASCII text', () => {
      const v = { a: [1, { b: 'x' }] };
      for (const indent of ['\u00e9', '\u2192 ', '\ud83d\ude00']) {
        expect(codec.prettify(JSON.stringify(v), { indent })).toBe(JSON.stringify(v, null, indent));
        expect(fromUtf8.decode(codec.prettify(utf8.encode(JSON.stringify(v)), { indent }))).toBe(JSON.stringify(v, null, indent));
      }
    });

    it('return large bytes results in buffers of their own, holding exactly their bytes', () => {
      // Outputs of 64 KB and more are copied out of wasm memory another way (copyOut).
      const v = Array.from({ length: 6000 }, (_, i) => ({ id: i, name: 'n' + i, tags: ['a', 'b'], x: i / 7 }));
      const text = JSON.stringify(v, null, 1);
      const results = [
        [codec.minify(utf8.encode(text)), JSON.stringify(v)],
        [codec.prettify(utf8.encode(text), { indent: 2 }), JSON.stringify(v, null, 2)],
        [codec.minify(utf8.encode(JSON.stringify([1, 2]))), '[1,2]'],
      ] as const;
      for (const [out, want] of results) {
        expect(Object.getPrototypeOf(out)).toBe(Uint8Array.prototype);
        expect(out.byteOffset).toBe(0);
        expect(out.buffer.byteLength).toBe(out.length);
        expect(fromUtf8.decode(out)).toBe(want);
      }
      expect(results[0][0].length).toBeGreaterThan(64 * 1024);
      // Each call's result is its own: changing one leaves the next call's alone.
      const first = codec.minify(utf8.encode(text));
      first.fill(0x20);
      expect(fromUtf8.decode(codec.minify(utf8.encode(text)))).toBe(JSON.stringify(v));
    });

    it('return bytes for bytes, skip a BOM, keep non-ASCII as UTF-8', () => {
      const out = codec.minify(new Uint8Array([0xef, 0xbb, 0xbf, ...utf8.encode(' { "é" : "ü" } ')]));
      expect(out).toBeInstanceOf(Uint8Array);
      expect(fromUtf8.decode(out)).toBe('{"é":"ü"}');
    });

    it('minify, prettify and validate of two-byte text (read as its UTF-16 units) give what the UTF-8 route gives: text, errors', async () => {
      // The reference never reads units: stringInput 'utf8'.
      const viaUtf8 = await wasmjson.load({ flavor, stringInput: 'utf8' });
      const INDENTS = [2, '\t', '日', ' \ud800', 10];
      let k = 0;
      const same = (text: string, label: string) => {
        // minify, and prettify with one of the indents in turn.
        const indent = INDENTS[k++ % INDENTS.length];
        for (const run of [
          (c: typeof codec) => c.minify(text),
          (c: typeof codec) => c.prettify(text, { indent }),
          (c: typeof codec) => c.validate(text),
          (c: typeof codec) => {
            const v = c.validate(text, { explain: true }) as { valid: boolean; error?: Error };
            if (v.error) throw v.error;
            return v.valid;
          },
        ]) {
          check(run, text, `${label}, indent ${JSON.stringify(indent)}`);
        }
        return attemptValue(() => codec.minify(text));
      };
      const attemptValue = (f: () => unknown): unknown => {
        try {
          return f();
        } catch (e) {
          return e;
        }
      };
      const check = (run: (c: typeof codec) => unknown, text: string, label: string) => {
        const want = attemptValue(() => run(viaUtf8 as typeof codec));
        const got = attemptValue(() => run(codec));
        if (want instanceof Error) {
          expect(got, label).toBeInstanceOf(SyntaxError);
          const [g, w] = [got as wasmjson.JsonSyntaxError, want as wasmjson.JsonSyntaxError];
          expect([g.message, g.offset, g.line, g.column], label).toStrictEqual([w.message, w.offset, w.line, w.column]);
        } else {
          expect(got, label).toBe(want);
        }
      };
      // Long enough, with units above U+00FF early (and throughout, past 64K units).
      const pad = '日本語のテキスト'.repeat(300);
      let n = 0;
      const pieces = ['{', '}', '[', ']', ',', ':', '"', '\\', 'x', ' ', '\u0001', 'é', '日', '\ud800', '\udc00', '\ufeff', '\u2028'];
      for (const doc of documents(400)) {
        const spaced = JSON.stringify({ pad: pad.slice(0, 2100 + (n % 50)), doc, tail: ['\ud83d\ude00', 'ключ'] }, null, n % 4);
        const text = n % 3 === 0 ? spaced.replace('"x"', '"x\ud800y"') : spaced;
        const out = same(text, `document ${n}`);
        if (!(out instanceof Error)) {
          expect(out).toBe(JSON.stringify(JSON.parse(text)));
          expect(codec.prettify(text, { indent: '日本' })).toBe(JSON.stringify(JSON.parse(text), null, '日本'));
        }
        // Damaged after the pad: the same error, placed the same.
        const at = 2200 + ((n * 7919) % (text.length - 2200));
        same(text.slice(0, at) + pieces[n % pieces.length] + text.slice(at + (n % 2)), `damaged document ${n}`);
        n++;
      }
      // Past 64K units: text mostly not ASCII (read as units), and text with one unit
      // above U+00FF (read as UTF-8); already minified text comes back as it is.
      const wide = JSON.stringify(Array.from({ length: 3000 }, (_, i) => ({ k: `日本${i}`, v: ['ключ', i, '\ud800'] })), null, 1);
      const narrow = JSON.stringify({ one: '日', list: Array.from({ length: 9000 }, (_, i) => `ascii ${i}`) }, null, 2);
      for (const text of [wide, narrow]) {
        expect(text.length).toBeGreaterThan(65536);
        const min = same(text, 'long');
        expect(same(min as string, 'long, minified')).toBe(min);
        same(text.slice(0, text.length - 3), 'long, cut');
      }
    });

    it('keep lone surrogates of string input, next to real U+FFFD', () => {
      const text = '{ "\ud800" : [ "\ufffd" , "a\udfffb" , "\ud83d\ude00" ] }';
      expect(codec.minify(text)).toBe('{"\ud800":["\ufffd","a\udfffb","\ud83d\ude00"]}');
      expect(codec.prettify(text)).toBe('{\n  "\ud800": [\n    "\ufffd",\n    "a\udfffb",\n    "\ud83d\ude00"\n  ]\n}');
    });

    it('keep an indent of U+FFFD or lone surrogates as JSON.stringify does, and the strings intact', () => {
      const values = [['\ud800'], ['x', { k: '\ufffd' }], { '\udc00': ['a\ufffd', '\ud83d\ude00'] }];
      for (const indent of ['\ufffd', '\ud800', ' \udc00 ', '123456789\ud83d\ude00', '\ufffd\ud800\ufffd']) {
        for (const v of values) {
          expect(codec.prettify(JSON.stringify(v), { indent }), indent).toBe(JSON.stringify(v, null, indent));
        }
      }
    });

    it('minify gives already minified text back as it is, and still validates it', () => {
      for (const text of ['{"a":[1,2,{"b":"\ud800 \ufffd é"}],"c":null}', '[]', '"x"', '-0.5e+3']) {
        expect(codec.minify(text)).toBe(text);
        const bytes = utf8.encode(text);
        const out = codec.minify(bytes) as Uint8Array;
        expect(out).toStrictEqual(bytes);
        expect(out).not.toBe(bytes); // bytes are mutable: always a copy
        // With a BOM: the text after it (wasm reports the input itself as the output).
        expect(codec.minify(new Uint8Array([0xef, 0xbb, 0xbf, ...bytes]))).toStrictEqual(bytes);
      }
      // A large one (output copied into memory of its own): a copy that later calls and
      // changes to the input leave alone.
      const big = utf8.encode(JSON.stringify(Array.from({ length: 20000 }, (_, i) => ({ i, s: `v${i}` }))));
      const kept = codec.minify(big) as Uint8Array;
      expect(kept).toStrictEqual(big);
      expect(kept.buffer.byteLength).toBe(big.length);
      big[1] = 0x20;
      codec.minify(utf8.encode('[' + '1,'.repeat(100000) + '2]'));
      expect(kept[1]).toBe(0x7b);
      expect(() => codec.minify('[1,]')).toThrow(SyntaxError);
      expect(() => codec.minify('{"a":tru}')).toThrow(SyntaxError);
    });

    it('report an invalid input whose indented output would not fit in memory as its SyntaxError, as JSON.parse does', () => {
      const deep = '['.repeat(50_000);
      for (const input of [deep, new TextEncoder().encode(deep)]) {
        // (Each prettify fills wasm memory to its limit before the end is reached.)
        for (const f of [() => codec.prettify(input, { indent: typeof input === 'string' ? 2 : 10 }), () => codec.minify(input)]) {
          expect(f).toThrow(SyntaxError);
          expect(f).toThrow('Unexpected end of JSON input');
        }
      }
      expect(codec.minify('[1, 2]')).toBe('[1,2]');
    });

    it('stop pretty text that no string can hold at the longest string: RangeError: Invalid string length, as JSON.stringify(JSON.parse(text), null, 2)', async () => {
      const watched = await watchedCodec(flavor);
      const n = 1_000_000;
      // Two-byte text (SIMD128 reads its units), one-byte text (read as UTF-8, as SWAR64
      // reads both): each route's limit.
      const text = flavor === 'simd128' ? '["€€€€€€",'.repeat(n) + '0' + ']'.repeat(n) : '['.repeat(n) + ']'.repeat(n);
      {
        expect(() => watched.codec.prettify(text)).toThrow(new RangeError('Invalid string length'));
        // At most about the longest string's text was written (V8: 2^29 - 24 units, 1 GiB
        // as units, 2.7 GB of memory with the block it grew from), not up to wasm
        // memory's 4 GiB; the buffer is freed for the next calls.
        expect(watched.memory.buffer.byteLength).toBeLessThan(3 * 2 ** 30);
        // Unless the text has a syntax error of its own, which JSON.parse throws first.
        expect(() => watched.codec.prettify(text.slice(0, -1))).toThrow(SyntaxError);
        expect(watched.codec.prettify('[1,{"a":"€"}]', { indent: 1 })).toBe('[\n 1,\n {\n  "a": "€"\n }\n]');
      }
      // Bytes out have no string to fit: their limit is wasm memory (README).
    });

    it('reject invalid input with a positioned SyntaxError', () => {
      expect(() => codec.minify('{"a": [1, 2,, 3]}')).toThrow(SyntaxError);
      try {
        codec.prettify('[1,\n 2\n x]');
        expect.unreachable();
      } catch (e) {
        const err = e as wasmjson.JsonSyntaxError;
        expect(err.offset).toBe(8);
        expect(err.line).toBe(3);
        expect(err.column).toBe(2);
        expect(err.message).toBe("Expected ',' or ']' after array element in JSON at position 8 (line 3 column 2)");
      }
      expect(() => codec.minify(new Uint8Array([0x22, 0xff, 0x22]))).toThrow(/Invalid UTF-8/);
      expect(() => codec.minify(42 as never)).toThrow(TypeError);
    });

    it('place minify errors in the text as given, though minify writes over its copy of it', () => {
      const caught = (f: () => unknown): wasmjson.JsonSyntaxError => {
        try {
          f();
        } catch (e) {
          return e as wasmjson.JsonSyntaxError;
        }
        throw new Error('no error');
      };
      const texts = [
        '[1,\n 2\n x]',
        '{\n  "é": [ 1 ,\n\t2 ,, 3 ]\n}',
        '\n\n   [ "ключ" ,   "b"  \n  ,  ]  ',
        '{ "a" : 1 ,\r\n  "b" : [ true , false , null ] ,\r\n  "c" : "x\u0001" }',
        '[ ' + '1 , '.repeat(5000) + '\n 2 }',
      ];
      for (const text of texts) {
        for (const input of [text, utf8.encode(text)]) {
          const expected = caught(() => codec.parse(input));
          const got = caught(() => codec.minify(input));
          expect(got).toBeInstanceOf(SyntaxError);
          expect([got.offset, got.line, got.column, got.message]).toStrictEqual([expected.offset, expected.line, expected.column, expected.message]);
        }
      }
      // The input itself is untouched, and the next call minifies as usual.
      const bytes = utf8.encode(texts[1]);
      const before = bytes.slice();
      caught(() => codec.minify(bytes));
      expect(bytes).toStrictEqual(before);
      expect(codec.minify('[ 1 , 2 ]')).toBe('[1,2]');
    });

    it('handle deep nesting without recursion', () => {
      const n = 200_000;
      const deep = '[ '.repeat(n) + ' ]'.repeat(n);
      expect(codec.minify(deep)).toBe('['.repeat(n) + ']'.repeat(n));
      const pretty = codec.prettify('['.repeat(1000) + ']'.repeat(1000)) as string;
      expect(codec.minify(pretty)).toBe('['.repeat(1000) + ']'.repeat(1000));
    });

    it('round-trip every corpus file', async (ctx) => {
      const docs = await sharedCorpus(ctx);
      for (const { name, bytes } of docs) {
        const text = fromUtf8.decode(bytes);
        const min = codec.minify(text);
        expect(JSON.parse(min), name).toStrictEqual(JSON.parse(text));
        expect(codec.minify(codec.prettify(text, { indent: 1 })), name).toBe(min);
        expect(fromUtf8.decode(codec.minify(bytes)), name).toBe(min);
      }
    });
  });
}

describe('top-level minify / prettify', () => {
  it('are exported', () => {
    expect(wasmjson.minify('[ 1 ]')).toBe('[1]');
    expect(wasmjson.prettify('[1]', { indent: 1 })).toBe('[\n 1\n]');
  });
});
