// A model of parse's checking options (duplicateKeys, protoAction, constructorAction,
// maxDepth) for tests: a small recursive-descent parser, written independently of the
// codec, that applies the same rules in the order the codec meets them (a container's
// depth when it opens; an object's keys when it closes: repeats first, then __proto__ and
// constructor in member order) and says where the first violation is (UTF-16 offset).
// Recursive: only for generated documents of modest depth. Input must be valid JSON.
// compareWithModel says how a codec's parse differs from it (the spec and
// tests/differential.mjs use it; the .ts extension lets Node run this file as it is).
import { jsonDiff, keyOrders } from './random-json.ts';
export type Action = 'ignore' | 'error' | 'remove';
export interface Policy {
  duplicateKeys?: 'last' | 'error';
  protoAction?: Action;
  constructorAction?: Action;
  maxDepth?: number;
}
export type Outcome = { value: unknown } | { code: string; offset: number; key?: string };

// (Plain fields: Node runs this file with type stripping only, for tests/differential.mjs.)
class Violation {
  readonly code: string;
  readonly offset: number;
  readonly key?: string;
  constructor(code: string, offset: number, key?: string) {
    this.code = code;
    this.offset = offset;
    this.key = key;
  }
}

/** The model: the document's value under `policy`, or its first violation (UTF-16 offset). */
export function checkedParse(text: string, policy: Policy): Outcome {
  const maxDepth = policy.maxDepth ?? Infinity;
  let i = 0;
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i])) i++;
  };
  const literal = (): string => {
    const start = i++;
    while (text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    i++;
    return text.slice(start, i);
  };
  const value = (depth: number): unknown => {
    ws();
    const c = text[i];
    if (c === '[' || c === '{') {
      if (depth + 1 > maxDepth) throw new Violation('TOO_DEEP', i);
      i++;
      ws();
      if (c === '[') {
        const a: unknown[] = [];
        if (text[i] === ']') return i++, a;
        for (;;) {
          a.push(value(depth + 1));
          ws();
          if (text[i++] === ']') return a;
        }
      }
      const members: { key: string; at: number; value: unknown }[] = [];
      if (text[i] !== '}') {
        for (;;) {
          ws();
          const at = i;
          const key = JSON.parse(literal()) as string;
          ws();
          i++; // ':'
          members.push({ key, at, value: value(depth + 1) });
          ws();
          if (text[i++] === '}') break;
        }
      } else {
        i++;
      }
      if (policy.duplicateKeys === 'error') {
        for (let j = 1; j < members.length; j++) {
          if (members.slice(0, j).some((m) => m.key === members[j].key)) throw new Violation('DUPLICATE_KEY', members[j].at, members[j].key);
        }
      }
      const o: Record<string, unknown> = {};
      for (const m of members) {
        let action: Action = 'ignore';
        if (m.key === '__proto__') action = policy.protoAction ?? 'ignore';
        else if (m.key === 'constructor' && typeof m.value === 'object' && m.value !== null && Object.hasOwn(m.value, 'prototype')) {
          action = policy.constructorAction ?? 'ignore';
        }
        if (action === 'error') throw new Violation(m.key === '__proto__' ? 'FORBIDDEN_PROTO' : 'FORBIDDEN_CONSTRUCTOR', m.at);
        if (action === 'remove') continue;
        Object.defineProperty(o, m.key, { value: m.value, writable: true, enumerable: true, configurable: true });
      }
      return o;
    }
    if (c === '"') return JSON.parse(literal());
    const start = i;
    while (i < text.length && !' \t\n\r,]}'.includes(text[i])) i++;
    return JSON.parse(text.slice(start, i));
  };
  try {
    return { value: value(0) };
  } catch (e) {
    if (!(e instanceof Violation)) throw e;
    return { code: e.code, offset: e.offset, key: e.key };
  }
}


/**
 * '' when `run` (a parse of `text`, or of its UTF-8 when `bytes`) gives the model's
 * outcome: its value with the same key order, or its error code at its offset (a byte
 * offset for bytes) with the duplicate key named in the message; else what differs.
 */
export function compareWithModel(run: () => unknown, expected: Outcome, text: string, bytes: boolean): string {
  const offset = 'code' in expected ? (bytes ? new TextEncoder().encode(text.slice(0, expected.offset)).length : expected.offset) : 0;
  let got: unknown;
  try {
    got = run();
  } catch (e) {
    const err = e as Error & { code?: string; offset?: number };
    if (!('code' in expected)) return `threw ${err.message}`;
    if (!(err instanceof SyntaxError)) return `threw a ${err.name}`;
    if (err.code !== expected.code || err.offset !== offset) return `threw ${err.code} at ${err.offset}, expected ${expected.code} at ${offset}`;
    if (expected.key !== undefined && !err.message.includes(JSON.stringify(expected.key))) return `message without the key: ${err.message}`;
    return '';
  }
  if ('code' in expected) return `returned a value, expected ${expected.code} at ${offset}`;
  return jsonDiff(got, expected.value) || (JSON.stringify(keyOrders(got)) === JSON.stringify(keyOrders(expected.value)) ? '' : 'key order');
}
