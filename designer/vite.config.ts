import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'
import { fileURLToPath } from 'node:url'
import { tramitaActionTypes, tramitaFieldTypes } from '@tramita/plugin-api/discover'

/** The Tramita server in development (`npm run dev` at the repository root listens on 3333). */
const SERVER = 'http://localhost:3333'
const ROOT = fileURLToPath(new URL('..', import.meta.url))

export default defineConfig({
  // The core serves this build under /designer (web_controller.ts); runtime-web owns the root.
  base: '/designer/',
  // virtual:tramita-field-types and -action-types: the enabled plugins' field types (tramita.plugins.json),
  // for the palette, and action types, for the logic view's steps and the checks.
  plugins: [react(), tramitaFieldTypes(ROOT), tramitaActionTypes(ROOT)],
  // The manifest lets a bundle benchmark follow the chunks (the 300 kB budget without Monaco).
  build: { outDir: 'dist', emptyOutDir: true, manifest: true },
  // Module workers: the script sandbox's worker loads QuickJS lazily (an iife worker cannot hold that chunk).
  worker: { format: 'es' },
  server: {
    port: 5174,
    proxy: { '/data': SERVER, '/inside': SERVER, '/api': SERVER },
  },
})
