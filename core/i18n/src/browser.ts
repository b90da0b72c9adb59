/**
 * The browser's entry of @tramita/i18n (chosen by the "browser" export condition): the same API as
 * index.ts, but a page downloads only the language it shows. Languages load on demand through a small
 * i18next backend (a dynamic import each), so switching language fetches the new one then. The three
 * files have the same keys (tests/i18n.spec.ts), so the Spanish fallback is never needed to fill gaps.
 */
import i18next, { type BackendModule, type i18n, type InitOptions } from 'i18next'
import { commonOptions, DEFAULT_LANGUAGE, isLanguage, pickLanguage, type Language, type Vars } from './languages.js'

export * from './languages.js'

const LOADERS: Record<Language, () => Promise<{ default: object }>> = {
  es: () => import('../locales/es.json'),
  en: () => import('../locales/en.json'),
  zh: () => import('../locales/zh.json'),
}

const lazyLanguages: BackendModule = {
  type: 'backend',
  init() {},
  read(language, _namespace, callback) {
    const load = isLanguage(language) ? LOADERS[language] : LOADERS[DEFAULT_LANGUAGE]
    load().then(
      (module) => callback(null, module.default as never),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), false)
    )
  },
}

let shared: i18n | undefined

/** The page's i18next instance with its language loaded; translate() speaks through it. */
export async function createI18n(lang: Language = DEFAULT_LANGUAGE, options: InitOptions = {}): Promise<i18n> {
  const instance = i18next.createInstance().use(lazyLanguages)
  // Only the language shown is fetched: no fallback language is preloaded (see above).
  await instance.init({ ...commonOptions(lang), fallbackLng: false, ...options })
  shared = instance
  return instance
}

/** A message in the page's language (the browser holds one language; `lang` is honoured once loaded). */
export function translate(lang: Language | string, key: string, vars?: Vars): string {
  if (!shared) return key
  const language = isLanguage(lang) ? lang : pickLanguage(lang)
  return String(
    shared.getFixedT(shared.hasResourceBundle(language, 'translation') ? language : shared.language)(key, vars ?? {})
  )
}
