// Linear-memory access for one wasm instance. Every view of wasm memory is re-checked
// before use: anything that allocates may grow memory, which detaches the old buffer.
// A detached buffer's views have length 0, so the check is a length test (reading
// memory.buffer, a getter, costs more on every call). The memory is never shared.
import { checkNotBuilding } from './build.js';
import { outOfMemory } from './errors.js';
import type { WasmExports } from './exports.js';
import { stringBuiltins, type StringBuiltins } from './string-builtins.js';
import { NodeBufferCtor, type NodeBuffer } from './utf8.js';

const encoder = new TextEncoder();
/** The largest size a wasm32 allocation can ask for (sizes are unsigned 32-bit). */
const MAX_WASM32_SIZE = 0xffff_ffff;

/**
 * How strings reach wasm memory (InitOptions.stringInput): 'utf8' by the engine's UTF-8
 * encoder; 'utf16' as the string's own UTF-16 units, transcoded to UTF-8 in
 * wasm (cpp/core/utf16_input.h); 'auto' (the default) measures once which is faster for
 * strings that are not ASCII, and uses it for those.
 */
export type StringInput = 'auto' | 'utf8' | 'utf16';

// 'auto': the route measured for this runtime, shared by its codecs (undefined: not yet).
let measuredRoute: 'utf8' | 'utf16' | undefined;
/** Strings shorter than this always take the engine's encoder (no test, no probe). */
const UTF16_ROUTE_MIN_UNITS = 2048;
const UTF16_ROUTE_MAX_UNITS = 16 * 1024 * 1024;
/**
 * Whether a string holds a unit >= 0x100, which V8 stores only in two-byte strings:
 * V8's regexp answers without reading a one-byte string (0.1 us for 3 MB of ASCII), and
 * for a two-byte one stops at the first such unit.
 */
const WIDE_UNIT = /[\u0100-\uffff]/;
/**
 * at() on strings of at least this many units, two-byte ones, goes by their units
 * narrowed (see navigatesNarrowed). A string is taken for two-byte when a wide unit is
 * among its first NARROWED_PROBE_UNITS (the test reads about 3.6 units a ns there: with
 * 16384, documents with no wide unit early, github_events.json and update-center.json,
 * lost 6-9% of at()'s time to it).
 */
const NARROWED_MIN_UNITS = 2048;
/** minify(), prettify() and validate() sample strings from this many units to choose their route (Memory.readsUnits). */
const UNITS_SAMPLED_FROM = 64 * 1024;
const NARROWED_PROBE_UNITS = 1024;

export class Memory {
  private view: Uint8Array;
  readonly padding: number;
  // One reusable input buffer. Entry points that can be re-entered (callbacks into JS)
  // must take it with acquire() and give it back with release().
  private scratchPtr = 0;
  private scratchCap = 0;
  private scratchBusy = false;
  /**
   * Outside Node, where the engine has JS String Builtins (and InitOptions.stringBuiltins
   * allows): moves UTF-16 units between strings and memory (string-builtins.ts).
   * Two-byte strings and short ones then go in as units (see takesUtf16).
   */
  readonly builtins: StringBuiltins | undefined;

  constructor(
    readonly wasm: WasmExports,
    private readonly stringInput: StringInput = 'auto',
    /** InitOptions.stringBuiltins. */
    useBuiltins = true,
  ) {
    this.view = new Uint8Array(wasm.memory.buffer);
    this.padding = wasm.wj_padding();
    this.builtins = useBuiltins && NodeBufferCtor === undefined ? stringBuiltins(wasm.memory) : undefined;
  }

  // One object, its views replaced when memory grows: callers read it right after a call.
  private readonly views = { i32: new Int32Array(0), f64: new Float64Array(0), u16: new Uint16Array(0) };
  // Node's Buffer over all of memory: its utf8Write encodes a string in place, with no
  // view made per call (what small documents notice).
  private nodeBuffer: NodeBuffer | undefined;

  /** The current view of all of linear memory. */
  bytes(): Uint8Array {
    if (this.view.length === 0) this.view = new Uint8Array(this.wasm.memory.buffer);
    return this.view;
  }

  /** Views of all of memory as i32, f64 and u16, current after any growth. */
  wide(): { readonly i32: Int32Array; readonly f64: Float64Array; readonly u16: Uint16Array } {
    const v = this.views;
    if (v.i32.length === 0) {
      const buffer = this.wasm.memory.buffer;
      v.i32 = new Int32Array(buffer);
      v.f64 = new Float64Array(buffer);
      v.u16 = new Uint16Array(buffer);
    }
    return v;
  }

  /** Node's Buffer over all of memory (current after growth). */
  private buffer(): NodeBuffer {
    if (this.nodeBuffer === undefined || this.nodeBuffer.length === 0) this.nodeBuffer = NodeBufferCtor!.from(this.wasm.memory.buffer);
    return this.nodeBuffer;
  }

  /**
   * Writes text as UTF-8 at ptr, which has room for the worst case (3 bytes a unit);
   * returns the bytes written. Short ASCII text outside Node by a loop (see copyAscii).
   */
  writeUtf8(text: string, ptr: number): number {
    if (copiesByLoop(text.length) && writeAscii(this.bytes(), ptr, text)) return text.length;
    return this.encodeAt(text, ptr, text.length * 3).written;
  }

  /** Encodes text as UTF-8 at ptr, at most cap bytes: units read and bytes written. */
  private encodeAt(text: string, ptr: number, cap: number): { read: number; written: number } {
    // With room for the worst case (3 bytes per unit) utf8Write cannot stop short, so it
    // has read everything (it does not say how much it read).
    if (NodeBufferCtor !== undefined && cap >= text.length * 3) {
      return { read: text.length, written: this.buffer().utf8Write(text, ptr, cap) };
    }
    return encoder.encodeInto(text, this.bytes().subarray(ptr, ptr + cap));
  }

  /**
   * Whether text goes in as UTF-16 units (see StringInput). With 'auto', only strings
   * that are not ASCII, where the engine's UTF-8 encoder may be slow: Node 24 writes
   * twitter.json's text in 575 us, its units plus the transcoding take 235 us; Node 26's
   * encoder takes 90 us and keeps the job.
   */
  private takesUtf16(text: string): boolean {
    // Its buffer holds 3 bytes a unit, where UTF-8 needs only what it writes: very large
    // strings keep to UTF-8 (the 1 GB inputs wasm32 memory can hold).
    if (text.length > UTF16_ROUTE_MAX_UNITS) return false;
    if (this.stringInput !== 'auto') return this.stringInput === 'utf16';
    // Browsers with the builtins: the engine's encoder is fast for long one-byte strings
    // (Chromium 156: 0.7-0.8 ns a unit, faster than the copy) and slow for two-byte ones
    // (4-5 ns a unit, where the copy and the transcoding take 2.3-2.7). Short strings
    // (up to the loop's 512 units) go in as units too, but for the shortest: that costs
    // less than the loop (Chromium A/B of parse(string): gen:doc-200B 1.25x faster,
    // gen:messages.ndjson 1.14x).
    if (this.builtins !== undefined) return copiesByLoop(text.length) ? text.length > LOOP_ONLY_MAX_UNITS : WIDE_UNIT.test(text);
    if (text.length < UTF16_ROUTE_MIN_UNITS) return false;
    if (measuredRoute === 'utf8') return false;
    if (!WIDE_UNIT.test(text)) return false;
    return (measuredRoute ??= this.measureRoutes()) === 'utf16';
  }

  /**
   * Whether the engine's UTF-8 encoder is slow for non-ASCII text, measured against a
   * plain copy of the same units (the best of five runs each, on a made-up text; about
   * 0.1 ms in all). The UTF-16 route is that copy plus the transcoding in wasm, about
   * 0.18 ns a unit on twitter.json's text. In Node the copy is ucs2Write, a memory copy
   * a third of that: the route wins when the encoder takes over 6 copies (measured
   * ratios: Node 26 3.5-4.1, Node 20 about 10, Node 24 about 16). Browsers without JS
   * String Builtins (with them this is not asked: see takesUtf16) copy with a
   * loop, about 2.5 ns a unit in Chromium, next to which the transcoding is small: the
   * route wins when the encoder takes over 1.5 copies. Chromium 156 measures about 0.9 on
   * this text and keeps its encoder; on text that is mostly Cyrillic it takes 1.5 copies
   * (parse of gen:cyrillic.json: 1.60 ms with stringInput 'utf16', 1.77 ms without).
   * (Timing the wasm side itself would time its first calls, which V8 runs in its
   * baseline compiler: 1-2x off.)
   */
  private measureRoutes(): 'utf8' | 'utf16' {
    const text = 'ASCII text, "keys": 12345, then some that is not: \u00e9\u4e16\u754c\u3002 '.repeat(256);
    const n = text.length;
    const ptr = this.wasm.wj_alloc(5 * n + this.padding) >>> 0;
    if (ptr === 0) return 'utf8';
    try {
      let encode = Infinity;
      let copy = Infinity;
      for (let i = 0; i < 5; i++) {
        let t = performance.now();
        this.encodeAt(text, ptr, 3 * n);
        encode = Math.min(encode, performance.now() - t);
        t = performance.now();
        this.copyUnits(text, ptr + 3 * n);
        copy = Math.min(copy, performance.now() - t);
      }
      return encode > (NodeBufferCtor !== undefined ? 6 : 1.5) * copy ? 'utf16' : 'utf8';
    } finally {
      this.wasm.wj_free(ptr);
    }
  }

  /**
   * Short text that is all ASCII, copied by a loop: in browsers each encodeInto call
   * costs 1.5-2 us (Chromium 156, into wasm memory: 2.1 us for 100 units, 1.8 us for
   * 1000), where the loop takes 2-2.6 ns a unit. Into the scratch buffer when it is
   * free, else a buffer of its own (lazy documents); undefined when a unit is not ASCII
   * (a buffer of its own is then freed; the scratch holds a part of the text).
   */
  private copyAscii(text: string): Region | undefined {
    const ptr = this.reserve(text.length);
    const owned = ptr !== this.scratchPtr;
    if (writeAscii(this.bytes(), ptr, text)) return { ptr, len: text.length, owned };
    if (owned) this.freeOwned(ptr);
    return undefined;
  }

  /** Writes text's UTF-16 units at ptr (even). */
  private copyUnits(text: string, ptr: number): void {
    const n = text.length;
    if (NodeBufferCtor !== undefined) {
      this.buffer().ucs2Write(text, ptr, 2 * n);
      return;
    }
    if (this.builtins !== undefined) {
      this.builtins.copy(text, ptr);
      return;
    }
    const u16 = this.wide().u16;
    const base = ptr >>> 1;
    for (let i = 0; i < n; i++) u16[base + i] = text.charCodeAt(i);
  }

  /** Copies text's UTF-16 units into memory and transcodes them to UTF-8 in place. */
  private encodeUtf16(text: string): Region {
    const n = text.length;
    const gap = this.wasm.wj_utf16_input_gap(n) >>> 0;
    const ptr = this.reserve(gap + 2 * n);
    // (The builtins module may fail to allocate its array for a huge string: the next
    // copyIn frees a buffer of its own then, see inFlight0.)
    this.copyUnits(text, ptr + gap);
    const len = this.wasm.wj_utf16_to_utf8(ptr + gap, n, ptr) >>> 0;
    return { ptr, len, owned: ptr !== this.scratchPtr };
  }

  /**
   * Whether at() reads `text` as its UTF-16 units narrowed to bytes in wasm
   * (acquireNarrowed) rather than as UTF-8: for two-byte strings, where the units are
   * copied as they are (Node's ucs2Write, or the string builtins) and narrowed faster
   * than the engine's encoder transcodes them (twitter.json on Node 26: ucs2Write 24 us
   * and the narrowing 20-25, utf8Write 52, and the lookup then reads 10% fewer bytes).
   * One-byte strings keep the encoder, faster than a copy that widens them (canada.json:
   * 50 us against 76). Not with stringInput 'utf8' or 'utf16', which name a route.
   */
  navigatesNarrowed(text: string): boolean {
    if (this.stringInput !== 'auto' || text.length < NARROWED_MIN_UNITS || text.length > UTF16_ROUTE_MAX_UNITS) return false;
    if (NodeBufferCtor === undefined && this.builtins === undefined) return false;
    return WIDE_UNIT.test(text.length > NARROWED_PROBE_UNITS ? text.slice(0, NARROWED_PROBE_UNITS) : text);
  }

  /**
   * Whether minify(), prettify() and validate() read `text` as its UTF-16 units
   * (wj_minify_units, wj_prettify_units, wj_validate_units) rather than as
   * UTF-8: two-byte strings whose text is not almost all ASCII, where the engine's UTF-8
   * encoder and decoder are the slow part; their units are copied as they are and come
   * back as a string the same way. Text that is almost all ASCII keeps UTF-8, half the
   * bytes to copy and move (citm_catalog.json, one unit above U+00FF in 1.7 million:
   * 0.92x as units; twitter.json, 5.6% of its units: 1.17x). Short text is told as
   * navigatesNarrowed() tells it; from 64K units, by 16 windows of 256 units spread over
   * it: units when 8 of theirs (0.2%) are above U+00FF (twitter.json: 21; its text
   * that is not ASCII stands in clusters). (The route decides speed,
   * never the output.)
   */
  readsUnits(text: string): boolean {
    const n = text.length;
    if (n < UNITS_SAMPLED_FROM) return this.navigatesNarrowed(text);
    if (this.stringInput !== 'auto' || n > UTF16_ROUTE_MAX_UNITS) return false;
    if (NodeBufferCtor === undefined && this.builtins === undefined) return false;
    let wide = 0;
    for (let k = 0; k < 16; k++) {
      const at = Math.floor(((n - 256) * k) / 15);
      // (The test fails at once on a one-byte string: V8 leaves out of its code for them
      // what only a wider unit can match.)
      if (!WIDE_UNIT.test(text.slice(at, at + 256))) continue;
      for (let i = at; i < at + 256; i++) if (text.charCodeAt(i) > 0xff) wide++;
    }
    return wide >= 8;
  }

  /**
   * Like acquire(), for minify(), prettify() and validate(): the string's UTF-16 units as they are
   * (`len` counts units; the buffer has padding after them).
   */
  acquireUnits(text: string): Region {
    checkNotBuilding();
    const region = this.copyIn(text, 'units');
    if (!region.owned) this.scratchBusy = true;
    return region;
  }

  /**
   * Like acquire(), for at(): the string's units narrowed in place (wj_nav_narrow,
   * cpp/core/narrowed_units.h), one byte per unit, so that offsets are the string's.
   */
  acquireNarrowed(text: string): Region {
    checkNotBuilding();
    const region = this.copyIn(text, 'narrowed');
    if (!region.owned) this.scratchBusy = true;
    return region;
  }

  /** A buffer of at least `size` bytes plus padding: the scratch buffer when it is free. */
  private reserve(size: number): number {
    if (!this.scratchBusy && size <= this.scratchCap && this.scratchPtr !== 0) return this.scratchPtr;
    return this.grow(0, 0, size);
  }

  /**
   * A new buffer of `size` bytes plus padding holding the first `keep` bytes of `from`
   * (0 for none); `from` is freed. A free scratch buffer is replaced by the new one.
   */
  private grow(from: number, keep: number, size: number): number {
    const cap = Math.max(size, 4096);
    // wj_alloc takes a 32-bit size: 4 GiB or more would wrap around to a small block
    // (and the scratch buffer would claim a capacity it does not have).
    if (cap + this.padding > MAX_WASM32_SIZE) throw outOfMemory(size);
    const ptr = this.wasm.wj_alloc(cap + this.padding) >>> 0;
    if (ptr === 0) throw outOfMemory(size);
    this.holdInFlight(ptr);
    if (keep > 0) this.bytes().copyWithin(ptr, from, from + keep);
    if (from !== 0 && from !== this.scratchPtr) this.freeOwned(from);
    if (!this.scratchBusy) {
      if (this.scratchPtr) this.wasm.wj_free(this.scratchPtr);
      this.scratchPtr = ptr;
      this.scratchCap = cap;
      this.dropInFlight(ptr);
    }
    return ptr;
  }

  /**
   * Buffers copyIn allocated and has not yet handed out: a region's buffer of its own is
   * freed by release() only once copyIn has returned it, and a new scratch buffer is
   * kept only once it replaces the old. A throw in between (a stack overflow at any
   * call, an engine that cannot allocate) would leave them unreachable, and enough of
   * them fill wasm memory for good: the next copyIn frees what one cut off left here.
   * (No try/catch around copyIn: it runs once per call, and no user code runs within
   * it, so no other copyIn can start before it ends.) Two at most: a buffer and the
   * larger one that replaces it. Fields, not an array: no Array.prototype method or
   * index is consulted, see own-elements.ts.
   */
  private inFlight0 = 0;
  private inFlight1 = 0;

  private holdInFlight(ptr: number): void {
    if (this.inFlight0 === 0) this.inFlight0 = ptr;
    else this.inFlight1 = ptr;
  }

  private dropInFlight(ptr: number): void {
    if (this.inFlight0 === ptr) this.inFlight0 = 0;
    else if (this.inFlight1 === ptr) this.inFlight1 = 0;
  }

  private freeInFlight(): void {
    const a = this.inFlight0;
    const b = this.inFlight1;
    this.inFlight0 = this.inFlight1 = 0;
    if (a !== 0) this.wasm.wj_free(a);
    if (b !== 0) this.wasm.wj_free(b);
  }

  private freeOwned(ptr: number): void {
    this.dropInFlight(ptr);
    this.wasm.wj_free(ptr);
  }

  /**
   * Copies input into linear memory: strings as UTF-8 (see encodeString), bytes as they
   * are. The returned region stays valid until release().
   */
  acquire(input: string | Uint8Array): Region {
    checkNotBuilding();
    const region = this.copyIn(input);
    if (!region.owned) this.scratchBusy = true;
    return region;
  }

  /** Like acquire(), but always into a buffer of its own (freed by release()). */
  acquireOwned(input: string | Uint8Array): Region {
    checkNotBuilding();
    const busy = this.scratchBusy;
    this.scratchBusy = true;
    try {
      return this.copyIn(input);
    } finally {
      this.scratchBusy = busy;
    }
  }

  /** `as`: a string as UTF-8 ('text'), its UTF-16 units, or those units narrowed in place. */
  private copyIn(input: string | Uint8Array, as: 'text' | 'units' | 'narrowed' = 'text'): Region {
    if ((this.inFlight0 | this.inFlight1) !== 0) this.freeInFlight();
    let region: Region;
    if (typeof input === 'string') {
      if (as !== 'text') {
        const n = input.length;
        const ptr = this.reserve(2 * n);
        this.copyUnits(input, ptr);
        if (as === 'narrowed') this.wasm.wj_nav_narrow(ptr, n, ptr);
        region = { ptr, len: n, owned: ptr !== this.scratchPtr };
      } else {
        region = this.encodeString(input);
      }
    } else {
      // The length read once: a view that tracks a growable SharedArrayBuffer can grow
      // (another thread) at any moment, between two reads of its length too, and must not
      // be copied past the room reserved: set() then takes a view of exactly that length
      // (given the view itself, it copied what the view held by then, a RangeError past
      // the end of wasm memory and other buffers overwritten before it). A view of an
      // ArrayBuffer changes only when this thread runs code, which it does not here.
      const len = input.length;
      const ptr = this.reserve(len);
      this.bytes().set(input.buffer instanceof ArrayBuffer ? input : input.subarray(0, len), ptr);
      region = { ptr, len, owned: ptr !== this.scratchPtr };
    }
    // Handed out: the region's owner releases it now.
    this.inFlight0 = this.inFlight1 = 0;
    return region;
  }

  release(region: Region): void {
    if (region.ends) {
      this.wasm.wj_nav_ends_free(region.ends);
      region.ends = 0;
    }
    if (region.owned) {
      this.wasm.wj_free(region.ptr);
    } else {
      this.scratchBusy = false;
      // A scratch buffer grown by a large document is given back (wasm memory never
      // shrinks, but what is freed serves other buffers): a parse of 20 MB had kept 87 MB.
      if (this.scratchCap > KEEP_SCRATCH_BYTES) {
        this.wasm.wj_free(this.scratchPtr);
        this.scratchPtr = 0;
        this.scratchCap = 0;
      }
    }
  }

  private encodeString(text: string): Region {
    if (this.takesUtf16(text)) return this.encodeUtf16(text);
    if (copiesByLoop(text.length)) {
      const region = this.copyAscii(text);
      if (region !== undefined) return region;
      // Not ASCII: its units, rather than an encoder call (1.5-2 us in browsers).
      if (this.builtins !== undefined && this.stringInput !== 'utf8') return this.encodeUtf16(text);
    }
    // Most JSON is ASCII: try the string's own length first, and only if encodeInto
    // runs out of room grow to the worst case for what is left (3 bytes per unit).
    // Use all of a free scratch buffer: it has room for earlier documents' UTF-8. Up to
    // a size, make the scratch hold the worst case: in Node, utf8Write (a quarter faster
    // than encodeInto) needs that room, as it cannot say how much of the text it read.
    // A buffer of its own (the scratch is busy: lazy documents, pointers) gets the worst
    // case when that is small: text that is not ASCII would otherwise take two encodes
    // and a copy (in the profile of lazy() on 350-byte documents, a fifth of the time).
    // A larger one gets a sixty-fourth more than the text's length (kept while the
    // document lives): text with a little that is not ASCII (citm_catalog.json: one
    // character in 1.7 million) then fits the first encode, where it was copied again
    // into a larger buffer for the last few characters.
    const worst = text.length * 3;
    let cap = this.scratchBusy
      ? worst <= OWNED_WORST_CASE && NodeBufferCtor !== undefined
        ? worst
        : text.length + (text.length >>> 6) + 64
      : worst <= SCRATCH_WORST_CASE && NodeBufferCtor !== undefined
        ? worst
        : Math.max(text.length, Math.min(this.scratchCap, worst));
    let ptr = this.reserve(cap);
    let { read, written } = this.encodeAt(text, ptr, cap);
    if (read < text.length) {
      const need = written + (text.length - read) * 3;
      ptr = this.grow(ptr, written, need);
      cap = need;
      const rest = encoder.encodeInto(text.slice(read), this.bytes().subarray(ptr + written, ptr + cap));
      written += rest.written;
    }
    return { ptr, len: written, owned: ptr !== this.scratchPtr };
  }
}

const LOOP_COPY_MAX_UNITS = 512;

/** With the string builtins (see takesUtf16), strings up to this many units keep the loop. */
const LOOP_ONLY_MAX_UNITS = 32;

/**
 * Whether a string of this many units goes into wasm memory by a JS loop: outside Node,
 * up to LOOP_COPY_MAX_UNITS (copyAscii and writeUtf8 when it is ASCII; stringify's string
 * batches as UTF-16 units, whatever they hold). Past it, encodeInto's fixed cost is the
 * smaller one (Chromium: the loop takes 2.5 us for 1000 units, encodeInto 1.8 us); Node's
 * Buffer methods cost 70-100 ns a call.
 */
export function copiesByLoop(units: number): boolean {
  return NodeBufferCtor === undefined && units <= LOOP_COPY_MAX_UNITS;
}

/**
 * Writes text at u8[at...] if it is all ASCII (one byte a unit), and says whether it
 * was; bytes are written up to the first unit that is not.
 */
function writeAscii(u8: Uint8Array, at: number, text: string): boolean {
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c > 0x7f) return false;
    u8[at + i] = c;
  }
  return true;
}

/** Bytes up to which a buffer of its own is given a string's worst-case UTF-8 size. */
const OWNED_WORST_CASE = 64 * 1024;

/** Scratch buffers larger than this are freed after each call (see release). */
const KEEP_SCRATCH_BYTES = 4 * 1024 * 1024;

/** Bytes up to which the scratch buffer is grown to a string's worst-case UTF-8 size. */
const SCRATCH_WORST_CASE = 48 * 1024 * 1024;

export interface Region {
  ptr: number;
  len: number;
  /** Allocated for this call only (the scratch buffer was busy): freed on release. */
  owned: boolean;
  /** A lazy document's container ends (wj_nav_ends_build), freed on release with the buffer. */
  ends?: number;
}

// Node's Buffer.allocUnsafeSlow: a buffer of its own, not zeroed (undefined outside Node).
const allocUnsafeSlow = (NodeBufferCtor as { allocUnsafeSlow?: (size: number) => Uint8Array } | undefined)?.allocUnsafeSlow;
/** Outputs from this size up are copied into allocUnsafeSlow memory (see copyOut). */
const COPY_OUT_UNZEROED_MIN = 64 * 1024;

/**
 * A new Uint8Array holding view[begin, end): a bytes result (minify, prettify, encode)
 * copied out of wasm memory for the caller to keep. `slice()` of a view of wasm memory
 * zeroes its new buffer and then copies; in Node, large outputs go into memory that is
 * not zeroed first (every byte is written at once), 1.5-2.7x faster from 1 MB up
 * (Node 24 and 26). The result's buffer holds exactly its bytes.
 */
export function copyOut(view: Uint8Array, begin: number, end: number): Uint8Array<ArrayBuffer> {
  const n = end - begin;
  if (allocUnsafeSlow === undefined || n < COPY_OUT_UNZEROED_MIN) return view.slice(begin, end) as Uint8Array<ArrayBuffer>;
  const out = allocUnsafeSlow(n);
  out.set(view.subarray(begin, end));
  return new Uint8Array(out.buffer as ArrayBuffer, out.byteOffset, n);
}
