// The longest string the engine can make. Output past it is JSON.stringify's
// RangeError 'Invalid string length'; knowing the limit lets a writer stop there rather
// than fill wasm memory first (which never shrinks): prettify of a 1,000,000-deep array
// wrote 4 GiB before its text failed to become a string.

/** Lengths every engine's strings reach (V8's limit is 2^29 - 24 units, the others' larger). */
export const EVERY_ENGINE_REACHES = 2 ** 28;

// The limits of known engines, longest first: JavaScriptCore, SpiderMonkey, V8 (64-bit).
const KNOWN_LIMITS = [2 ** 31 - 1, 2 ** 30 - 2, 2 ** 29 - 24];

let longest = 0;

/** The longest string this engine makes, in UTF-16 units (asked of it once). */
export function longestString(): number {
  if (longest === 0) {
    const known = KNOWN_LIMITS.find((n) => makes(n));
    if (known !== undefined && !makes(known + 1)) {
      longest = known;
    } else {
      // Another engine: a bisection between what every engine and what none makes.
      let lo = known ?? EVERY_ENGINE_REACHES;
      let hi = 2 ** 32;
      while (hi - lo > 1) {
        const mid = lo + Math.floor((hi - lo) / 2);
        if (makes(mid)) lo = mid;
        else hi = mid;
      }
      longest = lo;
    }
  }
  return longest;
}

/** JSON.stringify's error for output longer than a string can be. */
export function stringTooLong(): RangeError {
  return new RangeError('Invalid string length');
}

/** Whether a string of n units can exist here. */
export function fitsInString(n: number): boolean {
  return n <= EVERY_ENGINE_REACHES || n <= longestString();
}

/**
 * Whether the engine makes a string of n units: built by doubling concatenations, which
 * every engine keeps as ropes (no n units are allocated; 'x'.repeat(n) of one character
 * is a flat string in JavaScriptCore), and a RangeError past its limit.
 */
function makes(n: number): boolean {
  try {
    let text = 'x'.repeat(n % 16);
    let piece = 'xxxxxxxxxxxxxxxx';
    for (let k = Math.floor(n / 16); k > 0; k = Math.floor(k / 2)) {
      if (k % 2 === 1) text += piece;
      if (k > 1) piece += piece;
    }
    return text.length === n;
  } catch {
    return false;
  }
}
