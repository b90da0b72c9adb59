/**
 * The viewers' own texts (core/i18n/locales/viewers): fetched with the viewers rather than with every
 * page, and added to the page's i18next under `viewers.*` for the language shown (again after a
 * language switch). A viewer suspends until they are there, inside FilePreview's Suspense.
 */
import { use } from 'react'
import { useTranslation } from 'react-i18next'
import type { i18n as I18n } from 'i18next'
import type { Language } from '@tramita/i18n'
import { shownLanguage } from '../../lib/language.js'

const LOADERS: Record<Language, () => Promise<{ default: Record<string, string> }>> = {
  es: () => import('@tramita/i18n/locales/viewers/es.json'),
  en: () => import('@tramita/i18n/locales/viewers/en.json'),
  zh: () => import('@tramita/i18n/locales/viewers/zh.json'),
}

const loading = new WeakMap<I18n, Map<Language, Promise<void>>>()

function textsLoaded(i18n: I18n, language: Language): Promise<void> {
  let byLanguage = loading.get(i18n)
  if (!byLanguage) loading.set(i18n, (byLanguage = new Map()))
  let loaded = byLanguage.get(language)
  if (!loaded) {
    loaded = LOADERS[language]().then(
      (texts) => void i18n.addResourceBundle(language, 'translation', { viewers: texts.default }, true, false),
      // Offline or a lost chunk: the viewer still works, its buttons named by their keys.
      () => undefined
    )
    byLanguage.set(language, loaded)
  }
  return loaded
}

/** The page's `t`, once the viewers' texts are loaded for its language. */
export function useViewerTexts() {
  const { t, i18n } = useTranslation()
  use(textsLoaded(i18n, shownLanguage(i18n.language)))
  return t
}
