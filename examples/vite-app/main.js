// Imports the package by name, as an app would; Vite resolves it through the package's
// `exports` ("browser" condition) and emits both .wasm files as assets.
import { validate, implementation } from 'wasmjson';

const inputs = [
  '{"a": [1, 2, 3], "b": {"c": null}}', // valid
  '[1,,2]', // invalid
  new TextEncoder().encode('"h\u00e9llo"'), // valid, as UTF-8 bytes
];

const out = document.getElementById('out');
out.textContent = JSON.stringify({
  flavor: implementation().flavor,
  results: inputs.map((input) => validate(input)),
});
out.dataset.done = 'true';
