import { defineConfig, type ProxyOptions } from 'vite'
import react from '@vitejs/plugin-react'
import { fileURLToPath } from 'node:url'
import { tramitaActions, tramitaFieldTypes, tramitaFormDevices, tramitaScreens } from '@tramita/plugin-api/discover'
import { FORM_ROUTE_GROUPS } from './chunk_groups.ts'

/** The Tramita server in development (`npm run dev` at the repository root listens on 3333). */
const SERVER = 'http://localhost:3333'

/** Proxies API calls only: a browser navigation (Accept: text/html) stays with Vite's SPA fallback. */
const apiOnly: ProxyOptions = {
  target: SERVER,
  bypass: (req) => (req.headers.accept?.includes('text/html') ? req.url : undefined),
}

export default defineConfig({
  // virtual:tramita-field-types: the core's field types and the enabled plugins' (tramita.plugins.json);
  // virtual:tramita-actions: the action engine with the enabled plugins' handlers (loaded lazily);
  // virtual:tramita-screens: the enabled plugins' screens (App.tsx's plugin route, loaded lazily);
  // virtual:tramita-form-devices: the scanners and signing pads the core's dialogs offer (loaded lazily).
  plugins: [
    react(),
    tramitaFieldTypes(fileURLToPath(new URL('..', import.meta.url))),
    tramitaActions(fileURLToPath(new URL('..', import.meta.url))),
    tramitaScreens(fileURLToPath(new URL('..', import.meta.url))),
    tramitaFormDevices(fileURLToPath(new URL('..', import.meta.url))),
  ],
  // The manifest lets the bundle benchmark follow each route's chunks.
  // The viewers' chunks (pdf.js, three.js) are big on purpose: each loads only with its first file.
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    manifest: true,
    chunkSizeWarningLimit: 900,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            ...FORM_ROUTE_GROUPS,
            // @tramita/web (call helper, toasts, language, header) and what it imports (react-router) are all on
            // the route: one chunk rather than several small shared ones (2.3 kB less, gzipped, measured).
            // Not what only lazy chunks use (screen_host, screens.css, loading, transfer: plugin screens; Dialog,
            // dialog_form and their CSS: the camera, signature and ID card dialogs, plugin screens): that stays
            // in their lazy chunks.
            { name: 'web', test: /core[\\/]web[\\/]src[\\/](?!screen|loading|transfer|Dialog|dialog)/ },
          ],
        },
      },
    },
  },
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
      // The signing flow's template (spec 000 §7), served by the devices plugin.
      '/static/plantillas': SERVER,
      '/confirmretention': apiOnly,
    },
  },
})
