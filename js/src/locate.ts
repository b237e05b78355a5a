// Where a parse option's check failed, found in the source on the error path only: the
// builder knows which object and member (or that nesting went too deep), not where they
// are, since the tape holds no positions for keys. One forward scan, no recursion; the
// document is already known to be valid JSON.
import type { PolicyViolation } from './build.js';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

/**
 * The offset (UTF-16 index for a string, byte offset for bytes) of the violation: the
 * opening quote of the member's key, or the bracket that opens the first container
 * nested deeper than maxDepth. Structural characters are ASCII, so bytes are scanned
 * as they are.
 */
export function locateViolation(source: string | Uint8Array, v: PolicyViolation, maxDepth: number): number {
  const text = typeof source === 'string' ? source : undefined;
  const bytes = typeof source === 'string' ? undefined : source;
  const at = (i: number): number => (text !== undefined ? text.charCodeAt(i) : bytes![i]!);
  const n = source.length;
  const wantDepth = v.kind === 'depth';
  let depth = 0;
  let objects = 0;
  let targetDepth = -1; // depth inside the object in question, once reached
  let expectKey = false;
  let member = -1;
  for (let i = 0; i < n; i++) {
    const c = at(i);
    if (c === QUOTE) {
      if (depth === targetDepth && expectKey) {
        if (++member === v.member) return i;
        expectKey = false;
      }
      for (i++; i < n; i++) {
        const d = at(i);
        if (d === BACKSLASH) i++;
        else if (d === QUOTE) break;
      }
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      depth++;
      if (wantDepth && depth > maxDepth) return i;
      if (c === OPEN_BRACE) {
        if (!wantDepth && objects === v.objectIndex) {
          targetDepth = depth;
          expectKey = true;
        }
        objects++;
      }
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
    } else if (c === COMMA && depth === targetDepth) {
      expectKey = true;
    }
  }
  throw new Error(`wasmjson: internal error: ${v.kind} violation not found in the source`);
}
