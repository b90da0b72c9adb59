/**
 * The designer's own texts in es, en and zh, on the languages and options of @tramita/i18n. They
 * live beside the designer while it is young (a test keeps the three files' keys equal); only the
 * page's language is fetched. The language choice is the runtime's (same localStorage key).
 */
import i18next, { type i18n } from 'i18next'
import { commonOptions, isLanguage, pickLanguage, type Language } from '@tramita/i18n'

const LOADERS: Record<Language, () => Promise<{ default: Record<string, unknown> }>> = {
  es: () => import('./es.json'),
  en: () => import('./en.json'),
  zh: () => import('./zh.json'),
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
