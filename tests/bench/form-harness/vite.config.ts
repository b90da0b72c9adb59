/**
 * The benchmark's pages (tests/bench/form.bench.mjs builds them): tramita.html mounts FormRuntime,
 * surveyjs.html mounts survey-react-ui, and floor.html answers the driver from a worker that does
 * nothing (the floor of a round trip). The form itself comes through `define` from the bench
 * (__BENCH_SURVEY__, __BENCH_CONFIG__ and __BENCH_FLOOR__), so each bundle holds its own format of it.
 *
 * Two builds into one directory (the mode): `tramita` (tramita.html and floor.html) groups the form
 * route's chunks as the app's build does; `surveyjs` builds SurveyJS's page alone with the bundler's
 * own splitting, so no chunk of one page carries code only the other uses.
 */
import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'
import { fileURLToPath } from 'node:url'
import { tramitaFormDevices } from '@tramita/plugin-api/discover'
import { FORM_ROUTE_GROUPS } from '../../../runtime-web/chunk_groups.ts'

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url))

const PAGES = {
  tramita: { tramita: here('tramita.html'), floor: here('floor.html') },
  surveyjs: { surveyjs: here('surveyjs.html') },
}

export default defineConfig(({ mode }) => ({
  root: here('.'),
  base: './',
  // The ID card and signature dialogs' device capture (a lazy chunk, as in runtime-web).
  plugins: [react(), tramitaFormDevices(here('../../..'))],
  // As runtime-web: the sandbox worker loads QuickJS lazily, which only module workers can hold.
  worker: { format: 'es' },
  build: {
    chunkSizeWarningLimit: 2000,
    rollupOptions:
      mode === 'surveyjs'
        ? { input: PAGES.surveyjs }
        : { input: PAGES.tramita, output: { codeSplitting: { groups: FORM_ROUTE_GROUPS } } },
  },
}))
