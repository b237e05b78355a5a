// Runs on the machine's Node 20 (no test framework): the package imports by name, picks
// a flavor and validates. `wasmjson` resolves through the package's own exports map.
import assert from 'node:assert/strict';
import { implementation, load, parse, validate, JsonSyntaxError } from 'wasmjson';

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
console.log(`smoke.mjs ok on Node ${process.version} (${implementation().flavor})`);
