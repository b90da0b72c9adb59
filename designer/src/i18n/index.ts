/**
 * The designer's own texts in es, en and zh (core/i18n/locales/designer: with every other text, but
 * in files of their own so the runtime's pages never download them), on the languages and options
 * of @tramita/i18n; a test keeps the three files' keys equal. Only the page's language is fetched;
 * the language choice is the runtime's (same localStorage key).
 */
import i18next, { type i18n } from 'i18next'
import { commonOptions, isLanguage, pickLanguage, type Language } from '@tramita/i18n'

const LOADERS: Record<Language, () => Promise<{ default: Record<string, unknown> }>> = {
  es: () => import('@tramita/i18n/locales/designer/es.json'),
  en: () => import('@tramita/i18n/locales/designer/en.json'),
  zh: () => import('@tramita/i18n/locales/designer/zh.json'),
}

/** Where runtime-web remembers the chosen language (runtime-web/src/lib/language.ts). */
const LANGUAGE_STORAGE_KEY = 'tramita.lang'

export function initialLanguage(): Language {
  try {
    const stored = localStorage.getItem(LANGUAGE_STORAGE_KEY)
    if (isLanguage(stored)) return stored
  } catch {}
  return pickLanguage(navigator.languages?.length ? navigator.languages.join(',') : navigator.language)
}

export async function createDesignerI18n(lang: Language): Promise<i18n> {
  const instance = i18next.createInstance()
  const texts = (await LOADERS[lang]()).default
  await instance.init({
    ...commonOptions(lang),
    fallbackLng: false,
    resources: { [lang]: { translation: texts } },
    react: { useSuspense: false },
  })
  return instance
}
