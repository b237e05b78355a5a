// A codec of its own whose wasm instance is watched, in Node and in Chromium: load() runs
// with WebAssembly.instantiate and instantiateStreaming wrapped, which hand back the
// instance with
//   - its memory (the public API does not expose it);
//   - with { faults: true }, its exports wrapped, to find buffers a call leaves
//     allocated when it is cut off part way:
//       - the buffers and write sessions the JS side allocates (wj_alloc,
//         wj_writer_new) and frees are counted: live() is how many are allocated now;
//       - arm() makes the next such allocation cut the call off right after it: the
//         memory grows (as an allocation may make it), which detaches every view of it,
//         and the next read of memory.buffer (remaking a view) throws a RangeError, as a
//         stack overflow at that call would. Only once: the call's cleanup then runs as
//         usual.
// (The memory's buffer getter is replaced on the memory object itself: it stays a real
// WebAssembly.Memory, which the string builtins module of browsers imports.)
import { load, type Codec } from 'wasmjson';

export interface WatchedCodec {
  codec: Codec;
  memory: WebAssembly.Memory;
  /** Buffers and sessions allocated through the exports and not yet freed (faults only). */
  live(): number;
  /** Cut the call off right after its next allocation (faults only). */
  arm(): void;
  /** Whether the armed fault happened (and was disarmed). */
  fired(): boolean;
}

export const INJECTED = 'Maximum call stack size exceeded (injected)';

type Exports = Record<string, (...a: number[]) => number> & { memory: WebAssembly.Memory };

export async function watchedCodec(flavor: 'simd128' | 'swar64', { faults = false } = {}): Promise<WatchedCodec> {
  const allocated = new Set<number>();
  let armed = false;
  let throwOnBuffer = false;
  let fired = false;
  let memory: WebAssembly.Memory | undefined;

  const watch = (instance: WebAssembly.Instance): WebAssembly.Instance => {
    const ex = instance.exports as Exports;
    if (!(ex.memory instanceof WebAssembly.Memory) || typeof ex.wj_alloc !== 'function') return instance; // (not wasmjson's)
    memory = ex.memory;
    if (!faults) return instance;
    const real = memory;
    const bufferOf = Object.getOwnPropertyDescriptor(WebAssembly.Memory.prototype, 'buffer')!.get!;
    Object.defineProperty(real, 'buffer', {
      get() {
        if (throwOnBuffer) {
          throwOnBuffer = false;
          fired = true;
          throw new RangeError(INJECTED);
        }
        return bufferOf.call(real);
      },
    });
    const afterAllocation = (ptr: number) => {
      if (ptr !== 0) allocated.add(ptr >>> 0);
      if (armed && ptr !== 0) {
        armed = false;
        real.grow(1);
        throwOnBuffer = true;
      }
      return ptr;
    };
    const exports: Record<string, unknown> = { ...ex };
    exports.wj_alloc = (size: number) => afterAllocation(ex.wj_alloc(size));
    exports.wj_writer_new = () => afterAllocation(ex.wj_writer_new());
    exports.wj_free = (ptr: number) => {
      allocated.delete(ptr >>> 0);
      return ex.wj_free(ptr);
    };
    exports.wj_writer_free = (ptr: number) => {
      allocated.delete(ptr >>> 0);
      return ex.wj_writer_free(ptr);
    };
    return { exports } as unknown as WebAssembly.Instance;
  };
  // Either resolves to an instance, or to { module, instance }.
  const watched = (result: unknown): unknown =>
    result instanceof WebAssembly.Instance ? watch(result) : { ...(result as object), instance: watch((result as { instance: WebAssembly.Instance }).instance) };

  const instantiate = WebAssembly.instantiate;
  const instantiateStreaming = WebAssembly.instantiateStreaming;
  const wasm = WebAssembly as unknown as Record<string, unknown>;
  wasm.instantiate = async (...args: unknown[]) => watched(await (instantiate as (...a: unknown[]) => Promise<unknown>)(...args));
  if (instantiateStreaming) {
    wasm.instantiateStreaming = async (...args: unknown[]) => watched(await (instantiateStreaming as (...a: unknown[]) => Promise<unknown>)(...args));
  }
  try {
    const codec = await load({ flavor });
    if (memory === undefined) throw new Error('watchedCodec: the codec was not instantiated through WebAssembly.instantiate(Streaming)');
    return {
      codec,
      memory,
      live: () => allocated.size,
      arm: () => {
        armed = true;
        fired = false;
      },
      fired: () => fired,
    };
  } finally {
    wasm.instantiate = instantiate;
    wasm.instantiateStreaming = instantiateStreaming;
  }
}
