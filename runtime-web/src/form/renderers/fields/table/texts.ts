/**
 * The table's own texts (core/i18n/locales/table): fetched with the table renderer rather than with
 * every form, and added to the page's i18next under `table.*` for the language shown (again after a
 * language switch). The table suspends until they are there, inside ItemView's Suspense. The spec's
 * fixed cell messages (invalid_date, invalid_number, variable_not_found) stay in the main locale.
 */
import { use } from 'react'
import { useTranslation } from 'react-i18next'
import type { i18n as I18n } from 'i18next'
import type { Language } from '@tramita/i18n'
import { shownLanguage } from '../../../../lib/language.js'

const LOADERS: Record<Language, () => Promise<{ default: Record<string, string> }>> = {
  es: () => import('@tramita/i18n/locales/table/es.json'),
  en: () => import('@tramita/i18n/locales/table/en.json'),
  zh: () => import('@tramita/i18n/locales/table/zh.json'),
}

const loading = new WeakMap<I18n, Map<Language, Promise<void>>>()

function textsLoaded(i18n: I18n, language: Language): Promise<void> {
  let byLanguage = loading.get(i18n)
  if (!byLanguage) loading.set(i18n, (byLanguage = new Map()))
  let loaded = byLanguage.get(language)
  if (!loaded) {
    loaded = LOADERS[language]().then(
      (texts) => void i18n.addResourceBundle(language, 'translation', { table: texts.default }, true, false),
      // Offline or a lost chunk: the table still works, its controls named by their keys.
      () => undefined
    )
    byLanguage.set(language, loaded)
  }
  return loaded
}

/** The page's `t` and i18n, once the table's texts are loaded for its language. */
export function useTableTexts() {
  const { t, i18n } = useTranslation()
  const language = shownLanguage(i18n.language)
  use(textsLoaded(i18n, language))
  return { t, language }
}
