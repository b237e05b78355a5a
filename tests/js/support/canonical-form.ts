// Which JSON values RFC 8785 (JCS) can write. Shared by the differential scripts and
// tests/js/support/reentrancy-cases.ts; no node: imports (the specs run in browsers).

/**
 * Whether RFC 8785 can write a JSON value (as JSON.parse gives them): no lone surrogate
 * in any string or key, and every number finite (JSON text's 1e400 parses to Infinity).
 */
export function canonicalizable(v: unknown): boolean {
  const stack = [v];
  while (stack.length) {
    const x = stack.pop();
    if (typeof x === 'number' && !Number.isFinite(x)) return false;
    if (typeof x === 'string' && !x.isWellFormed()) return false;
    if (typeof x === 'object' && x !== null) {
      for (const k of Object.keys(x)) {
        if (!k.isWellFormed()) return false;
        stack.push((x as Record<string, unknown>)[k]);
      }
    }
  }
  return true;
}
