// at() (RFC 6901 JSON Pointer) and lazy documents, checked against JSON.parse + a plain
// JS pointer walk.
import { describe, expect, it } from 'vitest';
import { corpusDocuments } from './support/corpus.js';
import { sharedCorpus } from './support/shared.js';
import * as wasmjson from 'wasmjson';
import { LazyNode, type JsonSyntaxError } from 'wasmjson';
import { codecFor, FLAVORS } from './support/flavors.js';
import { attempt } from './support/outcome.js';
import { jsonDiff, randomDocument, randomOptions, Rng } from './support/random-json.js';
import { evaluatePointer, pointerToken } from './support/json-pointer.js';

/** A lazy node's whole value (which reads and validates all of it); other values as they are. */
function wholeValue(v: unknown): unknown {
  return v instanceof LazyNode ? v.toJS() : v;
}

/** What f throws (undefined when it returns). */
function errorOf(f: () => unknown): unknown {
  try {
    f();
  } catch (e) {
    return e;
  }
  return undefined;
}

const utf8 = new TextEncoder();

/** Every pointer into a value (breadth-limited), escaped per RFC 6901. */
function pointers(value: unknown, limit: number): string[] {
  const out: string[] = [''];
  const queue: [unknown, string][] = [[value, '']];
  while (queue.length && out.length < limit) {
    const [v, p] = queue.shift()!;
    if (v === null || typeof v !== 'object') continue;
    for (const k of Object.keys(v)) {
      const q = `${p}/${pointerToken(k)}`;
      out.push(q);
      queue.push([(v as any)[k], q]);
    }
  }
  return out;
}

const RFC6901 = `{"foo": ["bar", "baz"], "": 0, "a/b": 1, "c%d": 2, "e^f": 3, "g|h": 4, "i\\\\j": 5, "k\\"l": 6, " ": 7, "m~n": 8}`;

for (const flavor of FLAVORS) {
  describe(`at() and lazy() (${flavor})`, async () => {
    const codec = await codecFor(flavor);

    it('evaluates the RFC 6901 examples', () => {
      const cases: [string, unknown][] = [
        ['', JSON.parse(RFC6901)], ['/foo', ['bar', 'baz']], ['/foo/0', 'bar'], ['/', 0], ['/a~1b', 1],
        ['/c%d', 2], ['/e^f', 3], ['/g|h', 4], ['/i\\j', 5], ['/k"l', 6], ['/ ', 7], ['/m~0n', 8],
      ];
      for (const [p, expected] of cases) {
        expect(codec.at(RFC6901, p), p).toStrictEqual(expected);
        expect(codec.at(utf8.encode(RFC6901), p), p).toStrictEqual(expected);
      }
    });

    it('returns undefined where nothing is, and rejects bad pointers', () => {
      const doc = '{"a":[10,20],"b":{"c":null},"d":1}';
      for (const p of ['/x', '/a/2', '/a/-', '/a/01', '/a/-1', '/a/1.0', '/a/x', '/d/0', '/b/c/d', '/a/0/0']) {
        expect(codec.at(doc, p), p).toBeUndefined();
      }
      expect(codec.at(doc, '/b/c')).toBeNull();
      expect(() => codec.at(doc, 'a')).toThrow(SyntaxError);
      expect(() => codec.at(doc, '/a~2')).toThrow(SyntaxError);
      expect(() => codec.at(doc, 5 as never)).toThrow(TypeError);
      // A long two-byte string is read as its units narrowed (SIMD128), where the lookup
      // compares the pointer's text with keys as it is: a token that no key matches
      // ended it before its bad '~' was seen (undefined, found by a long differential run).
      const wide = `{"a":{"b":1},"pad":"${'\u00e9\u4e16'.repeat(3000)}"}`;
      for (const p of ['/x~2', '/a/x~2', '/x~', '/x/~x', '/a~2/b']) {
        expect(() => codec.at(wide, p), p).toThrow(/invalid JSON Pointer/);
        expect(() => codec.at(utf8.encode(wide), p), p).toThrow(/invalid JSON Pointer/);
      }
      expect(codec.at(wide, '/a/b')).toBe(1);
      // Lazy documents too, on their first lookup (the pointer goes to wasm unsplit) and
      // on a listed container's (split into tokens).
      const root = codec.lazy(doc) as InstanceType<typeof wasmjson.LazyNode>;
      for (let round = 0; round < 3; round++) {
        for (const p of ['a', '/a~2', '/a~', '/a~/0', '/b/~x']) expect(() => root.at(p), p).toThrow(SyntaxError);
        expect(() => root.at(5 as never)).toThrow(TypeError);
        expect(root.at('/b/c')).toBeNull();
        expect(root.at('/x~1y')).toBeUndefined();
      }
      root.free();
    });

    it('matches escaped and non-ASCII keys, last duplicate wins', () => {
      const doc = '{"\\u00e9t\\u00e9":1, "ключ":{"😀":2}, "d":1, "d":[3], "a\\/b":4, "\\ud800":5}';
      expect(codec.at(doc, '/été')).toBe(1);
      expect(codec.at(doc, '/ключ/😀')).toBe(2);
      expect(codec.at(doc, '/d')).toStrictEqual([3]);
      expect(codec.at(doc, '/a~1b')).toBe(4);
      expect(codec.at(doc, '/\ud800')).toBe(5);
      // A string input with raw lone surrogates.
      expect(codec.at('{"k":"\ud800x","\udc00":[1]}', '/k')).toBe('\ud800x');
      expect(codec.at('{"k":"\ud800x","\udc00":[1]}', '/\udc00/0')).toBe(1);
    });

    it('looks up keys of any length, one after another (the key buffer grows and is reused)', () => {
      const keys = ['a', 'é'.repeat(100), 'k'.repeat(5000), '😀'.repeat(700), 'b', 'ж'.repeat(90)];
      const doc: Record<string, unknown> = {};
      keys.forEach((k, i) => (doc[k] = { v: i, [k]: [i] }));
      const text = JSON.stringify(doc);
      for (let round = 0; round < 2; round++) {
        keys.forEach((k, i) => {
          const p = `/${k}/${k}/0`;
          expect(codec.at(text, p)).toBe(i);
          expect(codec.at(new TextEncoder().encode(text), p)).toBe(i);
          expect(codec.at(text, `/${k}x`)).toBeUndefined();
        });
        const lazy = codec.lazy(text) as LazyNode;
        keys.forEach((k, i) => expect((lazy.get(k) as LazyNode).at(`/${k}/0`)).toBe(i));
        lazy.free();
      }
    });

    it('reports bad input on the way, or in the value, as a SyntaxError', () => {
      expect(() => codec.at('{"a": [1, 2,, 3]}', '/a/3')).toThrow(SyntaxError);
      expect(() => codec.at('', '')).toThrow('Unexpected end of JSON input');
      try {
        codec.at('{"a": [1, 2, tru]}', '/a/2');
        expect.unreachable();
      } catch (e) {
        expect((e as wasmjson.JsonSyntaxError).offset).toBe(16);
      }
    });

    it("an error it throws is JSON.parse's (the document's first error), wherever the path read it", () => {
      const outcome = (f: () => unknown) => {
        try {
          f();
          return 'no error';
        } catch (e) {
          return `${(e as Error).constructor.name}: ${(e as Error).message}`;
        }
      };
      const fixed: [string, string][] = [
        ['[1', '/0'],
        ['{"b":"abc}', '/b'],
        ['{"a":[x]', '/a'],
        ['{"a":1,"b":[,"c":3}', '/b'],
        ['{"a":tru}', '/a'],
      ];
      for (const [text, pointer] of fixed) {
        expect(outcome(() => codec.at(text, pointer)), text).toBe(outcome(() => JSON.parse(text)));
      }
      // Every cut of a document, read by pointers to each of its values: where at() or a
      // lazy lookup throws, it throws what JSON.parse throws.
      const doc = '{"a":[1,{"b":"x y","c":[true,null,-2.5e3]},"\\u00e9\\""],"d":{"e":{"f":[[],{}]}},"g":"tail"}';
      const pointers = ['', '/a', '/a/0', '/a/1/b', '/a/1/c/2', '/a/2', '/d/e/f/1', '/g', '/zz'];
      let thrown = 0;
      for (let cut = 0; cut < doc.length; cut++) {
        const text = doc.slice(0, cut);
        const native = outcome(() => JSON.parse(text));
        for (const pointer of pointers) {
          for (const input of [text, new TextEncoder().encode(text)]) {
            const got = outcome(() => codec.at(input, pointer));
            if (got !== 'no error') {
              thrown++;
              expect(got, `at(${JSON.stringify(text)}, ${pointer})`).toBe(native);
            }
            const lazyGot = outcome(() => {
              const d = codec.lazy(input);
              if (d instanceof wasmjson.LazyNode) (d.at(pointer) as { toJS?: () => unknown })?.toJS?.();
            });
            if (lazyGot !== 'no error') expect(lazyGot, `lazy(${JSON.stringify(text)}).at(${pointer})`).toBe(native);
          }
        }
      }
      expect(thrown).toBeGreaterThan(500);
    });

    it('reads a value with what must follow it: a malformed token is an error, never its valid prefix', () => {
      const cases: [string, string][] = [
        ['[1x]', '/0'], ['[truex]', '/0'], ['{"a":1.5.5,"b":2}', '/a'], ['[-1-2]', '/0'], ['["a"x]', '/0'],
        ['[1 2]', '/0'], ['{"a":1 "b":2}', '/a'], ['{"a":[1]]', '/a'], ['[{"a":1}}', '/0'], ['[1', '/0'],
        // The root: the whole document, as JSON.parse reads it.
        ['[1] [2]', ''], ['1 2', ''], ['{"a":1}}', ''], ['xyz', '/a'], ['}', '/a'], ['\ufeff{"a":1}', '/a'], ['"s" x', ''],
      ];
      for (const [text, pointer] of cases) {
        expect(() => JSON.parse(text), text).toThrow(SyntaxError);
        expect(() => codec.at(text, pointer), text).toThrow(SyntaxError);
        // (Bytes skip one BOM, as TextDecoder does.)
        if (!text.startsWith('\ufeff')) expect(() => codec.at(utf8.encode(text), pointer), text).toThrow(SyntaxError);
      }
      for (const [text, key] of [['[1x]', 0], ['[1 2', 0], ['{"a":1x}', 'a'], ['{"a":"s"]', 'a'], ['{"a":{}]', 'a']] as const) {
        const doc = codec.lazy(text) as LazyNode;
        expect(() => {
          const v = doc.get(key);
          if (v instanceof LazyNode) v.toJS();
        }, text).toThrow(SyntaxError);
      }
      expect(() => (codec.lazy('{} x') as LazyNode).toJS()).toThrow('Unexpected non-whitespace character after JSON');
      expect(() => codec.lazy('1 2')).toThrow(SyntaxError);
      // The follower checks leave good values alone, in either kind of container.
      expect(codec.at('{"a":1 , "b" : [ 2 ] }', '/a')).toBe(1);
      expect(codec.at('{"a":1 , "b" : [ 2 ] }', '/b/0')).toBe(2);
      expect(codec.at('{"a":1 , "b" : [ 2 ] }', '/b')).toEqual([2]);
      expect(codec.at(' 7 ', '')).toBe(7);
      expect(codec.at('7', '/a')).toBeUndefined();
    });

    it('decodes escaped tokens as RFC 6901 does, in wasm lookups and in listed containers alike', () => {
      const text = '{"~1":1,"/":2,"~":3,"~0":4,"x":{"~1/":5,"a~b":[6]},"~01":7}';
      const value = JSON.parse(text);
      const cases: [string, unknown][] = [
        ['/~01', 1], ['/~1', 2], ['/~0', 3], ['/~00', 4], ['/x/~01~1', 5], ['/x/a~0b/0', 6], ['/~001', 7], ['/~10', undefined],
      ];
      for (const input of [text, utf8.encode(text)]) {
        const doc = codec.lazy(input) as LazyNode;
        // Each pointer three times: wasm reads the first lookups, then the listed containers.
        for (let round = 0; round < 3; round++) {
          for (const [pointer, want] of cases) {
            expect(doc.at(pointer), `${pointer} (round ${round})`).toBe(want);
            expect(codec.at(input, pointer), pointer).toBe(want);
          }
        }
        expect((doc.at('/x') as LazyNode).toJS()).toStrictEqual(value.x);
        doc.free();
      }
    });

    it('reads literals and integers as JSON.parse does, and malformed ones as errors', () => {
      const tokens = [
        'true', 'false', 'null', '0', '-0', '7', '-7', '10', '123456789012345', '-123456789012345',
        '1234567890123456', '9007199254740993', '1.5', '-0.0', '1e3', '2E-2',
        '01', '-01', '00', '-', '--1', '+1', '1-', 'tru', 'truex', 'nul', 'nulll', 'fals', 'falsey', 'True', 'NaN', '0x1', '1.', '.5',
      ];
      for (const t of tokens) {
        for (const text of [`[${t}]`, `[1,${t},2]`, `{"k":${t}}`, `{"a":0,"k":${t} }`]) {
          const pointer = text.startsWith('[1,') ? '/1' : text.startsWith('[') ? '/0' : '/k';
          let want: unknown;
          try {
            want = { value: JSON.parse(text)[pointer.slice(1)] };
          } catch (e) {
            want = (e as Error).name;
          }
          for (const input of [text, utf8.encode(text)]) {
            let got: unknown;
            try {
              got = { value: codec.at(input, pointer) };
            } catch (e) {
              got = (e as Error).name;
            }
            expect(got, `at(${text}, ${pointer})`).toStrictEqual(want);
            if (typeof want === 'object') expect(Object.is((got as { value: unknown }).value, (want as { value: unknown }).value), text).toBe(true);
            try {
              const doc = codec.lazy(input) as LazyNode;
              got = { value: doc.at(pointer) };
              doc.free();
            } catch (e) {
              got = (e as Error).name;
            }
            expect(got, `lazy(${text}).at(${pointer})`).toStrictEqual(want);
          }
        }
      }
    });

    it('checks the keys it compares as parse() checks strings (escapes, control bytes, UTF-8)', () => {
      const texts = ['{"\\a":1}', '{"a\tb":1}', '{"\\u12":1,"b":2}', '{"' + 'a'.repeat(1022) + '\\u":1,"b":2}', '{"\\x":1,"b":2}'];
      for (const text of texts) {
        expect(() => JSON.parse(text), text).toThrow(SyntaxError);
        expect(() => codec.at(text, '/b'), text).toThrow(SyntaxError);
        expect(() => (codec.lazy(text) as LazyNode).keys(), text).toThrow(SyntaxError);
      }
      for (const bytes of [[0x7b, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x3a, 0x31, 0x7d], [0x7b, 0x22, 0x61, 0xff, 0x22, 0x3a, 0x31, 0x2c, 0x22, 0x62, 0x22, 0x3a, 0x32, 0x7d]]) {
        const doc = new Uint8Array(bytes);
        try {
          codec.at(doc, '/b');
          expect.unreachable();
        } catch (e) {
          expect((e as wasmjson.JsonSyntaxError).code).toBe('INVALID_UTF8');
        }
        expect(() => (codec.lazy(doc) as LazyNode).keys()).toThrow(SyntaxError);
      }
      // Good escapes still match.
      expect(codec.at('{"\\u0061\\n\\/":1}', '/a\n~1')).toBe(1);
    });

    it('follows paths through duplicate keys at every level as JSON.parse resolves them', () => {
      // Small key and index alphabets make duplicates (and restarts below them) common.
      let seed = 5;
      const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2147483648) >>> 8) % n;
      const gen = (depth: number): string => {
        if (depth === 0 || rand(4) === 0) return String(rand(100));
        const n = rand(4);
        const members = Array.from({ length: n }, () => gen(depth - 1));
        if (rand(2) === 0) return '[' + members.join(',') + ']';
        return '{' + members.map((m) => `"${'ab'[rand(2)]}":${m}`).join(',') + '}';
      };
      for (let i = 0; i < 3000; i++) {
        const text = gen(5);
        const value = JSON.parse(text);
        const doc = codec.lazy(text);
        for (let k = 0; k < 6; k++) {
          const pointer = Array.from({ length: 1 + rand(5) }, () => '/' + 'ab01'[rand(4)]).join('');
          const want = evaluatePointer(value, pointer);
          expect(codec.at(text, pointer), `${text} ${pointer}`).toEqual(want);
          expect(codec.at(utf8.encode(text), pointer), `${text} ${pointer}`).toEqual(want);
          if (doc instanceof LazyNode) {
            const got = doc.at(pointer);
            expect(got instanceof LazyNode ? got.toJS() : got, `${text} ${pointer}`).toEqual(want);
          }
        }
      }
    });

    it('evaluates a path through a million nested objects in linear time', () => {
      const depth = 1_000_000;
      const text = '{"b":0,"a":'.repeat(depth) + '1' + ',"c":2}'.repeat(depth);
      const pointer = '/a'.repeat(depth);
      expect(codec.at(text, pointer)).toBe(1);
      expect((codec.lazy(text) as LazyNode).at(pointer)).toBe(1);
      expect(codec.at(text, pointer + '/x')).toBeUndefined();
      // A later duplicate at the top restarts the descent below it.
      expect(codec.at('{"a":' + text + ',"a":{"a":7}}', '/a/a')).toBe(7);
    });

    it('lazy(): a walk down 100,000 nested objects, level by level, reads each level once', () => {
      // Listing each level would re-read everything below it (quadratic): once listings
      // have read the document 16 times over, its container ends are indexed and
      // containers are skipped by lookup.
      // Siblings before and after, with brackets and escaped quotes in their strings.
      const depth = 100_000;
      const text = '{"s":"[{\\"}","a":'.repeat(depth) + '[1,{"b":"]"}]' + ',"t":["}"]}'.repeat(depth);
      for (const input of [text, utf8.encode(text)]) {
        const doc = codec.lazy(input) as LazyNode;
        let node = doc;
        for (let level = 0; level < depth; level++) {
          if (node.get('s') !== '[{"}' || node.length !== 3) throw new Error(`level ${level}: ${node.get('s')} ${node.length}`);
          node = node.get('a') as LazyNode;
        }
        expect(node.toJS()).toStrictEqual([1, { b: ']' }]);
        expect((doc.get('t') as LazyNode).toJS()).toStrictEqual(['}']);
        expect(doc.at('/a'.repeat(depth) + '/1/b')).toBe(']');
        doc.free();
      }
    });

    it('lazy(): a walk down 100,000 nested objects by get() or at() alone reads each level once', () => {
      // A lookup by key reads the object to its end (the last duplicate wins): level by
      // level, lookups alone would re-read everything below each level (quadratic, 4-5 s
      // at this depth). What they read counts towards indexing the container ends, as
      // listings do.
      const depth = 100_000;
      const text = '{"s":"[{\\"}","a":'.repeat(depth) + '[1,{"b":"]"}]' + ',"t":["}"]}'.repeat(depth);
      for (const input of [text, utf8.encode(text)]) {
        for (const step of [(n: LazyNode) => n.get('a'), (n: LazyNode) => n.at('/a')]) {
          const doc = codec.lazy(input) as LazyNode;
          let node = doc;
          for (let level = 0; level < depth; level++) node = step(node) as LazyNode;
          expect(node.toJS()).toStrictEqual([1, { b: ']' }]);
          expect(doc.get('s')).toBe('[{"}');
          doc.free();
        }
      }
    });

    it('lazy(): lookups in any order (first by wasm scans, then by listings) agree with JSON.parse (generated documents)', () => {
      const rng = new Rng(77);
      for (let n = 0; n < 300; n++) {
        const { text } = randomDocument(rng, randomOptions(rng));
        const want = JSON.parse(text);
        const root = codec.lazy(text);
        if (!(root instanceof LazyNode)) {
          expect(jsonDiff(root, want), text).toBe('');
          continue;
        }
        // Each container: its keys or indices (and some that are missing), looked up in a
        // random order, each 1-3 times; nested containers are visited the same way.
        const stack: [LazyNode, unknown][] = [[root, want]];
        while (stack.length) {
          const [node, w] = stack.pop()!;
          const names: (string | number)[] = Array.isArray(w) ? w.map((_, i) => i) : Object.keys(w as object);
          names.push(Array.isArray(w) ? w.length : 'missing', Array.isArray(w) ? '0' : '');
          const order = names.flatMap((k) => Array.from({ length: rng.range(1, 3) }, () => k));
          for (let i = order.length - 1; i > 0; i--) {
            const j = rng.int(i + 1);
            [order[i], order[j]] = [order[j], order[i]];
          }
          for (const k of order) {
            const got = node.get(k);
            const expected = Object.hasOwn(w as object, k) ? (w as any)[k] : undefined;
            // (jsonDiff: toStrictEqual compares `constructor` properties, which keys may be.)
            if (got instanceof LazyNode) {
              if (rng.chance(0.5)) stack.push([got, expected]);
              else expect(jsonDiff(got.toJS(), expected), `${text} at ${k}`).toBe('');
            } else {
              expect(jsonDiff(got, expected), `${text} at ${k}`).toBe('');
            }
          }
        }
        root.free();
      }
    });

    it('lazy(): every container walked with keys() and get() agrees with JSON.parse (generated and corpus documents)', async () => {
      // A full walk lists every container. On the deep documents, listings soon read the
      // document 16 times over: the rest of the walk goes through the indexed container
      // ends. Strings with backslashes, brackets and escaped quotes throughout.
      const texts: [string, string][] = [];
      const nest = (d: number): string => (d === 0 ? '"x\\\\"' : `{"k":[${nest(d - 1)},"]\\"",{"q":${nest(d - 1)}}],"n":${d}}`);
      for (let d = 1; d <= 9; d++) texts.push([`nest ${d}`, nest(d)]);
      const level = (i: number) => `"s":"[{\\"}\\\\","w":[{"i":${i}},[],"]"],"e":{}`;
      texts.push(['deep objects', '{' + Array.from({ length: 3000 }, (_, i) => `${level(i)},"a":{`).join('') + '}' + '}'.repeat(3000)]);
      texts.push(['deep arrays', '[' + Array.from({ length: 3000 }, (_, i) => `{${level(i)}},[`).join('') + ']' + ']'.repeat(3000)]);
      const docs = await corpusDocuments({ every: 25 });
      for (const { name, bytes } of docs ?? []) if (bytes.length < 1 << 20) texts.push([name, new TextDecoder().decode(bytes)]);
      for (const [name, text] of texts) {
        const doc = codec.lazy(text) as LazyNode;
        const stack: [LazyNode, unknown, string][] = [[doc, JSON.parse(text), '']];
        let checked = 0;
        while (stack.length) {
          const [node, want, path] = stack.pop()!;
          const keys = node.kind === 'array' ? (want as unknown[]).map((_, i) => i) : node.keys();
          if (node.kind === 'object' && JSON.stringify(keys) !== JSON.stringify(Object.keys(want as object))) {
            expect(keys, `${name} keys at ${path}`).toStrictEqual(Object.keys(want as object));
          }
          if (node.length !== keys.length) expect(node.length, `${name} length at ${path}`).toBe(keys.length);
          for (const k of keys) {
            const got = node.get(k);
            const w = (want as any)[k];
            if (got instanceof LazyNode) stack.push([got, w, `${path}/${k}`]);
            else if (!Object.is(got, w)) expect(got, `${name} at ${path}/${k}`).toStrictEqual(w);
            checked++;
          }
        }
        expect(checked).toBeGreaterThan(0);
        doc.free();
      }
    });

    it('array indexes of 2^32 - 1 and beyond find nothing (they do not wrap around)', () => {
      for (const t of ['4294967295', '4294967296', '4294967298', '8589934593', '18446744073709551616']) {
        expect(codec.at('[10,11,12]', '/' + t)).toBeUndefined();
        expect(codec.at('{"a":[[1,2]]}', `/a/${t}/1`)).toBeUndefined();
        expect((codec.lazy('[10,11,12]') as LazyNode).get(t)).toBeUndefined();
      }
    });

    it('tells lone surrogates of string input from U+FFFD wherever they stand', () => {
      // (at() first navigates the string's UTF-8, where both are EF BF BD.)
      const cases: [string, string][] = [
        ['{"\ufffd":2,"\ud800":1}', '/\ufffd'],
        ['{"\ud800":1,"\ufffd":2}', '/\ufffd'],
        ['{"\ufffd":2,"\ud800":1}', '/\ud800'],
        ['{"a":"\ud800","b":"\ufffd"}', '/b'],
        ['{"a":"\ufffd","b":"x\udc00y"}', '/b'],
        ['{"a":{"\ud800":"\ufffd","k":["\udbff"]}}', '/a'],
        ['{"x":"\ufffd","a":{"\udc00":1}}', '/a'],
        ['{"x":"\udbff","a":{"\ufffd":1}}', '/a'],
        ['{"a":"\ud800","b":[1,"\ufffd\ufffd",3]}', '/b/1'],
        ['["\ufffd",{"\ufffd":"\udfff"}]', '/1/\ufffd'],
        ['["\ufffd","\ud800\udc00"]', '/0'],
        ['["\ufffd","\ud800\udc00"]', '/1'],
        ['"\ud800"', ''],
      ];
      for (const [text, pointer] of cases) {
        const expected = pointer.split('/').slice(1).reduce((v: unknown, k) => (v as Record<string, unknown>)[k], JSON.parse(text));
        expect(codec.at(text, pointer)).toStrictEqual(expected);
      }
    });

    it('a path that ends at an array (a token that is no index) or a scalar reads no further than it needs', () => {
      // At the top nothing of the array is read (as get() reads nothing), not even where
      // the document is cut short; inside an object, the value is skipped to read the
      // object on (a later duplicate key wins).
      for (const text of ['[1, [2', '[1, "x', '[[1, [2']) {
        expect(codec.at(text, '/x'), text).toBeUndefined();
        expect(codec.at(text, '/0/x'), text).toBeUndefined();
        expect((codec.lazy(text) as LazyNode).at('/x/y'), text).toBeUndefined();
      }
      expect(codec.at('{"a":[1,[2]],"a":{"x":5}}', '/a/x')).toBe(5);
      expect(codec.at('{"a":7,"b":{},"a":{"x":[6]}}', '/a/x/0')).toBe(6);
      expect(codec.at('{"a":[1,{"x":2}],"b":3}', '/a/x')).toBeUndefined();
      expect(codec.at('[[0,{"k":[1]}],"s"]', '/0/1/k/z')).toBeUndefined();
      // An object above still has to be read on past the value: its errors are found.
      expect(() => codec.at('{"a":[1, [2', '/a/x')).toThrow(SyntaxError);
      expect(() => codec.at('{"a":"x","b":', '/a/x')).toThrow(SyntaxError);
    });

    it('keys whose surrogate pair is half raw and half escaped (string input) are the pair, as for JSON.parse', () => {
      // The raw half is a lone surrogate in the string (U+FFFD in its UTF-8): the key is
      // found only once the string is navigated with its lone surrogates escaped.
      const pair = '\ud800\udc00';
      const cases: [string, string][] = [
        ['{"\ud800\\udc00":1}', '/' + pair],
        ['{"\\ud800\udc00":1}', '/' + pair],
        ['{"\ud800\udc00":1,"\ud800\\udc00":2}', '/' + pair],
        ['{"\ud800\\udc00":1,"\ud800\udc00":2}', '/' + pair],
        ['{"\ud800\\udc00":{"x":3}}', `/${pair}/x`],
        ['{"a":[{"b":0},{"\\ud800\udc00":[4,5]}]}', `/a/1/${pair}/1`],
        ['{"\ud800\\udc00":1}', '/\ud800'],
        ['{"\ud800\\udc00":1}', '/\ufffd'],
      ];
      for (const [text, pointer] of cases) {
        const expected = evaluatePointer(JSON.parse(text), pointer);
        expect(codec.at(text, pointer), `${JSON.stringify(text)} ${JSON.stringify(pointer)}`).toStrictEqual(expected);
        const doc = codec.lazy(text) as LazyNode;
        expect(doc.at(pointer), `lazy ${JSON.stringify(text)}`).toStrictEqual(expected);
        doc.free();
      }
    });

    it('a lone surrogate that a backslash escapes is a bad escape (string input)', () => {
      const text = '["\\\ud800"]';
      expect(() => JSON.parse(text)).toThrow(SyntaxError);
      expect(() => codec.at(text, '/0')).toThrow(SyntaxError);
      expect(() => (codec.lazy(text) as LazyNode).get(0)).toThrow(SyntaxError);
      // Escaped backslashes before it leave it a lone surrogate inside the string.
      expect(codec.at('["\\\\\ud800"]', '/0')).toBe('\\\ud800');
      expect(codec.at('["a\udc00"]', '/0')).toBe('a\udc00');
    });

    it('places errors in string input with lone surrogates where parse() places them', () => {
      // Each lone surrogate reaches wasm as a 6-unit \u escape; errors count the input's units.
      const cases: [string, string][] = [
        ['{"a":"\ud800\udc00\ud800","b":[1,2 x]}', '/b'],
        ['{"a":"\ud800\ud800\udfff","b":\n ["\udc00", tru]}', '/b/1'],
        ['["\udbff", "\\\ud800", 1]', '/1'],
        ['{"\ud800":1, "k":"\ud800\u0001"}', '/k'],
      ];
      for (const [text, pointer] of cases) {
        const want = errorOf(() => codec.parse(text));
        expect(want).toBeInstanceOf(SyntaxError);
        for (const got of [errorOf(() => codec.at(text, pointer)), errorOf(() => wholeValue((codec.lazy(text) as LazyNode).at(pointer)))]) {
          expect(got).toBeInstanceOf(SyntaxError);
          const e = got as JsonSyntaxError;
          const w = want as JsonSyntaxError;
          expect([e.offset, e.line, e.column, e.excerpt, e.message]).toStrictEqual([w.offset, w.line, w.column, w.excerpt, w.message]);
        }
      }
    });

    describe('at() of long arrays (read from growing heads of the input)', () => {
      // Over 4 MiB: heads of 64K and 512K units or bytes (8.5 MiB), then the whole input.
      const record = (i: number, wide: boolean): string =>
        JSON.stringify({
          id: i,
          name: (wide ? '日本' : 'ab').repeat(1 + ((i * 7919) % 23)) + (i % 50 === 0 ? 'x'.repeat(70000) : ''),
          tags: [i % 3, 'é', { k: i }],
          nested: { 'é': [i, { deep: i % 5 === 0 ? null : String(i) }] },
        });
      const build = (wide: boolean, minUnits: number): { text: string; starts: number[]; byteStarts: number[] } => {
        const parts: string[] = [];
        const starts: number[] = [];
        const byteStarts: number[] = [];
        let units = 1;
        let bytes = 1;
        for (let i = 0; units < minUnits; i++) {
          const sep = i === 0 ? '' : i % 4 === 0 ? ' ,\n  ' : ',';
          const r = record(i, wide);
          starts.push(units + sep.length);
          byteStarts.push(bytes + utf8.encode(sep).length);
          parts.push(sep + r);
          units += sep.length + r.length;
          bytes += utf8.encode(sep + r).length;
        }
        return { text: `[${parts.join('')}]`, starts, byteStarts };
      };
      // Elements that start near a head's end (and first, last, past the end).
      const near = (starts: number[], bounds: number[]): number[] => {
        const out = new Set([0, 1, starts.length - 1, starts.length]);
        for (const b of bounds) {
          const k = starts.findIndex((s) => s > b);
          for (let j = Math.max(0, k - 3); j < Math.min(starts.length, k + 2); j++) out.add(j);
        }
        return [...out];
      };
      const BOUNDS = [65536, 524288];
      for (const [label, wide, minUnits] of [['ASCII text', false, 4.5e6], ['two-byte text', true, 8.9e6]] as const) {
        it(`finds what JSON.parse + a walk finds: ${label} and its UTF-8 bytes`, () => {
          const { text, starts, byteStarts } = build(wide, minUnits);
          const value = JSON.parse(text);
          const bytes = utf8.encode(text);
          for (const [input, at] of [[text, starts], [bytes, byteStarts]] as const) {
            for (const i of near(at, BOUNDS)) {
              for (const rest of ['', '/id', '/name', '/tags/2/k', '/nested/é/1/deep', '/nested/x', '/tags/3']) {
                const p = `/${i}${rest}`;
                expect(jsonDiff(codec.at(input, p), evaluatePointer(value, p)), `${label} ${p}`).toBe('');
              }
            }
            for (const p of ['/-', '/x', '/01', `/${value.length + 5}/id`]) expect(codec.at(input, p), p).toBeUndefined();
          }
        });
      }

      it('fails, or answers, as at() read every input before heads (damaged near their ends)', () => {
        // The reference: the input inside an array, [input], and '/0' + the pointer. No
        // head answers there (its one element spans them all), so the whole of it is read
        // from its start, as at() read every input before heads, and the lookup reads
        // what it reads in the input. (Its errors may be other ones: the document differs.)
        const { text, starts } = build(false, 4.3e6);
        const rng = new Rng(2613);
        const pieces = ['{', '}', '[', ']', ',', ':', '"', '\\', 'x', ' ', 'tru', 'é'];
        let failed = 0;
        for (let n = 0; n < 12; n++) {
          const k = rng.pick([rng.int(4), rng.int(40), ...near(starts, BOUNDS)]);
          const cut = Math.min(text.length - 1, starts[Math.min(k, starts.length - 1)] + rng.int(60));
          const doc = text.slice(0, cut) + rng.pick(pieces) + text.slice(cut + rng.int(2));
          for (const input of [doc, utf8.encode(doc)]) {
            const wrapped = typeof input === 'string' ? `[${input}]` : utf8.encode(`[${doc}]`);
            for (const i of [0, Math.max(0, k - 1), k, k + 1, k + 5]) {
              for (const p of [`/${i}/nested/é/0`, `/${i}/nested`, `/${i}`]) {
                const got = attempt(() => codec.at(input, p));
                const want = attempt(() => codec.at(wrapped, `/0${p}`));
                expect(got.ok, `${p} after a change at ${cut}: ${got.ok ? '' : (got.error as Error).message}`).toBe(want.ok);
                if (got.ok && want.ok) expect(jsonDiff(got.value, want.value), p).toBe('');
                if (!got.ok) {
                  failed++;
                  expect(got.error, p).toBeInstanceOf(SyntaxError);
                }
              }
            }
          }
        }
        expect(failed).toBeGreaterThan(20);
      });
    });

    describe('at() on long two-byte strings (read as their units narrowed to bytes)', async () => {
      // The reference: the same lookups through the string's UTF-8 (stringInput 'utf8'
      // never takes the narrowed route), and JSON.parse + a walk.
      const viaUtf8 = await wasmjson.load({ flavor, stringInput: 'utf8' });
      // A wide unit early and enough units make a string take the route (memory.ts).
      const pad = '日本語のテキスト'.repeat(300);
      // Keys that read alike once narrowed (every unit from 0x80 is one byte, 0x7F),
      // and keys holding 0x7F itself.
      const ALIKE = ['é', 'ü', '\x7f', 'aé', 'aü', 'a\x7f', 'a\x7f\x7f', 'aéü', '😀', '\ud800', 'a', 'ab'];
      const alikeObject = (rng: Rng): [string, Record<string, unknown>] => {
        const obj: Record<string, unknown> = {};
        const parts: string[] = [];
        for (const k of [...ALIKE].sort(() => rng.next() - 0.5)) {
          const v = rng.pick([k, [k, 1], { [k]: k }, 7, 'ascii', null]);
          obj[k] = v;
          const key = rng.chance(0.3) ? JSON.stringify(k).replace(/[^\x00-\x7f]/g, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0')) : JSON.stringify(k);
          parts.push(`${key}:${JSON.stringify(v)}`);
        }
        return [`{${parts.join(',')}}`, obj];
      };

      it('finds what JSON.parse + a walk finds (generated documents, keys alike when narrowed)', () => {
        const rng = new Rng(2611);
        for (let n = 0; n < 150; n++) {
          const { text } = randomDocument(rng, randomOptions(rng));
          const [alikeText, alike] = alikeObject(rng);
          const whole = `{"pad":${JSON.stringify(pad.slice(0, rng.range(2100, 2400)))},"doc":${text},"alike":${alikeText},"end":["é",1]}`;
          const value = JSON.parse(whole);
          const targets = [
            ...pointers(value.doc, 40).map((p) => `/doc${p}`),
            ...ALIKE.map((k) => `/alike/${pointerToken(k)}`),
            ...ALIKE.map((k) => `/alike/${k}/0`),
            '/alike/missing', '/end/0', '/end/1', '/end/2', '/pad', '/doc/zz', '/doc/0',
          ];
          for (const p of targets) {
            const got = codec.at(whole, p);
            expect(jsonDiff(got, evaluatePointer(value, p)), `${p} in ${whole.slice(2400, 2600)}`).toBe('');
          }
        }
      });

      it('fails as the UTF-8 route fails (documents cut or changed anywhere)', () => {
        const rng = new Rng(2612);
        const pieces = ['{', '}', '[', ']', ',', ':', '"', '\\', 'x', '1', ' ', 'é', '日', '\ud800', '\x7f', '\u0000', 'tru'];
        for (let n = 0; n < 400; n++) {
          const [alikeText] = alikeObject(rng);
          const doc = rng.chance(0.5) ? randomDocument(rng, randomOptions(rng)).text : '[1,"é",{"k":"ü"}]';
          let whole = `{"pad":${JSON.stringify(pad.slice(0, 2200))},"doc":${doc},"alike":${alikeText},"end":["日本",{"é":[1]}]}`;
          // One change after the pad (so that the string stays two-byte from its start).
          const at = rng.range(2210, whole.length);
          whole = rng.chance(0.3) ? whole.slice(0, at) : whole.slice(0, at) + rng.pick(pieces) + whole.slice(at + rng.int(2));
          for (const p of ['/doc/0', '/doc', '/alike/é', '/alike/a\x7f', '/alike/a', '/end/1/é/0', '/end/0', '/end/5', '/nope']) {
            const got = attempt(() => codec.at(whole, p));
            const want = attempt(() => viaUtf8.at(whole, p));
            if (!want.ok) {
              expect(got.ok, `${p} in ${whole.slice(2200)}`).toBe(false);
              if (!got.ok) {
                expect((got.error as Error).message, `${p} in ${whole.slice(2200)}`).toBe((want.error as Error).message);
                expect((got.error as JsonSyntaxError).offset).toBe((want.error as JsonSyntaxError).offset);
              }
            } else {
              expect(got.ok, `${p} in ${whole.slice(2200)}: ${got.ok ? '' : (got.error as Error).message}`).toBe(true);
              if (got.ok) expect(jsonDiff(got.value, want.value), `${p} in ${whole.slice(2200)}`).toBe('');
            }
          }
        }
      });

      it('values holding units from 0x80, 0x7F or lone surrogates come from the string itself, checked as parse() checks them', () => {
        const head = `{"pad":"${pad.slice(0, 2100)}",`;
        const cases: [string, string, unknown][] = [
          ['"v":"é\x7f日😀","w":1}', '/v', 'é\x7f日😀'],
          ['"v":["\ud800x",{"é":"\udc00"}],"w":1}', '/v', ['\ud800x', { é: '\udc00' }]],
          ['"v":{"k":"\\u00e9é"} }', '/v', { k: 'éé' }],
          ['"v":[1,"ü"]\n,"w":1}', '/v/1', 'ü'],
          ['"v":"ascii","w":"é"}', '/v', 'ascii'],
        ];
        for (const [rest, p, want] of cases) expect(codec.at(head + rest, p), rest).toStrictEqual(want);
        // What follows the value, and the value itself, as the UTF-8 route reads them.
        for (const rest of ['"v":"é" x}', '"v":["é"] "w":1}', '"v":["é",]}', '"v":"é\u0001"}', '"v":{"é":1,}}', '"v":[1,"ü"] ]', '"v":"é"']) {
          const p = rest.includes('[1,') ? '/v/1' : '/v';
          expect(() => codec.at(head + rest, p), rest).toThrow(SyntaxError);
          expect(errorOf(() => codec.at(head + rest, p))).toStrictEqual(errorOf(() => viaUtf8.at(head + rest, p)));
        }
        // Only arrays on the path: nothing after the value is read but what must follow it.
        const arrayHead = `["${pad.slice(0, 2100)}",`;
        expect(codec.at(arrayHead + '"é" , 1] x', '/1')).toBe('é');
        expect(codec.at(arrayHead + '["é"]] x', '/1/0')).toBe('é');
        for (const rest of ['"é" x]', '"é" }', '"é"', '["é" }]', '"é"\u00a0]', '"é"\\u0020]']) {
          const p = rest.startsWith('[') ? '/1/0' : '/1';
          expect(() => codec.at(arrayHead + rest, p), rest).toThrow(SyntaxError);
          expect(errorOf(() => codec.at(arrayHead + rest, p))).toStrictEqual(errorOf(() => viaUtf8.at(arrayHead + rest, p)));
        }
      });
    });

    it('agrees with JSON.parse + property access on corpus files', async (ctx) => {
      // (Every 25th line of a multi-document file: each line is a small document.)
      const docs = await sharedCorpus(ctx, { every: 25 });
      for (const { name, bytes } of docs) {
        const value = JSON.parse(new TextDecoder().decode(bytes));
        const doc = codec.lazy(bytes) as LazyNode;
        const all = pointers(value, 60);
        for (const p of all) {
          const got = doc.at(p);
          // Compared as JSON text: deep-equality of multi-megabyte values is slow, and
          // parse() itself is checked value for value elsewhere.
          const expected = evaluatePointer(value, p);
          if (expected !== null && typeof expected === 'object') expect(got, `${name} ${p}`).toBeInstanceOf(LazyNode);
          expect(JSON.stringify(got instanceof LazyNode ? got.toJS() : got), `${name} ${p}`).toBe(JSON.stringify(expected));
        }
        for (const p of all.slice(-3)) expect(JSON.stringify(codec.at(bytes, p)), `${name} ${p}`).toBe(JSON.stringify(evaluatePointer(value, p)));
        doc.free();
      }
    });

    it('lazy(): repeated lookups (served from a container index) agree with the first (a wasm scan)', () => {
      const text = '{"a":[1,[2,3],{"x":null}],"b":{"k":1,"k":2,"__proto__":{"p":1}},"a":[4,5,[6]],"c":[],"d\\u0061t":7}';
      const value = JSON.parse(text);
      for (const input of [text, utf8.encode(text)]) {
        const doc = codec.lazy(input) as LazyNode;
        for (let round = 0; round < 3; round++) {
          expect((doc.get('a') as LazyNode).toJS()).toStrictEqual(value.a);
          expect(doc.at('/a/2/0')).toBe(6);
          expect(doc.at('/b/k')).toBe(2);
          expect(doc.at('/b/__proto__/p')).toBe(1);
          expect(doc.get('missing')).toBeUndefined();
          expect((doc.get('c') as LazyNode).length).toBe(0);
          const a = doc.get('a') as LazyNode;
          for (const bad of [1.5, -1, 3, 2 ** 32 + 1, 4294967295, NaN, '01', '1e0', ' 1']) expect(a.get(bad as number)).toBeUndefined();
          expect(a.get('1')).toBe(5);
          expect(a.length).toBe(3);
          expect([...a].map((x) => wholeValue(x))).toStrictEqual(value.a);
          expect(doc.get('dat')).toBe(7);
          expect([...doc].map(([k, x]) => [k, wholeValue(x)])).toStrictEqual(Object.entries(value));
        }
        expect(doc.keys()).toStrictEqual(Object.keys(value));
        expect(doc.toJS()).toStrictEqual(value);
        doc.free();
      }
    });

    it('lazy(): keys() orders keys as Object.keys does at the array-index boundary, and pointers resumed at any depth agree', () => {
      const text = '{"b":1,"4294967295":2,"4294967294":3,"01":4,"1":5,"0":6,"-1":7,"10":8,"":9,"1e0":10,"٣":11}';
      const doc = codec.lazy(text) as LazyNode;
      expect(doc.keys()).toStrictEqual(Object.keys(JSON.parse(text)));
      doc.free();
      // Each pointer below is evaluated twice from the top, so the containers on its
      // path are listed one level further each time: the rest of the pointer is then
      // taken from every depth (unescaped, it is the pointer's own tail).
      const nested = '{"a":{"b":[{"c":{"d":[1,{"e":"x"}]}}],"~/":{"k/":[2]}}}';
      const value = JSON.parse(nested);
      for (const input of [nested, utf8.encode(nested)]) {
        const d = codec.lazy(input) as LazyNode;
        for (let round = 0; round < 6; round++) {
          expect(d.at('/a/b/0/c/d/1/e')).toBe(value.a.b[0].c.d[1].e);
          expect(wholeValue(d.at('/a/~0~1/k~1/0'))).toBe(2);
          expect(d.at('/a/b/0/c/d/2')).toBeUndefined();
        }
        d.free();
      }
    });

    it('lazy(): a bad object gives the same error to its first lookup (a wasm scan) and to later ones (its listing)', () => {
      const bad = ['{"a":1,"b":2,"c"3}', '{"a":1,"b\\x":2}', '{"a":1,"b":2', '{"a":1,,"b":2}', '{"a":1,"a":[1,}', '{"a":1 "b":2}'];
      // A value that is not read is not checked (README): every way finds "a" alike.
      const unread = ['{"a":1,"b":"\u0001"}', '{"a":1,"b":[1,,2]}', '{"a":1,"b":tru}'];
      for (const text of [...bad, ...unread]) {
        for (const input of [text, utf8.encode(text)]) {
          const errorOf = (fn: () => unknown): unknown => {
            const r = attempt(fn);
            if (r.ok) return { value: r.value };
            const e = r.error as SyntaxError & { offset?: number };
            return { name: e.name, message: e.message, offset: e.offset };
          };
          const first = codec.lazy(input) as LazyNode;
          const listed = codec.lazy(input) as LazyNode;
          const byListing = errorOf(() => listed.keys());
          expect((byListing as { name?: string }).name, text).toBe(bad.includes(text) ? 'SyntaxError' : undefined);
          const want = bad.includes(text) ? byListing : { value: 1 };
          expect(errorOf(() => first.get('a')), text).toStrictEqual(want);
          expect(errorOf(() => first.get('a')), text).toStrictEqual(want);
          expect(errorOf(() => listed.get('a')), text).toStrictEqual(want);
          first.free();
          listed.free();
        }
      }
    });

    it('lazy().at(): pointers from the same containers agree, first by a wasm path, then by indexes', () => {
      // A container is listed on the second pointer evaluated from it: each round below
      // mixes both ways, and duplicate keys at every level must give the last value.
      const text =
        '{"a":{"x":1,"b":[10,{"c":2}]},"s":"str","a":{"b":[20,{"c":3,"c":4},[[{"~/":5}]]],"x":6},"n":[[],{}]}';
      const value = JSON.parse(text);
      const pointers = ['/a/b/1/c', '/a/x', '/a/b/0', '/a/b/2/0/0/~0~1', '/s', '/s/0', '/a/b/3', '/a/b/01', '/a/b/-',
        '/n/0', '/n/1', '/n/0/0', '/a/x/y', '/missing/x', '', '/a/b/2/0/0'];
      for (const input of [text, utf8.encode(text)]) {
        const doc = codec.lazy(input) as LazyNode;
        for (let round = 0; round < 3; round++) {
          for (const p of pointers) expect(wholeValue(doc.at(p)), `${p} round ${round}`).toStrictEqual(evaluatePointer(value, p));
          const inner = doc.at('/a/b') as LazyNode;
          expect(wholeValue(inner.at('/1/c'))).toBe(4);
          expect(wholeValue(inner.at('/2/0'))).toStrictEqual([{ '~/': 5 }]);
        }
        doc.free();
      }
    });

    it('lazy() and at(): scalars read as JSON.parse reads them, and bad ones still throw', () => {
      const long = 'x'.repeat(300) + '\\n\\u00e9';
      const text = `[-0, 1e400, -1e-400, 123456789012345678901234567890, 0.1, true, false, null, "", "a\\"b\\\\", "\\ud83d\\ude00\\u0000", "é\ufffd", "\\ud800", "${long}", "\ud800x"]`;
      for (const input of [text, utf8.encode(text)]) {
        // (Bytes carry the raw lone surrogate as U+FFFD, as TextEncoder wrote it.)
        const value = JSON.parse(typeof input === 'string' ? input : new TextDecoder().decode(input));
        const doc = codec.lazy(input) as LazyNode;
        for (let i = 0; i < value.length; i++) {
          for (let round = 0; round < 2; round++) expect(Object.is(doc.get(i), value[i]), `${typeof input} ${i}`).toBe(true);
        }
        doc.free();
      }
      // All-ASCII text (its values are sliced from it, not decoded): strings with and
      // without escapes, of every length around the quick path's 256 bytes, a raw DEL,
      // members of objects, values followed by whitespace.
      const strings = ['', 'a', 'plain text', 'a\\"b', '\\\\', '\\/', 'tab\\there', '\\u0041\\u00e9', 'del\x7f', ' lead', 'trail '];
      for (const n of [250, 252, 253, 254, 255, 256, 257, 300]) strings.push('y'.repeat(n), 'z'.repeat(n - 2) + '\\n');
      const asciiArray = `[${strings.map((s) => `"${s}"`).join(' , ')} ,1.5e3 ,-0 ,null\n]`;
      const asciiObject = `{${strings.map((s, i) => `"k${i}":"${s}"`).join(',\n ')},"n": 7 }`;
      for (const text of [asciiArray, asciiObject]) {
        const value = JSON.parse(text);
        for (const input of [text, utf8.encode(text)]) {
          const doc = codec.lazy(input) as LazyNode;
          for (const k of Object.keys(value)) {
            const key = Array.isArray(value) ? Number(k) : k;
            for (let round = 0; round < 2; round++) expect(Object.is(doc.get(key), value[k]), `${typeof input} ${k}`).toBe(true);
            expect(Object.is(codec.at(input, `/${k}`), value[k]), `at ${typeof input} ${k}`).toBe(true);
          }
          doc.free();
        }
      }
      // Invalid scalars: the error of the document, wherever the quick path gives up.
      for (const bad of ['[tru]', '[1.]', '[-]', '["a\tb"]', '["\\x"]', '[01]', '["\\u12"]', '["a\x01"]', '{"k":"\x1f"}', '["a"x]', '["a" "b"]']) {
        for (const input of [bad, utf8.encode(bad)]) {
          const doc = codec.lazy(input) as LazyNode;
          expect(() => doc.get(bad[0] === '{' ? 'k' : 0), bad).toThrow(SyntaxError);
          expect(() => codec.at(input, bad[0] === '{' ? '/k' : '/0'), bad).toThrow(SyntaxError);
          doc.free();
        }
      }
      const invalidUtf8 = new Uint8Array([0x5b, 0x22, 0x61, 0xff, 0x62, 0x22, 0x5d]); // ["a\xffb"]
      const doc = codec.lazy(invalidUtf8) as LazyNode;
      expect(() => doc.get(0)).toThrow(SyntaxError);
      doc.free();
    });

    it('lazy(): text that is not ASCII, of every size around where its buffer stops being sized for the worst case', () => {
      // 3 UTF-8 bytes a unit: 21845 units fill 64 KiB.
      for (const units of [20, 1000, 21840, 21843, 21844, 21845, 21846, 21850, 30000]) {
        const body = '\u4e16'.repeat(units - 16); // the text is `units` long
        const text = `{"k":"${body}","n":[1]}`;
        const doc = codec.lazy(text) as LazyNode;
        expect(doc.get('k'), `${units}`).toBe(body);
        expect((doc.get('n') as LazyNode).toJS(), `${units}`).toStrictEqual([1]);
        expect(doc.toJS(), `${units}`).toStrictEqual(JSON.parse(text));
        doc.free();
      }
    });

    it('lazy(): keys keep a leading U+FEFF (and other non-ASCII) exactly', () => {
      const text = '{"\ufeffa":1,"b\u00e9":{"\ufeffc":2},"\ud83d\ude00":3}';
      const value = JSON.parse(text);
      for (const input of [text, utf8.encode(text)]) {
        const doc = codec.lazy(input) as LazyNode;
        expect(doc.keys()).toStrictEqual(Object.keys(value));
        expect((doc.get('b\u00e9') as LazyNode).keys()).toStrictEqual(['\ufeffc']);
        expect(doc.get('\ufeffa')).toBe(1);
        expect(codec.at(input, '/\ufeffa')).toBe(1);
        doc.free();
      }
    });

    it('lazy(): get, at, length, keys, iteration and toJS agree with JSON.parse', () => {
      const text = '{"b":[1,{"x":"y"},[true]],"2":null,"a":{"k":"v"},"1":"one","b":[1,{"x":"y"},[false]]}';
      const value = JSON.parse(text);
      for (const input of [text, utf8.encode(text)]) {
        const doc = codec.lazy(input) as LazyNode;
        expect(doc).toBeInstanceOf(LazyNode);
        expect(doc.kind).toBe('object');
        expect(doc.keys()).toStrictEqual(Object.keys(value));
        expect(doc.length).toBe(Object.keys(value).length);
        expect(doc.toJS()).toStrictEqual(value);
        const b = doc.get('b') as LazyNode;
        expect(b.kind).toBe('array');
        expect(b.length).toBe(3);
        expect(b.get(0)).toBe(1);
        expect((b.get(1) as LazyNode).get('x')).toBe('y');
        expect(b.get('2')).toBeInstanceOf(LazyNode);
        expect(b.get(3)).toBeUndefined();
        expect(doc.at('/b/2/0')).toBe(false);
        expect(doc.get('missing')).toBeUndefined();
        expect([...b].map((v) => (v instanceof LazyNode ? v.toJS() : v))).toStrictEqual(value.b);
        const entries = [...doc].map(([k, v]: any) => [k, v instanceof LazyNode ? v.toJS() : v]);
        expect(entries).toStrictEqual(Object.entries(value));
        doc.free();
        expect(() => doc.get('b')).toThrow(/freed/);
        expect(() => b.toJS()).toThrow(/freed/);
        doc.free(); // twice is harmless
      }
    });

    it('lazy(): values(), entries(), isArray() and isObject() agree with JSON.parse; a node narrowed by kind iterates as its kind', () => {
      const text = '{"b":[1,{"x":"y"},[true]],"2":null,"a":{"k":"v"},"1":"one","b":[1,{"x":"y"},[false]],"e":[],"o":{}}';
      const value = JSON.parse(text);
      for (const input of [text, utf8.encode(text)]) {
        const doc = codec.lazy(input);
        if (!(doc instanceof LazyNode) || doc.kind !== 'object') throw new Error('expected an object node');
        expect([doc.isObject(), doc.isArray()]).toEqual([true, false]);
        // (Narrowed by kind: pairs, typed [string, LazyValue].)
        const pairs: [string, unknown][] = [];
        for (const [k, v] of doc) pairs.push([k, wholeValue(v)]);
        expect(pairs).toStrictEqual(Object.entries(value));
        expect([...doc.entries()].map(([k, v]) => [k, wholeValue(v)])).toStrictEqual(Object.entries(value));
        expect([...doc.values()].map(wholeValue)).toStrictEqual(Object.values(value));
        const b = doc.get('b');
        if (!(b instanceof LazyNode) || !b.isArray()) throw new Error('expected an array node');
        expect([b.isObject(), b.isArray(), b.kind]).toEqual([false, true, 'array']);
        // (Narrowed by isArray(): elements, typed LazyValue.)
        const elements: unknown[] = [];
        for (const v of b) elements.push(wholeValue(v));
        expect(elements).toStrictEqual(value.b);
        expect([...b.values()].map(wholeValue)).toStrictEqual(value.b);
        expect([...b.entries()].map(([i, v]) => [i, wholeValue(v)])).toStrictEqual([...value.b.entries()]);
        for (const empty of ['e', 'o']) {
          const node = doc.get(empty) as LazyNode;
          expect([[...node], [...node.values()], [...node.entries()]]).toEqual([[], [], []]);
        }
        // Nested nodes keep working while the iteration goes on, and stop with the document.
        const inner = [...b.values()][1] as LazyNode;
        expect(inner.isObject() && [...inner.entries()]).toEqual([['x', 'y']]);
        const later = doc.values();
        doc.free();
        expect(() => [...later]).toThrow(/freed/);
        expect(() => [...b.entries()]).toThrow(/freed/);
        expect(() => inner.isObject()).not.toThrow(); // (its kind is known without the document)
      }
    });

    it('a freed document refuses its empty containers too, listed before or not, and keys whose toString frees it; get() converts a key once (a Symbol is a TypeError on either kind)', () => {
      for (const text of ['[]', '{}', '{"e":[],"o":{}}', '[[],{}]']) {
        for (const listFirst of [false, true]) {
          const doc = codec.lazy(text) as LazyNode;
          const nodes = (text.length === 2 ? [doc] : doc.kind === 'object' ? [doc.get('e'), doc.get('o')] : [doc.get(0), doc.get(1)]) as LazyNode[];
          // (length and a first iteration build and cache a container's index.)
          if (listFirst) for (const node of nodes) expect([node.length, [...node].length]).toEqual([0, 0]);
          doc.free();
          for (const node of nodes) {
            expect(() => [...node], `${text} ${listFirst}`).toThrow(/freed/);
            expect(() => node.values().next(), `${text} ${listFirst}`).toThrow(/freed/);
            expect(() => [...node.entries()], `${text} ${listFirst}`).toThrow(/freed/);
            expect(() => node.length, `${text} ${listFirst}`).toThrow(/freed/);
          }
        }
      }
      // A key's toString runs once, before the document is looked at: one that frees the
      // document gets the freed error, not a lookup in freed memory.
      for (const [text, key] of [['{"a":1,"b":2}', 'b'], ['[1,2]', '1'], ['[1,2]', '01'], ['{"a":[3]}', 'a']]) {
        for (const input of [text, utf8.encode(text)]) {
          const freeing = codec.lazy(input) as LazyNode;
          let calls = 0;
          const k = { toString: () => (calls++, freeing.free(), key) };
          expect(() => freeing.get(k as unknown as string), `${text} ${key}`).toThrow(/freed/);
          expect(calls).toBe(1);
        }
      }
      const counted = codec.lazy('[5,6]') as LazyNode;
      let conversions = 0;
      expect(counted.get({ toString: () => (conversions++, '1') } as unknown as string)).toBe(6);
      expect(conversions).toBe(1);
      counted.free();
      const doc = codec.lazy('{"Symbol(x)":1,"a":[2]}') as LazyNode;
      expect(() => doc.get(Symbol('x') as unknown as string)).toThrow(TypeError);
      expect(() => (doc.get('a') as LazyNode).get(Symbol('x') as unknown as string)).toThrow(TypeError);
      doc.free();
    });

    it("a lazy document's later errors describe its own copy, whatever became of the caller's bytes", () => {
      // (Lookups by key read the object to its end, skipping values unread: b's is read
      // only when asked for.)
      const text = '{"a":1,"b":x,"c":[1,]}';
      const want = attempt(() => JSON.parse(text));
      for (const change of [(b: Uint8Array) => b.fill(0x41), (b: Uint8Array) => structuredClone(b.buffer, { transfer: [b.buffer] })]) {
        const bytes = new TextEncoder().encode(text);
        const doc = codec.lazy(bytes) as LazyNode;
        change(bytes);
        expect(doc.get('a')).toBe(1);
        let error: any;
        try {
          doc.get('b');
        } catch (e) {
          error = e;
        }
        expect(error).toBeInstanceOf(SyntaxError);
        expect(error.message).toBe((want as { error: Error }).error.message);
        expect([error.offset, error.line, error.column]).toEqual([11, 1, 12]);
        expect(error.excerpt).toContain('"b":x');
        // c's own error (its ']') comes after b's in the document: JSON.parse's error is b's.
        expect(() => (doc.get('c') as LazyNode).toJS()).toThrow((want as { error: Error }).error.message);
        doc.free();
      }
    });

    it("JSON.stringify of a lazy node writes its value (not the node's internals)", () => {
      const text = '{"a":[1,{"b":"x"}],"c":null}';
      const doc = codec.lazy(text) as LazyNode;
      expect(JSON.stringify(doc)).toBe(JSON.stringify(JSON.parse(text)));
      expect(JSON.stringify({ inner: doc.get('a') })).toBe('{"inner":[1,{"b":"x"}]}');
      expect(codec.stringify(doc.get('a'))).toBe('[1,{"b":"x"}]');
      doc.free();
      expect(() => JSON.stringify(doc)).toThrow(/freed/);
    });

    it('lazy() of a scalar document is the value; bad documents throw', () => {
      expect(codec.lazy(' "s" ')).toBe('s');
      expect(codec.lazy('12')).toBe(12);
      expect(() => codec.lazy('   ')).toThrow(SyntaxError);
    });

    it('lazy documents survive memory growth and many documents, and dispose', () => {
      const docs: LazyNode[] = [];
      for (let i = 0; i < 50; i++) docs.push(codec.lazy(`{"i":${i},"pad":"${'x'.repeat(20000)}"}`) as LazyNode);
      const big = '[' + '{"a":1},'.repeat(500_000) + '2]';
      expect((codec.lazy(big) as LazyNode).get(500_000)).toBe(2);
      for (let i = 0; i < 50; i++) expect(docs[i].get('i')).toBe(i);
      const listed = codec.lazy('{"a":1,"b":[1,2]}') as LazyNode;
      const inner = listed.get('b') as LazyNode;
      expect([listed.keys(), listed.length, inner.length]).toEqual([['a', 'b'], 2, 2]);
      listed.free();
      // Even with their indexes built, freed documents answer nothing.
      expect(() => listed.keys()).toThrow(/freed/);
      expect(() => listed.length).toThrow(/freed/);
      expect(() => inner.length).toThrow(/freed/);
      for (const d of docs) d[Symbol.dispose]();
      expect(() => docs[0].get('i')).toThrow(/freed/);
    });
  });
}

describe('top-level at / lazy', () => {
  it('are exported', () => {
    expect(wasmjson.at('{"a":[1,2]}', '/a/1')).toBe(2);
    expect((wasmjson.lazy('[7]') as LazyNode).get(0)).toBe(7);
  });

  it('LazyNode is for instanceof: new LazyNode() is a TypeError that says so, its methods on other objects TypeErrors', () => {
    const Node = LazyNode as unknown as new (...args: unknown[]) => LazyNode;
    expect(() => new Node()).toThrow(/^wasmjson: LazyNode is made by lazy\(\)/);
    const doc = wasmjson.lazy('{"a":[1,{"b":2}]}') as LazyNode;
    expect(() => new Node(undefined, doc, 0, 'object', 0)).toThrow(TypeError);
    const proto = LazyNode.prototype as unknown as Record<string, (...args: unknown[]) => unknown>;
    const calls: [string, (receiver: object) => unknown][] = [
      ['get', (r) => proto.get.call(r, 'a')],
      ['at', (r) => proto.at.call(r, '/a')],
      ['keys', (r) => proto.keys.call(r)],
      ['values', (r) => [...(proto.values.call(r) as Iterable<unknown>)]],
      ['entries', (r) => [...(proto.entries.call(r) as Iterable<unknown>)]],
      ['toJS', (r) => proto.toJS.call(r)],
      ['toJSON', (r) => proto.toJSON.call(r)],
      ['iterator', (r) => [...(LazyNode.prototype[Symbol.iterator].call(r as LazyNode) as Iterable<unknown>)]],
      ['free', (r) => proto.free.call(r)],
      ['length', (r) => Reflect.get(LazyNode.prototype, 'length', r)],
    ];
    for (const receiver of [{}, Object.create(LazyNode.prototype), { offset: 0, kind: 'object', within: 0 }]) {
      for (const [name, call] of calls) {
        let thrown: unknown;
        try {
          call(receiver);
        } catch (e) {
          thrown = e;
        }
        // (The engine's own words: a brand check in every method measured 2% slower lookups.)
        expect(thrown, name).toBeInstanceOf(TypeError);
      }
    }
    // The real document is untouched.
    expect(doc.at('/a/1/b')).toBe(2);
    doc.free();
  });
});
