import { defineConfig } from 'vite';

export default defineConfig({
  // Dev server only: keep wasmjson out of dependency pre-bundling so its
  // `new URL('./wasmjson-….wasm', import.meta.url)` references keep pointing at the files.
  optimizeDeps: { exclude: ['wasmjson'] },
});
