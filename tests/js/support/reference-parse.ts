// A small, independent JSON parser used only as a tie-breaker in differential tests:
// V8's own JSON.parse (Node 20 to 26) sometimes decodes an escaped one-character key
// wrongly, depending on the keys around it. Strings and numbers are decoded by the
// engine one literal at a time (JSON.parse of a lone string, Number()), which that bug
// does not touch; structure and key handling are written out here. Recursive: only for
// the generator's shallow documents.
export function referenceParse(text: string): unknown {
  let i = 0;
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i])) i++;
  };
  const fail = (): never => {
    throw new SyntaxError(`reference parser: unexpected input at ${i}`);
  };
  const str = (): string => {
    const start = i++;
    while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    if (i >= text.length) fail();
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const value = (): unknown => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      const o: Record<string, unknown> = {};
      ws();
      if (text[i] === '}') return i++, o;
      for (;;) {
        ws();
        if (text[i] !== '"') fail();
        const k = str();
        ws();
        if (text[i++] !== ':') fail();
        Object.defineProperty(o, k, { value: value(), writable: true, enumerable: true, configurable: true });
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === '}') return i++, o;
        else fail();
      }
    }
    if (c === '[') {
      i++;
      const a: unknown[] = [];
      ws();
      if (text[i] === ']') return i++, a;
      for (;;) {
        a.push(value());
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === ']') return i++, a;
        else fail();
      }
    }
    if (c === '"') return str();
    const m = /^(?:-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?|true|false|null)/.exec(text.slice(i, i + 400));
    if (!m) fail();
    i += m![0].length;
    return m![0] === 'true' ? true : m![0] === 'false' ? false : m![0] === 'null' ? null : Number(m![0]);
  };
  const v = value();
  ws();
  if (i !== text.length) fail();
  return v;
}
