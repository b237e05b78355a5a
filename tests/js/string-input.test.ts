// String input as UTF-16 units (InitOptions.stringInput = 'utf16'): the string's own
// units are copied into wasm memory (Node's ucs2Write, or a loop in browsers) and
// transcoded there. Every entry point
// that takes a string must give exactly what the engine's UTF-8 route gives: values,
// errors with their offsets, lines and columns, lone surrogates, outputs.
import { describe, expect, it } from 'vitest';
import { load, type Codec, type Flavor } from 'wasmjson';
import { attempt } from './support/outcome.js';
import { FLAVORS } from './support/flavors.js';
import { jsonDiff, keyOrders, mutate, randomDocument, randomOptions, Rng } from './support/random-json.js';

/** What a call gives, comparable across codecs: the value, or the error's class, message and position. */
function outcome(fn: () => unknown): unknown {
  const r = attempt(fn);
  if (r.ok) return { value: r.value };
  const e = r.error as Error & { offset?: number; line?: number; column?: number };
  return { error: e.constructor.name, message: e.message, offset: e.offset, line: e.line, column: e.column };
}

function expectSameOutcome(utf16: Codec, utf8: Codec, call: (c: Codec) => unknown, label: string): void {
  const a = outcome(() => call(utf16));
  const b = outcome(() => call(utf8));
  expect(jsonDiff(a, b), label).toBe('');
  expect(keyOrders(a), label).toEqual(keyOrders(b));
}

// Text that is not ASCII and large enough for the UTF-16 route under 'auto' as well.
const WIDE = '\u4e16\u754c \u00e9 \u0416 \ud83d\ude00';

for (const flavor of FLAVORS) {
  describe(`string input as UTF-16 (${flavor})`, async () => {
    const utf16 = await load({ flavor: flavor as Flavor, stringInput: 'utf16' });
    const utf8 = await load({ flavor: flavor as Flavor, stringInput: 'utf8' });
    const auto = await load({ flavor: flavor as Flavor });

    it('parses generated documents exactly as JSON.parse, at every size (kernel steps, scratch growth)', () => {
      const rng = new Rng(41);
      for (let i = 0; i < 400; i++) {
        const { text, value } = randomDocument(rng, randomOptions(rng));
        const padded = i % 3 === 0 ? `${' '.repeat(i % 17)}${text}` : text;
        expect(jsonDiff(utf16.parse(padded), value), `document ${i}`).toBe('');
        expect(jsonDiff(auto.parse(padded), value), `document ${i} (auto)`).toBe('');
      }
      // Large documents: the region grows past the scratch buffer, twice over.
      for (const n of [3000, 70000, 300000]) {
        const doc = JSON.stringify(Array.from({ length: n / 10 }, (_, k) => ({ [`k${k % 50}${WIDE}`]: `${WIDE}${k}`, n: k / 3 })));
        expect(jsonDiff(utf16.parse(doc), JSON.parse(doc)), `${n}`).toBe('');
        expect(jsonDiff(auto.parse(doc), JSON.parse(doc)), `${n} (auto)`).toBe('');
      }
    });

    it('errors: same message, offset, line and column as the UTF-8 route', () => {
      const rng = new Rng(42);
      for (let i = 0; i < 600; i++) {
        const { text } = randomDocument(rng, randomOptions(rng));
        const bad = mutate(rng, `${WIDE.repeat(i % 3)}${text}`);
        expectSameOutcome(utf16, utf8, (c) => c.parse(bad), `mutated ${i}: ${bad.slice(0, 60)}`);
      }
      for (const bad of [`["${WIDE}", 1,]`, `{"${WIDE}": tru}`, `[\n"\u00e9",\n"\u4e16\n"]`, `"${WIDE}`, `${WIDE}`, '[1, \ud800]']) {
        expectSameOutcome(utf16, utf8, (c) => c.parse(bad), bad);
      }
    });

    it('lone surrogates survive in strings and keys, as in JSON.parse', () => {
      for (const text of ['"\ud800"', '["a\udc00b", "\ud83d"]', '{"\udbff": "\ud800\ud800x", "k": "\ude00"}', `{"${WIDE}\ud800": ["${WIDE}"]}`]) {
        expect(jsonDiff(utf16.parse(text), JSON.parse(text)), text).toBe('');
      }
      // Real U+FFFD next to lone surrogates: only the lone ones are restored.
      const mixed = `["\ufffd\ud800\ufffd", {"\ufffd": "\udfff"}, "${'x'.repeat(5000)}\ud800"]`;
      expect(jsonDiff(utf16.parse(mixed), JSON.parse(mixed))).toBe('');
      expect(jsonDiff(auto.parse(mixed), JSON.parse(mixed))).toBe('');
    });

    it('every other string entry point agrees with the UTF-8 route', () => {
      const rng = new Rng(43);
      for (let i = 0; i < 120; i++) {
        const { text } = randomDocument(rng, randomOptions(rng));
        const doc = `[${text}, "${WIDE}"]`;
        const input = i % 4 === 3 ? mutate(rng, doc) : doc;
        expectSameOutcome(utf16, utf8, (c) => c.validate(input, { explain: true }), `validate ${i}`);
        expectSameOutcome(utf16, utf8, (c) => c.minify(input), `minify ${i}`);
        expectSameOutcome(utf16, utf8, (c) => c.prettify(input, { indent: '\t' }), `prettify ${i}`);
        expectSameOutcome(utf16, utf8, (c) => c.canonicalize(input), `canonicalize ${i}`);
        expectSameOutcome(utf16, utf8, (c) => c.at(input, '/0'), `at ${i}`);
        expectSameOutcome(utf16, utf8, (c) => {
          const d = c.lazy(input);
          if (d === null || typeof d !== 'object') return d;
          try {
            return d.toJS();
          } finally {
            d.free();
          }
        }, `lazy ${i}`);
      }
    });

    it('a reviver may parse again while the outer document is still in memory', () => {
      const inner = `{"${WIDE}": [${'1,'.repeat(3000)}2]}`;
      const outer = `{"a": "${WIDE}", "b": [${'"x",'.repeat(2000)}"y"], "c": 1}`;
      const seen: unknown[] = [];
      const got = utf16.parse(outer, function (this: unknown, k: string, v: unknown) {
        if (k === 'c') seen.push(utf16.parse(inner));
        return v;
      });
      expect(jsonDiff(got, JSON.parse(outer))).toBe('');
      expect(jsonDiff(seen[0], JSON.parse(inner))).toBe('');
    });

    it('stringInput is checked', async () => {
      await expect(load({ flavor: flavor as Flavor, stringInput: 'utf32' as never })).rejects.toThrow(TypeError);
    });
  });
}

// Outside Node, short ASCII strings are copied into wasm memory by a loop (an encodeInto
// call costs microseconds there); a unit that is not ASCII sends the string the usual
// way. Both must give what JSON gives, around the loop's length limit (512 units) too.
for (const flavor of FLAVORS) {
  describe(`short string input (${flavor})`, async () => {
    const codec = await load({ flavor: flavor as Flavor });

    /** JSON texts of 0..1100 units: ASCII, or with one unit that is not at a place. */
    function texts(): string[] {
      const out: string[] = [];
      for (const n of [0, 1, 2, 3, 7, 64, 255, 508, 509, 510, 511, 512, 513, 514, 1100]) {
        // A string literal of n units: its quotes and n - 2 characters.
        const body = 'ab\\"c d,'.repeat(n).slice(0, Math.max(0, n - 2)).replace(/\\$/, 'x');
        if (n >= 2) out.push(`"${body}"`);
        for (const at of [0, (n - 2) >> 1, n - 3]) {
          if (n < 3 || at < 0) continue;
          for (const wide of ['\u00e9', '\u4e16', '\ud83d\ude00', '\u0080', '\u007f']) {
            out.push(`"${body.slice(0, at)}${wide}${body.slice(at + wide.length)}"`.slice(0, n + 1));
          }
        }
        // Documents (and invalid ones) of about n units.
        if (n >= 8) out.push(`[${'1,'.repeat((n - 2) >> 1)}1]`, `{"k": "${'v'.repeat(n - 10)}"`, `[${'"\u00e9",'.repeat(n >> 2)}0]`);
      }
      return out;
    }

    it('parse, validate, minify, at and lazy give what JSON gives (text and bytes)', () => {
      for (const text of texts()) {
        const native = attempt(() => JSON.parse(text));
        const got = attempt(() => codec.parse(text));
        expect(got.ok, text).toBe(native.ok);
        if (native.ok) {
          expect(jsonDiff(got.ok ? got.value : undefined, native.value), text).toBe('');
          expect(codec.minify(text), text).toBe(JSON.stringify(native.value));
          expect(jsonDiff(codec.at(text, ''), native.value), text).toBe('');
          // Bytes: short text decoded outside Node by String.fromCharCode when ASCII.
          const bytes = new TextEncoder().encode(text);
          expect(jsonDiff(codec.parse(bytes), native.value), text).toBe('');
          expect(jsonDiff(codec.at(bytes, ''), native.value), text).toBe('');
          const member = new TextEncoder().encode(`{"k": ${text}, "${text.length > 2 ? text.slice(1, -1) : 'x'}": 1}`);
          const withKey = attempt(() => JSON.parse(new TextDecoder().decode(member)));
          if (withKey.ok) {
            expect(jsonDiff(codec.at(member, '/k'), native.value), text).toBe('');
            const doc = codec.lazy(member) as { keys(): string[]; free(): void };
            expect(doc.keys(), text).toStrictEqual(Object.keys(withKey.value as object));
            doc.free();
          }
        } else {
          expect((got as { error: Error }).error, text).toBeInstanceOf(SyntaxError);
        }
        expect(codec.validate(text), text).toBe(native.ok);
      }
    });

    it('a reviver may parse short strings, ASCII or not, from within a parse', () => {
      const outer = `[${texts().filter((t) => t.length < 600).map((t) => JSON.stringify(t)).join(',')}]`;
      const got = codec.parse(outer, (_k, v) => {
        if (typeof v !== 'string') return v;
        const r = attempt(() => codec.parse(v));
        return r.ok ? { value: r.value } : { error: (r.error as Error).name };
      });
      const expected = JSON.parse(outer, (_k, v) => {
        if (typeof v !== 'string') return v;
        const r = attempt(() => JSON.parse(v));
        return r.ok ? { value: r.value } : { error: (r.error as Error).name };
      });
      expect(jsonDiff(got, expected)).toBe('');
    });

    it('stringify sends short strings of any text', () => {
      for (const text of texts()) {
        const value = [text, { [text.slice(0, 40)]: text }, text.slice(1, -1)];
        expect(codec.stringify(value), text).toBe(JSON.stringify(value));
        expect(new TextDecoder().decode(codec.encode(value)), text).toBe(JSON.stringify(value));
      }
    });
  });
}

// Outside Node, strings move through WebAssembly JS String Builtins where the engine has
// them (js/src/string-builtins.ts); with stringBuiltins: false through TextEncoder,
// TextDecoder and JS loops, as in engines without them (the routes Chromium no longer
// takes by default). Both must give what JSON gives, and the same outputs.
for (const flavor of FLAVORS) {
  describe(`without the string builtins (${flavor})`, async () => {
    const plain = await load({ flavor: flavor as Flavor, stringBuiltins: false });
    const plainUtf16 = await load({ flavor: flavor as Flavor, stringBuiltins: false, stringInput: 'utf16' });
    const usual = await load({ flavor: flavor as Flavor });
    const encoder = new TextEncoder();
    const decoder = new TextDecoder();

    it('parse, validate, minify, stringify and encode of generated documents, short and long', () => {
      const rng = new Rng(44);
      const texts: string[] = [];
      for (let i = 0; i < 300; i++) {
        const { text } = randomDocument(rng, randomOptions(rng));
        texts.push(i % 4 === 1 ? `[${text}, "${WIDE.repeat(i % 5)}"]` : text);
      }
      for (const n of [40, 600, 3000, 70000, 300000]) {
        texts.push(JSON.stringify(Array.from({ length: Math.max(1, n / 12) }, (_, k) => ({ [`k${k % 7}`]: k % 3 ? `${WIDE}${k}` : `ascii ${k}` }))));
      }
      for (const text of texts) {
        const native = attempt(() => JSON.parse(text));
        for (const c of [plain, plainUtf16]) {
          expectSameOutcome(c, usual, (x) => x.parse(text), `parse ${text.slice(0, 60)}`);
          expect(c.validate(text), text.slice(0, 60)).toBe(native.ok);
          if (!native.ok) continue;
          expect(c.minify(text), text.slice(0, 60)).toBe(usual.minify(text));
          expect(jsonDiff(c.parse(encoder.encode(text)), native.value), text.slice(0, 60)).toBe('');
          expect(c.stringify(native.value), text.slice(0, 60)).toBe(JSON.stringify(native.value));
          expect(decoder.decode(c.encode(native.value)), text.slice(0, 60)).toBe(JSON.stringify(native.value));
        }
      }
    });

    // (Node never uses the builtins: Buffer methods copy there.)
    const inNode = typeof (globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node === 'string';
    if (!inNode) it('the option decides the route: two-byte text meets encodeInto only without the builtins', async () => {
      // (Pinned to UTF-8: without the builtins, 'auto' times the engine's encoder once
      // against a copy, and on a busy machine that can go either way.)
      const plainUtf8 = await load({ flavor: flavor as Flavor, stringBuiltins: false, stringInput: 'utf8' });
      const text = JSON.stringify({ k: WIDE.repeat(200), list: Array.from({ length: 300 }, (_, i) => `${WIDE}${i}`) });
      const original = TextEncoder.prototype.encodeInto;
      let calls = 0;
      TextEncoder.prototype.encodeInto = function (this: TextEncoder, ...args: Parameters<TextEncoder['encodeInto']>) {
        calls++;
        return original.apply(this, args);
      };
      try {
        expect(jsonDiff(plainUtf8.parse(text), JSON.parse(text))).toBe('');
        const withoutBuiltins = calls;
        calls = 0;
        expect(jsonDiff(usual.parse(text), JSON.parse(text))).toBe('');
        expect(withoutBuiltins).toBeGreaterThan(0);
        expect(calls).toBe(0);
      } finally {
        TextEncoder.prototype.encodeInto = original;
      }
    });

    it('stringBuiltins is checked', async () => {
      await expect(load({ flavor: flavor as Flavor, stringBuiltins: 'no' as never })).rejects.toThrow(TypeError);
    });
  });
}
