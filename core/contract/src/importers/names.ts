/**
 * Field names: the sources allow any text as a key, the jsonconfig wants identifiers that scripts can
 * read by bare name. Reserved words get a trailing '_' so that they stay readable too.
 */
import { SANDBOX_GLOBALS } from '@tramita/sandbox'
import { FIELD_NAME_PATTERN, RESERVED_WORDS } from '../schema/common.js'

const IDENTIFIER = new RegExp(FIELD_NAME_PATTERN)
const MAX_LENGTH = 120

/**
 * Names a field cannot take and still be read by bare name: JavaScript's reserved words, the
 * sandbox's host API (value, setValue, now, ...) and the globals scripts use (String, Math, Date, ...).
 */
const RESERVED = new Set([...RESERVED_WORDS, ...SANDBOX_GLOBALS])

/** An identifier close to `raw`: accents dropped, other characters turned into '_'. */
export function toIdentifier(raw: string, fallback = 'field'): string {
  let name = raw
  if (!IDENTIFIER.test(name)) {
    name = name
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/[^A-Za-z0-9_$]+/g, '_')
      .replace(/^_+|_+$/g, '')
    if (/^[0-9]/.test(name)) name = `_${name}`
  }
  if (name === '') name = fallback
  if (RESERVED.has(name)) name = `${name}_`
  return name.slice(0, MAX_LENGTH)
}

/** How a script reads a field: by bare name when it can, else through value('name'). */
export function scriptRef(name: string): string {
  return IDENTIFIER.test(name) && !RESERVED.has(name) ? name : `value(${JSON.stringify(name)})`
}

/** Items read through another expression than their name: a repeating group's cells (`row.x`). */
const readAs = new WeakMap<object, string>()

/** Marks an item as a cell of a repeating group: its row's conditions read it as `row.<name>`. */
export function readAsRowCell(item: { field_name: string }): void {
  readAs.set(item, `row.${item.field_name}`)
}

/** How a script reads an item: `row.<name>` for a cell of the row, else by its name (scriptRef). */
export function itemRef(item: { field_name: string }): string {
  return readAs.get(item) ?? scriptRef(item.field_name)
}

/** Hands out unique identifiers: a taken name gets _2, _3, ... */
export class NameAllocator {
  private readonly taken = new Set<string>()

  allocate(raw: string, fallback?: string): string {
    const base = toIdentifier(raw, fallback)
    let name = base
    for (let n = 2; this.taken.has(name); n++) name = `${base.slice(0, MAX_LENGTH - String(n).length - 1)}_${n}`
    this.taken.add(name)
    return name
  }
}
