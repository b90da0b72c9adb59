/** Where the panel reads and writes translations: the selected items' `translations[language][key]`. */
import type { Language } from '@tramita/i18n'
import type { PanelItem } from './common.js'
import type { Translation } from './panel_context.js'
import { sharedValue } from './values.js'

/** The selected items' translations in `language`, written through the panel's one onChange. */
export function translationOf(
  language: Language,
  items: readonly PanelItem[],
  onChange: (path: readonly string[], value: unknown) => void
): Translation {
  const stored = items.map((item) => item.item)
  return {
    language,
    data: (stored[0] as { data?: unknown } | undefined)?.data,
    read: (key) => sharedValue(stored, ['translations', language, key]),
    write: (key, text) => onChange(['translations', language, key], text),
  }
}
