/**
 * The ID card dialog's own texts (core/i18n/locales/idcard), loaded with the dialog, under `idcard.*`
 * (lib/area_texts.ts).
 */
import { useAreaTexts, type AreaLoaders } from '../../lib/area_texts.js'

const LOADERS: AreaLoaders = {
  es: () => import('@tramita/i18n/locales/idcard/es.json'),
  en: () => import('@tramita/i18n/locales/idcard/en.json'),
  zh: () => import('@tramita/i18n/locales/idcard/zh.json'),
}

/** The page's `t`, once these texts are loaded for its language (suspends until then). */
export const useIdCardTexts = () => useAreaTexts('idcard', LOADERS).t
