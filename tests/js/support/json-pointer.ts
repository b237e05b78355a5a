// The reference for at() and LazyNode.at(): RFC 6901 evaluated on a parsed value.

/** A key or index as a pointer token: '~' as '~0', '/' as '~1' (RFC 6901, section 3). */
export function pointerToken(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** What evaluatePointer gives for a pointer that breaks RFC 6901's syntax. */
export const INVALID_POINTER: unique symbol = Symbol('invalid JSON Pointer');

/**
 * The value `pointer` leads to in `value`, undefined where nothing is, or INVALID_POINTER
 * when it is not RFC 6901's (not empty and not starting with '/', or a '~' not followed by
 * 0 or 1), whatever the value holds.
 */
export function evaluatePointer(value: unknown, pointer: string): unknown {
  if (pointer !== '' && pointer[0] !== '/') return INVALID_POINTER;
  if (/~[^01]|~$/.test(pointer)) return INVALID_POINTER;
  if (pointer === '') return value;
  let v: any = value;
  for (const raw of pointer.slice(1).split('/')) {
    const t = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(v)) {
      if (!/^(0|[1-9][0-9]*)$/.test(t) || Number(t) >= v.length) return undefined;
      v = v[Number(t)];
    } else if (v !== null && typeof v === 'object' && Object.prototype.hasOwnProperty.call(v, t)) {
      v = v[t];
    } else {
      return undefined;
    }
  }
  return v;
}
