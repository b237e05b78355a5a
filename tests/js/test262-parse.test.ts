// test262's built-ins/JSON/parse, restated. The issue asks that parse, substituted for
// JSON.parse, pass those tests as the engine's own JSON.parse does; test262 cannot be
// fetched offline (it is not on npm), so each `it` below restates the check of one
// test262 file, named in the test's title, in this repository's own code: the same
// scenario and the same expected outcome, asserted explicitly, and the same scenario run
// on the engine's JSON.parse, whose outcome ours must equal.
//
// Behaviour is checked on the top-level export and on each kernel flavor's codec; the
// shape of the function (name, length, not a constructor) on the top-level export only.
// test262 compares thrown errors by constructor (`thrown.constructor === SyntaxError`),
// and so does outcome() here.
//
// Not restated: 15.12.2-0-3.js and prop-desc.js check the attributes of the "parse"
// property of the realm's JSON object, which wasmjson does not define (its parse is a
// module export); the JSON.rawJSON / JSON.stringify assertions in
// test-CreateJSONParseRecord.js are about those functions, not parse.
import { describe, expect, it } from 'vitest';
import { parse as exportedParse } from 'wasmjson';
import { codecFor, FLAVORS } from './support/flavors.js';
import { attempt } from './support/outcome.js';

type ParseFn = (text: unknown, reviver?: unknown) => any;
type Context = { source?: string };

const nativeParse = JSON.parse as ParseFn;

/** test262's own error class plays this part: an error only the scenario can throw. */
class ScenarioError extends Error {}

/** A call's outcome as test262 judges it: the value, or the thrown value's constructor. */
type Outcome = { returned: unknown } | { threw: unknown };
function outcome(fn: () => unknown): Outcome {
  const r = attempt(fn);
  if (r.ok) return { returned: r.value };
  const e = r.error;
  return { threw: typeof e === 'object' && e !== null ? e.constructor : e };
}

/**
 * Whether the engine's JSON.parse implements JSON.parse source text access (a reviver's
 * third argument, { source }). Node 26 and Chromium 156 do; where an engine does not,
 * the scenarios that need it check ours against the expected outcome only.
 */
const NATIVE_HAS_SOURCE = (() => {
  let context: unknown;
  nativeParse('1.0', (_key: string, value: unknown, ...rest: unknown[]) => ((context = rest[0]), value));
  return typeof context === 'object' && context !== null && (context as Context).source === '1.0';
})();

/**
 * Runs one scenario on `parse` and on the engine's JSON.parse: ours must give the expected
 * outcome, and the same outcome as native. With `native: false` (a feature the engine
 * lacks, detected at run time), only the expected outcome is checked.
 */
function expectOutcome<T>(parse: ParseFn, scenario: (p: ParseFn) => T, expected: T, native = true): void {
  const ours = scenario(parse);
  expect(ours, 'the outcome test262 expects').toStrictEqual(expected);
  if (native) expect(ours, 'the outcome of the engine JSON.parse').toStrictEqual(scenario(nativeParse));
}

const rejected = { threw: SyntaxError };
const tryParse = (text: string) => (p: ParseFn) => outcome(() => p(text));

/** '"' + c + '"': a JSON string holding one raw character. */
const quoted = (c: string) => `"${c}"`;
const charRange = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => String.fromCharCode(from + i));
const CONTROL_CHARS = charRange(0x00, 0x1f);

/** What a reviver can observe of its context argument. */
function describeContext(context: unknown) {
  if (typeof context !== 'object' || context === null) return { notAnObject: context };
  return {
    plain: Object.getPrototypeOf(context) === Object.prototype,
    names: Object.getOwnPropertyNames(context),
    symbols: Object.getOwnPropertySymbols(context).length,
    source: Object.getOwnPropertyDescriptor(context, 'source'),
  };
}
/** The context of a primitive: one own data property, source, with its text. */
const sourceContext = (source: string) => ({
  plain: true,
  names: ['source'],
  symbols: 0,
  source: { value: source, writable: true, enumerable: true, configurable: true },
});
/** The context of an array or object (or of a value changed since parsing): empty. */
const EMPTY = { plain: true, names: [], symbols: 0, source: undefined };
/** Expected contexts: a string is a primitive's source text, undefined an empty context. */
const contextsFor = (sources: (string | undefined)[]) => sources.map((s) => (s === undefined ? EMPTY : sourceContext(s)));

/** Parses with a reviver that records every context it is given and changes nothing. */
function parseWithContexts(p: ParseFn, text: string) {
  const contexts: unknown[] = [];
  const result = p(text, (_key: string, value: unknown, context: unknown) => {
    contexts.push(describeContext(context));
    return value;
  });
  const names = typeof result === 'object' && result !== null ? Object.getOwnPropertyNames(result) : undefined;
  return { result, json: JSON.stringify(result), names, contexts };
}
function expectedContexts(result: unknown, sources: (string | undefined)[]) {
  const names = typeof result === 'object' && result !== null ? Object.getOwnPropertyNames(result) : undefined;
  return { result, json: JSON.stringify(result), names, contexts: contextsFor(sources) };
}

// ---------------------------------------------------------------------------------
// The function itself (top-level export)
// ---------------------------------------------------------------------------------
describe('test262 built-ins/JSON/parse: the exported function', () => {
  const parse = exportedParse as ParseFn;
  const descriptorOf = (f: unknown, key: string) => Object.getOwnPropertyDescriptor(f, key);
  /** Whether f has [[Construct]], asked without calling f. */
  function isConstructor(f: unknown): boolean {
    try {
      Reflect.construct(function () {}, [], f as () => void);
      return true;
    } catch {
      return false;
    }
  }

  it('15.12.2-0-1.js: parse is a function', () => {
    expect(typeof parse).toBe('function');
    expect(typeof parse).toBe(typeof JSON.parse);
  });

  it('15.12.2-0-2.js: parse is a function taking 2 parameters', () => {
    expect([typeof parse, parse.length]).toEqual(['function', 2]);
    expect([typeof parse, parse.length]).toEqual([typeof JSON.parse, JSON.parse.length]);
  });

  it('length.js: length is 2, read-only, not enumerable, configurable', () => {
    const expected = { value: 2, writable: false, enumerable: false, configurable: true };
    expect(descriptorOf(parse, 'length')).toStrictEqual(expected);
    expect(descriptorOf(parse, 'length')).toStrictEqual(descriptorOf(JSON.parse, 'length'));
  });

  it('name.js: name is "parse", read-only, not enumerable, configurable', () => {
    const expected = { value: 'parse', writable: false, enumerable: false, configurable: true };
    expect(descriptorOf(parse, 'name')).toStrictEqual(expected);
    expect(descriptorOf(parse, 'name')).toStrictEqual(descriptorOf(JSON.parse, 'name'));
  });

  it('not-a-constructor.js: parse has no [[Construct]]; new parse(...) throws a TypeError', () => {
    expect(isConstructor(parse)).toBe(false);
    expect(isConstructor(parse)).toBe(isConstructor(JSON.parse));
    const viaNew = (p: ParseFn) => outcome(() => new (p as any)('{}'));
    expect(viaNew(parse)).toStrictEqual({ threw: TypeError });
    expect(viaNew(parse)).toStrictEqual(viaNew(nativeParse));
  });
});

// ---------------------------------------------------------------------------------
// Behaviour: the top-level export and each flavor's codec
// ---------------------------------------------------------------------------------
const SUBJECTS: [string, () => Promise<ParseFn>][] = [
  ['top-level export', async () => exportedParse as ParseFn],
  ...FLAVORS.map((flavor): [string, () => Promise<ParseFn>] => [
    `codec ${flavor}`,
    async () => {
      const codec = await codecFor(flavor);
      return (text, reviver) => codec.parse(text, reviver as never);
    },
  ]),
];

for (const [label, load] of SUBJECTS) {
  describe(`test262 built-ins/JSON/parse (${label})`, async () => {
    const parse = await load();

    // --- JSON whitespace: only TAB, LF, CR and SPACE -----------------------------------
    it('15.12.1.1-0-1.js: whitespace separates tokens, so 12<TAB><CR><LF><SP>34 is a SyntaxError', () => {
      expectOutcome(parse, tryParse('12\t\r\n 34'), rejected);
    });

    const NOT_WHITESPACE: [string, string, string][] = [
      ['15.12.1.1-0-2.js', '<VT> (U+000B)', '\u000b'],
      ['15.12.1.1-0-3.js', '<FF> (U+000C)', '\u000c'],
      ['15.12.1.1-0-4.js', '<NBSP> (U+00A0)', '\u00a0'],
      ['15.12.1.1-0-5.js', '<ZWSP> (U+200B)', '\u200b'],
      ['15.12.1.1-0-6.js', '<BOM> (U+FEFF)', '\ufeff'],
      ['15.12.1.1-0-8.js', 'U+2028 and U+2029', '\u2028\u2029'],
    ];
    for (const [file, what, chars] of NOT_WHITESPACE) {
      it(`${file}: ${what} before a number: a SyntaxError (not JSON whitespace)`, () => {
        expectOutcome(parse, tryParse(chars + '1234'), rejected);
      });
    }

    // The other Unicode space separators (category Zs).
    const ZS = ['\u1680', ...charRange(0x2000, 0x200a), '\u202f', '\u205f', '\u3000'];

    it('15.12.1.1-0-7.js: the other category Zs spaces, all in a row before a number, are a SyntaxError', () => {
      expect(ZS).toHaveLength(15);
      expectOutcome(parse, tryParse(ZS.join('') + '1234'), rejected);
    });

    it('invalid-whitespace.js: each other category Zs space before a number is a SyntaxError', () => {
      expectOutcome(
        parse,
        (p) => ZS.map((c) => outcome(() => p(c + '1'))),
        ZS.map(() => rejected),
      );
    });

    it('15.12.1.1-0-9.js: TAB, CR, SPACE and LF may surround every token', () => {
      const ws = '\t\r \n';
      const tokens = ['{', '"property"', ':', '{', '}', ',', '"prop2"', ':', '[', 'true', ',', 'null', ',', '123.456', ']', '}'];
      const text = ws + tokens.join(ws) + ws;
      expectOutcome(parse, tryParse(text), { returned: { property: {}, prop2: [true, null, 123.456] } });
    });

    const WHITESPACE: [string, string, string][] = [
      ['15.12.1.1-g1-1.js', '<TAB>', '\t'],
      ['15.12.1.1-g1-2.js', '<CR>', '\r'],
      ['15.12.1.1-g1-3.js', '<LF>', '\n'],
      ['15.12.1.1-g1-4.js', '<SP>', ' '],
    ];
    for (const [file, what, c] of WHITESPACE) {
      it(`${file}: ${what} is whitespace: ignored before a token, a separator inside a number`, () => {
        expectOutcome(
          parse,
          (p) => [outcome(() => p(c + '1234')), outcome(() => p('12' + c + '34'))],
          [{ returned: 1234 }, rejected],
        );
      });
    }

    // --- Strings --------------------------------------------------------------------------
    const STRINGS: [string, string, string, Outcome][] = [
      ['15.12.1.1-g2-1.js', 'a string in double quotes', '"abc"', { returned: 'abc' }],
      ['15.12.1.1-g2-2.js', 'single quotes do not delimit a string', "'abc'", rejected],
      ['15.12.1.1-g2-3.js', 'escaped quotes (\\u0022) do not delimit a string', '\\u0022abc\\u0022', rejected],
      ['15.12.1.1-g2-4.js', 'a string must end with a double quote', '"abc\'', rejected],
      ['15.12.1.1-g2-5.js', 'the empty string', '""', { returned: '' }],
      ['15.12.1.1-g5-1.js', 'a \\u escape', '"\\u0058"', { returned: 'X' }],
      ['15.12.1.1-g5-2.js', 'a \\u escape with 3 hex digits', '"\\u005"', rejected],
      ['15.12.1.1-g5-3.js', 'a \\u escape with a non-hex digit', '"\\u0X50"', rejected],
      ['15.12.1.1-g6-1.js', 'the escape \\/', '"\\/"', { returned: '/' }],
      ['15.12.1.1-g6-2.js', 'the escape \\\\', '"\\\\"', { returned: '\\' }],
      ['15.12.1.1-g6-3.js', 'the escape \\b', '"\\b"', { returned: '\b' }],
      ['15.12.1.1-g6-4.js', 'the escape \\f', '"\\f"', { returned: '\f' }],
      ['15.12.1.1-g6-5.js', 'the escape \\n', '"\\n"', { returned: '\n' }],
      ['15.12.1.1-g6-6.js', 'the escape \\r', '"\\r"', { returned: '\r' }],
      ['15.12.1.1-g6-7.js', 'the escape \\t', '"\\t"', { returned: '\t' }],
    ];
    for (const [file, what, text, expected] of STRINGS) {
      it(`${file}: ${what}: ${text} -> ${'returned' in expected ? JSON.stringify(expected.returned) : 'SyntaxError'}`, () => {
        expectOutcome(parse, tryParse(text), expected);
      });
    }

    const RAW_CONTROLS: [string, number, number][] = [
      ['15.12.1.1-g4-1.js', 0x00, 0x07],
      ['15.12.1.1-g4-2.js', 0x08, 0x0f],
      ['15.12.1.1-g4-3.js', 0x10, 0x17],
      ['15.12.1.1-g4-4.js', 0x18, 0x1f],
    ];
    for (const [file, from, to] of RAW_CONTROLS) {
      const hex = (n: number) => 'U+' + n.toString(16).toUpperCase().padStart(4, '0');
      it(`${file}: raw ${hex(from)}..${hex(to)} in a string are a SyntaxError (together, and each alone)`, () => {
        const chars = charRange(from, to);
        expectOutcome(
          parse,
          (p) => [outcome(() => p(quoted(chars.join('')))), ...chars.map((c) => outcome(() => p(quoted(c))))],
          [rejected, ...chars.map(() => rejected)],
        );
      });
    }

    // One raw control character U+0000..U+001F, as a one-character JSON string (or inside
    // bare words), in the position each file names: every such document is a SyntaxError.
    const IN_MEMBERS: [string, string, (c: string) => string][] = [
      ['15.12.2-2-1.js', 'is the property name', (c) => `{ ${quoted(c)} : "text" } `],
      ['15.12.2-2-2.js', 'starts the property name', (c) => `{ ${quoted(c)}key : "text" } `],
      ['15.12.2-2-3.js', 'ends the property name', (c) => `{key${quoted(c)} : "text" } `],
      ['15.12.2-2-4.js', 'starts and ends the property name', (c) => `{${quoted(c)}key${quoted(c)} : "text" } `],
      ['15.12.2-2-5.js', 'is in the middle of the property name', (c) => `{ k${quoted(c)}ey : "text" } `],
      ['15.12.2-2-6.js', 'is the property value', (c) => `{ "key" : ${quoted(c)} } `],
      ['15.12.2-2-7.js', 'starts the property value', (c) => `{ "key" : ${quoted(c)}text } `],
      ['15.12.2-2-8.js', 'ends the property value', (c) => `{ "key" : text${quoted(c)} } `],
      ['15.12.2-2-9.js', 'starts and ends the property value', (c) => `{ "key" : ${quoted(c)}text${quoted(c)} } `],
      ['15.12.2-2-10.js', 'is in the middle of the property value', (c) => `{ "key" : te${quoted(c)}xt } `],
    ];
    for (const [file, where, build] of IN_MEMBERS) {
      it(`${file}: a raw control character that ${where} is a SyntaxError, for each of U+0000..U+001F`, () => {
        expectOutcome(
          parse,
          (p) => CONTROL_CHARS.map((c) => outcome(() => p(build(c)))),
          CONTROL_CHARS.map(() => rejected),
        );
      });
    }

    // --- The reviver walk (InternalizeJSONProperty) ------------------------------------------
    it('reviver-call-order.js: the reviver sees keys bottom-up, integer keys first, a duplicate key once, the root ("") last', () => {
      expectOutcome(
        parse,
        (p) => {
          const keys: string[] = [];
          p('{"p1":0,"p2":0,"p1":0,"2":0,"1":0}', (key: string, value: unknown) => (keys.push(key), value));
          return keys;
        },
        ['1', '2', 'p1', 'p2', ''],
      );
    });

    it('reviver-call-err.js: an error thrown by the reviver propagates', () => {
      expectOutcome(
        parse,
        (p) => {
          const keys: string[] = [];
          const result = outcome(() =>
            p('0', (key: string) => {
              keys.push(key);
              throw new ScenarioError();
            }),
          );
          return { result, keys };
        },
        { result: { threw: ScenarioError }, keys: [''] },
      );
    });

    it('revived-proxy-revoked.js: a revoked Proxy placed in the document makes IsArray throw a TypeError', () => {
      expectOutcome(
        parse,
        (p) => {
          const { proxy, revoke } = Proxy.revocable([], {});
          revoke();
          const counts = { calls: 0, returns: 0 };
          const result = outcome(() =>
            p('[null, null]', function (this: unknown[]) {
              counts.calls += 1;
              this[1] = proxy;
              counts.returns += 1;
            }),
          );
          return { result, counts };
        },
        { result: { threw: TypeError }, counts: { calls: 1, returns: 1 } },
      );
    });

    /**
     * '[<first>, <second>]' with a reviver that, on the first element, puts `replacement` in
     * place of the second, then returns `revived(value)`. Records the keys it saw.
     */
    function replaceSecond(
      p: ParseFn,
      text: string,
      replacement: () => object,
      returns: (value: unknown) => unknown,
    ): { result: Outcome; keys: string[] } {
      const keys: string[] = [];
      let replaced = false;
      const result = outcome(() =>
        p(text, function (this: unknown[], key: string, value: unknown) {
          keys.push(key);
          if (!replaced) {
            replaced = true;
            this[1] = replacement();
          }
          return returns(value);
        }),
      );
      return { result, keys };
    }
    const keepValue = (value: unknown) => value;
    const dropValue = () => undefined;
    const throwing = () => {
      throw new ScenarioError();
    };

    it('reviver-get-name-err.js: an error from reading holder[key] (a throwing getter) propagates', () => {
      expectOutcome(
        parse,
        (p) => {
          const keys: string[] = [];
          const result = outcome(() =>
            p('[0,0]', function (this: unknown[], key: string) {
              keys.push(key);
              Object.defineProperty(this, '1', { get: throwing });
            }),
          );
          return { result, keys };
        },
        { result: { threw: ScenarioError }, keys: ['0'] },
      );
    });

    const ABRUPT: [string, string, string, () => object, (value: unknown) => unknown, string[]][] = [
      [
        'reviver-array-define-prop-err.js',
        'storing a revived array element (a Proxy whose defineProperty throws)',
        '["first", null]',
        () => new Proxy([null], { defineProperty: throwing }),
        keepValue,
        ['0', '0'],
      ],
      [
        'reviver-array-delete-err.js',
        'deleting an array element the reviver dropped (a Proxy whose deleteProperty throws)',
        '[0,0]',
        () => new Proxy([0], { deleteProperty: throwing }),
        dropValue,
        ['0', '0'],
      ],
      [
        'reviver-array-length-get-err.js',
        'reading an array\'s "length" (a Proxy whose get throws for it)',
        '[0,0]',
        () => new Proxy([], { get: (_t, name) => (name === 'length' ? throwing() : undefined) }),
        dropValue,
        ['0'],
      ],
      [
        'reviver-array-length-coerce-err.js',
        'converting an array\'s "length" to a number (valueOf throws)',
        '[0,0]',
        () => new Proxy([], { get: (_t, name) => (name === 'length' ? { valueOf: throwing } : undefined) }),
        dropValue,
        ['0'],
      ],
      [
        'reviver-object-define-prop-err.js',
        'storing a revived object property (a Proxy whose defineProperty throws)',
        '["first", null]',
        () => new Proxy({ 0: null }, { defineProperty: throwing }),
        keepValue,
        ['0', '0'],
      ],
      [
        'reviver-object-delete-err.js',
        'deleting an object property the reviver dropped (a Proxy whose deleteProperty throws)',
        '[0,0]',
        () => new Proxy({ a: 1 }, { deleteProperty: throwing }),
        dropValue,
        ['0', 'a'],
      ],
      [
        'reviver-object-own-keys-err.js',
        'listing an object\'s keys (a Proxy whose ownKeys throws)',
        '[0,0]',
        () => new Proxy({}, { ownKeys: throwing }),
        dropValue,
        ['0'],
      ],
    ];
    for (const [file, step, text, replacement, returns, keys] of ABRUPT) {
      it(`${file}: an error from ${step} propagates`, () => {
        expectOutcome(parse, (p) => replaceSecond(p, text, replacement, returns), {
          result: { threw: ScenarioError },
          keys,
        });
      });
    }

    // --- JSON.parse source text access: the reviver's context argument -------------------
    // Where the engine's JSON.parse gives no context (NATIVE_HAS_SOURCE false), these check
    // ours against the expected outcome only; Node 26 and Chromium 156 both give it.
    it('reviver-context-source.js: context is a plain object; primitives get an own data property "source" with their exact text', () => {
      const PRIMITIVES: [string, unknown][] = [
        ['null', null], ['false', false], ['true', true],
        ['""', ''], ['"foo"', 'foo'], ['"\\u00bD"', '\u00bd'],
        ['1', 1], ['-1', -1], ['-1.2', -1.2], ['-0', -0],
        ['1e0', 1], ['1E1', 10], ['1.23e+1', 12.3], ['1.23E-1', 0.123],
      ];
      for (const [text, value] of PRIMITIVES) {
        // Whitespace around a primitive is not part of its source.
        expectOutcome(parse, (p) => parseWithContexts(p, ' ' + text + '\t'), expectedContexts(value, [text]), NATIVE_HAS_SOURCE);
      }
      const CONTAINERS: [string, unknown, (string | undefined)[]][] = [
        ['[ ]', [], [undefined]],
        ['[ -1.00, -0.00, -0 ]', [-1, -0, -0], ['-1.00', '-0.00', '-0', undefined]],
        [
          '[1e3, "2e2", "\\u00bD", null, false, true, {"x": 3e+2, "y": 0.40}, []]',
          [1000, '2e2', '\u00bd', null, false, true, { x: 300, y: 0.4 }, []],
          ['1e3', '"2e2"', '"\\u00bD"', 'null', 'false', 'true', '3e+2', '0.40', undefined, undefined, undefined],
        ],
        ['{}', {}, [undefined]],
        ['{ "42": 42E-1 }', { 42: 4.2 }, ['42E-1', undefined]],
        [
          '{ "x": [1.0, 2.0], "y": [{ "value": 3.0 }, 4.0] }',
          { x: [1, 2], y: [{ value: 3 }, 4] },
          ['1.0', '2.0', undefined, '3.0', undefined, '4.0', undefined, undefined],
        ],
      ];
      for (const [text, value, sources] of CONTAINERS) {
        expectOutcome(parse, (p) => parseWithContexts(p, text), expectedContexts(value, sources), NATIVE_HAS_SOURCE);
      }
    });

    it('test-CreateJSONParseRecord.js: each literal kind has its source, containers none; forward-modified values lose theirs', () => {
      const CASES: [string, unknown, (string | undefined)[]][] = [
        ['1', 1, ['1']], ['1.1', 1.1, ['1.1']], ['-1', -1, ['-1']], ['-1.1', -1.1, ['-1.1']],
        ['1.1e1', 11, ['1.1e1']], ['1.1e+1', 11, ['1.1e+1']], ['1.1e-1', 0.11, ['1.1e-1']],
        ['1.1E1', 11, ['1.1E1']], ['1.1E+1', 11, ['1.1E+1']], ['1.1E-1', 0.11, ['1.1E-1']],
        ['null', null, ['null']], ['true', true, ['true']], ['false', false, ['false']], ['"foo"', 'foo', ['"foo"']],
        ['{}', {}, [undefined]],
        ['{"42":37}', { 42: 37 }, ['37', undefined]],
        ['{"x": 1, "y": 2}', { x: 1, y: 2 }, ['1', '2', undefined]],
        ['{"x": [1,2], "y": [2,3]}', { x: [1, 2], y: [2, 3] }, ['1', '2', undefined, '2', '3', undefined, undefined]],
        ['{"x": {"x": 1, "y": 2}}', { x: { x: 1, y: 2 } }, ['1', '2', undefined, undefined]],
        ['[1.0]', [1], ['1.0', undefined]],
        ['[1.1]', [1.1], ['1.1', undefined]],
        ['[]', [], [undefined]],
        ['[1, "2", true, null, {"x": 1, "y": 1}]', [1, '2', true, null, { x: 1, y: 1 }], ['1', '"2"', 'true', 'null', '1', '1', undefined, undefined]],
      ];
      for (const [text, value, sources] of CASES) {
        expectOutcome(parse, (p) => parseWithContexts(p, text), expectedContexts(value, sources), NATIVE_HAS_SOURCE);
      }

      // The reviver overwrites the next sibling before it is visited: that sibling's value
      // is no longer the parsed one, so it has no source (and a replaced array is not walked).
      type Entry = [string, unknown, string | undefined];
      const overwriting = (text: string, next: Record<string, string>, values: Record<string, unknown>) => (p: ParseFn) => {
        const log: Entry[] = [];
        const result = p(text, function (this: any, key: string, value: unknown, context: Context) {
          log.push([key, value, context.source]);
          if (key in next) this[next[key]] = values[next[key]];
          return value;
        });
        return { result, log };
      };
      expectOutcome(
        parse,
        overwriting('{"a": 0, "b": 1, "c": [1, 2]}', { a: 'b', b: 'c' }, { b: 2, c: 3 }),
        {
          result: { a: 0, b: 2, c: 3 },
          log: [['a', 0, '0'], ['b', 2, undefined], ['c', 3, undefined], ['', { a: 0, b: 2, c: 3 }, undefined]],
        },
        NATIVE_HAS_SOURCE,
      );
      expectOutcome(
        parse,
        overwriting('[1, 2, 3, {"a": 1}]', { 0: '1', 1: '2', 2: '3' }, { 1: 3, 2: 4, 3: 5 }),
        {
          result: [1, 3, 4, 5],
          log: [['0', 1, '1'], ['1', 3, undefined], ['2', 4, undefined], ['3', 5, undefined], ['', [1, 3, 4, 5], undefined]],
        },
        NATIVE_HAS_SOURCE,
      );
    });

    it('test-InternaliseJSONProperty.js: replaced, appended and added values are walked, without source', () => {
      type Entry = [string, unknown, string | undefined];
      const REPLACEMENTS = [42, ['foo'], { foo: 'bar' }, 'foo'];
      // The first member replaces the second once; every call returns holder[key].
      for (const [text, first, second] of [['[1, 2]', '0', '1'], ['{"p":1, "q":2}', 'p', 'q']] as const) {
        for (const replacement of REPLACEMENTS) {
          const nested = typeof replacement === 'object' ? Object.keys(replacement) : [];
          expectOutcome(
            parse,
            (p) => {
              const log: [string, string | undefined][] = [];
              let replaced = false;
              const result = p(text, function (this: any, key: string, _value: unknown, context: Context) {
                log.push([key, context.source]);
                if (key === first && !replaced) {
                  replaced = true;
                  this[second] = replacement;
                }
                return this[key];
              });
              return { result, log };
            },
            {
              result: text.startsWith('[') ? [1, replacement] : { p: 1, q: replacement },
              log: [[first, '1'], ...nested.map((k): [string, undefined] => [k, undefined]), [second, undefined], ['', undefined]],
            },
            NATIVE_HAS_SOURCE,
          );
        }
      }
      // Appending to an array, or adding to an object, that has not been walked yet.
      const growing = (text: string, grow: (holder: any) => void) => (p: ParseFn) => {
        const log: Entry[] = [];
        const result = p(text, function (this: any, key: string, value: unknown, context: Context) {
          log.push([key, value, context.source]);
          if (value === 1) grow(this);
          return this[key];
        });
        return { result, log };
      };
      expectOutcome(
        parse,
        growing('[1,[]]', (holder) => holder[1].push('barf')),
        {
          result: [1, ['barf']],
          log: [['0', 1, '1'], ['0', 'barf', undefined], ['1', ['barf'], undefined], ['', [1, ['barf']], undefined]],
        },
        NATIVE_HAS_SOURCE,
      );
      expectOutcome(
        parse,
        growing('{"p":1,"q":{}}', (holder) => (holder.q.added = 'barf')),
        {
          result: { p: 1, q: { added: 'barf' } },
          log: [
            ['p', 1, '1'],
            ['added', 'barf', undefined],
            ['q', { added: 'barf' }, undefined],
            ['', { p: 1, q: { added: 'barf' } }, undefined],
          ],
        },
        NATIVE_HAS_SOURCE,
      );
    });

    it('reviver-context-source-after-forward-modification.js: source only for values still (or again) the parsed ones', () => {
      /** The reviver's log: key, value as JSON, context.source; plus snapshots it takes. */
      type Entry = [string, string, string | undefined];
      const logged = (
        text: string,
        act: (holder: any, key: string, value: unknown, snapshots: string[]) => void,
      ) => (p: ParseFn) => {
        const log: Entry[] = [];
        const snapshots: string[] = [];
        const result = p(text, function (this: any, key: string, value: unknown, context: Context) {
          log.push([key, JSON.stringify(value), context.source]);
          act(this, key, value, snapshots);
          return value;
        });
        return { json: JSON.stringify(result), log, snapshots };
      };

      // 1. Later members are overwritten (new objects, primitives, copies) or added.
      const OBJ = '{"0":"obj","toObj":{},"toPrim":2,"toClone":["clone me"],"toOtherPrim":4,"added":true}';
      const ARR = '["arr",{},2,["clone me"],4,"added"]';
      expectOutcome(
        parse,
        logged(
          '[ "start", { "0": "obj", "toObj": 1, "toPrim": {}, "toClone": ["clone me"], "toOtherPrim": "four" }, ' +
            '["arr", 1, {}, ["clone me"], "four"] ]',
          (holder, _key, value) => {
            if (value === 'start') {
              holder[1].added = true;
              holder[2].push('added');
            } else if (value === 'obj') {
              Object.assign(holder, { toObj: {}, toPrim: 2, toClone: holder.toClone.slice(), toOtherPrim: 4 });
            } else if (value === 'arr') {
              holder.splice(1, 4, {}, 2, holder[3].slice(), 4);
            }
          },
        ),
        {
          json: `["start",${OBJ},${ARR}]`,
          log: [
            ['0', '"start"', '"start"'],
            ['0', '"obj"', '"obj"'],
            ['toObj', '{}', undefined],
            ['toPrim', '2', undefined],
            ['0', '"clone me"', undefined],
            ['toClone', '["clone me"]', undefined],
            ['toOtherPrim', '4', undefined],
            ['added', 'true', undefined],
            ['1', OBJ, undefined],
            ['0', '"arr"', '"arr"'],
            ['1', '{}', undefined],
            ['2', '2', undefined],
            ['0', '"clone me"', undefined],
            ['3', '["clone me"]', undefined],
            ['4', '4', undefined],
            ['5', '"added"', undefined],
            ['2', ARR, undefined],
            ['', `["start",${OBJ},${ARR}]`, undefined],
          ],
          snapshots: [],
        },
        NATIVE_HAS_SOURCE,
      );

      // 2. Later members are removed, then put back (same values, same containers, other
      //    order), then frozen: the restored primitives have their source again.
      const OBJ2 = '{"0":"obj","nonPrim":["string"],"prim":1}';
      const ARR2 = '["arr",1,["string"]]';
      expectOutcome(
        parse,
        (p) => {
          const saved: { inObject?: unknown[]; inArray?: unknown[] } = {};
          return logged(
            '[ "start", "continue", { "0": "obj", "prim": 1e0, "nonPrim": ["string"] }, ["arr", 1e0, ["string"]] ]',
            (holder, _key, value, snapshots) => {
              if (value === 'start') {
                const [obj, arr] = [holder[2], holder[3]];
                saved.inObject = obj.nonPrim;
                saved.inArray = arr[2];
                obj.nonPrim.length = 0;
                arr[2].length = 0;
                delete obj.prim;
                delete obj.nonPrim;
                arr.length = 1;
                snapshots.push(JSON.stringify(holder));
              } else if (value === 'continue') {
                const [obj, arr] = [holder[2], holder[3]];
                obj.nonPrim = saved.inObject;
                obj.prim = 1;
                Object.freeze(obj);
                arr.push(1, saved.inArray);
                Object.freeze(arr);
                snapshots.push(JSON.stringify(holder));
              } else if (value === 'obj') {
                holder.nonPrim.push('string');
                Object.freeze(holder.nonPrim);
              } else if (value === 'arr') {
                holder[2].push('string');
                Object.freeze(holder[2]);
              }
            },
          )(p);
        },
        {
          json: `["start","continue",${OBJ2},${ARR2}]`,
          log: [
            ['0', '"start"', '"start"'],
            ['1', '"continue"', '"continue"'],
            ['0', '"obj"', '"obj"'],
            ['0', '"string"', '"string"'],
            ['nonPrim', '["string"]', undefined],
            ['prim', '1', '1e0'],
            ['2', OBJ2, undefined],
            ['0', '"arr"', '"arr"'],
            ['1', '1', '1e0'],
            ['0', '"string"', '"string"'],
            ['2', '["string"]', undefined],
            ['3', ARR2, undefined],
            ['', `["start","continue",${OBJ2},${ARR2}]`, undefined],
          ],
          snapshots: [
            '["start","continue",{"0":"obj"},["arr"]]',
            '["start","continue",{"0":"obj","nonPrim":[],"prim":1},["arr",1,[]]]',
          ],
        },
        NATIVE_HAS_SOURCE,
      );

      // 3. Elements are spliced out and in, shifting later ones off their parsed index and
      //    back; source follows the index. The length is read once, before the walk.
      expectOutcome(
        parse,
        logged('["start", "x", 1e0, 2e0, 3e0, 4e0]', (holder, key, value) => {
          const at = Number(key);
          if (value === 'start') holder.splice(1, 1);
          else if (value === 1) holder.splice(at + 1, 0, 1.5);
          else if (value === 2) holder.splice(at + 1, 0, 'pre 3');
          else if (value === 'pre 3') holder.splice(at, 1);
          else if (value === 4) holder.push('end');
        }),
        {
          json: '["start",1,1.5,2,"pre 3",4,"end"]',
          log: [
            ['0', '"start"', '"start"'],
            ['1', '1', undefined],
            ['2', '1.5', undefined],
            ['3', '2', '2e0'],
            ['4', '"pre 3"', undefined],
            ['5', '4', '4e0'],
            ['', '["start",1,1.5,2,"pre 3",4,"end"]', undefined],
          ],
          snapshots: [],
        },
        NATIVE_HAS_SOURCE,
      );
    });
  });
}
