/** A type's readable name in the designer's language; a type without its text (a plugin's) shows its id in words. */
import type { TFunction } from 'i18next'
import type { ItemKind } from '@tramita/contract'

export function typeName(t: TFunction, kind: ItemKind, type: string): string {
  return t(`types.${kind}.${type}`, { defaultValue: inWords(type) })
}

/** `scan_document` → "Scan document": the name of a type whose texts the designer does not have. */
export function inWords(type: string): string {
  const words = type.replace(/[_-]+/g, ' ').trim()
  return words.charAt(0).toUpperCase() + words.slice(1)
}
