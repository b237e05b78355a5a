// The benchmark (README's main command, `npm run bench`): wasmjson vs native JSON and
// other libraries, on the built-in generated corpus, every .json and .ndjson file of ../shared/corpus
// when that folder exists, and any files or folders named on the command line.
// Writes bench/results/node<major>.json and .html. The suite itself is bench/suite.mjs
// (shared with the browser page); `node bench/run.mjs --help` lists the options.
import { fileURLToPath } from 'node:url';
import { benchMain } from './node.mjs';

const results = fileURLToPath(new URL('./results/', import.meta.url));
process.exitCode = await benchMain(process.argv.slice(2), { writeDir: results });
