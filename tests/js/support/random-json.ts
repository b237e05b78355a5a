// Deterministic generators for parse() specs: a seeded PRNG, JSON number texts, and
// random JSON documents written directly as text (so number spellings, escapes and
// whitespace vary in ways JSON.stringify never produces). Plus an iterative deep
// comparison that also checks key order, prototypes and property attributes.

/** mulberry32: small, fast, and the same sequence in every engine. */
export class Rng {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  /** An integer in [lo, hi]. */
  range(lo: number, hi: number): number {
    return lo + this.int(hi - lo + 1);
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)];
  }
}

function digits(rng: Rng, n: number, firstNonZero: boolean): string {
  let s = firstNonZero ? String(rng.range(1, 9)) : '';
  while (s.length < n) s += String(rng.int(10));
  return s;
}

/**
 * A decimal number text with 1..maxDigits significant digits whose magnitude is about
 * 10^[minExp, maxExp], in one of several valid JSON spellings.
 */
export function randomDecimal(rng: Rng, maxDigits = 25, minExp = -330, maxExp = 310): string {
  const sig = digits(rng, rng.range(1, maxDigits), true);
  const magnitude = rng.range(minExp, maxExp); // decimal exponent of the leading digit
  const sign = rng.chance(0.3) ? '-' : '';
  const expLetter = rng.chance(0.5) ? 'e' : 'E';
  const expText = (e: number) => {
    if (e === 0 && rng.chance(0.5)) return '';
    const plus = e >= 0 && rng.chance(0.5) ? '+' : '';
    return `${expLetter}${plus}${e}`;
  };
  switch (rng.int(4)) {
    case 0: {
      // d.ddd e(magnitude)
      const frac = sig.slice(1);
      return `${sign}${sig[0]}${frac ? '.' + frac : ''}${expLetter}${magnitude}`;
    }
    case 1: {
      // integer digits, exponent adjusted
      return `${sign}${sig}${expText(magnitude - (sig.length - 1))}`;
    }
    case 2: {
      // split somewhere: ddd.ddd e(...)
      const k = rng.range(1, sig.length);
      const frac = sig.slice(k);
      return `${sign}${sig.slice(0, k)}${frac ? '.' + frac : ''}${expText(magnitude - (k - 1))}`;
    }
    default: {
      // 0.000ddd e(...)
      const zeros = rng.int(6);
      return `${sign}0.${'0'.repeat(zeros)}${sig}${expText(magnitude + zeros + 1)}`;
    }
  }
}

const NUMBER_SPECIALS = [
  '0', '-0', '0.0', '-0.0', '0e0', '-0E+0', '0.0e-5', '1', '-1', '1.0', '1.5', '1e2', '1E2', '1e+2', '1e-2',
  '134217727', '134217728', '-134217728', '-134217729', '2147483647', '2147483648', '-2147483649',
  '4294967295', '4294967296', '9007199254740991', '9007199254740992', '9007199254740993', '-9007199254740993',
  '12345678901234567890', '1e23', '5e-324', '2.4703282292062327e-324', '2.4703282292062328e-324',
  '1.7976931348623157e308', '1.7976931348623159e308', '1e309', '-1e309', '1e-400', '-1e-400',
  '0.1', '0.2', '0.3', '123.456', '-0.000001', '1e-7', '100e-2', '0.5e1', '2.2250738585072011e-308',
  '2.2250738585072014e-308', '4.9406564584124654e-324', '8.98846567431158e307',
];

/** A number text: mostly random decimals, sometimes a known edge case or a small int. */
export function randomNumberText(rng: Rng): string {
  const r = rng.int(10);
  if (r < 3) return rng.pick(NUMBER_SPECIALS);
  if (r < 6) return String(rng.range(-1000, 100000));
  if (r < 7) return String(rng.range(-(2 ** 31), 2 ** 31));
  return randomDecimal(rng, 20, -30, 30);
}

// Characters strings are made of, by class.
const ASCII = 'abcdefghijklmnopqrstuvwxyzABCXYZ0123456789 _-.,:;!?#$%&*+=/<>()[]{}~`^|@\'';
const NEEDS_ESCAPE = ['"', '\\', '\b', '\f', '\n', '\r', '\t', '\u0000', '\u0001', '\u001f', '\u007f'];
const LATIN_AND_BMP = ['é', 'ß', 'ø', 'ñ', 'Ω', 'ж', 'ק', 'ع', '中', '文', '日', '€', '\u2028', '\u2029', '\ufeff', '\ufffd', '\u00a0', '\u0300', '\uffff'];
const ASTRAL = ['😀', '🎉', '𝄞', '𠀋', '\u{10ffff}', '\u{10000}'];
const LONE = ['\ud800', '\udbff', '\udc00', '\udfff', '\ud83d'];

const SHORT_ESCAPES: Record<string, string> = {
  '"': '\\"', '\\': '\\\\', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t', '/': '\\/',
};

function hex4(code: number, rng: Rng): string {
  const h = code.toString(16).padStart(4, '0');
  return '\\u' + (rng.chance(0.5) ? h : h.toUpperCase());
}

/** Writes one UTF-16 unit or pair as JSON string content. */
function writeChar(ch: string, rng: Rng, escapeRate: number): string {
  const code = ch.charCodeAt(0);
  const lone = ch.length === 1 && code >= 0xd800 && code <= 0xdfff;
  if (lone) return hex4(code, rng); // lone surrogates only as escapes: the text stays well-formed
  const mustEscape = code < 0x20 || ch === '"' || ch === '\\';
  if (mustEscape || rng.chance(escapeRate)) {
    if (SHORT_ESCAPES[ch] && rng.chance(0.7)) return SHORT_ESCAPES[ch];
    if (ch.length === 2) return hex4(code, rng) + hex4(ch.charCodeAt(1), rng);
    return hex4(code, rng);
  }
  return ch;
}

export function randomChars(rng: Rng, length: number): string[] {
  const out: string[] = [];
  const mix = rng.int(5); // some strings are escape-heavy, some unicode-heavy
  for (let i = 0; i < length; i++) {
    const r = rng.int(100);
    if (mix === 0 && r < 50) out.push(rng.pick(NEEDS_ESCAPE));
    else if (mix === 1 && r < 40) out.push(rng.pick(ASTRAL));
    else if (r < 70) out.push(ASCII[rng.int(ASCII.length)]);
    else if (r < 80) out.push(rng.pick(NEEDS_ESCAPE));
    else if (r < 90) out.push(rng.pick(LATIN_AND_BMP));
    else if (r < 96) out.push(rng.pick(ASTRAL));
    else out.push(rng.pick(LONE));
  }
  return out;
}

export function stringLiteral(chars: string[], rng: Rng, escapeRate: number): string {
  let s = '"';
  for (const ch of chars) s += writeChar(ch, rng, escapeRate);
  return s + '"';
}

const COMMON_KEYS = [
  'id', 'name', 'value', 'a', 'b', 'c', 'type', 'items', 'x', 'y', '', ' ', 'key with space', 'é', '😀', '中文',
  '0', '1', '2', '10', '42', '007', '-1', '1.5', '4294967294', '4294967295', '4294967296', '9007199254740993',
  '__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'length', 'prototype',
];

export interface GenOptions {
  maxDepth: number;
  maxWidth: number;
  /** Probability that a character that needs no escape is written as one anyway. */
  escapeRate: number;
  /** '' for compact; else an indent unit (with newline variants). */
  indent: string;
  /** Random extra whitespace between tokens. */
  noisyWhitespace: boolean;
  /** At most this many values in the document (containers stay empty once it is spent). */
  maxNodes: number;
}

export function randomOptions(rng: Rng): GenOptions {
  return {
    maxDepth: rng.pick([1, 2, 3, 4, 6, 10, 30]),
    maxWidth: rng.pick([1, 2, 4, 8, 16, 40]),
    escapeRate: rng.pick([0, 0, 0.05, 0.3, 1]),
    indent: rng.pick(['', '', '  ', '\t', ' ']),
    noisyWhitespace: rng.chance(0.25),
    maxNodes: rng.pick([5, 20, 60, 200, 400]),
  };
}

const WS = [' ', '\t', '\n', '\r', '\r\n', '  ', ' \n\t '];

/**
 * A random JSON document as text (always valid, always well-formed UTF-16), and the
 * value it denotes, built alongside by the generator itself: an oracle that does not
 * depend on the engine's JSON.parse.
 */
export function randomDocument(rng: Rng, opts: GenOptions = randomOptions(rng)): { text: string; value: unknown } {
  const nl = opts.indent ? rng.pick(['\n', '\r\n', '\n']) : '';
  const ws = () => (opts.noisyWhitespace && rng.chance(0.3) ? rng.pick(WS) : '');
  const key = (): [string, string] => {
    const r = rng.int(10);
    let chars: string[];
    if (r < 5) chars = [...rng.pick(COMMON_KEYS)];
    else if (r < 6) chars = randomChars(rng, rng.range(129, 140)); // too long to intern
    else chars = randomChars(rng, rng.range(0, 8));
    return [stringLiteral(chars, rng, opts.escapeRate), chars.join('')];
  };
  let budget = opts.maxNodes;
  const gen = (depth: number, pad: string): [string, unknown] => {
    budget--;
    const r = rng.int(20);
    // Deep chains: with a narrow width, containers get likelier the deeper the document wants to go.
    const container = depth < opts.maxDepth && (r < 8 || (opts.maxWidth <= 2 && r < 16));
    if (!container) {
      if (r < 11) {
        const t = randomNumberText(rng);
        return [t, Number(t)];
      }
      if (r < 16) {
        const chars = randomChars(rng, rng.pick([0, 1, 3, 8, 20, 70]));
        return [stringLiteral(chars, rng, opts.escapeRate), chars.join('')];
      }
      const t = rng.pick(['true', 'false', 'null']);
      return [t, t === 'null' ? null : t === 'true'];
    }
    const isArray = r % 2 === 0;
    const n = rng.chance(0.15) || budget <= 0 ? 0 : Math.min(budget, rng.range(1, opts.maxWidth));
    const inner = pad + opts.indent;
    const parts: string[] = [];
    const used: [string, string][] = [];
    const value: any = isArray ? [] : {};
    for (let i = 0; i < n; i++) {
      const [t, v] = gen(depth + 1, inner);
      if (isArray) {
        parts.push(ws() + t + ws());
        value.push(v);
      } else {
        // Duplicate keys now and then: the last one wins and keeps the first position.
        const k = used.length && rng.chance(0.1) ? rng.pick(used) : key();
        used.push(k);
        const colon = opts.indent ? ': ' : ':';
        parts.push(ws() + k[0] + ws() + colon + ws() + t + ws());
        Object.defineProperty(value, k[1], { value: v, writable: true, enumerable: true, configurable: true });
      }
    }
    const [open, close] = isArray ? ['[', ']'] : ['{', '}'];
    if (n === 0) return [open + ws() + close, value];
    if (!opts.indent) return [open + parts.join(',') + close, value];
    return [open + nl + parts.map((p) => inner + p).join(',' + nl) + nl + pad + close, value];
  };
  const before = ws();
  const [text, value] = gen(0, '');
  return { text: before + text + ws(), value };
}

const MUTATION_PIECES = [
  '{', '}', '[', ']', ',', ':', '"', '\\', 'u', '0', '1', '9', '-', '+', '.', 'e', 'E', 't', 'f', 'n', ' ', '\n',
  '\t', '\u0000', '\u001f', 'é', '😀', '\ud800', 'x', '\ufeff',
];

/** Deletes or inserts one random character (or piece) at a random position. */
export function mutate(rng: Rng, text: string): string {
  const at = rng.int(text.length + 1);
  if (text.length > 0 && rng.chance(0.5)) return text.slice(0, at) + text.slice(at + 1);
  return text.slice(0, at) + rng.pick(MUTATION_PIECES) + text.slice(at);
}

function isObject(v: unknown): v is object {
  return typeof v === 'object' && v !== null;
}

/**
 * Iterative deep comparison of two JSON.parse results: types, Object.is for
 * primitives, prototypes, own key order, and that every property is a plain writable,
 * enumerable, configurable data property. Returns '' when equal, else where they differ.
 */
export function jsonDiff(actual: unknown, expected: unknown): string {
  const stack: [unknown, unknown, string][] = [[actual, expected, '$']];
  while (stack.length) {
    const [a, e, path] = stack.pop()!;
    if (!isObject(e) || !isObject(a)) {
      if (!Object.is(a, e)) return `${path}: got ${show(a)}, expected ${show(e)}`;
      continue;
    }
    if (Array.isArray(a) !== Array.isArray(e)) return `${path}: array vs object`;
    if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(e)) return `${path}: different prototypes`;
    const ak = Reflect.ownKeys(a);
    const ek = Reflect.ownKeys(e);
    if (ak.length !== ek.length || ak.some((k, i) => k !== ek[i])) {
      return `${path}: keys ${show(ak.map(String))} vs expected ${show(ek.map(String))}`;
    }
    for (const k of ek) {
      const ad = Object.getOwnPropertyDescriptor(a, k)!;
      const ed = Object.getOwnPropertyDescriptor(e, k)!;
      if (ad.writable !== ed.writable || ad.enumerable !== ed.enumerable || ad.configurable !== ed.configurable ||
          ('value' in ad) !== ('value' in ed)) {
        return `${path}[${show(String(k))}]: property attributes differ`;
      }
      stack.push([ad.value, ed.value, `${path}[${show(String(k))}]`]);
    }
  }
  return '';
}

function show(v: unknown): string {
  if (typeof v === 'number' && Object.is(v, -0)) return '-0';
  if (typeof v === 'string') return JSON.stringify(v).slice(0, 80);
  try {
    return (JSON.stringify(v) ?? String(v)).slice(0, 80);
  } catch {
    return String(v);
  }
}

/** Own key order of every object and array, in a fixed walk order (iterative). */
export function keyOrders(value: unknown): string[][] {
  const out: string[][] = [];
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    if (!isObject(v)) continue;
    const keys = Object.keys(v);
    out.push(keys);
    for (let i = keys.length - 1; i >= 0; i--) stack.push((v as Record<string, unknown>)[keys[i]]);
  }
  return out;
}
