/**
 * Benchmark (b) of the form runtime: the JavaScript the form route loads before it can show a form,
 * gzipped, from a fresh `vite build` of runtime-web. Vite's manifest gives every chunk's static
 * imports: the route's initial JS is the entry's closure plus the FormsPage chunk's closure (what
 * the router's lazy import pulls in, preloaded together). QuickJS and the script evaluation load
 * only when a form's scripts first run, and are reported on their own.
 * Baseline, built in the same run: React + ReactDOM alone rendering one element (the floor any React
 * screen pays). Target: form route ≤ 151 kB gzipped (FORM_ROUTE_BUDGET_KB, budgets.ts).
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  closure,
  FORM_ROUTE_BUDGET_KB as TARGET_KB,
  formRoute,
  gzipBytes as gz,
  gzipSize,
  readManifest,
} from './budgets.ts'
import { target } from './targets.ts'

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)))
const BIN = join(ROOT, 'node_modules', '.bin')

function vite(folder) {
  const run = spawnSync(join(BIN, 'vite'), ['build', '--logLevel', 'error'], {
    cwd: folder,
    stdio: 'inherit',
    env: { ...process.env, PATH: `${BIN}:${process.env.PATH}` },
  })
  if (run.status !== 0) throw new Error(`vite build failed in ${folder}`)
}

/** React + ReactDOM rendering one element, built by the same Vite in a scratch folder. */
function baseline() {
  const dir = mkdtempSync(join(tmpdir(), 'tramita-bundle-base-'))
  mkdirSync(join(dir, 'src'))
  writeFileSync(
    join(dir, 'index.html'),
    '<!doctype html><div id="root"></div><script type="module" src="/src/main.js"></script>'
  )
  writeFileSync(
    join(dir, 'src', 'main.js'),
    "import { createElement } from 'react'\nimport { createRoot } from 'react-dom/client'\ncreateRoot(document.getElementById('root')).render(createElement('p', null, 'hola'))\n"
  )
  writeFileSync(
    join(dir, 'vite.config.mjs'),
    `export default { root: ${JSON.stringify(dir)}, resolve: { alias: { react: ${JSON.stringify(join(ROOT, 'node_modules', 'react'))}, 'react-dom': ${JSON.stringify(join(ROOT, 'node_modules', 'react-dom'))} } }, build: { outDir: 'dist', manifest: true } }\n`
  )
  vite(dir)
  const dist = join(dir, 'dist')
  const manifest = readManifest(dist)
  const entry = Object.keys(manifest).find((k) => manifest[k].isEntry)
  const bytes = gzipSize(dist, manifest, closure(manifest, entry))
  rmSync(dir, { recursive: true, force: true })
  return bytes
}

export function bundleBench() {
  const web = join(ROOT, 'runtime-web')
  vite(web)
  const dist = join(web, 'dist')
  const { manifest, keys: initial, bytes: route } = formRoute(dist)
  const lazy = (pattern) =>
    Object.keys(manifest)
      .filter((k) => pattern.test(k))
      .flatMap((k) => [...closure(manifest, k)])
      .filter((k) => !initial.has(k))
  const scriptingKeys = new Set([...lazy(/sandbox\/browser\/index\.ts$/), ...lazy(/contract\/src\/evaluate\.ts$/)])
  const scripting = gzipSize(dist, manifest, scriptingKeys)
  // The QuickJS worker and its wasm-in-JS module are built beside the page, outside the manifest.
  const workerBytes = readdirSync(join(dist, 'assets'))
    .filter((file) => /^(worker|emscripten-module|ffi)-.*\.js$/.test(file))
    .reduce((n, file) => n + gz(join(dist, 'assets', file)), 0)
  const base = baseline()
  const kb = (n) => `${(n / 1024).toFixed(1)} kB`
  console.log(`form route initial JS (gzip)   ${kb(route)} in ${initial.size} chunks`)
  console.log(
    `  target ≤ ${TARGET_KB} kB: ${target(route / 1024 <= TARGET_KB)} (${((route / 1024 / TARGET_KB) * 100).toFixed(0)} % of it)`
  )
  console.log(`  baseline React + ReactDOM alone: ${kb(base)}; ratio ${(route / base).toFixed(2)}×`)
  console.log(`scripts, loaded on first use:   ${kb(scripting)} (evaluation) + ${kb(workerBytes)} (QuickJS worker)`)
  return { route, base, scripting, workerBytes }
}
