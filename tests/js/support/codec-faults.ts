// Node-only specs: a codec of its own whose wasm exports are watched, to find buffers a
// call leaves allocated when it is cut off part way. Its instance's exports are wrapped
// (the codec reads them from the instance it is given):
//   - the buffers and write sessions the JS side allocates (wj_alloc, wj_writer_new)
//     and frees are counted: live() is how many are allocated now;
//   - arm() makes the next such allocation cut the call off right after it: the memory
//     grows (as an allocation may make it), which detaches every view of it, and the
//     next read of memory.buffer (remaking a view) throws a RangeError, as a stack
//     overflow at that call would. Only once: the call's cleanup then runs as usual.
import { readFileSync } from 'node:fs';
import { load, type Codec } from 'wasmjson';

export interface FaultyCodec {
  codec: Codec;
  /** Buffers and sessions allocated through the exports and not yet freed. */
  live(): number;
  /** Cut the call off right after its next allocation. */
  arm(): void;
  /** Whether the armed fault happened (and was disarmed). */
  fired(): boolean;
}

export const INJECTED = 'Maximum call stack size exceeded (injected)';

export async function codecWithFaults(flavor: 'simd128' | 'swar64'): Promise<FaultyCodec> {
  const module = new WebAssembly.Module(readFileSync(new URL(`../../../dist/wasmjson-${flavor}.wasm`, import.meta.url)));
  const allocated = new Set<number>();
  let armed = false;
  let throwOnBuffer = false;
  let fired = false;
  const instantiate = WebAssembly.instantiate;
  (WebAssembly as { instantiate: unknown }).instantiate = async (...args: unknown[]) => {
    const real = (await (instantiate as (...a: unknown[]) => Promise<unknown>)(...args)) as WebAssembly.Instance;
    const ex = real.exports as Record<string, (...a: number[]) => number> & { memory: WebAssembly.Memory };
    const memory = ex.memory;
    const afterAllocation = (ptr: number) => {
      if (ptr !== 0) allocated.add(ptr >>> 0);
      if (armed && ptr !== 0) {
        armed = false;
        memory.grow(1);
        throwOnBuffer = true;
      }
      return ptr;
    };
    const exports: Record<string, unknown> = { ...ex };
    exports.memory = {
      get buffer() {
        if (throwOnBuffer) {
          throwOnBuffer = false;
          fired = true;
          throw new RangeError(INJECTED);
        }
        return memory.buffer;
      },
      grow: (pages: number) => memory.grow(pages),
    };
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
  try {
    const codec = await load({ flavor, wasm: module });
    return {
      codec,
      live: () => allocated.size,
      arm: () => {
        armed = true;
        fired = false;
      },
      fired: () => fired,
    };
  } finally {
    WebAssembly.instantiate = instantiate;
  }
}
