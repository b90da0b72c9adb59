/**
 * The viewers' own texts (core/i18n/locales/viewers), loaded with the viewers, under `viewers.*`
 * (lib/area_texts.ts). A viewer suspends until they are there, inside FilePreview's Suspense.
 */
import { useAreaTexts, type AreaLoaders } from '../../lib/area_texts.js'

const LOADERS: AreaLoaders = {
  es: () => import('@tramita/i18n/locales/viewers/es.json'),
  en: () => import('@tramita/i18n/locales/viewers/en.json'),
  zh: () => import('@tramita/i18n/locales/viewers/zh.json'),
}

/** The page's `t`, once these texts are loaded for its language (suspends until then). */
export const useViewerTexts = () => useAreaTexts('viewers', LOADERS).t
