/**
 * Tramita's texts: Spanish (the default and fallback), English and Chinese, one i18next namespace
 * ("translation"). Isomorphic: used by the server (translate) and by runtime-web (createI18n).
 * The three locale files carry exactly the same keys; tests/i18n.spec.ts checks it.
 */
import i18next, { type i18n, type InitOptions } from 'i18next'
import es from '../locales/es.json' with { type: 'json' }
import en from '../locales/en.json' with { type: 'json' }
import zh from '../locales/zh.json' with { type: 'json' }

export const LANGUAGES = ['es', 'en', 'zh'] as const
export type Language = (typeof LANGUAGES)[number]
export const DEFAULT_LANGUAGE: Language = 'es'
export const NAMESPACE = 'translation'

/** The message tree of one language (Spanish is the source). */
export type Messages = typeof es

export const resources = {
  es: { translation: es },
  en: { translation: en },
  zh: { translation: zh },
} as const satisfies Record<Language, { translation: Messages }>

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

/** The options every Tramita i18next instance starts from (resources in memory, no backend). */
export function baseOptions(lang: Language = DEFAULT_LANGUAGE): InitOptions {
  return {
    lng: lang,
    supportedLngs: [...LANGUAGES],
    fallbackLng: DEFAULT_LANGUAGE,
    ns: [NAMESPACE],
    defaultNS: NAMESPACE,
    resources,
    initAsync: false,
    returnNull: false,
    returnEmptyString: false,
    // React escapes what it renders and server messages travel as JSON: no HTML escaping here.
    interpolation: { escapeValue: false },
  }
}

/**
 * A new i18next instance with every language loaded, fallback Spanish. `options` are merged over the
 * defaults (for example `{ react: { useSuspense: false } }` in the browser).
 */
export async function createI18n(lang: Language = DEFAULT_LANGUAGE, options: InitOptions = {}): Promise<i18n> {
  const instance = i18next.createInstance()
  await instance.init({ ...baseOptions(lang), ...options })
  return instance
}

const shared = new Map<Language, i18n>()

/** The shared instance of one language, created on first use (synchronous: resources are in memory). */
function instanceFor(lang: Language): i18n {
  let instance = shared.get(lang)
  if (!instance) {
    instance = i18next.createInstance()
    // initAsync false + in-memory resources: initialisation completes before init() returns.
    void instance.init(baseOptions(lang))
    shared.set(lang, instance)
  }
  return instance
}

/** One message in one language (unknown languages give Spanish; unknown keys give the key itself). */
export function translate(lang: Language | string, key: string, vars?: Vars): string {
  const language = isLanguage(lang) ? lang : pickLanguage(lang)
  return String(instanceFor(language).t(key, vars ?? {}))
}
