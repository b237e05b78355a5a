// Argument handling shared by the developer tools (bench/ab.mjs, bench/browser/ab.mjs,
// bench/cold.mjs, bench/stringify-quick.mjs): each take* call takes its option out of
// `args`, so what is left are the positional arguments.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The value after `name` in args (both removed), or `fallback` when it is absent. */
export function takeOption(args, name, fallback) {
  const i = args.indexOf(name);
  if (i < 0) return fallback;
  const [value] = args.splice(i, 2).slice(1);
  return value;
}

/** Whether `name` is in args (removed). */
export function takeFlag(args, name) {
  const i = args.indexOf(name);
  if (i >= 0) args.splice(i, 1);
  return i >= 0;
}

/**
 * The JSON files a developer script runs on: those named in `args`, else every .json
 * file of ../shared/corpus (sorted); none, with a note, when that folder is missing.
 */
export function filesOrSharedCorpus(args) {
  if (args.length) return args;
  const dir = fileURLToPath(new URL('../../shared/corpus', import.meta.url));
  if (!existsSync(dir)) {
    console.log('../shared/corpus not present: name JSON files on the command line');
    return [];
  }
  return readdirSync(dir).filter((f) => f.endsWith('.json')).sort().map((f) => join(dir, f));
}
