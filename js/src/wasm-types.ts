// WebAssembly's types, for the declarations the package publishes. TypeScript declares
// the WebAssembly namespace only in its DOM and webworker libs: a Node project without
// them (lib es2022 and @types/node, which has none) could not read declarations that
// name WebAssembly.Memory. These aliases are the real types wherever the program has
// them, and stand-ins (or never, for what such a program cannot make) where it has not.
type Global = typeof globalThis;

/** WebAssembly.Module; never where no lib declares it. */
export type WasmModule = Global extends { WebAssembly: { Module: { prototype: infer T } } } ? T : never;

/** WebAssembly.Instance. */
export type WasmInstance = Global extends { WebAssembly: { Instance: { prototype: infer T } } } ? T : { readonly exports: object };

/** WebAssembly.Memory. */
export type WasmMemory = Global extends { WebAssembly: { Memory: { prototype: infer T } } } ? T : { readonly buffer: ArrayBuffer; grow(delta: number): number };

declare global {
  // Symbol.dispose (LazyNode's `using`) for programs whose libs predate it (es2022 and
  // dom without esnext); the same declaration as lib.esnext.disposable's and @types/node's.
  interface SymbolConstructor {
    readonly dispose: unique symbol;
  }
}
