import { AUTONYMS, LANGUAGES, isLanguage, pickLanguage, type Language } from '@tramita/i18n'

/** localStorage key of the chosen language. */
export const LANGUAGE_STORAGE_KEY = 'tramita.lang'

export { AUTONYMS, LANGUAGES }

/** The remembered choice, else the browser's languages, else Spanish. */
export function initialLanguage(): Language {
  try {
    const stored = localStorage.getItem(LANGUAGE_STORAGE_KEY)
    if (isLanguage(stored)) return stored
  } catch {}
  const preferred = navigator.languages?.length ? navigator.languages.join(',') : navigator.language
  return pickLanguage(preferred)
}

export function rememberLanguage(lang: Language): void {
  try {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, lang)
  } catch {}
  document.documentElement.lang = lang
}

/** i18next's current language as one of ours ('en-US' → 'en'; unknown → Spanish). */
export function shownLanguage(code: string | undefined): Language {
  return isLanguage(code) ? code : pickLanguage(code)
}
