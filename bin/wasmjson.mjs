#!/usr/bin/env node
// The wasmjson command line: validate, fmt, minify, query (RFC 6901 JSON Pointer) and
// bench, over the package's Node build. Exit status: 0 success; 1 invalid JSON, pointer
// not found, or a benchmark mismatch; 2 usage or input/output errors.
import { readFileSync } from 'node:fs';

const PKG = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

class Usage extends Error {}
class Failure extends Error {
  constructor(message, code = 2) {
    super(message);
    this.code = code;
  }
}

// ---------------------------------------------------------------------------------------
// The codec (loaded on first use: --version and usage errors need no wasm)

let codecCache;
async function codec() {
  if (!codecCache) {
    try {
      const pkg = await import('../dist/node.mjs');
      codecCache = pkg.loadSync();
    } catch (e) {
      // The one setting the package reads at import: a bad value is no broken build.
      const flavor = process.env.WASMJSON_FLAVOR;
      if (flavor && /unknown flavor/.test(e.message)) throw new Failure(`WASMJSON_FLAVOR='${flavor}' is not a flavor (simd128 or swar64; unset it to detect)`);
      throw new Failure(`cannot load the package build (dist/node.mjs): ${e.message}\n(in a clone, run: npm run build)`);
    }
  }
  return codecCache;
}

/**
 * The codec's stringify, else JSON.stringify. (The library's walks iteratively, where
 * JSON.stringify's recursion overflows the stack some thousands of levels deep.)
 */
function stringifyOf(c) {
  return typeof c.stringify === 'function' ? c.stringify.bind(c) : JSON.stringify;
}

/** How fmt / minify work with the codec at hand (said in their --help). */
async function reformatRoute(method) {
  const c = await codec();
  if (typeof c[method] === 'function') {
    return { native: true, text: `wasmjson ${method}() (in wasm: strings and numbers are copied exactly as written)` };
  }
  return {
    native: false,
    text:
      `wasmjson parse() + ${typeof c.stringify === 'function' ? 'wasmjson stringify()' : 'JSON.stringify'} ` +
      `(the codec has no ${method}() yet: numbers are rewritten as JavaScript prints them, e.g. 1.0 -> 1)`,
  };
}

// ---------------------------------------------------------------------------------------
// Help

const USAGE = `Usage: wasmjson <command> [options] [arguments]

Commands:
  validate <file|->...       check that files are valid JSON (exit 1 if not)
  fmt [file|-]               pretty-print JSON to stdout
  minify [file|-]            remove all insignificant whitespace, to stdout
  query <pointer> [file|-]   print the value at an RFC 6901 JSON Pointer (exit 1 if absent)
  bench [files|folders...]   benchmark wasmjson vs native JSON on your files

Options:
  -h, --help                 help (also: wasmjson <command> --help, wasmjson help <command>)
  -V, --version              print the version

Input "-" (or no file, when stdin is not a terminal) reads standard input.
Exit status: 0 success; 1 invalid JSON / not found / benchmark mismatch; 2 usage or I/O error;
70 internal error (a bug).
The wasm kernel flavor can be forced with WASMJSON_FLAVOR=simd128|swar64.`;

async function helpFor(cmd) {
  switch (cmd) {
    case 'validate':
      return `Usage: wasmjson validate [options] <file|->...

Checks that each input is valid JSON (RFC 8259; bytes must be UTF-8, one BOM is skipped).
Prints "<file>: valid" for each valid input; for an invalid one prints
"<file>:<line>:<column>: <message> [CODE]" and the lines around it with a caret, on stderr.
Columns count characters (code points), starting at 1.

Options:
  -q, --quiet      print nothing for valid inputs
  --strict         also refuse what untrusted input should not hold: a key repeated in
                   one object [DUPLICATE_KEY], "__proto__" keys [FORBIDDEN_PROTO], and
                   "constructor" keys whose value has a "prototype" [FORBIDDEN_CONSTRUCTOR]
  --max-depth N    refuse arrays and objects nested deeper than N levels [TOO_DEEP]
  -h, --help       this help

Exit status: 0 all valid; 1 some input is invalid; 2 usage error or unreadable file.`;
    case 'fmt':
      return `Usage: wasmjson fmt [options] [file|-]

Pretty-prints JSON to stdout (2 spaces by default).
Implementation: ${(await reformatRoute('prettify')).text}.

Options:
  -i, --indent N   N spaces per level (0-10)
  -t, --tab        indent with tabs
  -h, --help       this help

Exit status: 0 done; 1 invalid JSON (reported as by validate); 2 usage or I/O error.`;
    case 'minify':
      return `Usage: wasmjson minify [options] [file|-]

Writes the JSON with all insignificant whitespace removed to stdout.
Implementation: ${(await reformatRoute('minify')).text}.

Options:
  -h, --help   this help

Exit status: 0 done; 1 invalid JSON (reported as by validate); 2 usage or I/O error.`;
    case 'query':
      return `Usage: wasmjson query [options] <pointer> [file|-]

Parses the input and prints the JSON of the value at <pointer>, an RFC 6901 JSON Pointer:
"" is the whole document, "/a/0/b" walks keys and array indexes, "~1" stands for "/" and
"~0" for "~" in a key. The URI fragment form ("#/a%20b") is accepted too.

Options:
  -c, --compact   print on one line (default: indented by 2)
  -r, --raw       print a string result as raw text, not as JSON
  -h, --help      this help

Exit status: 0 found; 1 not found or invalid JSON; 2 usage error (also a malformed pointer) or I/O error.`;
    case 'bench': {
      const { BENCH_OPTIONS } = await import('../bench/node.mjs');
      return `Usage: wasmjson bench [files|folders...] [options]

Runs the wasmjson benchmark suite (the one behind npm run bench) on the given JSON files
(folders: their .json/.ndjson files; .ndjson = one document per line); with no file, on the
built-in generated corpus. Results are checked against native JSON before timing.

${BENCH_OPTIONS.replace(/\n  --no-shared[^\n]*/, '')}

Exit status: 0 done; 1 a wasmjson result differed from native JSON; 2 usage error.`;
    }
    default:
      return USAGE;
  }
}

// ---------------------------------------------------------------------------------------
// Arguments and input

/** Splits args into flags (by the known table) and positionals. */
function parseArgs(args, known) {
  const flags = {};
  const positional = [];
  let onlyPositional = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (onlyPositional || a === '-' || !a.startsWith('-')) {
      positional.push(a);
      continue;
    }
    if (a === '--') {
      onlyPositional = true;
      continue;
    }
    const eq = a.startsWith('--') ? a.indexOf('=') : -1;
    const name = eq > 0 ? a.slice(0, eq) : a;
    const spec = known[name];
    if (!spec) throw new Usage(`unknown option '${name}'`);
    if (spec.value) {
      const v = eq > 0 ? a.slice(eq + 1) : args[++i];
      if (v === undefined) throw new Usage(`${name} needs a value`);
      flags[spec.key] = v;
    } else {
      if (eq > 0) throw new Usage(`${name} takes no value`);
      flags[spec.key] = true;
    }
  }
  return { flags, positional };
}

const HELP = { '-h': { key: 'help' }, '--help': { key: 'help' } };

async function readStdin() {
  const chunks = [];
  for await (const c of process.stdin) chunks.push(c);
  return new Uint8Array(Buffer.concat(chunks));
}

/** Reads a file or stdin ("-"). Returns { name, bytes }. */
async function readInput(path) {
  if (path === '-') return { name: '<stdin>', bytes: await readStdin() };
  try {
    return { name: path, bytes: readFileSync(path) };
  } catch (e) {
    const why = { ENOENT: 'no such file or directory', EISDIR: 'is a directory', EACCES: 'permission denied' }[e.code] ?? e.message;
    throw new Failure(`cannot read '${path}': ${why}`);
  }
}

/** The single optional input: a file, "-", or stdin when it is not a terminal. */
function oneInput(positional, cmd) {
  if (positional.length > 1) throw new Usage(`${cmd} takes one input, got ${positional.length}`);
  if (positional.length === 1) return positional[0];
  if (process.stdin.isTTY) throw new Usage(`${cmd}: no input (give a file, or - for stdin)`);
  return '-';
}

// ---------------------------------------------------------------------------------------
// Syntax error reports: file:line:column: message, then a code frame with a caret

const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

// Lines end at LF, CR or CR LF, as JSON.parse's (and the library's) line numbers count them.
/** The start of the line that holds byte i: after the last CR or LF before it. */
function lineStart(bytes, i) {
  return i > 0 ? Math.max(bytes.lastIndexOf(10, i - 1), bytes.lastIndexOf(13, i - 1)) + 1 : 0;
}
/** The end of the line that starts at byte s: its first CR or LF, or the end. */
function lineEnd(bytes, s) {
  const lf = bytes.indexOf(10, s);
  const cr = bytes.indexOf(13, s);
  return lf === -1 ? (cr === -1 ? bytes.length : cr) : cr === -1 ? lf : Math.min(lf, cr);
}
/** The start of the line before the one starting at s (> 0): past its break (LF, CR or CR LF). */
function previousLineStart(bytes, s) {
  let end = s - 1;
  if (bytes[end] === 10 && end > 0 && bytes[end - 1] === 13) end--;
  return lineStart(bytes, end);
}

function syntaxReport(name, bytes, error) {
  const offset = Math.min(error.offset ?? 0, bytes.length);
  const start = lineStart(bytes, offset);
  // (The library's line; the column is counted here, in characters.)
  const line = error.line;
  let from = start;
  if (start === 0 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) from = Math.min(3, offset);
  // Characters before the offset (the bytes there are well-formed UTF-8: the error is the
  // first problem): every byte that is not a continuation byte starts one. Lines can be
  // megabytes long; only a window of text around the caret is decoded.
  let column = 1;
  for (let i = from; i < offset; i++) if ((bytes[i] & 0xc0) !== 0x80) column++;
  const message = String(error.message)
    .replace(/ \(line \d+ column \d+\)/, '')
    .replace(/ at position (\d+)$/, ' at byte $1')
    .replace(/\r/g, '\\r')
    .replace(/\n/g, '\\n')
    .replace(/\t/g, '\\t');
  const lines = [`${name}:${line}:${column}: ${message}${error.code ? ` [${error.code}]` : ''}`];

  const WINDOW = 100;
  // Up to `max` characters of the line from byte s on (without its break), and whether
  // more follow.
  const lineText = (s, max) => {
    const e = lineEnd(bytes, s);
    // (At most 4 bytes a character: max + 1 of them fit.)
    const chars = [...decoder.decode(bytes.subarray(s, Math.min(e, s + (max + 1) * 4)))];
    return chars.length > max ? { chars: chars.slice(0, max), more: true } : { chars, more: false };
  };
  // Up to two lines before, then the line with the error (windowed when long).
  const previous = [];
  let s = start;
  for (let k = 0; k < 2 && s > 0; k++) {
    const p = previousLineStart(bytes, s);
    const { chars, more } = lineText(p, WINDOW);
    previous.unshift({ n: line - k - 1, text: chars.join('') + (more ? '…' : '') });
    s = p;
  }
  const width = String(line).length;
  const visible = (t) => t.replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '·');
  for (const p of previous) lines.push(`  ${String(p.n).padStart(width)} | ${visible(p.text)}`);
  // The window starts `lo` characters into the line: at its start, or 60 before the caret.
  let lo = 0;
  let loByte = from;
  if (column - 1 > WINDOW - 20) {
    lo = column - 1 - (WINDOW - 40);
    loByte = offset;
    for (let back = column - 1 - lo; back > 0; back--) {
      loByte--;
      while ((bytes[loByte] & 0xc0) === 0x80) loByte--;
    }
  }
  const { chars, more } = lineText(loByte, WINDOW);
  const text = (lo > 0 ? '…' : '') + chars.join('') + (more ? '…' : '');
  lines.push(`> ${String(line).padStart(width)} | ${visible(text)}`);
  const pad = (lo > 0 ? ' ' : '') + chars.slice(0, column - 1 - lo).map((c) => (c === '\t' ? '\t' : ' ')).join('');
  lines.push(`  ${' '.repeat(width)} | ${pad}^`);
  return lines.join('\n');
}

function isSyntaxError(e) {
  return e instanceof SyntaxError && typeof e.offset === 'number';
}

// ---------------------------------------------------------------------------------------
// Commands

async function cmdValidate(args) {
  const { flags, positional } = parseArgs(args, {
    ...HELP,
    '-q': { key: 'quiet' },
    '--quiet': { key: 'quiet' },
    '--strict': { key: 'strict' },
    '--max-depth': { key: 'maxDepth', value: true },
  });
  if (flags.help) return print(await helpFor('validate'));
  const checks = { explain: true };
  if (flags.strict) Object.assign(checks, { duplicateKeys: 'error', protoAction: 'error', constructorAction: 'error' });
  if (flags.maxDepth !== undefined) {
    const n = Number(flags.maxDepth);
    if (!/^[0-9]+$/.test(flags.maxDepth) || !Number.isSafeInteger(n)) throw new Usage(`validate: --max-depth takes a whole number, got '${flags.maxDepth}'`);
    checks.maxDepth = n;
  }
  if (!positional.length) throw new Usage('validate: give a file, or - for stdin');
  if (positional.filter((p) => p === '-').length > 1) throw new Usage('validate: stdin (-) can be read only once');
  const c = await codec();
  let status = 0;
  for (const p of positional) {
    let input;
    try {
      input = await readInput(p);
    } catch (e) {
      if (!(e instanceof Failure)) throw e;
      process.stderr.write(`wasmjson validate: ${e.message}\n`);
      status = 2;
      continue;
    }
    let r;
    try {
      r = c.validate(input.bytes, checks);
    } catch (e) {
      // A document too large for wasm memory (its parse, with checks): this file only.
      if (!(e instanceof RangeError)) throw e;
      process.stderr.write(`wasmjson validate: ${tooLarge(input.name, e)}\n`);
      status = 2;
      continue;
    }
    if (r.valid) {
      if (!flags.quiet) process.stdout.write(`${input.name}: valid\n`);
    } else {
      process.stderr.write(syntaxReport(input.name, input.bytes, r.error) + '\n');
      status = Math.max(status, 1);
    }
  }
  return status;
}

function indentOption(flags) {
  if (flags.tab && flags.indent !== undefined) throw new Usage('fmt: --tab and --indent do not go together');
  if (flags.tab) return '\t';
  if (flags.indent === undefined) return 2;
  const n = /^[0-9]+$/.test(flags.indent) ? Number(flags.indent) : NaN;
  if (!(n <= 10)) throw new Usage(`fmt: --indent takes a number from 0 to 10, got '${flags.indent}'`);
  return n;
}

async function reformat(cmd, method, args, known, indentOf) {
  const { flags, positional } = parseArgs(args, { ...HELP, ...known });
  if (flags.help) return print(await helpFor(cmd));
  const indent = indentOf(flags);
  const input = await readInput(oneInput(positional, cmd));
  const c = await codec();
  let out;
  try {
    if (typeof c[method] === 'function') {
      out = method === 'prettify' ? c.prettify(input.bytes, { indent }) : c.minify(input.bytes);
    } else {
      const value = c.parse(input.bytes);
      const stringify = stringifyOf(c);
      out = method === 'prettify' ? stringify(value, null, indent) : stringify(value);
      if (out === undefined) out = 'null';
    }
  } catch (e) {
    // Output past what memory or a string can hold (a very deep document, prettified).
    if (e instanceof RangeError) throw new Failure(`${cmd}: ${tooLarge(input.name, e)}`);
    if (!isSyntaxError(e)) throw e;
    process.stderr.write(syntaxReport(input.name, input.bytes, e) + '\n');
    return 1;
  }
  const bytes = typeof out === 'string' ? Buffer.from(out) : out;
  await write(bytes);
  if (bytes.length === 0 || bytes[bytes.length - 1] !== 10) await write('\n');
  return 0;
}

/** RFC 6901: the reference tokens of a pointer (or its URI fragment form). */
function pointerTokens(pointer) {
  let p = pointer;
  if (p.startsWith('#')) {
    try {
      p = decodeURIComponent(p.slice(1));
    } catch {
      throw new Usage(`query: malformed URI fragment pointer '${pointer}'`);
    }
  }
  if (p === '') return [];
  if (!p.startsWith('/')) throw new Usage(`query: a JSON Pointer is "" or starts with "/", got '${pointer}'`);
  return p
    .slice(1)
    .split('/')
    .map((t) => {
      if (/~[^01]|~$/.test(t)) throw new Usage(`query: bad escape in '${pointer}' (only ~0 and ~1 are defined)`);
      return t.replace(/~1/g, '/').replace(/~0/g, '~');
    });
}

function escapeToken(t) {
  return t.replace(/~/g, '~0').replace(/\//g, '~1');
}

async function cmdQuery(args) {
  const { flags, positional } = parseArgs(args, {
    ...HELP,
    '-c': { key: 'compact' },
    '--compact': { key: 'compact' },
    '-r': { key: 'raw' },
    '--raw': { key: 'raw' },
  });
  if (flags.help) return print(await helpFor('query'));
  if (!positional.length) throw new Usage('query: give a JSON Pointer (e.g. /items/0/name) and a file');
  const [pointer, ...rest] = positional;
  const tokens = pointerTokens(pointer);
  const input = await readInput(oneInput(rest, 'query'));
  const c = await codec();
  let value;
  try {
    value = c.parse(input.bytes);
  } catch (e) {
    if (e instanceof RangeError) throw new Failure(`query: ${tooLarge(input.name, e)}`);
    if (!isSyntaxError(e)) throw e;
    process.stderr.write(syntaxReport(input.name, input.bytes, e) + '\n');
    return 1;
  }
  let at = '';
  for (const t of tokens) {
    const where = at === '' ? 'the root' : at;
    if (Array.isArray(value)) {
      if (!/^(0|[1-9][0-9]*)$/.test(t) || Number(t) >= value.length) {
        const why = t === '-' ? '"-" is the position after the last element' : /^(0|[1-9][0-9]*)$/.test(t) ? `index ${t} is past the end (length ${value.length})` : `'${t}' is not an array index`;
        process.stderr.write(`wasmjson query: ${pointer}: not found (${why}, in the array at ${where})\n`);
        return 1;
      }
      value = value[Number(t)];
    } else if (value !== null && typeof value === 'object') {
      if (!Object.prototype.hasOwnProperty.call(value, t)) {
        process.stderr.write(`wasmjson query: ${pointer}: not found (no key ${JSON.stringify(t)} in the object at ${where})\n`);
        return 1;
      }
      value = value[t];
    } else {
      process.stderr.write(`wasmjson query: ${pointer}: not found (the value at ${where} is ${value === null ? 'null' : typeof value}, not an object or array)\n`);
      return 1;
    }
    at += '/' + escapeToken(t);
  }
  const space = flags.compact ? undefined : 2;
  let out;
  try {
    // As bytes where the codec can (no string to fit: a deep value, indented, outgrows one).
    out = flags.raw && typeof value === 'string' ? value : typeof c.encode === 'function' ? c.encode(value, { space }) : stringifyOf(c)(value, null, space);
  } catch (e) {
    if (e instanceof RangeError) throw new Failure(`query: ${tooLarge(input.name, e)}`);
    throw e;
  }
  await write(out);
  await write('\n');
  return 0;
}

/** "name: what", for a RangeError of memory or of string length (its own prefix dropped). */
function tooLarge(name, e) {
  return `${name}: ${String(e.message).replace(/^wasmjson: /, '')}`;
}

async function cmdBench(args) {
  if (args.includes('-h') || args.includes('--help')) return print(await helpFor('bench'));
  const { benchMain } = await import('../bench/node.mjs');
  return benchMain(args, { defaults: { builtin: 'auto', shared: false }, usage: 'wasmjson bench [files|folders...] [options]' });
}

// ---------------------------------------------------------------------------------------
// Output and main

function write(data) {
  return new Promise((resolve) => {
    if (process.stdout.write(data)) resolve();
    else process.stdout.once('drain', resolve);
  });
}

async function print(text) {
  await write(text.endsWith('\n') ? text : text + '\n');
  return 0;
}

const COMMANDS = {
  validate: cmdValidate,
  fmt: (args) => reformat('fmt', 'prettify', args, { '-i': { key: 'indent', value: true }, '--indent': { key: 'indent', value: true }, '-t': { key: 'tab' }, '--tab': { key: 'tab' } }, indentOption),
  minify: (args) => reformat('minify', 'minify', args, {}, () => undefined),
  query: cmdQuery,
  bench: cmdBench,
};

async function main(argv) {
  const [first, ...rest] = argv;
  if (first === undefined) {
    process.stderr.write(USAGE + '\n');
    return 2;
  }
  if (first === '-h' || first === '--help') return print(USAGE);
  if (first === '-V' || first === '--version') return print(PKG.version);
  if (first === 'help') {
    if (rest[0] && !COMMANDS[rest[0]]) throw new Usage(`unknown command '${rest[0]}'`);
    return print(await helpFor(rest[0]));
  }
  const cmd = COMMANDS[first];
  if (!cmd) {
    throw new Usage(first.startsWith('-') ? `unknown option '${first}'` : `unknown command '${first}'`);
  }
  try {
    return await cmd(rest);
  } catch (e) {
    if (e instanceof Usage) e.command = first;
    throw e;
  }
}

// A reader that went away (`| head`) ends the run quietly; any other write error (a full
// disk) is an I/O failure: exit 2, with one line on stderr while it works.
process.stdout.on('error', (e) => {
  if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  try {
    process.stderr.write(`wasmjson: cannot write the output: ${e.message}\n`);
  } catch {}
  process.exit(2);
});
// A closed stderr loses the messages, not the exit status.
process.stderr.on('error', () => {});

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (e) {
  if (e instanceof Usage) {
    const more = e.command ? `wasmjson ${e.command} --help` : 'wasmjson --help';
    process.stderr.write(`wasmjson: ${e.message}\n(see: ${more})\n`);
    process.exitCode = 2;
  } else if (e instanceof Failure) {
    process.stderr.write(`wasmjson: ${e.message}\n`);
    process.exitCode = e.code;
  } else {
    process.stderr.write(`wasmjson: internal error: ${e?.stack ?? e}\n`);
    process.exitCode = 70;
  }
}
