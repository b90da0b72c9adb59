/**
 * The table's own texts (core/i18n/locales/table), loaded with the table renderer, under `table.*`
 * (lib/area_texts.ts); it suspends until they are there, inside ItemView's Suspense. The spec's fixed
 * cell messages (invalid_date, invalid_number, variable_not_found) stay in the main locale.
 */
import { useAreaTexts, type AreaLoaders } from '../../../../lib/area_texts.js'

const LOADERS: AreaLoaders = {
  es: () => import('@tramita/i18n/locales/table/es.json'),
  en: () => import('@tramita/i18n/locales/table/en.json'),
  zh: () => import('@tramita/i18n/locales/table/zh.json'),
}

/** The page's `t` and language, once these texts are loaded for its language (suspends until then). */
export const useTableTexts = () => useAreaTexts('table', LOADERS)
