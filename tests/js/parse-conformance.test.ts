// parse() agrees with JSON.parse on every JSONTestSuite case (parsing and transform) and every corpus file,
// from strings and from bytes, in both flavors.
import { describe, expect, it } from 'vitest';
import { readShared } from '#files';
import { sharedCorpus, sharedNames } from './support/shared.js';
import { codecFor, FLAVORS } from './support/flavors.js';

const fatal = new TextDecoder('utf-8', { fatal: true });
const lenient = new TextDecoder();

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

    /** One JSONTestSuite file: parse(bytes) and parse(text) as JSON.parse, values and errors. */
    const checkSuiteFile = (name: string, bytes: Uint8Array) => {
      let text: string;
      try {
        text = fatal.decode(bytes);
      } catch {
        // Not UTF-8: bytes input must be rejected (never silently replaced); the text a
        // lenient decoder makes of it (U+FFFD for each bad sequence) parses as natively.
        expect(() => codec.parse(bytes), name).toThrow(SyntaxError);
        text = lenient.decode(bytes);
        const replaced = native(text);
        if (replaced.ok) expect(codec.parse(text), name).toStrictEqual(replaced.value);
        else expect(() => codec.parse(text), name).toThrow(replaced.message);
        return;
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
    };

    for (const [folder, what] of [
      ['conformance/JSONTestSuite-parsing', 'JSONTestSuite parsing cases'],
      ['conformance/JSONTestSuite-transform', 'JSONTestSuite transform cases (big and tiny numbers, duplicate keys, invalid code points)'],
    ] as const) {
      it(`${what}: same values and same errors as JSON.parse`, async (ctx) => {
        for (const name of await sharedNames(ctx, folder)) checkSuiteFile(name, await readShared(`${folder}/${name}`));
      });
    }

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
