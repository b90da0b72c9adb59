/**
 * Tramita's texts: Spanish (the default and fallback), English and Chinese, one i18next namespace
 * ("translation"). This entry holds every language in memory (the server, tests); bundlers building
 * for the browser take src/browser.ts instead (package.json "browser" condition), which loads one.
 * The three locale files carry exactly the same keys; tests/i18n.spec.ts checks it. Texts only the
 * server says (sign-in, engine refusals, uploads, generated documents, mail, lookups) live in locales/server
 * and are merged here: the browser never downloads them.
 */
import i18next, { type i18n, type InitOptions } from 'i18next'
import es from '../locales/es.json' with { type: 'json' }
import en from '../locales/en.json' with { type: 'json' }
import zh from '../locales/zh.json' with { type: 'json' }
import serverEs from '../locales/server/es.json' with { type: 'json' }
import serverEn from '../locales/server/en.json' with { type: 'json' }
import serverZh from '../locales/server/zh.json' with { type: 'json' }
import consultationEs from '../locales/consultation/es.json' with { type: 'json' }
import consultationEn from '../locales/consultation/en.json' with { type: 'json' }
import consultationZh from '../locales/consultation/zh.json' with { type: 'json' }
import { commonOptions, DEFAULT_LANGUAGE, isLanguage, pickLanguage, type Language, type Vars } from './languages.js'

export * from './languages.js'

/** The message tree of one language (Spanish is the source). */
export type Messages = typeof es & typeof serverEs & { consultation: typeof consultationEs }

// The public consultation's texts load with its page in the browser (locales/consultation); here, with the rest.
export const resources = {
  es: { translation: { ...es, consultation: consultationEs, ...serverEs } },
  en: { translation: { ...en, consultation: consultationEn, ...serverEn } },
  zh: { translation: { ...zh, consultation: consultationZh, ...serverZh } },
} as const satisfies Record<Language, { translation: Messages }>

/** The options every Tramita i18next instance starts from (resources in memory, no backend). */
export function baseOptions(lang: Language = DEFAULT_LANGUAGE): InitOptions {
  return { ...commonOptions(lang), resources, initAsync: false }
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
