/**
 * The benchmark's pages (tests/bench/form.bench.mjs builds them): tramita.html mounts FormRuntime,
 * surveyjs.html mounts survey-react-ui, and floor.html answers the driver from a worker that does
 * nothing (the floor of a round trip). The form itself comes through `define` from the bench
 * (__BENCH_SURVEY__, __BENCH_CONFIG__ and __BENCH_FLOOR__), so each bundle holds its own format of it.
 */
import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'
import { fileURLToPath } from 'node:url'
import { tramitaFormDevices } from '@tramita/plugin-api/discover'

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url))

export default defineConfig({
  root: here('.'),
  base: './',
  // The ID card and signature dialogs' device capture (a lazy chunk, as in runtime-web).
  plugins: [react(), tramitaFormDevices(here('../../..'))],
  // As runtime-web: the sandbox worker loads QuickJS lazily, which only module workers can hold.
  worker: { format: 'es' },
  build: {
    emptyOutDir: true,
    chunkSizeWarningLimit: 2000,
    rollupOptions: {
      input: { tramita: here('tramita.html'), surveyjs: here('surveyjs.html'), floor: here('floor.html') },
    },
  },
})
