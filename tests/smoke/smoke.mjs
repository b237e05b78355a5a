// Runs on the machine's Node 20 (no test framework): the package imports by name, picks
// a flavor and validates. `wasmjson` resolves through the package's own exports map.
import assert from 'node:assert/strict';
import { implementation, load, validate, JsonSyntaxError } from 'wasmjson';

assert.equal(validate('{"a":[1,2,{"b":null}]}'), true);
assert.equal(validate('{"a":'), false);
assert.equal(validate(new TextEncoder().encode('["é"]')), true);
const r = validate('[1,,2]', { explain: true });
assert.ok(r.error instanceof JsonSyntaxError);
assert.equal(r.error.offset, 3);
assert.equal(implementation().flavor, 'simd128');
const swar = await load({ flavor: 'swar64' });
assert.equal(swar.validate('[true]'), true);
console.log(`smoke.mjs ok on Node ${process.version} (${implementation().flavor})`);
