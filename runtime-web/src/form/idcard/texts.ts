/**
 * The ID card dialog's own texts (core/i18n/locales/idcard): fetched with the dialog, not with every
 * form, and added to the page's i18next under `idcard.*` for the language shown. The dialog suspends
 * until they are there.
 */
import { use } from 'react'
import { useTranslation } from 'react-i18next'
import type { i18n as I18n } from 'i18next'
import type { Language } from '@tramita/i18n'
import { shownLanguage } from '../../lib/language.js'

const LOADERS: Record<Language, () => Promise<{ default: Record<string, string> }>> = {
  es: () => import('@tramita/i18n/locales/idcard/es.json'),
  en: () => import('@tramita/i18n/locales/idcard/en.json'),
  zh: () => import('@tramita/i18n/locales/idcard/zh.json'),
}

const loading = new WeakMap<I18n, Map<Language, Promise<void>>>()

function textsLoaded(i18n: I18n, language: Language): Promise<void> {
  let byLanguage = loading.get(i18n)
  if (!byLanguage) loading.set(i18n, (byLanguage = new Map()))
  let loaded = byLanguage.get(language)
  if (!loaded) {
    loaded = LOADERS[language]().then(
      (texts) => void i18n.addResourceBundle(language, 'translation', { idcard: texts.default }, true, false),
      // Offline or a lost chunk: the dialog still works, its buttons named by their keys.
      () => undefined
    )
    byLanguage.set(language, loaded)
  }
  return loaded
}

/** The page's `t`, once the dialog's texts are loaded for its language. */
export function useIdCardTexts() {
  const { t, i18n } = useTranslation()
  use(textsLoaded(i18n, shownLanguage(i18n.language)))
  return t
}
