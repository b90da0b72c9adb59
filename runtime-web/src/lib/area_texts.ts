/**
 * The texts of an area that loads lazily (core/i18n/locales/<area>: the viewers, the table, the ID
 * card dialog, the action engine): fetched with the code that shows them rather than with every page,
 * and added to the page's i18next under `<area>.*` for the language shown, again after a language
 * switch. Each area keeps its own loaders, as the bundler needs each import written out.
 */
import { use } from 'react'
import { useTranslation } from 'react-i18next'
import type { i18n as I18n } from 'i18next'
import type { Language } from '@tramita/i18n'
import { shownLanguage } from '@tramita/web/language'

export type AreaLoaders = Record<Language, () => Promise<{ default: Record<string, unknown> }>>

const loading = new WeakMap<I18n, Map<string, Promise<void>>>()

/** Resolves once the area's texts are in `i18n` for `language` (once per area and language). */
export function areaTextsLoaded(i18n: I18n, area: string, loaders: AreaLoaders, language: Language): Promise<void> {
  let byArea = loading.get(i18n)
  if (!byArea) loading.set(i18n, (byArea = new Map()))
  const key = `${area}:${language}`
  let loaded = byArea.get(key)
  if (!loaded) {
    loaded = loaders[language]().then(
      (texts) => void i18n.addResourceBundle(language, 'translation', { [area]: texts.default }, true, false),
      // Offline or a lost chunk: the area still works, its controls named by their keys.
      () => undefined
    )
    byArea.set(key, loaded)
  }
  return loaded
}

/** The page's `t` and language, once the area's texts are loaded: suspends until then. */
export function useAreaTexts(area: string, loaders: AreaLoaders) {
  const { t, i18n } = useTranslation()
  const language = shownLanguage(i18n.language)
  use(areaTextsLoaded(i18n, area, loaders, language))
  return { t, language }
}
