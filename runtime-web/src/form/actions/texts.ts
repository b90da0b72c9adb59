/** The action engine's own texts (core/i18n/locales/actions), loaded with the engine (lib/area_texts.ts). */
import type { i18n as I18n } from 'i18next'
import { areaTextsLoaded, type AreaLoaders } from '../../lib/area_texts.js'
import { shownLanguage } from '@tramita/web/language'

const LOADERS: AreaLoaders = {
  es: () => import('@tramita/i18n/locales/actions/es.json'),
  en: () => import('@tramita/i18n/locales/actions/en.json'),
  zh: () => import('@tramita/i18n/locales/actions/zh.json'),
}

/** The engine's own texts, under `actions.*`, for the page's language (a failed load leaves the keys). */
export const loadActionTexts = (i18n: I18n): Promise<void> =>
  areaTextsLoaded(i18n, 'actions', LOADERS, shownLanguage(i18n.language))
