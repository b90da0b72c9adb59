/**
 * Names the designer hands out or accepts: field names scripts read by bare name (so identifiers, not
 * reserved words, not a sandbox global), page names and section ids, each unique in the form.
 */
import { FIELD_NAME_PATTERN, RESERVED_WORDS } from '@tramita/contract'
import { SANDBOX_GLOBALS } from '@tramita/sandbox'
import type { DraftConfig } from './document.js'
import { itemNames } from './document.js'

const IDENTIFIER = new RegExp(FIELD_NAME_PATTERN)
const MAX_LENGTH = 120

/** A field named so passes the schema, but no script could read it by bare name. */
const RESERVED = new Set([...RESERVED_WORDS, ...SANDBOX_GLOBALS])

export type NameProblem = 'empty' | 'pattern' | 'too_long' | 'reserved' | 'taken'

/** Why a field name cannot be used (undefined when it can); `self` is the item's current name. */
export function fieldNameProblem(config: DraftConfig, name: string, self?: string): NameProblem | undefined {
  if (name === '') return 'empty'
  if (name.length > MAX_LENGTH) return 'too_long'
  if (!IDENTIFIER.test(name)) return 'pattern'
  if (RESERVED.has(name)) return 'reserved'
  if (name !== self && itemNames(config).includes(name)) return 'taken'
  return undefined
}

/**
 * `base_N` with the smallest N not taken (a trailing _N of the base is dropped first, so a copy of
 * `nombre_2` is `nombre_3`, not `nombre_2_1`). The suffix also keeps a base that is a global usable.
 * `alsoTaken`: names handed out in the same command, not yet in the document.
 */
export function uniqueFieldName(config: DraftConfig, base: string, alsoTaken: Iterable<string> = []): string {
  // A plugin's type may be named `mi-tipo`: the stem is made an identifier, or no N would ever do.
  const identifier = base.replace(/[^A-Za-z0-9_$]+/g, '_').replace(/^(?=[0-9])/, '_')
  const stem = identifier.replace(/_\d+$/, '').slice(0, MAX_LENGTH - 8) || 'field'
  const taken = new Set([...itemNames(config), ...alsoTaken])
  for (let n = 1; ; n++) {
    const name = `${stem}_${n}`
    if (!taken.has(name) && fieldNameProblem(config, name) === undefined) return name
  }
}

/** A page name not used by another page: `base`, else `base 2`, `base 3`... */
export function uniquePageName(config: DraftConfig, base: string): string {
  const taken = new Set(config.form.pages.map((page) => page.name))
  if (!taken.has(base)) return base
  for (let n = 2; ; n++) if (!taken.has(`${base} ${n}`)) return `${base} ${n}`
}

/** A section id from a page name (lower-case ASCII identifier), unique among the form's pages. */
export function uniqueSectionId(config: DraftConfig, name: string): string {
  const slug =
    name
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '') || 'section'
  const taken = new Set(config.form.pages.map((page) => page.section_id).filter(Boolean))
  if (!taken.has(slug)) return slug
  for (let n = 2; ; n++) if (!taken.has(`${slug}_${n}`)) return `${slug}_${n}`
}
