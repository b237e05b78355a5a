// Tape -> JS values (docs/TAPE.md). Iterative: open containers live on an explicit
// stack, so depth is limited by memory only. Nothing here calls user code, so the tape
// (in wasm memory) is fully consumed before a reviver or anything else can run.

const T_NULL = 0;
const T_FALSE = 1;
const T_TRUE = 2;
const T_INT = 3;
const T_DOUBLE = 4;
const T_STRING = 5;
const T_STRING_ESC = 6;
const T_KEY = 7;
const T_KEY_NEW = 8;
const T_KEY_NEW_ESC = 9;
const T_ARRAY_BEGIN = 10;
const T_OBJECT_BEGIN = 11;
const T_ARRAY_END = 12;
const NO_ID = (1 << 28) - 1;

/** Key strings by wasm key id, kept across parses (cleared when wasm resets its table). */
export class KeyCache {
  strings: string[] = [];
  /** False for keys that plain assignment would not define as own data properties. */
  assignable: boolean[] = [];
  clear(): void {
    this.strings.length = 0;
    this.assignable.length = 0;
  }
}

/**
 * Whether `obj[key] = v` on a fresh plain object defines an own data property, as
 * JSON.parse does. Not for keys Object.prototype has (`__proto__` would change the
 * prototype; a setter or a non-writable property would intercept the store).
 */
function isAssignable(key: string): boolean {
  return !(key in Object.prototype);
}

function defineData(obj: object, key: string, value: unknown): void {
  Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
}

/** The memory views and positions of one tape. */
export interface Tape {
  words: Int32Array; // all of memory as i32
  start: number; // index of the first word
  end: number; // index after the last word
  numbers: Float64Array; // all of memory as f64
  numbersStart: number;
  utf16: Uint16Array; // all of memory as u16
  utf16Start: number;
}

export function utf16String(u16: Uint16Array, begin: number, end: number): string {
  if (end - begin <= 2048) return String.fromCharCode.apply(null, u16.subarray(begin, end) as unknown as number[]);
  let s = '';
  for (let i = begin; i < end; i += 2048) {
    s += String.fromCharCode.apply(null, u16.subarray(i, Math.min(end, i + 2048)) as unknown as number[]);
  }
  return s;
}

/** Source record of one parsed value, for revivers (JSON.parse source text access). */
export interface ParseRecord {
  value: unknown;
  /** Exact source text, for primitives. */
  source?: string;
  /** For arrays. */
  elements?: ParseRecord[];
  /** For objects: the record of the last value stored under each key. */
  entries?: Map<string, ParseRecord>;
}

/**
 * Builds the value. `text` is the document as a JS string (tape offsets index it).
 * With `records`, every primitive entry carries two extra words (its source range) and
 * a ParseRecord tree is built alongside; it is returned in records.root.
 */
export function buildValue(
  tape: Tape,
  text: string,
  keys: KeyCache,
  records: { root?: ParseRecord } | undefined,
  /** The source string is not well-formed UTF-16: escaped strings are re-read from it. */
  illFormed: boolean,
): unknown {
  const w32 = tape.words;
  const f64 = tape.numbers;
  const u16 = tape.utf16;
  const u16Base = tape.utf16Start;
  const withSource = records !== undefined;
  // Open containers: the parent's container, key and flags (bit 0: in array, bit 1: key assignable).
  const parents: any[] = [];
  const parentKeys: string[] = [];
  const parentFlags: number[] = [];
  const parentRecs: (ParseRecord | undefined)[] = [];
  let cur: any = undefined;
  let inArray = false;
  let key = '';
  let keyOk = true;
  let rec: ParseRecord | undefined;
  let result: unknown;
  let ni = tape.numbersStart;
  let i = tape.start;
  const end = tape.end;

  while (i < end) {
    const w = w32[i];
    let v: unknown;
    switch (w & 15) {
      case T_NULL:
        v = null;
        i += 1;
        break;
      case T_FALSE:
        v = false;
        i += 1;
        break;
      case T_TRUE:
        v = true;
        i += 1;
        break;
      case T_INT:
        v = w >> 4;
        i += 1;
        break;
      case T_DOUBLE:
        v = f64[ni++];
        i += 1;
        break;
      case T_STRING:
        v = text.slice(w32[i + 1], w32[i + 2]);
        i += 3;
        break;
      case T_STRING_ESC:
        v = illFormed
          ? rawString(text, w32[i + 3], w32[i + 4])
          : utf16String(u16, u16Base + w32[i + 1], u16Base + w32[i + 2]);
        i += 5;
        break;
      case T_KEY: {
        const id = w >>> 4;
        key = keys.strings[id];
        keyOk = keys.assignable[id];
        i += 1;
        continue;
      }
      case T_KEY_NEW:
      case T_KEY_NEW_ESC: {
        if ((w & 15) === T_KEY_NEW) {
          key = text.slice(w32[i + 1], w32[i + 2]);
          i += 3;
        } else {
          key = illFormed
            ? rawString(text, w32[i + 3], w32[i + 4])
            : utf16String(u16, u16Base + w32[i + 1], u16Base + w32[i + 2]);
          i += 5;
        }
        keyOk = isAssignable(key);
        const id = w >>> 4;
        if (id !== NO_ID) {
          keys.strings[id] = key;
          keys.assignable[id] = keyOk;
        }
        continue;
      }
      case T_ARRAY_BEGIN:
      case T_OBJECT_BEGIN: {
        parents.push(cur);
        parentKeys.push(key);
        parentFlags.push((inArray ? 1 : 0) | (keyOk ? 2 : 0));
        inArray = (w & 15) === T_ARRAY_BEGIN;
        cur = inArray ? [] : {};
        if (withSource) {
          parentRecs.push(rec);
          rec = inArray ? { value: cur, elements: [] } : { value: cur, entries: new Map() };
        }
        i += 1;
        continue;
      }
      default: {
        // T_ARRAY_END, T_OBJECT_END
        v = cur;
        i += 1;
        let done: ParseRecord | undefined;
        if (withSource) {
          done = rec;
          rec = parentRecs.pop();
        }
        const f = parentFlags.pop()!;
        inArray = (f & 1) !== 0;
        keyOk = (f & 2) !== 0;
        key = parentKeys.pop()!;
        cur = parents.pop();
        if (withSource) {
          if (cur === undefined) records!.root = done;
          else attach(rec!, inArray, key, done!);
        }
        if (cur === undefined) result = v;
        else if (inArray) cur.push(v);
        else if (keyOk) cur[key] = v;
        else defineData(cur, key, v);
        continue;
      }
    }
    // A primitive value.
    if (withSource) {
      const r: ParseRecord = { value: v, source: text.slice(w32[i], w32[i + 1]) };
      i += 2;
      if (cur === undefined) records!.root = r;
      else attach(rec!, inArray, key, r);
    }
    if (cur === undefined) result = v;
    else if (inArray) cur.push(v);
    else if (keyOk) cur[key] = v;
    else defineData(cur, key, v);
  }
  return result;
}

/**
 * An escaped string read from source text that has lone surrogates (which the UTF-8
 * copy in wasm could not carry): the engine's own JSON.parse decodes the literal.
 */
function rawString(text: string, begin: number, end: number): string {
  return JSON.parse(`"${text.slice(begin, end)}"`) as string;
}

function attach(parent: ParseRecord, inArray: boolean, key: string, child: ParseRecord): void {
  if (inArray) parent.elements!.push(child);
  else parent.entries!.set(key, child);
}
