/**
 * The designer's own texts in es, en and zh (core/i18n/locales/designer: with every other text, but
 * in files of their own so the runtime's pages never download them), on the languages and options
 * of @tramita/i18n; a test keeps the three files' keys equal. Only the page's language is fetched,
 * another when the language switch picks it; the choice is the runtime's (@tramita/web/language).
 */
import i18next, { type BackendModule, type i18n } from 'i18next'
import { commonOptions, isLanguage, type Language } from '@tramita/i18n'

export { initialLanguage } from '@tramita/web/language'

const LOADERS: Record<Language, () => Promise<{ default: Record<string, unknown> }>> = {
  es: () => import('@tramita/i18n/locales/designer/es.json'),
  en: () => import('@tramita/i18n/locales/designer/en.json'),
  zh: () => import('@tramita/i18n/locales/designer/zh.json'),
}

const designerTexts: BackendModule = {
  type: 'backend',
  init() {},
  read(language, _namespace, callback) {
    LOADERS[isLanguage(language) ? language : 'es']().then(
      (module) => callback(null, module.default as never),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), false)
    )
  },
}

export async function createDesignerI18n(lang: Language): Promise<i18n> {
  const instance = i18next.createInstance().use(designerTexts)
  await instance.init({ ...commonOptions(lang), fallbackLng: false, react: { useSuspense: false } })
  return instance
}
