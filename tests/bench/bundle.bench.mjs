/**
 * Benchmark (b) of the form runtime: the JavaScript the form route loads before it can show a form,
 * gzipped, from a fresh `vite build` of runtime-web. Vite's manifest gives every chunk's static
 * imports: the route's initial JS is the entry's closure plus the FormsPage chunk's closure (what
 * the router's lazy import pulls in, preloaded together). QuickJS and the script evaluation load
 * only when a form's scripts first run, and are reported on their own.
 * Baseline, built in the same run: React + ReactDOM alone rendering one element (the floor any React
 * screen pays). Target: form route ≤ 150 kB gzipped.
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'

const TARGET_KB = 150

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

const gz = (file) => gzipSync(readFileSync(file), { level: 9 }).length

/** Every chunk a manifest key statically needs (itself included). */
function closure(manifest, key, seen = new Set()) {
  if (seen.has(key)) return seen
  seen.add(key)
  for (const next of manifest[key]?.imports ?? []) closure(manifest, next, seen)
  return seen
}

function size(dist, manifest, keys) {
  let total = 0
  for (const key of keys) total += gz(join(dist, manifest[key].file))
  return total
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
  const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8'))
  const entry = Object.keys(manifest).find((k) => manifest[k].isEntry)
  const bytes = size(dist, manifest, closure(manifest, entry))
  rmSync(dir, { recursive: true, force: true })
  return bytes
}

export function bundleBench() {
  const web = join(ROOT, 'runtime-web')
  vite(web)
  const dist = join(web, 'dist')
  const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8'))
  const entry = Object.keys(manifest).find((k) => manifest[k].isEntry)
  const formsPage = Object.keys(manifest).find((k) => k.endsWith('src/pages/FormsPage.tsx'))
  // The page's language is a dynamic import made before the first render: Spanish, the default, counts.
  const spanish = Object.keys(manifest).find((k) => k.endsWith('locales/es.json'))
  const initial = new Set([...closure(manifest, entry), ...closure(manifest, formsPage), ...closure(manifest, spanish)])
  const route = size(dist, manifest, initial)
  const lazy = (pattern) =>
    Object.keys(manifest)
      .filter((k) => pattern.test(k))
      .flatMap((k) => [...closure(manifest, k)])
      .filter((k) => !initial.has(k))
  const scriptingKeys = new Set([...lazy(/sandbox\/browser\/index\.ts$/), ...lazy(/contract\/src\/evaluate\.ts$/)])
  const scripting = size(dist, manifest, scriptingKeys)
  // The QuickJS worker and its wasm-in-JS module are built beside the page, outside the manifest.
  const workerBytes = readdirSync(join(dist, 'assets'))
    .filter((file) => /^(worker|emscripten-module|ffi)-.*\.js$/.test(file))
    .reduce((n, file) => n + gz(join(dist, 'assets', file)), 0)
  const base = baseline()
  const kb = (n) => `${(n / 1024).toFixed(1)} kB`
  console.log(`form route initial JS (gzip)   ${kb(route)} in ${initial.size} chunks`)
  console.log(
    `  target ≤ ${TARGET_KB} kB: ${route / 1024 <= TARGET_KB ? 'met' : 'MISSED'} (${((route / 1024 / TARGET_KB) * 100).toFixed(0)} % of it)`
  )
  console.log(`  baseline React + ReactDOM alone: ${kb(base)}; ratio ${(route / base).toFixed(2)}×`)
  console.log(`scripts, loaded on first use:   ${kb(scripting)} (evaluation) + ${kb(workerBytes)} (QuickJS worker)`)
  return { route, base, scripting, workerBytes }
}
