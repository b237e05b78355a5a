// canonicalize(text | bytes) runs in wasm; canonicalize(value) is the JS path. For any
// JSON text the two must agree byte for byte with canonicalize(parse(text)), errors
// included (same class, same message): generated documents, keys that sort differently
// by code point than by UTF-16 unit, duplicate keys, number spellings, deep nesting,
// invalid text, and strings with lone surrogates.
import { describe, expect, it } from 'vitest';
import { codecFor, FLAVORS } from './support/flavors.js';
import { attempt, type Outcome } from './support/outcome.js';
import { mutate, randomDocument, randomNumberText, randomOptions, Rng } from './support/random-json.js';

const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder();

/** Outcomes compared as values, or as error class and message. */
function same(a: Outcome, b: Outcome): string {
  if (a.ok && b.ok) {
    const [x, y] = [a.value, b.value].map((v) => (v instanceof Uint8Array ? `bytes:${fromUtf8.decode(v)}` : v));
    return x === y ? '' : `${JSON.stringify(x)?.slice(0, 300)} vs ${JSON.stringify(y)?.slice(0, 300)}`;
  }
  if (!a.ok && !b.ok) {
    const [x, y] = [a.error, b.error] as Error[];
    const kind = (e: Error) => [e instanceof SyntaxError, e instanceof TypeError, e instanceof RangeError, e.name, e.message].join();
    return kind(x) === kind(y) ? '' : `${x} vs ${y}`;
  }
  return `${a.ok ? 'returned' : `threw ${(a as { error: unknown }).error}`} vs ${b.ok ? 'returned' : `threw ${(b as { error: unknown }).error}`}`;
}

// Code points on both sides of the places where UTF-16 order and code point order part.
const KEY_CHARS = ['a', 'B', '\u007f', '\u00e9', '\u20ac', '\ud7ff', '\ue000', '\ufb33', '\ufeff', '\ufffd', '\uffff',
  '\u{10000}', '\u{1f600}', '\u{1f602}', '\u{10ffff}'];

function escapeAll(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) out += `\\u${s.charCodeAt(i).toString(16).padStart(4, '0')}`;
  return out;
}

/** An object text whose keys come from KEY_CHARS, raw or escaped, with duplicates. */
function unicodeKeyObject(rng: Rng, depth = 0): string {
  const keys: string[] = [];
  const members: string[] = [];
  for (let n = rng.range(0, 30); n > 0; n--) {
    let key = '';
    if (keys.length && rng.chance(0.2)) key = rng.pick(keys);
    else for (let k = rng.range(0, 3); k > 0; k--) key += rng.pick(KEY_CHARS);
    keys.push(key);
    const text = rng.chance(0.3) ? escapeAll(key) : key;
    const value = depth < 2 && rng.chance(0.15) ? unicodeKeyObject(rng, depth + 1) : randomNumberText(rng);
    members.push(`"${text}":${value}`);
  }
  return `{${members.join(',')}}`;
}

for (const flavor of FLAVORS) {
  describe(`canonicalize of JSON text in wasm (${flavor})`, async () => {
    const codec = await codecFor(flavor);
    /** The JS path: canonicalize the value parse() makes of the text. */
    const viaValue = (input: string | Uint8Array) => {
      const value = codec.parse(input);
      // A string argument would be taken as JSON text: a top-level string is written here
      // as the value path writes one.
      let text: string;
      if (typeof value !== 'string') text = codec.canonicalize(value);
      else if (value.isWellFormed()) text = JSON.stringify(value);
      else throw new TypeError('wasmjson.canonicalize: the value contains a lone surrogate, which JCS forbids');
      return typeof input === 'string' ? text : utf8.encode(text);
    };
    const check = (input: string | Uint8Array, failures: string[], label: string) => {
      const d = same(attempt(() => codec.canonicalize(input)), attempt(() => viaValue(input)));
      if (d) failures.push(`${label} ${JSON.stringify(typeof input === 'string' ? input : fromUtf8.decode(input)).slice(0, 300)}: ${d}`);
    };

    it('equals the JS path on generated documents, as text and as bytes, and on mutations of them', () => {
      const rng = new Rng(8785);
      const failures: string[] = [];
      let returned = 0;
      for (let i = 0; i < 3000 && failures.length < 5; i++) {
        const { text } = randomDocument(rng, randomOptions(rng));
        check(text, failures, `#${i} text`);
        check(utf8.encode(text), failures, `#${i} bytes`);
        if (attempt(() => codec.canonicalize(text)).ok) returned++;
        check(mutate(rng, text), failures, `#${i} mutation`);
        if (i % 3 === 0) check(`[${text},${text}]`, failures, `#${i} twice`); // shapes that repeat
      }
      expect(failures).toEqual([]);
      expect(returned).toBeGreaterThan(1000); // not only errors (lone surrogates) were compared
    });

    it('sorts keys by UTF-16 code units, escaped or not, with duplicates resolved as parse() does', () => {
      const rng = new Rng(16);
      const failures: string[] = [];
      for (let i = 0; i < 600 && failures.length < 5; i++) {
        const text = unicodeKeyObject(rng);
        check(text, failures, `#${i}`);
        check(utf8.encode(text), failures, `#${i} bytes`);
      }
      expect(failures).toEqual([]);
      expect(codec.canonicalize('{"\\ufb33":1,"\\ud83d\\ude02":2,"\u20ac":3,"\ue000":4,"\u{10000}":5}')).toBe(
        '{"\u20ac":3,"\u{10000}":5,"\u{1f602}":2,"\ue000":4,"\ufb33":1}',
      );
      expect(codec.canonicalize('{"a":1,"b":2,"\\u0061":3}')).toBe('{"a":3,"b":2}');
    });

    it('gives text whose only non-ASCII characters come from escapes (wasm says when the output is ASCII)', () => {
      // All ASCII but for what escapes decode to, in a string and in a key: not ASCII out.
      expect(codec.canonicalize('["\\u00e9",{"b":"\\u20ac\\ud83d\\ude02"}]')).toBe('["\u00e9",{"b":"\u20ac\u{1f602}"}]');
      expect(codec.canonicalize('{"\\u00fc":1,"a":"\\u0041\\n"}')).toBe('{"a":"A\\n","\u00fc":1}');
      // Escapes of ASCII characters only: ASCII out.
      expect(codec.canonicalize('{"\\u0062":"\\u0041\\/\\u001f","a":[1E2,true]}')).toBe('{"a":[100,true],"b":"A/\\u001f"}');
      // Values whose keys the serializer cannot sort (escaped) are canonicalized as text too.
      expect(codec.canonicalize({ 'b\n': '\u00e9', a: 1 })).toBe('{"a":1,"b\\n":"\u00e9"}');
      expect(codec.canonicalize({ 'b\n': 'x', a: 1 })).toBe('{"a":1,"b\\n":"x"}');
    });

    it('writes numbers as ECMAScript does, from every spelling', () => {
      const rng = new Rng(754);
      const failures: string[] = [];
      for (let i = 0; i < 300 && failures.length < 5; i++) {
        const items = Array.from({ length: 50 }, () => randomNumberText(rng));
        check(`[${items.join(',')}]`, failures, `#${i}`);
      }
      expect(failures).toEqual([]);
      expect(codec.canonicalize('[-0, 0.0000001, 1e21, 12345678901234567890, 1.50, 0.000001]')).toBe(
        '[0,1e-7,1e+21,12345678901234567000,1.5,0.000001]',
      );
    });

    it('handles 100,000 levels of nesting', () => {
      const n = 100_000;
      const failures: string[] = [];
      const objects = '{"b":[1,{"a":'.repeat(n) + '"\u00e9"' + '}]}'.repeat(n);
      const mixed = '[{"z":0,"y":'.repeat(n) + 'null' + '}]'.repeat(n);
      check(objects, failures, 'deep');
      check(utf8.encode(mixed), failures, 'deep bytes');
      const loneAtTheBottom = '[{"x":'.repeat(n) + '"\\udc00"' + '}]'.repeat(n);
      check(loneAtTheBottom, failures, 'deep lone surrogate');
      expect(failures).toEqual([]);
      expect(codec.canonicalize(mixed)).toBe('[{"y":'.repeat(n) + 'null' + ',"z":0}]'.repeat(n));
    });

    it('throws what the JS path throws: syntax errors, lone surrogates, non-finite numbers', () => {
      const failures: string[] = [];
      const texts = [
        '{"a":', '[1,]', '{"a" 1}', '01', '"\\x"', '[1] x', '', ' ', '\ufeff[1]', '{"a":1,}',
        '"\\ud800"', '["ok","\\udc00"]', '{"\\ud83d":1}', '{"a":"\\ud800","a":1}', '{"a":{"\\udc00":1},"b":[1e400]}',
        '[1e400]', '{"a":-1e999}', '{"a":1e999,"a":2}',
        // Lone surrogates in the string itself (TextEncoder writes them as U+FFFD).
        '"\ud800"', '{"\udc00":1}', '["\ufffd","\ud83d"]', '{"a":"\ud800","a":"\ufffd"}', '["\ud800" x]',
        // U+FFFD itself is an ordinary character.
        '{"\ufffd":"\ufffd"}',
      ];
      for (const text of texts) check(text, failures, 'text');
      for (const text of texts.filter((t) => t.isWellFormed())) check(utf8.encode(text), failures, 'bytes');
      // Bytes: a BOM is skipped, invalid UTF-8 is a SyntaxError.
      check(new Uint8Array([0xef, 0xbb, 0xbf, 0x5b, 0x31, 0x5d]), failures, 'BOM');
      check(new Uint8Array([0x5b, 0x22, 0xff, 0x22, 0x5d]), failures, 'invalid UTF-8');
      expect(failures).toEqual([]);
      expect(() => codec.canonicalize('"\\ud800"')).toThrow(/lone surrogate/);
      expect(() => codec.canonicalize('{"a":[1e400]}')).toThrow(/Infinity, which JCS forbids/);
      expect(() => codec.canonicalize('{"a":')).toThrow(SyntaxError);
    });

    it('works across a document above 16 MiB (whose buffers are given back after it)', () => {
      const item = (i: number) => `{"b":${i},"a":"${'x'.repeat(60)}"}`;
      const canonicalItem = (i: number) => `{"a":"${'x'.repeat(60)}","b":${i}}`;
      const n = 300_000; // about 23 MB
      const big = `[${Array.from({ length: n }, (_, i) => item(i)).join(',')}]`;
      expect(big.length).toBeGreaterThan(16 * 1024 * 1024);
      const out = codec.canonicalize(big) as string;
      expect(out.length).toBe(big.length);
      expect(out.slice(0, 200)).toBe(`[${canonicalItem(0)},${canonicalItem(1)},${canonicalItem(2)}`.slice(0, 200));
      expect(out.endsWith(`${canonicalItem(n - 1)}]`)).toBe(true);
      expect(codec.canonicalize('{"b":1,"a":[2]}')).toBe('{"a":[2],"b":1}');
      expect(codec.canonicalize(utf8.encode(big)).length).toBe(big.length);
      expect(codec.canonicalize('{"b":1,"a":[2]}')).toBe('{"a":[2],"b":1}');
    });

    it('takes every kind of byte container and gives bytes back for them', () => {
      const text = '{"b":[1.0,"\u00e9"],"a":null}';
      const expected = utf8.encode('{"a":null,"b":[1,"\u00e9"]}');
      const bytes = utf8.encode(text);
      for (const input of [bytes, bytes.buffer, new DataView(bytes.buffer)]) {
        const out = codec.canonicalize(input);
        expect(out).toBeInstanceOf(Uint8Array);
        expect(out).toStrictEqual(expected);
      }
      // The result is a copy: the next call does not change it.
      const first = codec.canonicalize(bytes);
      codec.canonicalize('[1,2,3]');
      expect(first).toStrictEqual(expected);
    });
  });
}
