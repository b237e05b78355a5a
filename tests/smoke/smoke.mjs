// Runs on the machine's Node 20 (no test framework): the package imports by name, picks
// a flavor and validates. `wasmjson` resolves through the package's own exports map.
import assert from 'node:assert/strict';
import { canonicalize, implementation, load, minify, parse, prettify, stringify, validate, JsonSyntaxError } from 'wasmjson';

assert.equal(validate('{"a":[1,2,{"b":null}]}'), true);
assert.equal(validate('{"a":'), false);
assert.equal(validate(new TextEncoder().encode('["é"]')), true);
const r = validate('[1,,2]', { explain: true });
assert.ok(r.error instanceof JsonSyntaxError);
assert.equal(r.error.offset, 3);
assert.equal(implementation().flavor, 'simd128');
const swar = await load({ flavor: 'swar64' });
assert.equal(swar.validate('[true]'), true);
// Error messages are this engine's own (Node 20's name no line and column; Node 22+'s do;
// Node 20's report a missing ':' after a property other than the first as an unexpected
// token, or end).
const missingColon = ['{"x":1,"a"', '{"x":1,"a" x', '{"x":1,"a"}', '{"a"', '{ "a" x', '[{"a"', '{"x":{},"a\\\"b" ', '{"x":1 ,\n"a"\n'];
for (const text of ['[1 2]', '{"a" 1}', '"abc', '[1] x', '\n\n  [-]', '[1,]', 'tru', ...missingColon]) {
  const native = (() => {
    try {
      JSON.parse(text);
    } catch (e) {
      return e.message;
    }
  })();
  for (const input of [text, new TextEncoder().encode(text)]) {
    assert.throws(() => parse(input), (e) => e instanceof SyntaxError && e.message === native, `${JSON.stringify(text)}: ${native}`);
  }
}
assert.deepEqual(parse('{"a":[1,2.5,"x"]}'), { a: [1, 2.5, 'x'] });
// Outputs of 256 KiB and more are decoded in pieces, left joined as a rope on Node 20
// (utf8.ts, FLATTEN_PIECES): ASCII and non-ASCII text, read whole and by character.
for (const word of ['plain', 'кириллица', 'a\u{1F600}"\n']) {
  const value = Array.from({ length: 12000 }, (_, i) => ({ id: i, text: `${word} ${i}` }));
  const text = JSON.stringify(value);
  assert.ok(text.length > 256 * 1024);
  for (const [ours, native] of [
    [stringify(value), text],
    [stringify(value, null, 2), JSON.stringify(value, null, 2)],
    [minify(JSON.stringify(value, null, 1)), text],
    [prettify(text, { indent: 2 }), JSON.stringify(value, null, 2)],
  ]) {
    assert.equal(ours.length, native.length);
    assert.equal(ours.charCodeAt(native.length - 3), native.charCodeAt(native.length - 3));
    assert.equal(ours, native);
  }
  assert.deepEqual(parse(text), value);
  assert.deepEqual(parse(new TextEncoder().encode(text)), value);
}
// Non-ASCII output is made from its UTF-16 units on Node 20 and 22 (utf8.ts,
// decodeUtf8In): short and long text, every kind of character, and lone surrogates
// (escaped, another route).
// The same for minify, prettify and canonicalize (whose ASCII output comes out the same;
// canonicalize takes a string as JSON text).
const sorted = (v) => (Array.isArray(v) ? v.map(sorted) : v && typeof v === 'object' ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sorted(v[k])])) : v);
for (const value of ['é', ['ж', 'a\\b', '\u{10FFFF}x'], { 'ключ': 'значение "в кавычках"\n', n: [1, 'ü'.repeat(100)], a: 'z' }, ['\ud800', 'é'], 'x'.repeat(70) + '€', { b: ['plain'], a: 1 }]) {
  const text = JSON.stringify(value);
  assert.equal(stringify(value), text);
  assert.equal(stringify(value, null, '\t'), JSON.stringify(value, null, '\t'));
  assert.equal(minify(JSON.stringify(value, null, 1)), text);
  assert.equal(prettify(text, { indent: 2 }), JSON.stringify(value, null, 2));
  if (typeof value === 'object' && !/\\ud[89ab]/.test(text)) {
    assert.equal(canonicalize(value), JSON.stringify(sorted(value)));
    assert.equal(canonicalize(text), JSON.stringify(sorted(value)));
  }
}
// The same outputs once wasm memory holds more than 2 GiB: the buffers they pass through
// lie at addresses a signed 32-bit read makes negative (the UTF-16 route above read one
// so: every non-ASCII output threw a RangeError on Node 20 and 22; the vitest suite,
// run on Node 26 in CI, never takes that route). Three lazy documents of 720 MB of
// whitespace keep their copies in wasm memory; the outputs' buffers come after them.
{
  const codec = await load({ flavor: 'simd128' });
  const padded = new Uint8Array(720_000_016).fill(0x20);
  const held = [];
  for (let i = 0; i < 3; i++) {
    padded.set(new TextEncoder().encode(`[${i}]`), 720_000_000);
    held.push(codec.lazy(padded));
  }
  for (const value of [{ 'ключ': 'значение "в кавычках"\n', a: ['é', '\u{1F600}', 1.5] }, Array.from({ length: 12000 }, (_, i) => ({ id: i, text: `ü€ ${i}` }))]) {
    const text = JSON.stringify(value);
    assert.equal(codec.stringify(value), text);
    assert.equal(codec.stringify(value, null, 2), JSON.stringify(value, null, 2));
    assert.equal(new TextDecoder().decode(codec.encode(value)), text);
    assert.equal(codec.minify(JSON.stringify(value, null, 1)), text);
    assert.equal(codec.prettify(text, { indent: 2 }), JSON.stringify(value, null, 2));
    assert.equal(codec.canonicalize(value), JSON.stringify(sorted(value)));
    assert.equal(codec.canonicalize(text), JSON.stringify(sorted(value)));
    assert.deepEqual(codec.parse(text), value);
  }
  held.forEach((doc, i) => assert.equal(doc.at('/0'), i));
  for (const doc of held) doc.free();
}
console.log(`smoke.mjs ok on Node ${process.version} (${implementation().flavor})`);
