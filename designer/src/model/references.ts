/**
 * The places outside an item that name it or a page, kept true when the item or page changes.
 * A rename follows every reference the contract defines by name (layouts, sets, autocomplete rules,
 * action steps' field keys, the process's assignee fields and external consultation). A delete takes the name out of layouts
 * and lists; a single reference to a deleted field (a set, a rule, an assignee) is left for the
 * validation to flag where it is, rather than deleting what a designer wrote around it.
 * Scripts read fields by bare name and are not rewritten here (the script editor's increment).
 */
import type { DesignDocument, DraftConfig } from './document.js'
import { relocate } from './layout.js'
import { renameFieldInActions } from './logic.js'

type Json = Record<string, any>

const list = (value: unknown): Json[] => (Array.isArray(value) ? value : [])

/** Rewrites every reference to field `from` as `to`, on a mutable draft of the document. */
export function renameReferences(doc: DesignDocument, from: string, to: string): void {
  const config = doc.jsonconfig
  for (const page of config.form.pages) {
    for (const row of page.layout) {
      row.forEach((name, column) => {
        if (name === from) row[column] = to
      })
    }
  }
  for (const item of config.fields) if (item.set === from) item.set = to
  for (const rule of list(config.validations?.autocomplete)) if (rule.id_field === from) rule.id_field = to
  renameFieldInActions(doc, from, to)
  const process = doc.process as Json
  for (const step of list(process.steps)) if (step.assign?.field === from) step.assign.field = to
  const consultation = process.external_consultation as Json | undefined
  if (consultation) {
    if (consultation.select_restrinct_consult === from) consultation.select_restrinct_consult = to
    if (Array.isArray(consultation.select_show_info)) {
      consultation.select_show_info = consultation.select_show_info.map((name: string) => (name === from ? to : name))
    }
  }
}

/** Takes deleted names out of the layouts (rows left empty go too) and out of the lists that name fields. */
export function dropReferences(doc: DesignDocument, names: ReadonlySet<string>): void {
  relocate(doc.jsonconfig.form.pages, [...names])
  const consultation = (doc.process as Json).external_consultation as Json | undefined
  if (Array.isArray(consultation?.select_show_info)) {
    consultation.select_show_info = consultation.select_show_info.filter((name: string) => !names.has(name))
  }
}

/**
 * Actions may start on a page by name or by index (validations.actions[].start_page.page). Called
 * before the pages move: `where(old)` gives each old index its new one; a reference to a removed page becomes
 * that page's name, which no longer exists, so the validation flags it instead of it silently
 * pointing at whichever page took the index.
 */
export function remapPageReferences(config: DraftConfig, where: (old: number) => number | undefined): void {
  const names = config.form.pages.map((page) => page.name)
  for (const action of list(config.validations?.actions)) {
    const start = action.start_page as Json | undefined
    if (typeof start?.page !== 'number') continue
    const moved = where(start.page)
    start.page = moved ?? names[start.page] ?? start.page
  }
}

/** A page renamed: actions that start on it by name follow. */
export function renamePageReferences(config: DraftConfig, from: string, to: string): void {
  for (const action of list(config.validations?.actions)) {
    const start = action.start_page as Json | undefined
    if (start?.page === from) start.page = to
  }
}
