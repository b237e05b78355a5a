// parse(text, { duplicateKeys, protoAction, constructorAction, maxDepth }): the checking
// options, against the model in support/checked-parse.ts. Without these options parse is
// JSON.parse (the other suites); with them, values and errors must match the model, and
// validate() with the same options must say what parse says.
import { describe, expect, it } from 'vitest';
import { parse, type Codec, type JsonSyntaxError } from 'wasmjson';
import { codecFor, FLAVORS } from './support/flavors.js';
import { watchedCodec } from './support/watched-codec.js';
import { checkedParse as model, compareWithModel, type Outcome, type Policy } from './support/checked-parse.js';
import { jsonDiff, randomDocument, randomOptions, Rng } from './support/random-json.js';

const utf8 = (s: string) => new TextEncoder().encode(s);

const POLICIES: Policy[] = [
  { duplicateKeys: 'error' },
  { protoAction: 'error' },
  { protoAction: 'remove' },
  { constructorAction: 'error' },
  { constructorAction: 'remove' },
  { maxDepth: 3 },
  { maxDepth: 0 },
  { duplicateKeys: 'error', protoAction: 'remove', constructorAction: 'error', maxDepth: 6 },
  { protoAction: 'remove', constructorAction: 'remove' },
];

const CASES = [
  '{"a":1,"b":2,"a":3}',
  '{"a":1,"\\u0061":2}',
  '[{"x":{}},{"y":1,"z":{"q":1,"q":2}},{"q":1}]',
  '{"__proto__":{"polluted":true},"a":1}',
  '{"a":{"b":{"__proto__":[1,2]}},"__proto__":null}',
  '{"\\u005f_proto__":1}',
  '{"constructor":{"prototype":{"polluted":true}},"b":2}',
  '{"constructor":{"prototype":null}}',
  '{"constructor":{"protoype":{}},"constructor2":{"prototype":1},"x":{"constructor":1}}',
  '{"constructor":[1,2]}',
  '[[1,[2]],{"a":[[[]]]}]',
  '[1,[2,[3,[4,[5,[6,[7]]]]]]]',
  '{"é😀":1,"é😀":2}',
  ' { "__proto__" : 1 , "__proto__" : 2 } ',
  // (Once parses have made a constructor for the shape {prototype}, validate must still see its key.)
  '[{"prototype":1},{"prototype":2},{"constructor":{"prototype":3}}]',
  '"just a string"',
  '[]',
  '{}',
  // Nests past maxDepth after values of every kind (parse stops reading at the first
  // non-empty container too deep, and builds what came before it in order): the first
  // failing check in build order, a too-deep empty container included.
  '[{"a":1,"a":2},[[[[[[[1]]]]]]]]',
  '[[[[[[[[1]]]]]]],{"a":1,"a":2}]',
  '[[[]],[[[[]]]],[[[[[[1]]]]]]]',
  '{"constructor":{"prototype":1},"d":[[[[[[[1]]]]]]]}',
  '[1,2.5,"s",true,null,[-1,"t",[{"k":[1e300,[{"q":[[[[[1]]]]]}]]}]]]',
  '{"x":{"__proto__":{"y":[[[[[[{"z":{}}]]]]]]}}}',
];

/**
 * '' when validate(), with the same checks, says what the model says of `text` (or of its
 * UTF-8 when `bytes`): valid, or the same error code at the same offset; else what differs.
 */
function validateAgrees(codec: Codec, text: string, policy: Policy, expected: Outcome, bytes: boolean): string {
  const r = codec.validate(bytes ? utf8(text) : text, { ...policy, explain: true });
  const plain = codec.validate(bytes ? utf8(text) : text, policy);
  if (plain !== r.valid) return `validate said ${plain}, with explain ${r.valid}`;
  if (!('code' in expected)) return r.valid ? '' : `validate: ${r.error.code} at ${r.error.offset}, expected valid`;
  const offset = bytes ? utf8(text.slice(0, expected.offset)).length : expected.offset;
  if (r.valid) return `validate: valid, expected ${expected.code} at ${offset}`;
  return r.error.code === expected.code && r.error.offset === offset ? '' : `validate: ${r.error.code} at ${r.error.offset}, expected ${expected.code} at ${offset}`;
}

/** The SyntaxError `run` throws (undefined when it returns). */
function errorOf(run: () => unknown): JsonSyntaxError | undefined {
  try {
    run();
  } catch (e) {
    if (e instanceof SyntaxError) return e as JsonSyntaxError;
    throw e;
  }
  return undefined;
}

for (const flavor of FLAVORS) {
  describe(`parse checking options (${flavor})`, async () => {
    const codec = await codecFor(flavor);

    it('hand-picked documents match the model, from strings and bytes, with and without a reviver', () => {
      const failures: string[] = [];
      for (const text of CASES) {
        for (const policy of POLICIES) {
          const expected = model(text, policy);
          const id = `${JSON.stringify(policy)} ${text}`;
          const checks: [string, () => unknown, boolean][] = [
            ['string', () => codec.parse(text, policy), false],
            ['bytes', () => codec.parse(utf8(text), policy), true],
            ['bytes, each', () => codec.parse(utf8(text), { ...policy, stringDecoding: 'each' }), true],
            ['reviver', () => codec.parse(text, { ...policy, reviver: (_k: string, v: unknown) => v }), false],
          ];
          for (const [label, run, bytes] of checks) {
            const d = compareWithModel(run, expected, text, bytes);
            if (d) failures.push(`${label} ${id}: ${d}`);
          }
          for (const bytes of [false, true]) {
            const d = validateAgrees(codec, text, policy, expected, bytes);
            if (d) failures.push(`${bytes ? 'bytes' : 'string'} ${id}: ${d}`);
          }
        }
      }
      expect(failures).toEqual([]);
    });

    it('random documents (duplicates, __proto__, constructor, prototype keys, escapes) match the model', () => {
      const rng = new Rng(20261201);
      const failures: string[] = [];
      let violations = 0;
      for (let n = 0; n < 400 && failures.length < 5; n++) {
        const { text } = randomDocument(rng, randomOptions(rng));
        const policy: Policy = {
          duplicateKeys: rng.pick(['last', 'error', undefined]),
          protoAction: rng.pick(['ignore', 'error', 'remove', undefined]),
          constructorAction: rng.pick(['ignore', 'error', 'remove', undefined]),
          maxDepth: rng.pick([undefined, undefined, 1, 2, 4, 8, 20]),
        };
        const expected = model(text, policy);
        if ('code' in expected) violations++;
        for (const [label, run, bytes] of [
          ['string', () => codec.parse(text, policy), false],
          ['bytes', () => codec.parse(utf8(text), policy), true],
        ] as const) {
          const d = compareWithModel(run, expected, text, bytes);
          if (d) failures.push(`#${n} ${label} ${JSON.stringify(policy)}: ${d}`);
          const v = validateAgrees(codec, text, policy, expected, bytes);
          if (v) failures.push(`#${n} ${label} ${JSON.stringify(policy)}: ${v}`);
        }
      }
      expect(failures).toEqual([]);
      // The generator makes such keys often enough for both outcomes to be exercised.
      expect(violations).toBeGreaterThan(40);
      expect(violations).toBeLessThan(360);
    });

    it('the defaults ask for nothing: the same values as no options at all', () => {
      const text = '{"a":1,"a":2,"__proto__":{"x":1},"constructor":{"prototype":{}},"d":[[[[1]]]]}';
      const plain = codec.parse(text);
      for (const options of [{}, { duplicateKeys: 'last', protoAction: 'ignore', constructorAction: 'ignore', maxDepth: Infinity }] as const) {
        expect(jsonDiff(codec.parse(text, options), plain)).toBe('');
      }
      expect(Object.getPrototypeOf(plain)).toBe(Object.prototype);
      expect(Object.hasOwn(plain as object, '__proto__')).toBe(true);
    });

    it('removing keeps objects whose shape is cached apart from those without the key', () => {
      // The same key sequence many times (a cached constructor), then with removal.
      const row = '{"__proto__":1,"a":2,"constructor":{"prototype":3}}';
      const text = `[${Array(20).fill(row).join(',')}]`;
      for (let round = 0; round < 3; round++) {
        expect(codec.parse(text).every((o: object) => Object.keys(o).join() === '__proto__,a,constructor')).toBe(true);
        expect(codec.parse(text, { protoAction: 'remove', constructorAction: 'remove' })).toEqual(Array(20).fill({ a: 2 }));
        expect(codec.parse(text, { protoAction: 'remove' }).every((o: object) => Object.keys(o).join() === 'a,constructor')).toBe(true);
      }
    });

    it('shapes seen before (with constructors) are still checked, and clean ones pass', () => {
      const dup = `[${Array(20).fill('{"a":1,"b":2,"a":3}').join(',')}]`;
      const clean = `[${Array(20).fill('{"a":1,"b":2}').join(',')}]`;
      for (let round = 0; round < 3; round++) {
        expect(codec.parse(dup)).toEqual(Array(20).fill({ a: 3, b: 2 }));
        expect(() => codec.parse(dup, { duplicateKeys: 'error' })).toThrow(expect.objectContaining({ code: 'DUPLICATE_KEY', offset: 14 }));
        expect(codec.parse(clean, { duplicateKeys: 'error', protoAction: 'error', constructorAction: 'error' })).toEqual(Array(20).fill({ a: 1, b: 2 }));
      }
      // Objects of a shape that has a constructor key are checked every time: the last one alone fails.
      const late = `[${Array(19).fill('{"constructor":{"x":2}}').join(',')},{"constructor":{"prototype":2}}]`;
      expect(codec.parse(late.replace('"prototype"', '"y"'), { constructorAction: 'error' })).toHaveLength(20);
      expect(() => codec.parse(late, { constructorAction: 'error' })).toThrow(
        expect.objectContaining({ code: 'FORBIDDEN_CONSTRUCTOR', offset: late.lastIndexOf('{"constructor"') + 1 }),
      );
    });

    it('a reviver runs on the checked value: removed keys never reach it', () => {
      const keys: string[] = [];
      codec.parse('{"__proto__":{"x":1},"a":{"constructor":{"prototype":1}},"b":2}', {
        protoAction: 'remove',
        constructorAction: 'remove',
        reviver(k: string, v: unknown) {
          keys.push(k);
          return v;
        },
      });
      expect(keys).toEqual(['a', 'b', '']);
    });

    it('maxDepth counts arrays of numbers too, and reaches any depth without recursion', () => {
      expect(() => codec.parse('[[1,2]]', { maxDepth: 1 })).toThrow(/nested deeper than 1 levels.*position 1/);
      expect(() => codec.parse('[[]]', { maxDepth: 1 })).toThrow(SyntaxError);
      expect(codec.parse('[[]]', { maxDepth: 2 })).toEqual([[]]);
      const depth = 1_000_000;
      const deep = '['.repeat(depth) + ']'.repeat(depth);
      expect(() => codec.parse(deep, { maxDepth: 1000 })).toThrow(expect.objectContaining({ code: 'TOO_DEEP', offset: 1000 }));
      let v = codec.parse(deep, { maxDepth: depth }) as unknown[];
      let n = 1;
      while (v.length) {
        v = v[0] as unknown[];
        n++;
      }
      expect(n).toBe(depth);
    });

    it('a syntax error anywhere comes before a nest too deep, as it would without the limit', () => {
      // (parse stops reading at the first non-empty container deeper than maxDepth, then
      // validates the whole text: its error is the parse's.)
      const texts = ['[[[[1]]]] x', '[[[[1]]],]', '[[[["\u0001"]]]]', '[[[[1]]]', '[[[[1]]], tru]', '{"a":[[[[1]]]],"b":-}', '[[[[1]]],"\\x"]'];
      for (const text of texts) {
        for (const input of [text, utf8(text)]) {
          const plain = errorOf(() => codec.parse(input));
          expect(plain?.code, text).toBeDefined();
          for (const policy of [{ maxDepth: 2 }, { maxDepth: 0 }, { maxDepth: 2, duplicateKeys: 'error', protoAction: 'error' } as const]) {
            const got = errorOf(() => codec.parse(input, policy));
            expect([got?.code, got?.offset], `${text} ${JSON.stringify(policy)}`).toEqual([plain!.code, plain!.offset]);
            const v = codec.validate(input, { ...policy, explain: true });
            expect(v.valid ? undefined : [v.error.code, v.error.offset]).toEqual([plain!.code, plain!.offset]);
          }
        }
      }
      // Invalid UTF-8 past the nest, in bytes.
      const bytes = utf8('[[[[1]]],"é"]');
      bytes[bytes.length - 3] = 0xff;
      expect(errorOf(() => codec.parse(bytes, { maxDepth: 2 }))?.code).toBe(errorOf(() => codec.parse(bytes))?.code);
    });

    it('a nest far deeper than maxDepth is refused where it passes the limit, not read whole', async () => {
      // 10 million levels (20 MB): read whole, their tape and stacks take over 250 MB of
      // wasm memory (100 million filled it, and parse threw its RangeError instead of the
      // nesting error). A codec of its own, whose memory is watched: it holds the input,
      // and a byte a level for the validation of the rest, no more.
      const watched = await watchedCodec(flavor);
      const levels = 10_000_000;
      const nest = new Uint8Array(2 * levels).fill(0x5b); // [
      nest.fill(0x5d, levels); // ]
      for (const maxDepth of [64, 1000]) {
        expect(() => watched.codec.parse(nest, { maxDepth })).toThrow(expect.objectContaining({ code: 'TOO_DEEP', offset: maxDepth }));
      }
      expect(watched.memory.buffer.byteLength).toBeLessThan(80 * 2 ** 20);
      // Checks the build meets before it still come first; a syntax error anywhere before all.
      const head = utf8('[{"a":1,"a":2},');
      const withDuplicate = new Uint8Array(head.length + nest.length + 1);
      withDuplicate.set(head);
      withDuplicate.set(nest, head.length);
      withDuplicate[withDuplicate.length - 1] = 0x5d;
      expect(() => watched.codec.parse(withDuplicate, { maxDepth: 64, duplicateKeys: 'error' })).toThrow(expect.objectContaining({ code: 'DUPLICATE_KEY', offset: 8 }));
      withDuplicate[withDuplicate.length - 1] = 0x78; // x
      expect(() => watched.codec.parse(withDuplicate, { maxDepth: 64, duplicateKeys: 'error' })).toThrow(
        expect.objectContaining({ code: 'EXPECTED_COMMA_OR_BRACKET', offset: withDuplicate.length - 1 }),
      );
      expect(watched.memory.buffer.byteLength).toBeLessThan(80 * 2 ** 20);
      expect(watched.codec.parse('[[1],{"a":[2]}]', { maxDepth: 64 })).toEqual([[1], { a: [2] }]);
    });

    it('errors name the place: line, column, excerpt, message in V8 style', () => {
      try {
        codec.parse('{\n  "id": 1,\n  "id": 2\n}', { duplicateKeys: 'error' });
        expect.unreachable();
      } catch (e) {
        const err = e as JsonSyntaxError;
        expect(err).toBeInstanceOf(SyntaxError);
        expect(err.code).toBe('DUPLICATE_KEY');
        expect([err.offset, err.line, err.column]).toEqual([15, 3, 3]);
        expect(err.message).toMatch(/^Duplicate key "id" in JSON at position 15/);
        expect(err.excerpt).toContain('"id": 2');
      }
      expect(() => codec.parse('{"__proto__":1}', { protoAction: 'error' })).toThrow(/^Forbidden "__proto__" key in JSON at position 1/);
    });

    it('refuses options it does not know the value of', () => {
      expect(() => codec.parse('1', { duplicateKeys: 'first' as never })).toThrow(TypeError);
      expect(() => codec.parse('1', { protoAction: 'delete' as never })).toThrow(TypeError);
      expect(() => codec.parse('1', { constructorAction: true as never })).toThrow(TypeError);
      // (Refused for string input too, where it does not apply.)
      for (const input of ['1', utf8('1')]) {
        expect(() => codec.parse(input, { stringDecoding: 'bogus' as never })).toThrow(/^wasmjson\.parse: options\.stringDecoding must be 'document' or 'each'/);
        expect(codec.parse(input, { stringDecoding: 'document' })).toBe(1);
      }
      for (const bad of [-1, 1.5, NaN]) {
        expect(() => codec.parse('1', { maxDepth: bad as never })).toThrow(RangeError);
      }
      for (const bad of ['3', null]) {
        expect(() => codec.parse('1', { maxDepth: bad as never })).toThrow(TypeError);
        expect(() => codec.parse('1', { maxDepth: bad as never })).toThrow(/^wasmjson\.parse: options\.maxDepth must be a number, got/);
      }
      // validate takes the same options, and names itself when it refuses one.
      expect(() => codec.validate('1', { duplicateKeys: 'first' as never })).toThrow(/^wasmjson\.validate: options\.duplicateKeys/);
      expect(() => codec.validate('1', { protoAction: 'delete' as never })).toThrow(/^wasmjson\.validate: options\.protoAction/);
      expect(() => codec.validate('1', { maxDepth: -1 })).toThrow(/^wasmjson\.validate: options\.maxDepth/);
      expect(() => codec.parse('1', { maxDepth: -1 })).toThrow(/^wasmjson\.parse: options\.maxDepth/);
    });

    it('a failed check leaves the codec clean for the next parse', () => {
      const text = '{"k1":1,"k2":2,"k1":3}';
      expect(() => codec.parse(text, { duplicateKeys: 'error' })).toThrow(SyntaxError);
      expect(codec.parse(text)).toEqual({ k1: 3, k2: 2 });
      expect(codec.parse('{"k2":5,"k1":6}')).toEqual({ k2: 5, k1: 6 });
    });
  });
}

describe('parse checking options through the top-level export', () => {
  it('works on the default codec too', () => {
    expect(() => parse('{"a":1,"a":2}', { duplicateKeys: 'error' })).toThrow(SyntaxError);
    expect(parse('{"__proto__":1,"b":2}', { protoAction: 'remove' })).toEqual({ b: 2 });
  });
});

// Prototype pollution must not become an option: a `reviver` or `replacer` put on
// Object.prototype would see every value, and checks could be switched on or off.
describe('options are read from their own properties only', () => {
  const POLLUTION: Record<string, unknown> = {
    reviver: () => 'from the prototype',
    bigint: 'always',
    duplicateKeys: 'error',
    protoAction: 'error',
    constructorAction: 'error',
    maxDepth: 0,
    stringDecoding: 'each',
    explain: true,
    replacer: () => 'from the prototype',
    space: 4,
    indent: 8,
  };
  function polluted<T>(body: () => T): T {
    const proto = Object.prototype as Record<string, unknown>;
    for (const [k, v] of Object.entries(POLLUTION)) Object.defineProperty(proto, k, { value: v, configurable: true, writable: true });
    try {
      return body();
    } finally {
      for (const k of Object.keys(POLLUTION)) delete proto[k];
    }
  }
  const text = '{"a":[1,{"b":2}],"a":3,"__proto__":{"x":1},"constructor":{"prototype":{}}}';

  for (const flavor of FLAVORS) {
    it(`parse, validate, encode, prettify and load ignore a polluted Object.prototype (${flavor})`, async () => {
      const c = await codecFor(flavor);
      const run = () => ({
        parse: c.parse(text, {}),
        parseBytes: c.parse(utf8(text), {}),
        validate: c.validate('[[1]]', {}),
        invalid: c.validate('[1,]', {}),
        encode: new TextDecoder().decode(c.encode({ a: [1, 2n < 3n] }, {})),
        prettify: c.prettify('[1,{"b":2}]', {}),
      });
      const clean = run();
      const seen = polluted(run);
      // (As JSON text: an own `constructor` property defeats toStrictEqual's type check.)
      expect(JSON.stringify(seen)).toBe(JSON.stringify(clean));
      expect(JSON.stringify(seen.parse)).toBe(JSON.stringify(JSON.parse(text)));
      expect(Object.getPrototypeOf(seen.parse)).toBe(Object.prototype);
      expect(Object.keys(seen.parse)).toStrictEqual(['a', '__proto__', 'constructor']);
      expect(seen.validate).toBe(true);
      expect(seen.invalid).toBe(false);
      expect(seen.prettify).toBe('[\n  1,\n  {\n    "b": 2\n  }\n]');
      // The same options given as own properties do apply.
      expect(() => c.parse(text, { duplicateKeys: 'error' })).toThrow(SyntaxError);
      expect(c.parse('[1]', { reviver: (_k: string, v: unknown) => (Array.isArray(v) ? v : v === 1 ? 'own' : v) })).toStrictEqual(['own']);
      expect(c.prettify('[1]', { indent: 1 })).toBe('[\n 1\n]');
      // An options object's own prototype is no source of options either.
      expect(c.parse('[[[1]]]', Object.create({ maxDepth: 1 }))).toStrictEqual([[[1]]]);
    });
  }

  it('the top-level functions and load() do too', async () => {
    const wj = await import('wasmjson');
    const seen = polluted(() => ({
      parse: wj.parse('{"a":1,"a":2}', {}),
      encode: new TextDecoder().decode(wj.encode([1, 'x'], {})),
      stringify: wj.stringify({ a: 1 }),
    }));
    expect(seen).toStrictEqual({ parse: { a: 2 }, encode: '[1,"x"]', stringify: '{"a":1}' });
    // load() reads its options the same way: a polluted `flavor` names no flavor.
    const loaded = await polluted(() => {
      (Object.prototype as Record<string, unknown>).flavor = 'not-a-flavor';
      try {
        return wj.load({});
      } finally {
        delete (Object.prototype as Record<string, unknown>).flavor;
      }
    });
    expect(loaded.parse('[1]')).toStrictEqual([1]);
    // null is no options, as for the other functions.
    expect((await wj.load(null)).parse('[2]')).toStrictEqual([2]);
    if (typeof process !== 'undefined') expect(wj.loadSync(null).parse('[3]')).toStrictEqual([3]); // (Node only)
  });
});
