// Node-only specs: a codec of its own and its wasm memory, taken from
// WebAssembly.instantiate while the codec loads (the public API does not expose it).
import { readFileSync } from 'node:fs';
import { load, type Codec } from 'wasmjson';

export async function codecWithMemory(flavor: 'simd128' | 'swar64'): Promise<{ codec: Codec; memory: WebAssembly.Memory }> {
  const module = new WebAssembly.Module(readFileSync(new URL(`../../../dist/wasmjson-${flavor}.wasm`, import.meta.url)));
  const instantiate = WebAssembly.instantiate;
  let memory: WebAssembly.Memory | undefined;
  (WebAssembly as { instantiate: unknown }).instantiate = async (...args: unknown[]) => {
    const result = await (instantiate as (...a: unknown[]) => Promise<unknown>)(...args);
    const instance = result instanceof WebAssembly.Instance ? result : (result as { instance: WebAssembly.Instance }).instance;
    memory = instance.exports.memory as WebAssembly.Memory;
    return result;
  };
  try {
    const codec = await load({ flavor, wasm: module });
    return { codec, memory: memory! };
  } finally {
    WebAssembly.instantiate = instantiate;
  }
}
