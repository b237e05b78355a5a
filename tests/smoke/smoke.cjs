// CommonJS on the machine's Node 20: require('wasmjson') is usable synchronously.
const assert = require('node:assert/strict');
const { validate, implementation, loadSync } = require('wasmjson');

assert.equal(validate('[1, 2, 3]'), true);
assert.equal(validate('[1, 2, 3'), false);
assert.equal(loadSync({ flavor: 'swar64' }).validate('{}'), true);
console.log(`smoke.cjs ok on Node ${process.version} (${implementation().flavor})`);
