// validate(): accepts exactly what JSON.parse accepts (string input) and what
// JSON.parse(new TextDecoder().decode(bytes)) accepts for well-formed UTF-8 (bytes
// input), rejects invalid UTF-8, and says why with V8's messages.
import { describe, expect, it } from 'vitest';
import { readShared } from '#files';
import { sharedCorpus, sharedNames } from './support/shared.js';
import { JsonSyntaxError } from 'wasmjson';
import { codecFor, FLAVORS } from './support/flavors.js';

const utf8 = (s: string) => new TextEncoder().encode(s);

function nativeAccepts(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function nativeMessage(text: string): string {
  try {
    JSON.parse(text);
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error(`JSON.parse accepted ${text}`);
}

// Each is short enough that V8 quotes the whole input in "Unexpected token" messages.
const INVALID = [
  '', '   ', '[', '[1,', '{"a":1', 'x', '[1,]', '{,}', '{"a":1,}', '{"a" 1}', '{"a":1 "b":2}', '[1 2]', '"abc',
  '"a\u0001"', '"\\x"', '"\\u12g4"', '"\\u12', '-', '-a', '1e', '1e+', '1.', '1.e5', '01', '-01', '1 2', '{} x',
  'tru', 'trux', 'nul', 'falsy', '\ufeff{}', '[1]\u0000', '"\\', '{"a"', '{"a":', '[-]', '\u00e9', '[1,,2]',
  '{"a":1}}', '[[]', '{"a":{"b":[1,{"c":tru}]}}', 'NaN', 'Infinity', '+1', '.5', '0x10', 'undefined', '[object Object]', "'a'", '[1,2', '\n\n  [1,\n  x]',
  '{"é": é}', '"\ud800\u0001"', '{"a":1,"b"}',
];

const VALID = [
  '0', '-0', '1.5e+10', '-0.0e-0', '123456789012345678901234567890', '1e999', 'true', 'false', 'null', '""',
  '"a\\u00e9\\n\\"\\\\\\/\\b\\f\\r\\t"', '[]', '{}', ' [ 1 , 2 ] ', '{"a":{"b":[null,{}]}}', '\t\r\n 7 \n',
  '"é€😀"', '"\\ud800"', '"\\udc00\\ud800"', '{"__proto__":1}', '"\ud800"', '"a\udfffb"', '[' + '"x",'.repeat(1000) + '1]',
];

for (const flavor of FLAVORS) {
  describe(`validate (${flavor})`, async () => {
    const codec = await codecFor(flavor);

    it('runs the requested flavor', () => {
      expect(codec.flavor).toBe(flavor);
    });

    it('accepts what JSON.parse accepts, from strings and bytes', () => {
      for (const text of VALID) {
        expect(nativeAccepts(text), text).toBe(true);
        expect(codec.validate(text), text).toBe(true);
        if (text.isWellFormed()) expect(codec.validate(utf8(text)), text).toBe(true);
      }
    });

    it('rejects what JSON.parse rejects, with the same message', () => {
      for (const text of INVALID) {
        expect(codec.validate(text), text).toBe(false);
        expect(codec.validate(utf8(text)), text).toBe(text.startsWith('\ufeff'));
        const result = codec.validate(text, { explain: true });
        expect(result.valid).toBe(false);
        expect(result.error).toBeInstanceOf(JsonSyntaxError);
        expect(result.error).toBeInstanceOf(SyntaxError);
        expect(result.error!.message, text).toBe(nativeMessage(text));
      }
    });

    it('reports offsets as UTF-16 indices for strings and byte offsets for bytes', () => {
      const text = '{"ключ": "значение",\n "b": [1, 2,, 3]}';
      const r = codec.validate(text, { explain: true });
      expect(r.error!.offset).toBe(text.indexOf(',,') + 1);
      expect(r.error!.line).toBe(2);
      expect(r.error!.column).toBe(' "b": [1, 2,'.length + 1);
      expect(r.error!.code).toBe('UNEXPECTED_CHARACTER');
      const bytes = utf8(text);
      const rb = codec.validate(bytes, { explain: true });
      expect(rb.error!.offset).toBe(bytes.indexOf(0x2c, bytes.indexOf(0x32)) + 1);
      expect(rb.error!.line).toBe(2);
      expect(rb.error!.excerpt).toContain('2,, 3');
      // Astral characters count as two UTF-16 units.
      const astral = '["😀😀", x]';
      expect(codec.validate(astral, { explain: true }).error!.offset).toBe(astral.indexOf('x'));
    });

    it('excerpts hold whole characters: no half of a surrogate pair, no endless run of stray UTF-8 bytes', () => {
      const emoji = '[1 2,"' + '😀'.repeat(20) + '"]';
      for (const text of [emoji, '["' + '😀'.repeat(20) + '", x]', '["😀' + 'a'.repeat(19) + '😀', '"' + 'é😀'.repeat(15) + '" x']) {
        for (let shift = 0; shift < 2; shift++) {
          const t = ' '.repeat(shift) + text;
          const e = codec.validate(t, { explain: true });
          expect(e.valid, t).toBe(false);
          if (e.valid) continue;
          expect(e.error.excerpt.isWellFormed(), t).toBe(true);
          expect(e.error.excerpt.length).toBeLessThanOrEqual(42);
          // (The message quotes V8's context, which may cut a pair as V8's own does.)
          expect(e.error.message).toBe((() => { try { JSON.parse(t); } catch (n) { return (n as Error).message; } })());
        }
      }
      const stray = new Uint8Array(1_000_004).fill(0x80);
      stray.set([0x5b, 0x31, 0x20, 0x32]);
      const r = codec.validate(stray, { explain: true });
      expect(r.valid).toBe(false);
      if (!r.valid) {
        expect(r.error.excerpt.length).toBeLessThan(50);
        expect(r.error.message.length).toBeLessThan(200);
      }
    });

    it('explains success too', () => {
      expect(codec.validate('[1]', { explain: true })).toEqual({ valid: true });
    });

    it("applies parse's checks when asked, with the same errors as parse", () => {
      const cases: [string, Record<string, unknown>, string | null][] = [
        ['{"a":1,"b":{"a":2}}', { duplicateKeys: 'error' }, null],
        ['{"a":1,"b":2,"a":3}', { duplicateKeys: 'error' }, 'DUPLICATE_KEY'],
        ['{"a":1,"b":2,"a":3}', { duplicateKeys: 'last' }, null],
        ['[{"__proto__":{}}]', { protoAction: 'error' }, 'FORBIDDEN_PROTO'],
        ['{"constructor":{"prototype":{}}}', { constructorAction: 'error' }, 'FORBIDDEN_CONSTRUCTOR'],
        ['{"constructor":{"prototype":{}}}', { protoAction: 'error' }, null],
        ['[[[1]]]', { maxDepth: 2 }, 'TOO_DEEP'],
        ['[[[1]]]', { maxDepth: 3 }, null],
        ['[[[1]', { maxDepth: 2 }, 'EXPECTED_COMMA_OR_BRACKET'],
      ];
      for (const [text, checks, code] of cases) {
        for (const input of [text, new TextEncoder().encode(text)]) {
          expect(codec.validate(input, checks)).toBe(code === null);
          const r = codec.validate(input, { ...checks, explain: true });
          expect(r.valid).toBe(code === null);
          if (code === null) continue;
          expect(r.error!.code).toBe(code);
          let thrown: unknown;
          try {
            codec.parse(input, checks);
          } catch (e) {
            thrown = e;
          }
          expect((thrown as Error).message).toBe(r.error!.message);
        }
      }
      expect(() => codec.validate('1', { maxDepth: -2 })).toThrow(RangeError);
      expect(() => codec.validate('[', { duplicateKeys: 'yes' as never })).toThrow(TypeError);
    });

    it('with checks, builds no value yet reads the keys of objects whose shape is cached', () => {
      // Parses make a constructor for the shape {prototype} and mark its keys checked,
      // so a parse keeps no key for it; validate's constructor check needs the key.
      for (let i = 0; i < 5; i++) codec.parse('[{"prototype":1},{"prototype":2}]', { maxDepth: 9 });
      expect(codec.validate('{"k":{"j":1}}', { maxDepth: 5 })).toBe(true);
      const text = '{"constructor":{"prototype":3}}';
      expect(codec.validate(text, { constructorAction: 'error' })).toBe(false);
      expect(codec.validate(text, { constructorAction: 'remove' })).toBe(true);
      expect(codec.validate(`[${text}]`, { constructorAction: 'error', maxDepth: 3 })).toBe(false);
      expect(codec.validate(`[${text}]`, { constructorAction: 'error', maxDepth: 2 })).toBe(false);
      expect(codec.validate(`[[1,2],{"constructor":[{"prototype":1}]},"s"]`, { constructorAction: 'error' })).toBe(true);
    });

    it('maxDepth (with or without removals) is checked in wasm with the answers and errors of parse', () => {
      // One-byte and two-byte strings (SIMD128 reads two-byte text as its units first)
      // and bytes with and without a BOM; a syntax error anywhere comes first.
      const docs = [
        '[]', '{"a":[{}],"b":[[1,2],[]]}', '[["é",{"ü":[["x"]]}],"[[[",{"{":"]"}]', ' [ [ 1 ] , [ [ 2 ] ] ] ',
        '{"k":"' + 'é'.repeat(3000) + '","d":[[[[1]]]]}', '[' + '[1,"€"],'.repeat(500) + '[[[[[]]]]]]', '"no containers"',
        '[[[1]]],', '[[[1]],x]', '[x,[[1]]]', '[[[1]]', '[[[' + '"é'.repeat(2000),
      ];
      const failures: string[] = [];
      for (const text of docs) {
        for (const maxDepth of [0, 1, 2, 3, 4, 5, 6, 100]) {
          for (const extra of [{}, { protoAction: 'remove' }, { constructorAction: 'remove', protoAction: 'ignore' }]) {
            const checks = { maxDepth, ...extra } as Record<string, unknown>;
            for (const input of [text, utf8(text), new Uint8Array([0xef, 0xbb, 0xbf, ...utf8(text)])]) {
              let expected: JsonSyntaxError | undefined;
              try {
                codec.parse(input, checks);
              } catch (e) {
                expected = e as JsonSyntaxError;
              }
              const r = codec.validate(input, { ...checks, explain: true });
              const got = r.valid ? 'valid' : `${r.error.code} at ${r.error.offset}: ${r.error.message}`;
              const want = expected === undefined ? 'valid' : `${expected.code} at ${expected.offset}: ${expected.message}`;
              if (got !== want || codec.validate(input, checks) !== r.valid) failures.push(`${JSON.stringify(checks)} ${typeof input} ${text.slice(0, 40)}: ${got} / ${want}`);
            }
          }
        }
      }
      expect(failures).toEqual([]);
      expect(codec.validate('[[1]]', { maxDepth: 1, explain: true })).toMatchObject({ valid: false, error: { code: 'TOO_DEEP', offset: 1, line: 1, column: 2 } });
      // 1,000,000 levels: the innermost '[' is one too deep.
      const deep = '['.repeat(1_000_000) + ']'.repeat(1_000_000);
      expect(codec.validate(deep, { maxDepth: 999_999, explain: true })).toMatchObject({ valid: false, error: { code: 'TOO_DEEP', offset: 999_999 } });
      expect(codec.validate(deep, { maxDepth: 1_000_000 })).toBe(true);
    });

    it('reads each option once, as parse does (getters run once per call)', () => {
      for (const fn of ['validate', 'parse'] as const) {
        const reads: string[] = [];
        const options = {};
        for (const [name, value] of [
          ['duplicateKeys', 'error'],
          ['protoAction', 'remove'],
          ['constructorAction', 'ignore'],
          ['maxDepth', 8],
          ['explain', true],
        ] as const) {
          Object.defineProperty(options, name, {
            enumerable: true,
            get() {
              reads.push(name);
              return value;
            },
          });
        }
        const text = '{"a":1,"a":2}';
        if (fn === 'validate') {
          const r = codec.validate(text, options as never) as { valid: boolean; error?: JsonSyntaxError };
          expect(r.valid).toBe(false);
          expect(r.error!.code).toBe('DUPLICATE_KEY');
        } else {
          expect(() => codec.parse(text, options as never)).toThrow(/Duplicate/i);
        }
        const counts: Record<string, number> = {};
        for (const name of reads) counts[name] = (counts[name] ?? 0) + 1;
        const expected: Record<string, number> = { duplicateKeys: 1, protoAction: 1, constructorAction: 1, maxDepth: 1 };
        if (fn === 'validate') expected.explain = 1;
        expect(counts).toEqual(expected);
      }
    });

    it('accepts every byte container: Uint8Array, subarray, ArrayBuffer, DataView', () => {
      const bytes = utf8('xx[1, {"a": "b"}]yy');
      expect(codec.validate(bytes)).toBe(false);
      expect(codec.validate(bytes.subarray(2, bytes.length - 2))).toBe(true);
      expect(codec.validate(bytes.slice(2, -2).buffer)).toBe(true);
      expect(codec.validate(new DataView(bytes.buffer, 2, bytes.length - 4))).toBe(true);
      expect(codec.validate(new Uint8Array(0))).toBe(false);
    });

    it('throws a TypeError for anything that is not a string or bytes', () => {
      for (const bad of [undefined, null, 1, true, {}, [], () => 1, Symbol('x'), 10n, new Uint16Array(2).buffer.constructor]) {
        expect(() => codec.validate(bad as never)).toThrow(TypeError);
      }
      expect(() => codec.validate(42 as never)).toThrow(/expected a string, Uint8Array/);
    });

    it('rejects invalid UTF-8 in bytes input with the byte offset', () => {
      const cases: [number[], number][] = [
        [[0x22, 0xc3, 0x22], 1],
        [[0x22, 0x61, 0xed, 0xa0, 0x80, 0x22], 2],
        [[0x22, 0xf4, 0x90, 0x80, 0x80, 0x22], 1],
        [[0x22, 0xc0, 0xaf, 0x22], 1],
        [[0x5b, 0x22, 0x61, 0xff, 0x22, 0x5d], 3],
        [[0x22, 0xe2, 0x82], 1],
      ];
      for (const [bytes, offset] of cases) {
        const r = codec.validate(new Uint8Array(bytes), { explain: true });
        expect(r.valid).toBe(false);
        expect(r.error!.code).toBe('INVALID_UTF8');
        expect(r.error!.offset).toBe(offset);
      }
    });

    it('skips one UTF-8 byte order mark on bytes input only', () => {
      expect(codec.validate(new Uint8Array([0xef, 0xbb, 0xbf, 0x7b, 0x7d]))).toBe(true);
      expect(codec.validate(new Uint8Array([0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf, 0x7b, 0x7d]))).toBe(false);
      expect(codec.validate('\ufeff{}')).toBe(false);
    });

    it('handles nesting 1,000,000 deep without recursion', () => {
      const n = 1_000_000;
      const deep = '['.repeat(n) + ']'.repeat(n);
      expect(codec.validate(deep)).toBe(true);
      expect(codec.validate(utf8(deep))).toBe(true);
      expect(codec.validate('{"a":'.repeat(n) + '1' + '}'.repeat(n))).toBe(true);
      expect(codec.validate('['.repeat(n) + ']'.repeat(n - 1))).toBe(false);
    });

    it('keeps working across memory growth and many calls', () => {
      const big = '[' + '{"k":"vvvvvvvvvvvvvvvv","n":12345.678},'.repeat(400_000) + '1]';
      expect(codec.validate(big)).toBe(true);
      expect(codec.validate(utf8(big))).toBe(true);
      for (let i = 0; i < 2000; i++) expect(codec.validate(`[${i}]`)).toBe(true);
      expect(codec.validate(big.slice(0, -1))).toBe(false);
    });

    it('never throws on random strings and bytes, and agrees with JSON.parse', () => {
      let seed = 12345;
      const rnd = (n: number) => {
        seed = (seed * 1103515245 + 12345) >>> 0;
        return seed % n;
      };
      const pieces = ['{', '}', '[', ']', ',', ':', '"', '\\', 'u', '0', '1', '-', '.', 'e', 'true', 'null', ' ', '\n', 'é', '\ud800', 'a'];
      for (let i = 0; i < 5000; i++) {
        let s = '';
        const len = rnd(12);
        for (let j = 0; j < len; j++) s += pieces[rnd(pieces.length)];
        expect(codec.validate(s), s).toBe(nativeAccepts(s));
        const bytes = new Uint8Array(rnd(8));
        for (let j = 0; j < bytes.length; j++) bytes[j] = rnd(256);
        // Random bytes are valid exactly when they are UTF-8 (a BOM skipped) that JSON.parse takes.
        let text: string | undefined;
        try {
          text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
        } catch {
          text = undefined;
        }
        expect(codec.validate(bytes), String(bytes)).toBe(text !== undefined && nativeAccepts(text));
      }
    });

    it('JSONTestSuite: y_ accepted, n_ rejected, i_ as documented', async (ctx) => {
      const names = await sharedNames(ctx, 'conformance/JSONTestSuite-parsing');
      let y = 0;
      let n = 0;
      const decoder = new TextDecoder('utf-8', { fatal: true });
      for (const name of names) {
        const bytes = await readShared(`conformance/JSONTestSuite-parsing/${name}`);
        const ok = codec.validate(bytes);
        if (name.startsWith('y_')) {
          y++;
          expect(ok, name).toBe(true);
        } else if (name.startsWith('n_')) {
          n++;
          expect(ok, name).toBe(false);
        } else {
          // docs/BOUNDARY.md: valid grammar in well-formed UTF-8 is accepted; bytes that
          // are not well-formed UTF-8 are rejected.
          let wellFormed = true;
          try {
            decoder.decode(bytes);
          } catch {
            wellFormed = false;
          }
          expect(ok, name).toBe(wellFormed && nativeAccepts(new TextDecoder().decode(bytes)));
        }
        // String input agrees with JSON.parse wherever the file is text.
        let text: string | undefined;
        try {
          text = decoder.decode(bytes);
        } catch {
          text = undefined;
        }
        if (text !== undefined && !(bytes[0] === 0xef && bytes[1] === 0xbb)) {
          expect(codec.validate(text), name).toBe(nativeAccepts(text));
        }
      }
      expect(y).toBe(95);
      expect(n).toBe(188);
    });

    it('accepts every corpus file and rejects it cut short', async (ctx) => {
      const docs = await sharedCorpus(ctx);
      for (const { name, bytes } of docs) {
        expect(codec.validate(bytes), name).toBe(true);
        const cut = bytes.subarray(0, Math.floor(bytes.length * 0.9));
        const text = new TextDecoder().decode(bytes);
        expect(codec.validate(text), name).toBe(true);
        const r = codec.validate(cut, { explain: true });
        expect(r.valid, name).toBe(false);
        const tcut = text.slice(0, Math.floor(text.length * 0.9));
        expect(codec.validate(tcut, { explain: true }).error!.message, name).toBe(nativeMessage(tcut));
      }
    });
  });
}
