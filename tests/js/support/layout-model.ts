// A model of minify() and prettify() over valid JSON text: its tokens as written
// (strings and numbers verbatim, so escapes and digits survive), laid out as
// JSON.stringify lays out a value with the same gap. Shared by tests/differential-text.mjs
// and tests/js/support/reentrancy-cases.ts; no node: imports (the specs run in browsers).

const WHITESPACE = ' \t\n\r';
const PUNCTUATION = '{}[],:';

/** The tokens of valid JSON text: strings, numbers and literals as written, and punctuation. */
export function jsonTokens(text: string): string[] {
  const tokens: string[] = [];
  for (let i = 0; i < text.length; ) {
    const c = text[i];
    // (A byte order mark can only lead the text: whitespace to the model.)
    if (WHITESPACE.includes(c) || c === '\ufeff') {
      i++;
      continue;
    }
    let end = i + 1;
    if (c === '"') {
      while (text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      end++;
    } else if (!PUNCTUATION.includes(c)) {
      while (end < text.length && !WHITESPACE.includes(text[end]) && !PUNCTUATION.includes(text[end])) end++;
    }
    tokens.push(text.slice(i, end));
    i = end;
  }
  return tokens;
}

/** The tokens laid out as JSON.stringify does with indent `gap` ('': minified). */
export function layoutOf(tokens: readonly string[], gap: string): string {
  if (gap === '') return tokens.join('');
  const parts: string[] = [];
  let depth = 0;
  const newline = () => '\n' + gap.repeat(depth);
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t === '{' || t === '[') {
      const close = t === '{' ? '}' : ']';
      if (tokens[i + 1] === close) {
        parts.push(t + close);
        i++;
      } else {
        depth++;
        parts.push(t + newline());
      }
    } else if (t === '}' || t === ']') {
      depth--;
      parts.push(newline() + t);
    } else if (t === ',') {
      parts.push(',' + newline());
    } else if (t === ':') {
      parts.push(': ');
    } else {
      parts.push(t);
    }
  }
  return parts.join('');
}
