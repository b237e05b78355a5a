// Node 26.10's own JSON.parse (V8 14.6; not Node 20) can bring the process down: a
// reviver parse that fails, caught, with about a thousand elements in a container still
// open two levels above the error, followed by any code hot enough to be optimized,
// ends in "Fatal error ... unreachable code" (V8's optimizing compiler) or a segfault.
// wasmjson's parse with a reviver is its own code: the same steps end in its
// SyntaxError and the process goes on. Each run in a process of its own.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const entry = fileURLToPath(new URL('../../dist/node.mjs', import.meta.url));
const steps = (parse: string) => `
  let error = 'none';
  try { ${parse}('[' + '0,'.repeat(1010) + '[[1', (k, v) => v); } catch (e) { error = e.name; }
  const a = [];
  for (let i = 0; i < 1e5; i++) a.push([i]);
  console.log(error, a.length);
`;

function run(source: string, flavor?: string) {
  return spawnSync(process.execPath, ['--input-type=module', '-e', source], {
    encoding: 'utf8',
    env: { ...process.env, ...(flavor ? { WASMJSON_FLAVOR: flavor } : {}) },
    timeout: 60_000,
  });
}

describe('a failed reviver parse, then hot code (what crashes Node 26.10 natively)', () => {
  for (const flavor of ['simd128', 'swar64']) {
    it(`wasmjson's parse throws its SyntaxError and the process goes on (${flavor})`, () => {
      const r = run(`import { parse } from ${JSON.stringify(entry)};\n${steps('parse')}`, flavor);
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      expect(r.stdout.trim()).toBe('SyntaxError 100000');
    });
  }
});
