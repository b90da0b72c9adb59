/**
 * Loading QuickJS. Each sandbox gets its own WebAssembly instance whose memory has a hard maximum:
 * QuickJS's own memory limit counts only ~8 bytes per allocation in emscripten builds (it cannot
 * ask the allocator for block sizes), so the capped wasm memory is what actually bounds a script.
 * The engine compiles the wasm bytes once per process; later instances take a few milliseconds.
 */
import {
  newQuickJSWASMModuleFromVariant,
  newVariant,
  type CustomizeVariantOptions,
  type QuickJSSyncVariant,
  type QuickJSWASMModule,
} from 'quickjs-emscripten-core'
import releaseVariant from '@jitl/quickjs-singlefile-mjs-release-sync'

// The isomorphic build has no DOM or Node types, so name only the piece of WebAssembly used here.
type WasmMemory = NonNullable<CustomizeVariantOptions['wasmMemory']>
type MemoryConstructor = new (descriptor: { initial: number; maximum: number }) => WasmMemory
const { Memory } = (globalThis as unknown as { WebAssembly: { Memory: MemoryConstructor } }).WebAssembly

const PAGE = 64 * 1024
/** Emscripten's initial memory: QuickJS's data, its C stack and the sandbox's own setup fit in it. */
export const BASE_MEMORY_BYTES = 16 * 1024 * 1024

/** `variant` replaces the release build (tests use the debug build; its sanitizer needs its own memory). */
export function loadQuickJS(memoryLimitBytes: number, variant?: QuickJSSyncVariant): Promise<QuickJSWASMModule> {
  if (variant) return newQuickJSWASMModuleFromVariant(variant)
  const memory = new Memory({
    initial: BASE_MEMORY_BYTES / PAGE,
    maximum: Math.ceil((BASE_MEMORY_BYTES + memoryLimitBytes) / PAGE),
  })
  return newQuickJSWASMModuleFromVariant(newVariant(releaseVariant, { wasmMemory: memory }))
}
