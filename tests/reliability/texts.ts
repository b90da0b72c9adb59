/**
 * The server's messages as it words them in Spanish (the default language): the core's texts (every
 * folder of them) and the plugins', read from their locale files, for checks that compare answers.
 */
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { ROOT } from './cluster.ts'

/** The messages, as the server words them in Spanish: the core's texts (every folder of them) and the plugins'. */
const CORE_LOCALES = join(ROOT, 'core/i18n/locales')
const TEXTS = {
  core: [
    join(CORE_LOCALES, 'es.json'),
    ...readdirSync(CORE_LOCALES, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => join(CORE_LOCALES, e.name, 'es.json')),
  ].reduce((all, file) => merge(all, JSON.parse(readFileSync(file, 'utf8'))), {}),
  documents: JSON.parse(readFileSync(join(ROOT, 'plugins/documents/locales/es.json'), 'utf8')),
  devices: JSON.parse(readFileSync(join(ROOT, 'plugins/devices/locales/es.json'), 'utf8')),
} as Record<string, any>

function merge(into: any, from: any): any {
  for (const [k, v] of Object.entries(from)) {
    into[k] = v && typeof v === 'object' && into[k] && typeof into[k] === 'object' ? merge(into[k], v) : v
  }
  return into
}

export function text(key: string): string {
  const [head, ...rest] = key.split('.')
  const [source, path] =
    head === 'documents' || head === 'devices' ? [TEXTS[head], rest] : [TEXTS.core, [head, ...rest]]
  const found = path.reduce((node: any, part) => node?.[part], source)
  if (typeof found !== 'string') throw new Error(`no Spanish text for ${key}`)
  return found
}

/** A key whose text is this message (to print what a route said, in the table's terms). */
export function keyOf(message: unknown): string {
  const walk = (node: any, prefix: string): string | undefined => {
    for (const [k, v] of Object.entries(node ?? {})) {
      const key = prefix ? `${prefix}.${k}` : k
      if (v === message) return key
      if (v && typeof v === 'object') {
        const found = walk(v, key)
        if (found) return found
      }
    }
    return undefined
  }
  return (
    walk(TEXTS.core, '') ??
    walk(TEXTS.documents, 'documents') ??
    walk(TEXTS.devices, 'devices') ??
    JSON.stringify(message)
  )
}
