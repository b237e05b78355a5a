// The command line (bin/wasmjson.mjs), run as a user would: a child process on this
// Node, files in a temporary folder, stdin through a pipe. Checks output and exit codes:
// 0 success, 1 invalid JSON / not found / mismatch, 2 usage or I/O error.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const bin = join(root, 'bin/wasmjson.mjs');
let dir = '';

function cli(args: string[], input?: string | Uint8Array, env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [bin, ...args], {
    cwd: dir,
    input: input ?? '',
    encoding: 'utf8',
    env: { ...process.env, WASMJSON_FLAVOR: '', NO_COLOR: '1', ...env },
    timeout: 120_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const file = (name: string, text: string | Uint8Array) => {
  writeFileSync(join(dir, name), text);
  return name;
};

const DOC = '{"name":"wasmjson","list":[1,2.50,{"a/b":{"~k":"v"}}],"nested":{"deep":[true,null]},"": "empty key"}';

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'wasmjson-cli-'));
  file('doc.json', DOC);
  file('bad.json', '{\n  "a": 1,\n  "b": [1, 2,, 3]\n}\n');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('wasmjson (no command)', () => {
  it('--version prints the package version', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    for (const flag of ['--version', '-V']) {
      const r = cli([flag]);
      expect(r.code).toBe(0);
      expect(r.stdout.trim()).toBe(pkg.version);
    }
  });

  it('--help lists every command; no arguments is a usage error', () => {
    const r = cli(['--help']);
    expect(r.code).toBe(0);
    for (const c of ['validate', 'fmt', 'minify', 'query', 'bench']) expect(r.stdout).toContain(c);
    const none = cli([]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('Usage: wasmjson');
  });

  it('unknown commands and options exit 2 with a pointer to help', () => {
    const r = cli(['frobnicate']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown command 'frobnicate'/);
    expect(r.stderr).toMatch(/wasmjson --help/);
    expect(cli(['--frob']).code).toBe(2);
    const opt = cli(['validate', '--frob', 'doc.json']);
    expect(opt.code).toBe(2);
    expect(opt.stderr).toMatch(/unknown option '--frob'/);
    expect(opt.stderr).toMatch(/wasmjson validate --help/);
  });

  it('each command has --help (exit 0), also as "help <command>"', () => {
    for (const c of ['validate', 'fmt', 'minify', 'query', 'bench']) {
      const r = cli([c, '--help']);
      expect(r.code, c).toBe(0);
      expect(r.stdout, c).toContain(`Usage: wasmjson ${c}`);
      expect(cli(['help', c]).stdout).toBe(r.stdout);
    }
    expect(cli(['help', 'nope']).code).toBe(2);
  });

  it('fmt and minify --help say which implementation they use', () => {
    expect(cli(['fmt', '--help']).stdout).toMatch(/Implementation: wasmjson (prettify\(\)|parse\(\) \+)/);
    expect(cli(['minify', '--help']).stdout).toMatch(/Implementation: wasmjson (minify\(\)|parse\(\) \+)/);
  });
});

describe('wasmjson validate', () => {
  it('valid file: exit 0 and "<file>: valid"; --quiet prints nothing', () => {
    const r = cli(['validate', 'doc.json']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('doc.json: valid\n');
    const q = cli(['validate', '-q', 'doc.json']);
    expect(q.code).toBe(0);
    expect(q.stdout).toBe('');
  });

  it('invalid file: exit 1, file:line:column: message, and a code frame with a caret', () => {
    const r = cli(['validate', 'bad.json']);
    expect(r.code).toBe(1);
    const lines = r.stderr.split('\n');
    expect(lines[0]).toMatch(/^bad\.json:3:14: Unexpected token ',', .* \[UNEXPECTED_CHARACTER\]$/);
    expect(lines[1]).toBe('  1 | {');
    expect(lines[2]).toBe('  2 |   "a": 1,');
    expect(lines[3]).toBe('> 3 |   "b": [1, 2,, 3]');
    expect(lines[4]).toBe('    |              ^');
    // The caret sits under the offending character.
    expect(lines[4].indexOf('^')).toBe(lines[3].indexOf(',,') + 1);
  });

  it('lines end at LF, CR or CR LF, as JSON.parse counts them (line numbers and code frames)', () => {
    for (const [name, br] of [['lf', '\n'], ['cr', '\r'], ['crlf', '\r\n']]) {
      const r = cli(['validate', file(`${name}.json`, `{${br}"a": 1,${br}"b" 2}`)]);
      expect(r.code).toBe(1);
      const lines = r.stderr.split('\n');
      expect(lines[0]).toMatch(new RegExp(`^${name}\\.json:3:5: Expected ':' after property name`));
      expect(lines.slice(1, 5)).toStrictEqual(['  1 | {', '  2 | "a": 1,', '> 3 | "b" 2}', '    |     ^']);
    }
    // A blank line between two CRs, after a LF.
    const mixed = cli(['validate', file('mixed.json', '{\n"a": 1,\r\r"b" 2}')]);
    expect(mixed.stderr.split('\n').slice(0, 5)).toStrictEqual([
      expect.stringMatching(/^mixed\.json:4:5: /),
      '  2 | "a": 1,',
      '  3 | ',
      '> 4 | "b" 2}',
      '    |     ^',
    ]);
  });

  it('columns count characters, not bytes; the message gives the byte offset', () => {
    const r = cli(['validate', file('utf8.json', '{"é": "ж" "x": 1}')]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^utf8\.json:1:11: Expected ',' or '}' after property value in JSON at byte 12 \[EXPECTED_COMMA_OR_BRACE\]/);
    const [, frame, caret] = r.stderr.split('\n');
    expect(caret.indexOf('^')).toBe(frame.indexOf('"x"'));
  });

  it('invalid UTF-8 and empty input are reported with their codes', () => {
    const bad = cli(['validate', file('latin1.json', new Uint8Array([0x5b, 0x22, 0xe9, 0x22, 0x5d]))]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^latin1\.json:1:3: .*\[INVALID_UTF8\]/);
    const empty = cli(['validate', file('empty.json', '')]);
    expect(empty.code).toBe(1);
    expect(empty.stderr).toMatch(/^empty\.json:1:1: Unexpected end of JSON input \[UNEXPECTED_END\]/);
  });

  it('--strict refuses repeated keys, __proto__ and constructor.prototype; --max-depth limits nesting', () => {
    const dup = file('dup.json', '{\n  "id": 1,\n  "id": 2\n}');
    expect(cli(['validate', dup]).code).toBe(0);
    const r = cli(['validate', '--strict', dup]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^dup\.json:3:3: Duplicate key "id" in JSON at byte 15 \[DUPLICATE_KEY\]/);
    expect(r.stderr.split('\n')[3]).toBe('> 3 |   "id": 2');
    const proto = file('proto.json', '[{"__proto__": {"admin": true}}]');
    expect(cli(['validate', '--strict', proto]).stderr).toMatch(/^proto\.json:1:3: .*\[FORBIDDEN_PROTO\]/);
    const deep = file('deep.json', '[[[[]]]]');
    expect(cli(['validate', '--max-depth', '4', deep]).code).toBe(0);
    const tooDeep = cli(['validate', '--max-depth', '3', deep]);
    expect(tooDeep.code).toBe(1);
    expect(tooDeep.stderr).toMatch(/^deep\.json:1:4: .*\[TOO_DEEP\]/);
    expect(cli(['validate', '--max-depth', 'x', deep]).code).toBe(2);
  });

  it('a long line is shown as a window around the error', () => {
    const r = cli(['validate', file('long.json', '[' + '1,'.repeat(500) + 'x]')]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^long\.json:1:1002: /);
    const [, frame, caret] = r.stderr.split('\n');
    expect(frame.length).toBeLessThan(130);
    expect(frame).toContain('…');
    expect(frame[caret.indexOf('^')]).toBe('x');
  });

  it('an error on a line of megabytes is reported from a window of it (column in characters)', () => {
    // The report once spread the whole line into an array of characters: seconds and
    // gigabytes for a long minified file.
    const body = '["é😀",' + '12345,'.repeat(500_000) + '"ключ",';
    const r = cli(['validate', file('huge-line.json', body + 'x]')]);
    expect(r.code).toBe(1);
    const column = [...body].length + 1;
    expect(r.stderr).toMatch(new RegExp(`^huge-line\\.json:1:${column}: `));
    const [, frame, caret] = r.stderr.split('\n');
    expect(frame.length).toBeLessThan(130);
    expect([...frame][[...caret].indexOf('^')]).toBe('x');
    expect(frame).toContain('"ключ",x]');
  });

  it('reads stdin with -', () => {
    const ok = cli(['validate', '-'], '[1, 2, 3]');
    expect(ok.code).toBe(0);
    expect(ok.stdout).toBe('<stdin>: valid\n');
    const bad = cli(['validate', '-'], '[1, 2');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^<stdin>:1:6: .* \[EXPECTED_COMMA_OR_BRACKET\]/);
  });

  it('several files: the worst status wins; a missing file is exit 2 with a clear message', () => {
    const r = cli(['validate', 'doc.json', 'bad.json']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('doc.json: valid\n');
    const missing = cli(['validate', 'doc.json', 'nope.json']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/cannot read 'nope\.json': no such file or directory/);
    const folder = cli(['validate', '.']);
    expect(folder.code).toBe(2);
    expect(folder.stderr).toMatch(/is a directory/);
  });

  it('no input is a usage error', () => {
    const r = cli(['validate']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/give a file/);
  });
});

describe('wasmjson fmt / minify', () => {
  it('fmt pretty-prints a file with 2 spaces by default', () => {
    const r = cli(['fmt', 'doc.json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(JSON.parse(DOC));
    expect(r.stdout).toContain('\n  "name": "wasmjson",\n');
    expect(r.stdout.endsWith('}\n')).toBe(true);
  });

  it('fmt --indent N and --tab; bad values are usage errors', () => {
    expect(cli(['fmt', '--indent', '4', 'doc.json']).stdout).toContain('\n    "name"');
    expect(cli(['fmt', '--indent=1', 'doc.json']).stdout).toContain('\n "name"');
    expect(cli(['fmt', '--tab', 'doc.json']).stdout).toContain('\n\t"name"');
    expect(cli(['fmt', '--indent', 'lots', 'doc.json']).code).toBe(2);
    // Only decimal digits: Number() would take '' and ' ' for 0, and '0x4' for 4.
    for (const bad of ['', ' ', '0x4', '1e0', '1.0', '-1', '11']) expect(cli(['fmt', `--indent=${bad}`, 'doc.json']).code, bad).toBe(2);
    expect(cli(['fmt', '--indent']).code).toBe(2);
    expect(cli(['fmt', '--tab', '--indent', '2', 'doc.json']).code).toBe(2);
  });

  it('fmt and minify read stdin (- or no file)', () => {
    const text = '[ 1 ,\n {"a" : "b"} ]';
    for (const args of [['fmt'], ['fmt', '-']]) {
      const r = cli(args, text);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe('[\n  1,\n  {\n    "a": "b"\n  }\n]\n');
    }
    for (const args of [['minify'], ['minify', '-']]) {
      const r = cli(args, text);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe('[1,{"a":"b"}]\n');
    }
  });

  it('minify removes whitespace and keeps the value', () => {
    const r = cli(['minify', file('spaced.json', '{\n  "a" : [ 1 , 2 ] ,\n  "s" : "x  y"\n}\n')]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('{"a":[1,2],"s":"x  y"}\n');
  });

  it('non-ASCII text survives both', () => {
    const text = '{"ru":"Война и мир","emoji":"😀","esc":"\\u0416\\n"}';
    expect(JSON.parse(cli(['fmt'], text).stdout)).toEqual(JSON.parse(text));
    expect(JSON.parse(cli(['minify'], text).stdout)).toEqual(JSON.parse(text));
  });

  it('invalid input: exit 1 with the same report as validate, nothing on stdout', () => {
    for (const c of ['fmt', 'minify']) {
      const r = cli([c, 'bad.json']);
      expect(r.code, c).toBe(1);
      expect(r.stdout, c).toBe('');
      expect(r.stderr, c).toMatch(/^bad\.json:3:14: /);
      expect(r.stderr, c).toContain('    |              ^');
    }
  });

  it('output too large to make is exit 2 with a one-line message (no stack trace)', () => {
    // 100,000 nested arrays prettified: about 20 GB of indentation.
    const r = cli(['fmt', file('deep-arrays.json', '['.repeat(100_000) + ']'.repeat(100_000))]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^wasmjson: fmt: deep-arrays\.json: .*do not fit/);
    expect(r.stderr).not.toContain('    at ');
    expect(r.stdout).toBe('');
  });

  it('a write error (a full disk) is exit 2 with one line; a closed stderr keeps the exit status', () => {
    if (existsSync('/dev/full')) {
      const r = spawnSync(process.execPath, [bin, 'fmt', 'doc.json'], { cwd: dir, stdio: ['ignore', openSync('/dev/full', 'w'), 'pipe'], encoding: 'utf8' });
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(/^wasmjson: cannot write the output: .*ENOSPC/);
      expect(r.stderr).not.toContain('    at ');
    }
    // stderr a pipe whose reader is gone: the missing file still exits 2 (not a crash's 1).
    const closed = spawnSync('bash', ['-c', `"${process.execPath}" "${bin}" fmt nope.json 2>&1 >/dev/null | true; echo "\${PIPESTATUS[0]}"`], { cwd: dir, encoding: 'utf8' });
    expect(closed.stdout.trim()).toBe('2');
  });

  it('a missing file is exit 2; two inputs are a usage error', () => {
    expect(cli(['fmt', 'nope.json']).code).toBe(2);
    expect(cli(['minify', 'nope.json']).stderr).toMatch(/cannot read 'nope\.json'/);
    expect(cli(['fmt', 'doc.json', 'doc.json']).code).toBe(2);
  });
});

describe('wasmjson query', () => {
  const q = (pointer: string, ...more: string[]) => cli(['query', pointer, 'doc.json', ...more]);

  it('evaluates RFC 6901 pointers: keys, indexes, ~1 and ~0 escapes, the empty key, the root', () => {
    expect(q('/name').stdout).toBe('"wasmjson"\n');
    expect(q('/list/1').stdout).toBe('2.5\n');
    expect(q('/list/2/a~1b/~0k').stdout).toBe('"v"\n');
    expect(q('/').stdout).toBe('"empty key"\n');
    expect(JSON.parse(q('').stdout)).toEqual(JSON.parse(DOC));
    expect(q('/nested').stdout).toBe('{\n  "deep": [\n    true,\n    null\n  ]\n}\n');
    expect(q('/nested/deep/1').stdout).toBe('null\n');
    expect(q('/nested').code).toBe(0);
  });

  it('a value nested 100,000 deep is printed (the library\'s iterative stringify)', () => {
    const depth = 100_000;
    file('deep-objects.json', '{"a":'.repeat(depth) + '1' + '}'.repeat(depth));
    const r = cli(['query', '-c', '/a', 'deep-objects.json']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('{"a":'.repeat(depth - 1) + '1' + '}'.repeat(depth - 1) + '\n');
  });

  it('--compact and --raw', () => {
    expect(q('/nested', '--compact').stdout).toBe('{"deep":[true,null]}\n');
    expect(q('/nested', '-c').stdout).toBe('{"deep":[true,null]}\n');
    expect(q('/name', '--raw').stdout).toBe('wasmjson\n');
  });

  it('the URI fragment form', () => {
    expect(q('#/list/2/a~1b').stdout).toBe('{\n  "~k": "v"\n}\n');
    expect(cli(['query', '#/a%20b'], '{"a b": 1}').stdout).toBe('1\n');
  });

  it('not found: exit 1 with what was missing', () => {
    const cases: [string, RegExp][] = [
      ['/missing', /no key "missing" in the object at the root/],
      ['/list/3', /index 3 is past the end \(length 3\)/],
      ['/list/-', /"-" is the position after the last element/],
      ['/list/01', /'01' is not an array index/],
      ['/name/x', /the value at \/name is string/],
    ];
    for (const [pointer, why] of cases) {
      const r = q(pointer);
      expect(r.code, pointer).toBe(1);
      expect(r.stdout, pointer).toBe('');
      expect(r.stderr, pointer).toMatch(why);
    }
  });

  it('inherited properties are not found', () => {
    expect(cli(['query', '/toString'], '{}').code).toBe(1);
    expect(cli(['query', '/__proto__'], '{"__proto__": 5}').stdout).toBe('5\n');
  });

  it('malformed pointers and missing arguments are usage errors (exit 2)', () => {
    expect(q('name').code).toBe(2);
    expect(q('name').stderr).toMatch(/starts with "\/"/);
    expect(q('/a~2').code).toBe(2);
    expect(q('/a~').code).toBe(2);
    expect(cli(['query']).code).toBe(2);
  });

  it('reads stdin (- or no file); invalid JSON is exit 1', () => {
    expect(cli(['query', '/a/0', '-'], '{"a": [42]}').stdout).toBe('42\n');
    expect(cli(['query', '/a/0'], '{"a": [42]}').stdout).toBe('42\n');
    const bad = cli(['query', '/a', '-'], '{"a": }');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^<stdin>:1:7: /);
    expect(cli(['query', '/a', 'nope.json']).code).toBe(2);
  });
});

describe('WASMJSON_FLAVOR', () => {
  it('forces a flavor; a value that is none is exit 2 naming the variable, not a broken build', () => {
    expect(cli(['validate', '-'], '[1]', { WASMJSON_FLAVOR: 'swar64' }).code).toBe(0);
    const bad = cli(['validate', '-'], '[1]', { WASMJSON_FLAVOR: 'bogus' });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/WASMJSON_FLAVOR='bogus' is not a flavor/);
    expect(bad.stderr).not.toMatch(/npm run build/);
  });
});

describe('wasmjson bench', () => {
  const quick = ['--rounds', '1', '--min-ms', '1', '--no-heap', '--no-peers'];

  it("runs the suite on the user's files, prints tables and geomeans, writes results with --out", () => {
    file('small.json', JSON.stringify({ a: [1, 2, 3], s: 'text', n: null }));
    const r = cli(['bench', 'small.json', 'doc.json', ...quick, '--ops', 'validate,parse-string', '--out', 'res', '--name', 'cli']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('small.json');
    expect(r.stdout).toContain('== validate(bytes)');
    expect(r.stdout).toContain('== parse(string)');
    expect(r.stdout).toMatch(/== geomeans/);
    expect(r.stdout).not.toContain('gen:'); // named files only: no built-in corpus
    const json = JSON.parse(readFileSync(join(dir, 'res/cli.json'), 'utf8'));
    expect(json.files.map((f: { name: string }) => f.name)).toEqual(['small.json', 'doc.json']);
    expect(json.mismatches).toEqual([]);
    expect(json.files[0].ops.validate.impls.simd128.mbps).toBeGreaterThan(0);
    expect(existsSync(join(dir, 'res/cli.html'))).toBe(true);
  });

  it('a folder means its .json files; .ndjson files are one document per line', () => {
    file('lines.ndjson', '{"a":1}\n{"a":2}\n\n[3]\n');
    const r = cli(['bench', 'lines.ndjson', ...quick, '--ops', 'parse-bytes', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const json = JSON.parse(r.stdout);
    expect(json.files[0].docs).toBe(3);
    expect(json.files[0].ops['parse-bytes'].impls.swar64.ratio).toBeGreaterThan(0);
  });

  it('a file that is not JSON is skipped with a note, not a crash', () => {
    const r = cli(['bench', 'bad.json', 'doc.json', ...quick, '--ops', 'validate']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/bad\.json.*JSON\.parse rejects it/);
    // A file split by line names the line (V8's position in the message is the line's own).
    file('bad.ndjson', '{"a":1}\n\n{"b":2}\n{"c":x}\n');
    const lines = cli(['bench', 'bad.ndjson', 'doc.json', ...quick, '--ops', 'validate']);
    expect(lines.code, lines.stderr).toBe(0);
    expect(lines.stdout).toMatch(/bad\.ndjson: skipped: JSON\.parse rejects line 4: Unexpected token 'x'/);
  });

  it('bad options and missing files exit 2', () => {
    expect(cli(['bench', 'nope.json', ...quick]).code).toBe(2);
    expect(cli(['bench', 'nope.json', ...quick]).stderr).toMatch(/cannot read 'nope\.json'/);
    const ops = cli(['bench', 'doc.json', '--ops', 'frobnicate']);
    expect(ops.code).toBe(2);
    expect(ops.stderr).toMatch(/unknown operation 'frobnicate'/);
    expect(cli(['bench', 'doc.json', '--rounds', 'zero']).code).toBe(2);
    // A fraction of a round rounded to none would measure nothing.
    const fraction = cli(['bench', 'doc.json', '--rounds', '0.4']);
    expect(fraction.code).toBe(2);
    expect(fraction.stderr).toMatch(/--rounds needs a whole number/);
    expect(cli(['bench', 'doc.json', '--what']).code).toBe(2);
  });

  it('a folder named like a JSON file inside a folder is no document', () => {
    mkdirSync(join(dir, 'set/sub.json'), { recursive: true });
    file('set/one.json', '[1, 2]');
    const r = cli(['bench', 'set', ...quick, '--ops', 'validate', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).files.map((f: { name: string }) => f.name)).toEqual(['one.json']);
  });
});
