// Turning UTF-8 (and UTF-16) in memory into JS strings. Node's Buffer methods do it 2-3x
// faster than TextDecoder (Node 26, measured on the corpus: UTF-8 twitter.json 2.7 vs 1.2
// GB/s, canada.json 6.4 vs 1.9 GB/s; UTF-16 gsoc-2018.json's text 2.9x), so they are used
// wherever Node's Buffer is present; browsers get TextDecoder. Both keep a leading U+FEFF (tape offsets count it) and both would write
// U+FFFD for ill-formed bytes, which never reach here: inputs are validated first.

export interface NodeBuffer extends Uint8Array {
  ucs2Write(s: string, offset: number, length: number): number;
  latin1Slice(start: number, end: number): string;
  utf8Slice(start: number, end: number): string;
  utf8Write(s: string, offset: number, length: number): number;
}
type BufferCtor = {
  from(buffer: ArrayBufferLike): NodeBuffer;
  prototype: {
    utf8Slice(this: Uint8Array, start: number, end: number): string;
    ucs2Slice?(this: Uint8Array, start: number, end: number): string;
  };
};

/** Node's Buffer, or undefined outside Node (browsers, bundlers' Buffer polyfills). */
export const NodeBufferCtor: BufferCtor | undefined = (() => {
  const g = globalThis as unknown as {
    Buffer?: BufferCtor;
    process?: { versions?: { node?: string } };
  };
  const B = g.Buffer;
  const proto = B?.prototype as Record<string, unknown> | undefined;
  return g.process?.versions?.node &&
    ['latin1Slice', 'utf8Slice', 'utf8Write', 'ucs2Write'].every((m) => typeof proto?.[m] === 'function')
    ? (B as BufferCtor)
    : undefined;
})();

const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
const nodeUtf8Slice = NodeBufferCtor?.prototype.utf8Slice;

// Large text is decoded in pieces that are joined. One string made at once by the
// engine's decoders costs far more per byte once it is large: on Node 26, latin1Slice
// makes 18 GB/s up to 256 KB but 0.3-1.5 GB/s from 512 KB, TextDecoder 14 GB/s vs
// 0.6-1.4 GB/s from 1 MB; 64 KB pieces joined by `+` and flattened make 18-23 GB/s at
// 1-8 MB (minify(canada.json) spent 53% of its time in one latin1Slice).
const PIECES_FROM = 256 * 1024;
const PIECE = 64 * 1024;

// Whether the joined pieces are flattened before they are returned. From V8 12 (Node 22
// on, Chromium) the engine's own results (JSON.stringify's, a decoder's) are flat
// strings: a rope would leave its flattening to the caller's first read, a cost native's
// results have already paid. V8 11 (Node 20) returns JSON.stringify's output as a rope
// itself, and flattening ours there made one large string in memory new to the process
// every call: without it, Node 20 runs stringify 1.46x, minify(text) 1.68x and
// prettify(text) 2.20x faster (A/B, 2 processes), parse unchanged.
const FLATTEN_PIECES = !(v8Major() < 12);

/**
 * Whether making a string of non-ASCII UTF-8 costs far more than making it of the same
 * text's UTF-16 units: Node 20's utf8Slice makes 560 KB of Cyrillic at about 180 MB/s
 * (V8 11's decoder), its ucs2Slice the same text's units, in pieces, in 32 us.
 * Outputs are then transcoded in wasm and made from their units (decodeUtf8In). Node
 * 22 (V8 12) as well: stringify of gen:cyrillic.json 0.51x -> 0.81x native there,
 * twitterescaped.json 0.77x -> 0.88x, gsoc-2018.json 10 -> 5.8 ms (3 processes each).
 * Not from V8 13: on Node 26 the same route made stringify(gsoc-2018.json) 1.5x slower,
 * and native's, timed beside it, 10x (the heap its large two-byte strings leave); on
 * Node 24 (V8 13.6) it made stringify 0.94x as fast (a process per build and file:
 * gen:cyrillic.json 0.80x, random.json 0.71x, twitter.json 0.99x).
 */
const UTF8_DECODING_IS_SLOW = NodeBufferCtor?.prototype.ucs2Slice !== undefined && v8Major() < 13;

/** What decodeUtf8In needs of a module (cpp/boundary/exports_write.cpp). */
export interface Utf8ToUtf16Exports {
  readonly memory: WebAssembly.Memory;
  wj_alloc(size: number): number;
  wj_free(ptr: number): void;
  wj_utf8_to_utf16(data: number, len: number, out: number): number;
}

/**
 * The well-formed UTF-8 at [begin, end) of a module's memory as a string. Where
 * UTF8_DECODING_IS_SLOW, made from its UTF-16 units, transcoded by the module (from
 * the bytes when memory cannot hold the units).
 */
export function decodeUtf8In(wasm: Utf8ToUtf16Exports, begin: number, end: number): string {
  if (UTF8_DECODING_IS_SLOW) {
    // (Unsigned: past 2 GiB of memory, addresses read as i32 are negative.)
    const out = wasm.wj_alloc(2 * (end - begin) + 2) >>> 0;
    if (out !== 0) {
      try {
        const units = wasm.wj_utf8_to_utf16(begin, end - begin, out) >>> 0;
        const bytes = new Uint8Array(wasm.memory.buffer);
        // As many units as bytes: all ASCII, a one-byte string made from the bytes.
        return units === end - begin ? decodeAscii(bytes, begin, end) : decodeUtf16(bytes, out, out + 2 * units);
      } finally {
        wasm.wj_free(out);
      }
    }
  }
  return decodeUtf8(new Uint8Array(wasm.memory.buffer), begin, end);
}

/** The engine's V8 major version in Node (NaN elsewhere). */
function v8Major(): number {
  return Number((globalThis as { process?: { versions?: { v8?: string } } }).process?.versions?.v8?.split('.')[0]);
}

/**
 * bytes[begin, end) decoded piece by piece with `decode`, the pieces ending where
 * `cut(bytes, at)` moves each cut (a character boundary), joined into one flat string.
 */
function decodePieces(
  decode: (bytes: Uint8Array, begin: number, end: number) => string,
  cut: (bytes: Uint8Array, at: number) => number,
  bytes: Uint8Array,
  begin: number,
  end: number,
): string {
  let text = '';
  for (let p = begin; p < end; ) {
    const q = end - p > PIECE ? cut(bytes, p + PIECE) : end;
    text += decode(bytes, p, q);
    p = q;
  }
  // The joined pieces are a rope; reading one character makes the engine flatten it into
  // one string now, so callers get what a single decode would have given them.
  if (FLATTEN_PIECES) text.charCodeAt(0);
  return text;
}

/** A cut moved back to the start of a UTF-8 sequence (never past a whole one). */
function utf8Cut(bytes: Uint8Array, at: number): number {
  let q = at;
  while ((bytes[q] & 0xc0) === 0x80 && at - q < 3) q--;
  return q;
}

/** A cut that keeps a surrogate pair whole (UTF-16LE, `at` even). */
function utf16Cut(bytes: Uint8Array, at: number): number {
  const unit = bytes[at - 2] | (bytes[at - 1] << 8);
  return unit >= 0xd800 && unit < 0xdc00 ? at - 2 : at;
}

const asciiCut = (_bytes: Uint8Array, at: number): number => at;

/** bytes[begin, end) decoded as UTF-8. Works on views of shared memory too. */
export function decodeUtf8(bytes: Uint8Array, begin = 0, end = bytes.length): string {
  return end - begin >= PIECES_FROM ? decodePieces(decodeUtf8Once, utf8Cut, bytes, begin, end) : decodeUtf8Once(bytes, begin, end);
}

function decodeUtf8Once(bytes: Uint8Array, begin: number, end: number): string {
  if (nodeUtf8Slice !== undefined) return nodeSlice(nodeUtf8Slice, bytes, begin, end);
  if (end - begin <= SHORT_ASCII_MAX_BYTES) {
    const text = shortAscii(bytes, begin, end);
    if (text !== undefined) return text;
  }
  // TextDecoder refuses views of shared memory.
  let view = bytes.subarray(begin, end);
  if (typeof SharedArrayBuffer !== 'undefined' && view.buffer instanceof SharedArrayBuffer) view = view.slice();
  return decoder.decode(view);
}

/**
 * Outside Node, ASCII text up to this many bytes is made by String.fromCharCode: a
 * TextDecoder call costs about 0.5 us in Chromium, fromCharCode 0.17 us for 16 bytes and
 * 0.43 us for 64 (a lazy document's keys, at()'s scalars, small string heaps).
 */
const SHORT_ASCII_MAX_BYTES = 64;

function shortAscii(bytes: Uint8Array, begin: number, end: number): string | undefined {
  for (let i = begin; i < end; i++) if (bytes[i] > 0x7f) return undefined;
  return String.fromCharCode.apply(null, bytes.subarray(begin, end) as unknown as number[]);
}

/**
 * In Node, text of up to this many bytes is joined from one-character strings when it is
 * ASCII: latin1Slice and utf8Slice cost 110-150 ns a call there (Node 26), the joins
 * 25 ns for one byte and 130 ns for 8 (stringify(1), stringify(true), small heaps).
 */
const TINY_TEXT_MAX_BYTES = 8;
/** The one-character strings of the code units below 0x80 (V8 keeps them as constants). */
const ASCII_CHARS: readonly string[] = Array.from({ length: 0x80 }, (_, c) => String.fromCharCode(c));

/**
 * bytes[begin, end) by one of Node's Buffer decoders (`slice`), or joined a character at
 * a time when the text is tiny and ASCII (what every decoder makes of ASCII).
 */
function nodeSlice(slice: (this: Uint8Array, start: number, end: number) => string, bytes: Uint8Array, begin: number, end: number): string {
  if (end - begin <= TINY_TEXT_MAX_BYTES) {
    let text = '';
    let i = begin;
    for (; i < end && bytes[i] <= 0x7f; i++) text += ASCII_CHARS[bytes[i]];
    if (i === end) return text;
  }
  return slice.call(bytes, begin, end);
}

const nodeLatin1Slice = (NodeBufferCtor?.prototype as { latin1Slice?: (this: Uint8Array, start: number, end: number) => string } | undefined)
  ?.latin1Slice;

/**
 * Whether a call to decode a few bytes costs little: Node's latin1Slice takes 70-100 ns
 * a call, a TextDecoder call 0.3-0.5 us in Chromium.
 */
export const DECODER_CALLS_ARE_CHEAP = nodeLatin1Slice !== undefined;

/**
 * bytes[begin, end), all ASCII, as a string. Node's latin1Slice copies the bytes as they
 * are: 1.2-1.7x faster than its UTF-8 decoder on ASCII text (Node 26, 0.6-2.2 MB).
 * With `latin1` (string-builtins.ts: `bytes` is then all of the wasm memory it reads),
 * short text is made by it: in Chromium 156 it costs 15-45% less than a TextDecoder call
 * up to 256 bytes, and less than String.fromCharCode at any length; from about 400 bytes
 * TextDecoder's speed per byte wins.
 */
export function decodeAscii(bytes: Uint8Array, begin: number, end: number, latin1?: (ptr: number, n: number) => string): string {
  if (latin1 !== undefined && end - begin <= LATIN1_MAX_BYTES) return latin1(begin, end - begin);
  return end - begin >= PIECES_FROM ? decodePieces(decodeAsciiOnce, asciiCut, bytes, begin, end) : decodeAsciiOnce(bytes, begin, end);
}

/** ASCII text up to this many bytes goes to decodeAscii's `latin1` when there is one. */
const LATIN1_MAX_BYTES = 320;

function decodeAsciiOnce(bytes: Uint8Array, begin: number, end: number): string {
  if (nodeLatin1Slice !== undefined) return nodeSlice(nodeLatin1Slice, bytes, begin, end);
  return decodeUtf8Once(bytes, begin, end);
}

const utf16Decoder = new TextDecoder('utf-16le', { ignoreBOM: true });
const nodeUcs2Slice = NodeBufferCtor?.prototype.ucs2Slice;

/**
 * bytes[begin, end) decoded as UTF-16LE (byte offsets; the memory is not shared). With
 * `units` (string-builtins.ts: `bytes` is then all of the wasm memory it reads), that
 * makes the string: Chromium's TextDecoder takes 2.4 ns a unit for UTF-16LE, it 0.9-1.
 */
export function decodeUtf16(bytes: Uint8Array, begin: number, end: number, units?: (ptr: number, n: number) => string): string {
  const once = units === undefined ? decodeUtf16Once : (_bytes: Uint8Array, b: number, e: number): string => units(b, (e - b) >>> 1);
  return end - begin >= PIECES_FROM ? decodePieces(once, utf16Cut, bytes, begin, end) : once(bytes, begin, end);
}

function decodeUtf16Once(bytes: Uint8Array, begin: number, end: number): string {
  if (nodeUcs2Slice !== undefined) return nodeUcs2Slice.call(bytes, begin, end);
  return utf16Decoder.decode(bytes.subarray(begin, end));
}
