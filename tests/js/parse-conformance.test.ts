// parse() agrees with JSON.parse on every JSONTestSuite case (parsing and transform) and every corpus file,
// from strings and from bytes, in both flavors.
import { describe, expect, it } from 'vitest';
import { readShared } from '#files';
import { sharedCorpus, sharedNames } from './support/shared.js';
import { codecFor, FLAVORS } from './support/flavors.js';

const fatal = new TextDecoder('utf-8', { fatal: true });

function native(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (e) {
    return { ok: false, message: (e as Error).message };
  }
}

for (const flavor of FLAVORS) {
  describe(`parse conformance (${flavor})`, async () => {
    const codec = await codecFor(flavor);

    it('JSONTestSuite: same values and same errors as JSON.parse', async (ctx) => {
      const names = await sharedNames(ctx, 'conformance/JSONTestSuite-parsing');
      for (const name of names) {
        const bytes = await readShared(`conformance/JSONTestSuite-parsing/${name}`);
        let text: string | undefined;
        try {
          text = fatal.decode(bytes);
        } catch {
          // Not UTF-8: bytes input must be rejected (never silently replaced).
          expect(() => codec.parse(bytes), name).toThrow(SyntaxError);
          continue;
        }
        const expected = native(text.startsWith('\ufeff') ? text.slice(1) : text);
        if (expected.ok) {
          expect(codec.parse(bytes), name).toStrictEqual(expected.value);
        } else {
          expect(() => codec.parse(bytes), name).toThrow(SyntaxError);
        }
        const fromString = native(text);
        if (fromString.ok) expect(codec.parse(text), name).toStrictEqual(fromString.value);
        else expect(() => codec.parse(text), name).toThrow(fromString.message);
      }
    });

    it('JSONTestSuite transform cases (big and tiny numbers, duplicate keys, invalid code points): as JSON.parse', async (ctx) => {
      const names = await sharedNames(ctx, 'conformance/JSONTestSuite-transform');
      const lenient = new TextDecoder();
      for (const name of names) {
        const bytes = await readShared(`conformance/JSONTestSuite-transform/${name}`);
        let text: string | undefined;
        try {
          text = fatal.decode(bytes);
        } catch {
          // Ill-formed UTF-8 is an error in bytes (never replaced); the replaced text parses as natively.
          expect(() => codec.parse(bytes), name).toThrow(SyntaxError);
          text = lenient.decode(bytes);
          expect(codec.parse(text), name).toStrictEqual(JSON.parse(text));
          continue;
        }
        const expected = JSON.parse(text);
        expect(codec.parse(bytes), name).toStrictEqual(expected);
        expect(codec.parse(text), name).toStrictEqual(expected);
      }
    });

    it('corpus files: deep-equal to JSON.parse, from strings and bytes', async (ctx) => {
      const docs = await sharedCorpus(ctx);
      for (const { name, bytes } of docs) {
        const text = new TextDecoder().decode(bytes);
        const expected = JSON.parse(text);
        expect(codec.parse(text), name).toStrictEqual(expected);
        expect(codec.parse(bytes), name).toStrictEqual(expected);
        // Twice: the second parse reads keys from the cache.
        expect(codec.parse(bytes), name).toStrictEqual(expected);
        // Strings decoded one by one (the mode for inputs too large to be one JS string).
        expect(codec.parse(bytes, { stringDecoding: 'each' }), name).toStrictEqual(expected);
      }
    });
  });
}
