/**
 * The deterministic budgets of the web apps, read from a built dist's Vite manifest: the form route's
 * initial JavaScript and the designer's form page before Monaco, gzipped. One implementation for
 * `npm run bench` (tests/bench/bundle.bench.mjs, designer.bench.mjs) and for `npm test`
 * (tests/e2e/budgets.spec.ts), which fails when a budget is missed.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'

export const FORM_ROUTE_BUDGET_KB = 151
export const DESIGNER_PAGE_BUDGET_KB = 300
/** A request for Monaco's chunks or its TypeScript worker (the designer's script editor). */
export const MONACO_REQUEST = /MonacoScriptEditor|editor\.api|ts\.worker/

type Manifest = Record<string, { file: string; imports?: string[]; isEntry?: boolean }>

export const readManifest = (dist: string): Manifest =>
  JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8'))

export const gzipBytes = (file: string) => gzipSync(readFileSync(file), { level: 9 }).length

/** Every chunk a manifest key statically needs (itself included). */
export function closure(manifest: Manifest, key: string | undefined, seen = new Set<string>()) {
  if (key === undefined) throw new Error('no entry in the Vite manifest')
  if (seen.has(key)) return seen
  seen.add(key)
  for (const next of manifest[key]?.imports ?? []) closure(manifest, next, seen)
  return seen
}

export function gzipSize(dist: string, manifest: Manifest, keys: Iterable<string>) {
  let total = 0
  for (const key of keys) total += gzipBytes(join(dist, manifest[key]!.file))
  return total
}

/** A chunk by its source's path; a renamed source fails loudly rather than shrinking the figure. */
function keyEnding(manifest: Manifest, suffix: string) {
  const key = Object.keys(manifest).find((k) => k.endsWith(suffix))
  if (key === undefined) throw new Error(`no ${suffix} in the Vite manifest`)
  return key
}
const entryOf = (manifest: Manifest) => Object.keys(manifest).find((k) => manifest[k]!.isEntry)

/**
 * The form route's initial JS: the entry's closure, the FormsPage chunk's (the router's lazy import,
 * preloaded with it) and Spanish's, the default language imported before the first render.
 */
export function formRoute(dist: string) {
  const manifest = readManifest(dist)
  const keys = new Set([
    ...closure(manifest, entryOf(manifest)),
    ...closure(manifest, keyEnding(manifest, 'src/pages/FormsPage.tsx')),
    ...closure(manifest, keyEnding(manifest, 'locales/es.json')),
  ])
  return { manifest, keys, bytes: gzipSize(dist, manifest, keys) }
}

/** The designer's form page before any script editor opens: entry, FormPage and Spanish, and which are Monaco. */
export function designerPage(dist: string) {
  const manifest = readManifest(dist)
  const keys = new Set([
    ...closure(manifest, entryOf(manifest)),
    ...closure(manifest, keyEnding(manifest, 'src/pages/FormPage.tsx')),
    ...closure(manifest, keyEnding(manifest, 'locales/designer/es.json')),
  ])
  const monaco = [...keys].filter((k) => /monaco/i.test(k))
  return { keys, monaco, bytes: gzipSize(dist, manifest, keys) }
}
