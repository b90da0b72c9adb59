/** A type's readable name in the designer's language; a type without its text (a plugin's) shows its id in words. */
import type { TFunction } from 'i18next'
import type { ItemKind } from '@tramita/contract'

export function typeName(t: TFunction, kind: ItemKind, type: string): string {
  const words = type.replace(/[_-]+/g, ' ').trim()
  return t(`types.${kind}.${type}`, { defaultValue: words.charAt(0).toUpperCase() + words.slice(1) })
}
