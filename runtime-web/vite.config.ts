import { defineConfig, type ProxyOptions } from 'vite'
import react from '@vitejs/plugin-react'
import { fileURLToPath } from 'node:url'
import { tramitaFieldTypes } from '@tramita/plugin-api/discover'

/** The Tramita server in development (`npm run dev` at the repository root listens on 3333). */
const SERVER = 'http://localhost:3333'

/** Proxies API calls only: a browser navigation (Accept: text/html) stays with Vite's SPA fallback. */
const apiOnly: ProxyOptions = {
  target: SERVER,
  bypass: (req) => (req.headers.accept?.includes('text/html') ? req.url : undefined),
}

export default defineConfig({
  // virtual:tramita-field-types: the core's field types and the enabled plugins' (tramita.plugins.json).
  plugins: [react(), tramitaFieldTypes(fileURLToPath(new URL('..', import.meta.url)))],
  // The manifest lets the bundle benchmark follow each route's chunks.
  // The viewers' chunks (pdf.js, three.js) are big on purpose: each loads only with its first file.
  build: { outDir: 'dist', emptyOutDir: true, manifest: true, chunkSizeWarningLimit: 900 },
  // The script sandbox's worker loads QuickJS lazily: only module workers can hold that chunk.
  worker: { format: 'es' },
  server: {
    proxy: {
      '/data': SERVER,
      '/inside': SERVER,
      '/api': SERVER,
      '/health': SERVER,
      '/ws': { target: SERVER, ws: true },
      '/getPublicFile': SERVER,
      '/confirmretention': apiOnly,
    },
  },
})
