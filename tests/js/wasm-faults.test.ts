// Faults only a wasm codec has, each on a fresh codec instance (its own linear memory,
// which starts at 2 MiB and can only grow, up to wasm32's 4 GiB):
//   - memory growth in the middle of a call: user code (a reviver, toJSON, a replacer)
//     that itself parses or serializes a document several times larger than all of the
//     instance's memory, so the memory must grow (and every view of it is detached)
//     while the outer call is under way; the outer results must still be exact;
//   - out of memory: documents that cannot fit in wasm32's address space end in the
//     codec's RangeError, and the same instance keeps working exactly afterwards.
// (Reentrancy on the shared instances is in parse.test.ts and stringify.test.ts.)
import { describe, expect, it } from 'vitest';
import { load, type Codec } from 'wasmjson';
import { FLAVORS } from './support/flavors.js';

const INITIAL_MEMORY = 2 * 1024 * 1024; // CMakeLists.txt: -sINITIAL_MEMORY=2MB
const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
/** WASMJSON_LONG=1: the large-document test at 1 GB instead of 300 MB. */
const LONG = env?.WASMJSON_LONG === '1';
const OOM_MESSAGE = /do not fit in WebAssembly memory \(a 4 GiB address space\); the instance stays usable/;

const utf8 = (s: string) => new TextEncoder().encode(s);
const decode = (b: Uint8Array) => new TextDecoder().decode(b);

// A deterministic document: escapes, non-ASCII, numbers of every kind, nesting, repeated keys.
function bigValue(records: number, tag: string) {
  return Array.from({ length: records }, (_, i) => ({
    [`key${tag}`]: `v${i}\n"é😀\\`,
    n: i * 1.5 - 7,
    big: 1e21 + i * 1e6,
    tiny: i * 1e-9,
    list: [true, null, -i, `${tag}${i % 7}`],
    nested: { deep: [[i]] },
  }));
}

/** A value sure to work on any instance, to check one still works after a fault. */
const PROBE = { a: [1, -0, 2.5, 'x\u00e9\ud83d\ude00"\n', null, true], b: { c: {}, d: [] }, e: 1e300 };
const PROBE_TEXT = JSON.stringify(PROBE);

function expectWorks(codec: Codec) {
  expect(codec.parse(PROBE_TEXT)).toStrictEqual(JSON.parse(PROBE_TEXT));
  expect(codec.parse(utf8(PROBE_TEXT))).toStrictEqual(JSON.parse(PROBE_TEXT));
  expect(codec.validate(PROBE_TEXT)).toBe(true);
  expect(codec.stringify(PROBE)).toBe(PROBE_TEXT);
  expect(codec.stringify(PROBE, null, 2)).toBe(JSON.stringify(PROBE, null, 2));
  expect(decode(codec.encode(PROBE))).toBe(PROBE_TEXT);
  // And a document of a few MB, which needs the input and tape buffers to be sound.
  const mid = JSON.stringify(bigValue(20_000, 'm'));
  expect(JSON.stringify(codec.parse(utf8(mid)))).toBe(mid);
  expect(codec.stringify(JSON.parse(mid))).toBe(mid);
}

/** Allocates n bytes, or null when this engine cannot make an ArrayBuffer that large. */
function tryAlloc(n: number): Uint8Array | null {
  try {
    return new Uint8Array(n);
  } catch (e) {
    if (e instanceof RangeError) return null;
    throw e;
  }
}

for (const flavor of FLAVORS) {
  describe(`wasm faults (${flavor})`, () => {
    it('memory growth inside a reviver: the outer walk, its source texts and the nested results are exact', async () => {
      const codec = await load({ flavor });
      const bigText = JSON.stringify(bigValue(50_000, 'p'));
      expect(bigText.length).toBeGreaterThan(3 * INITIAL_MEMORY); // the nested parse must grow memory
      const bigBytes = utf8(bigText);
      const biggerText = JSON.stringify(bigValue(100_000, 'r'));
      const smallText = JSON.stringify(bigValue(50, 's'));
      const outerText =
        '{"a":[1,2.5,"x\\n",{"k":"v","n":null}],"b":{"c":[true,false],"d":"😀"},"e":[[1],[2,[3]]],"z":"last"}';

      // The same reviver for native and ours; `p` parses the nested documents.
      const walk = (p: (t: string | Uint8Array, r?: any) => unknown) => {
        const log: unknown[] = [];
        const nested: string[] = [];
        const result = p(outerText, function (this: unknown, key: string, value: unknown, context: { source?: string }) {
          log.push([key, structuredClone(value), context?.source]);
          if (key === 'k') nested.push(JSON.stringify(p(bigText)));
          if (key === 'c') nested.push(JSON.stringify(p(bigBytes)));
          if (key === 'd') {
            // A nested parse whose own reviver parses a document twice as big (growing
            // memory again, or at least reusing it after the first growth).
            nested.push(JSON.stringify(p(smallText, (k: string, v: unknown) => (k === 'tiny' && v === 0 ? (p(biggerText) as unknown[]).length : v))));
          }
          return typeof value === 'number' ? value * 3 : value;
        });
        return { log, nested, result };
      };
      const nativeParse = (t: string | Uint8Array, r?: any) => JSON.parse(typeof t === 'string' ? t : decode(t), r);
      const ours = walk((t, r) => codec.parse(t, r));
      const native = walk(nativeParse);
      expect(ours.log).toStrictEqual(native.log);
      expect(ours.result).toStrictEqual(native.result);
      expect(ours.nested.length).toBe(3);
      for (let i = 0; i < 3; i++) expect(ours.nested[i] === native.nested[i], `nested document ${i}`).toBe(true);
      expectWorks(codec);
    });

    it('memory growth inside toJSON and a replacer: stringify and encode output is exact', async () => {
      const codec = await load({ flavor });
      const bigText = JSON.stringify(bigValue(50_000, 'g'));
      expect(bigText.length).toBeGreaterThan(3 * INITIAL_MEMORY);
      const bigVal = JSON.parse(bigText);
      // Strings and keys before, inside and after the growing calls, so the outer call has
      // a batch of commands and string data pending in JS while memory grows under it.
      const before = { text: 'before\u00e9"\n'.repeat(50), list: [1, 2.5, -0, 'x'] };
      const make = (p: (t: string) => unknown, s: (v: unknown, r?: any, sp?: any) => string) => ({
        before,
        parsed: { toJSON: () => (p(bigText) as unknown[]).length },
        serialized: { toJSON: () => s(bigVal).length },
        pretty: { toJSON: () => s(bigVal, null, 2).length },
        after: [before, 'tail\ud800', { k: 'v'.repeat(10_000) }],
      });
      const ours = make((t) => codec.parse(t), (v, r, sp) => codec.stringify(v, r, sp));
      const native = make((t) => JSON.parse(t), (v, r, sp) => JSON.stringify(v, r, sp));
      const expected = JSON.stringify(native);
      expect(codec.stringify(ours)).toBe(expected);
      expect(codec.stringify(ours, null, '\t')).toBe(JSON.stringify(native, null, '\t'));
      expect(decode(codec.encode(ours))).toBe(expected); // lone surrogates are escaped, so the bytes are ASCII there
      // A replacer that parses and serializes big documents for every key of an object.
      const replacer = (f: typeof codec.parse, g: typeof codec.stringify) => (key: string, value: unknown) =>
        key.startsWith('r') ? [(f(bigText) as unknown[]).length, g(bigVal).length, key] : value;
      const withKeys = { r1: 1, plain: 'é', r2: [1, 2], r3: { x: 'y' } };
      expect(codec.stringify(withKeys, replacer((t) => codec.parse(t), (v) => codec.stringify(v)))).toBe(
        JSON.stringify(withKeys, replacer((t) => JSON.parse(t as string), (v) => JSON.stringify(v))),
      );
      expectWorks(codec);
    });

    it('a throw while the views of grown memory are re-made (a stack overflow there) leaves none stale', async (ctx) => {
      const NodeBuffer = (globalThis as { Buffer?: { from: (...a: unknown[]) => unknown } }).Buffer;
      // (Node's Buffer is the view that comes last; elsewhere there is none to make.)
      if (NodeBuffer === undefined) ctx.skip('no Node Buffer here');
      const codec = await load({ flavor });
      const small = { a: 1, b: [1, 2, 'x'] };
      expect(codec.stringify(small)).toBe(JSON.stringify(small));
      const from = NodeBuffer.from;
      NodeBuffer.from = function (...args: unknown[]) {
        if (args[0] instanceof ArrayBuffer) throw new RangeError('Maximum call stack size exceeded (simulated)');
        return from.apply(this, args);
      };
      try {
        // Output larger than the memory: it grows during the call.
        expect(() => codec.stringify(['x'.repeat(4 * INITIAL_MEMORY)])).toThrow('simulated');
      } finally {
        NodeBuffer.from = from;
      }
      expect(codec.stringify(small)).toBe(JSON.stringify(small));
      expect(codec.stringify(['y'.repeat(100)])).toBe(JSON.stringify(['y'.repeat(100)]));
      expectWorks(codec);
    });

    it('a batch that wasm refuses (a tampered Array.prototype.push) leaves no key ids behind', async () => {
      const codec = await load({ flavor });
      const v = { a: [1, { b: new String('s') }], c: new Number(2) };
      for (const w of [v, [{ a: 1 }, { a: 2, c: 3 }]]) expect(codec.stringify(w)).toBe(JSON.stringify(w));
      const push = Array.prototype.push;
      Array.prototype.push = function (this: unknown[], ...items: unknown[]) {
        return push.apply(this, items.concat(items));
      };
      try {
        codec.stringify(v);
      } catch {
        // (Whatever the tampering causes; what matters is the state afterwards.)
      } finally {
        Array.prototype.push = push;
      }
      for (const w of [{ a: 1, b: 2, c: 3 }, v, [{ c: 1, a: 2 }]]) expect(codec.stringify(w)).toBe(JSON.stringify(w));
      expectWorks(codec);
    });

    it(`a document of ${LONG ? '1 GB' : '300 MB'} parses, validates and minifies exactly`, async () => {
      const codec = await load({ flavor });
      // Strings of 100 KB (past 256 MiB, parse decodes each string on its own instead of
      // slicing one decoded document), then a tail of every other kind of value.
      const target = LONG ? 1_000_000_000 : 300_000_000;
      const piece = utf8(`"${'abcdefghi\u00e9'.repeat(10_000)}",`);
      const count = Math.floor(target / piece.length);
      const tail = utf8(String.raw`{"k":"\u00e9\n\ud83d\ude00","n":-1.5e300,"i":[1,-0,true,null]}]`);
      const doc = new Uint8Array(1 + count * piece.length + tail.length);
      doc[0] = 0x5b; // [
      for (let i = 0; i < count; i++) doc.set(piece, 1 + i * piece.length);
      doc.set(tail, 1 + count * piece.length);
      expect(codec.validate(doc)).toBe(true);
      const value = codec.parse(doc) as unknown[];
      expect(value.length).toBe(count + 1);
      const first = JSON.parse(decode(piece.subarray(0, piece.length - 1)));
      expect(value[0]).toBe(first);
      expect(value[count - 1]).toBe(first);
      expect(Object.is((value[count] as { i: unknown[] }).i[1], -0)).toBe(true);
      expect(value[count]).toStrictEqual({ k: '\u00e9\n\ud83d\ude00', n: -1.5e300, i: [1, -0, true, null] });
      // Already minified: the same bytes come back.
      const min = codec.minify(doc);
      expect(min.length).toBe(doc.length);
      expect(min[min.length - 1]).toBe(0x5d);
      expectWorks(codec);
    });

    it('addresses past 2 GiB: parse, stringify, encode, navigation and reformatting stay exact', async () => {
      const codec = await load({ flavor });
      // Three lazy documents of 720 MB (mostly whitespace) keep their copies in wasm
      // memory, so the buffers made after them (the tape, the write session, scratch)
      // lie past 2 GiB. Reading such an address with a signed shift once gave wrong words
      // (parse returned null).
      // (One JS buffer serves all three, rewritten in place: each lazy document holds its
      // own copy, and first touches of fresh memory are most of this test's time.)
      const pad = 720_000_000;
      const held = [];
      const padded = new Uint8Array(pad + 16).fill(0x20);
      for (let i = 0; i < 3; i++) {
        padded.set(utf8(`{"i":${i}}`), pad);
        held.push(codec.lazy(padded) as { get(k: string): unknown; free(): void });
      }
      expectWorks(codec);
      const mid = JSON.stringify(bigValue(2_000, 'h'));
      expect(codec.at(mid, '/1999/list/3')).toBe(`h${1999 % 7}`);
      const doc = codec.lazy(utf8(mid)) as { at(p: string): unknown; length: number; free(): void };
      expect(doc.length).toBe(2_000);
      expect(doc.at('/7/n')).toBe(7 * 1.5 - 7);
      doc.free();
      expect(codec.minify(JSON.stringify(JSON.parse(mid), null, 1))).toBe(mid);
      expect(codec.prettify(mid, { indent: 2 })).toBe(JSON.stringify(JSON.parse(mid), null, 2));
      expect(() => codec.parse(mid.slice(0, -1))).toThrow(SyntaxError);
      held.forEach((h, i) => expect(h.get('i')).toBe(i));
      for (const h of held) h.free();
    });

    it('out of memory, parse: a document of 4 GiB or more is a RangeError and the instance stays usable', async () => {
      const codec = await load({ flavor });
      expectWorks(codec);
      // Zero-filled ArrayBuffers are not touched, so these cost no real memory. Just under
      // 2^32 bytes: the allocation fails in wasm. 2^32 and more: wasm32 cannot even ask
      // for it (a 32-bit size once wrapped around here and left the instance corrupt).
      const sizes = [4_000_000_000, 2 ** 32 - 64, 2 ** 32 + 16];
      const tested: number[] = [];
      for (const size of sizes) {
        const huge = tryAlloc(size);
        if (!huge) continue; // this engine cannot make the ArrayBuffer at all
        tested.push(size);
        expect(() => codec.parse(huge), `parse ${size}`).toThrow(RangeError);
        expect(() => codec.parse(huge), `parse ${size}`).toThrow(OOM_MESSAGE);
        expect(() => codec.parse(huge), `parse ${size}`).toThrow(`a document of ${size} bytes`);
        expect(() => codec.validate(huge), `validate ${size}`).toThrow(OOM_MESSAGE);
        expect(() => codec.minify(huge), `minify ${size}`).toThrow(OOM_MESSAGE);
        expectWorks(codec);
      }
      // Node 26 and Chromium 156 make all three (V8 allows ArrayBuffers past 4 GiB).
      expect(tested).toStrictEqual(sizes);
    });

    // Kernel-independent (the error path's order), and a few seconds of a few GB: once, in Node.
    if (env && flavor === FLAVORS[0]) {
      it('out of memory, parse: an invalid document that does not fit is its SyntaxError, a valid one the RangeError', async () => {
        const codec = await load({ flavor });
        // 100 million levels (200 MB): their tape and stacks do not fit in wasm32. Read
        // whole, the text with one byte more is invalid there: JSON.parse's error.
        const levels = 100_000_000;
        const nest = new Uint8Array(2 * levels + 1).fill(0x5b); // [
        nest.fill(0x5d, levels); // ]
        nest[2 * levels] = 0x78; // x
        expect(() => codec.parse(nest)).toThrow(expect.objectContaining({ name: 'SyntaxError', code: 'TRAILING_CONTENT', offset: 2 * levels }));
        expect(() => codec.parse(nest.subarray(0, 2 * levels))).toThrow(OOM_MESSAGE);
        expect(() => codec.parse(nest.subarray(0, 2 * levels))).toThrow(`a document of ${2 * levels} bytes`);
        expectWorks(codec);
      }, 120_000);
    }

    // Kernel-independent (buffer growth), and a few seconds of a few GB: once, in Node.
    if (env && flavor === FLAVORS[0]) {
      it(`encode writes ${LONG ? '2.1 GB' : '1.3 GB'} of output (its buffer grows by smaller steps where 1.5x cannot fit)`, async () => {
        const codec = await load({ flavor });
        // The output grew from 1.09 GB to 1.64 GB by realloc, old and new block at once:
        // past 1.15 GB encode failed, where 2 GiB - 64 KiB is its ceiling.
        const row = new Array<number>(1_000_000).fill(123456789); // 10 bytes an element
        const rows = LONG ? 214 : 130;
        let out: Uint8Array | undefined = codec.encode(new Array(rows).fill(row));
        expect(out.length).toBe(rows * 10_000_002 + 1); // (each row 10,000,001 bytes, a comma between rows)
        expect(decode(out.subarray(0, 12))).toBe('[[123456789,');
        expect(decode(out.subarray(out.length - 12))).toBe(',123456789]]');
        out = undefined;
        expectWorks(codec);
      }, 120_000);
    }

    it('long strings are escaped in pieces: escapes, pairs and lone surrogates at every piece boundary', async () => {
      const codec = await load({ flavor });
      // wasm escapes a UTF-16 string of more than 65,536 units (writer_escape.h
      // kEscapePieceUnits) a piece at a time.
      const piece = 65_536;
      const specials = ['\ud83d\ude00', '\ud800', '\udc00', '\n"', '\u001f', '\u00e9\u4e2d'];
      const values: string[] = [];
      for (const at of [piece - 2, piece - 1, piece, piece + 1, 2 * piece - 1, 2 * piece]) {
        for (const special of specials) values.push('a'.repeat(at) + special + 'b'.repeat(2 * piece + 5 - at));
      }
      values.push('\u0001'.repeat(2 * piece + 3), '\udbff'.repeat(piece + 1));
      for (const v of values) {
        expect(codec.stringify([v, { [v]: 1 }])).toBe(JSON.stringify([v, { [v]: 1 }]));
        expect(codec.stringify({ [v]: v }, null, 2)).toBe(JSON.stringify({ [v]: v }, null, 2));
        expect(codec.encode([v])).toStrictEqual(utf8(JSON.stringify([v])));
      }
      expectWorks(codec);
    });

    // Kernel-independent (the pieces are cut the same way for every kernel) and a few GB:
    // once, in Node.
    if (env && flavor === FLAVORS[0]) {
      it('a string of 360 million units is written; output that cannot fit is a RangeError and the instance stays usable', async () => {
        const codec = await load({ flavor });
        // Escaped whole, with room for 6 bytes a unit (over 2 GiB on top of the string
        // itself), it did not fit in wasm32: strings from about 300 million units failed,
        // where native writes them. (Checked by construction: Node 26's JSON.stringify of
        // a flat string this long can abort the process, out of zone memory.)
        let long: string | undefined = 'x'.repeat(360_000_000);
        let text: string | undefined = codec.stringify(['start', long, 'end']);
        expect([text.length, text.slice(0, 10), text.slice(-8)]).toEqual([360_000_018, '["start","', '","end"]']);
        expect(text.slice(10, -8) === long).toBe(true);
        text = undefined;
        let bytes: Uint8Array | undefined = codec.encode({ key: long });
        expect([bytes.length, decode(bytes.subarray(0, 10)), decode(bytes.subarray(bytes.length - 4))]).toEqual([360_000_010, '{"key":"xx', 'xx"}']);
        bytes = undefined;
        // Longer than a string can be: JSON.stringify's own RangeError (found after the
        // first batch, not after writing both).
        expect(() => codec.stringify([long, long]), 'stringify').toThrow(new RangeError('Invalid string length'));
        long = undefined;
        // Output past 2 GiB - 64 KiB (encode's ceiling): out of memory, as a RangeError.
        // (The message speaks of the output: a serializer does not know its final size.)
        const ten = 'y'.repeat(10_000_000);
        expect(() => codec.encode(new Array(215).fill(ten)), 'encode').toThrow(/^wasmjson: the output and its working buffers do not fit/);
        expectWorks(codec);
      }, 120_000);
    }
  });
}
