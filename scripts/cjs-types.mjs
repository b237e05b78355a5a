// The CommonJS entry's type declarations. In this "type": "module" package TypeScript
// reads every .d.ts as an ES module, which a CommonJS project under `module: node16`
// refuses to import (TS1479). Each declaration file in dist/types gets a .d.cts twin
// whose relative imports name the twins; package.json's "require" condition points at
// the CommonJS entry's. Run after tsc has written dist/types.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('../dist/types/', import.meta.url).pathname;
let count = 0;
for (const entry of readdirSync(root, { recursive: true })) {
  const file = join(root, entry);
  if (!file.endsWith('.d.ts')) continue;
  // `from './x.js'` and `import("./x.js")`: relative specifiers only.
  const text = readFileSync(file, 'utf8').replace(/(from\s+|import\()(['"])(\.{1,2}\/[^'"]*?)\.js\2/g, '$1$2$3.cjs$2');
  writeFileSync(file.slice(0, -'.d.ts'.length) + '.d.cts', text);
  count++;
}
if (count === 0) throw new Error('cjs-types: no declarations in dist/types (run tsc first)');
