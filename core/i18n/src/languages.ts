/** The languages and how one is picked: shared by the server entry (index.ts) and the browser's (browser.ts). */
import type { InitOptions } from 'i18next'

export const LANGUAGES = ['es', 'en', 'zh'] as const
export type Language = (typeof LANGUAGES)[number]
export const DEFAULT_LANGUAGE: Language = 'es'
/** Each language named in itself (language switches and the designer's text language). */
export const AUTONYMS: Record<Language, string> = { es: 'Español', en: 'English', zh: '中文' }
export const NAMESPACE = 'translation'

export type Vars = Record<string, unknown>

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value)
}

/**
 * The best supported language for an Accept-Language header (`zh-CN,zh;q=0.9,en;q=0.8`) or a single
 * code (`en-US`, `zh_Hant`). Entries are ranked by their q weight (ties keep their order), `q=0`
 * entries and `*` are ignored; anything unknown or absent gives Spanish.
 */
export function pickLanguage(acceptLanguageHeaderOrCode?: string | null): Language {
  if (!acceptLanguageHeaderOrCode) return DEFAULT_LANGUAGE
  const ranked = acceptLanguageHeaderOrCode
    .split(',')
    .map((entry, index) => {
      const [tag = '', ...params] = entry.trim().split(';')
      let q = 1
      for (const param of params) {
        const [name, value] = param.trim().split('=')
        if (name?.trim().toLowerCase() === 'q') {
          const parsed = Number(value)
          q = Number.isFinite(parsed) ? parsed : 0
        }
      }
      const primary = tag.trim().toLowerCase().split(/[-_]/)[0] ?? ''
      return { primary, q, index }
    })
    .filter((entry) => entry.q > 0 && entry.primary !== '' && entry.primary !== '*')
    .sort((a, b) => b.q - a.q || a.index - b.index)
  const best = ranked.find((entry) => isLanguage(entry.primary))
  return best ? (best.primary as Language) : DEFAULT_LANGUAGE
}

/** What every Tramita i18next instance starts from, without its resources. */
export function commonOptions(lang: Language): InitOptions {
  return {
    lng: lang,
    supportedLngs: [...LANGUAGES],
    fallbackLng: DEFAULT_LANGUAGE,
    ns: [NAMESPACE],
    defaultNS: NAMESPACE,
    returnNull: false,
    returnEmptyString: false,
    // React escapes what it renders and server messages travel as JSON: no HTML escaping here.
    interpolation: { escapeValue: false },
  }
}
