// A JSON string's escapes undone in JS, from the document's text. For a string with a
// few escapes this costs less than a decoder call does in browsers (Chromium: about
// 0.05 us for a 120-character title with two escapes, where a TextDecoder call costs
// 0.3-0.5 us), so parse() uses it there for documents with little escaped text (see
// Tape.asciiSource in build.ts). Wasm has checked the string: every backslash starts a
// valid escape.

/** The character a one-letter escape stands for, by the letter's code. */
function simple(c: number): string {
  switch (c) {
    case 0x62:
      return '\b';
    case 0x66:
      return '\f';
    case 0x6e:
      return '\n';
    case 0x72:
      return '\r';
    case 0x74:
      return '\t';
    default:
      return c === 0x22 ? '"' : c === 0x2f ? '/' : '\\';
  }
}

/** The value of a hex digit's code (checked by wasm: 0-9, a-f, A-F). */
function hex(c: number): number {
  return c <= 0x39 ? c - 0x30 : (c | 0x20) - 0x57;
}

/**
 * The string whose source text (between its quotes) is text[begin, end), given `shrink`:
 * how many units shorter than its source the string is (1 for each one-letter escape,
 * 5 for each \u escape). That count says when the last escape is behind: the search
 * for a backslash never runs past it into the rest of the document.
 */
export function unescapeSource(text: string, begin: number, end: number, shrink: number): string {
  let out = '';
  let from = begin;
  while (shrink > 0) {
    const i = text.indexOf('\\', from);
    out += text.slice(from, i);
    const c = text.charCodeAt(i + 1);
    if (c === 0x75) {
      out += String.fromCharCode(
        (hex(text.charCodeAt(i + 2)) << 12) | (hex(text.charCodeAt(i + 3)) << 8) | (hex(text.charCodeAt(i + 4)) << 4) | hex(text.charCodeAt(i + 5)),
      );
      from = i + 6;
      shrink -= 5;
    } else {
      out += simple(c);
      from = i + 2;
      shrink -= 1;
    }
  }
  return out + text.slice(from, end);
}
