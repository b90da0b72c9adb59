/** Lookups over an import result for the importer tests. */
import type { ImportResult } from '../../src/importers/index.js'

type Item = {
  field_name?: string
  type?: string
  data?: Record<string, any>
  state?: Record<string, any>
  saveable?: boolean
  translations?: Record<string, Record<string, string>>
}

/** The field or element of that name (throws when missing, so a test names what it expected). */
export function itemOf(result: ImportResult, name: string): Item & { data: Record<string, any> } {
  const found = [...(result.config.fields ?? []), ...(result.config.elements ?? [])].find((i) => i?.field_name === name)
  if (!found) throw new Error(`no item named ${name}`)
  return found as Item & { data: Record<string, any> }
}

export const layoutOf = (result: ImportResult) =>
  result.config.form!.pages!.map((p) => ({ name: p!.name, layout: p!.layout }))

export const conditionOf = (result: ImportResult, name: string) => itemOf(result, name).data.show_with_formule

export const unmappedPaths = (result: ImportResult) => result.unmapped.map((u) => u.path)

export const reasonAt = (result: ImportResult, path: string) => result.unmapped.find((u) => u.path === path)?.reason
