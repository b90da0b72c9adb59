/**
 * A form's texts in the user's language (the contract's translations.ts). Most forms have no
 * translations, so the code that applies them is fetched only for a form that has some.
 */
import type { Language } from '@tramita/i18n'
import type { FormStoreInit } from './store.js'

type Items = { translations?: Record<string, unknown> }[] | undefined

/** Whether any field or element of a jsonconfig (as the server sends it) gives a text in a language. */
export function hasTranslations(jsonconfig: unknown): boolean {
  const config = jsonconfig as { fields?: Items; elements?: Items } | null
  const some = (items: Items) =>
    Array.isArray(items) && items.some((item) => Object.keys(item?.translations ?? {}).length > 0)
  return some(config?.fields) || some(config?.elements)
}

/** The store's `texts` for this form in `language`; undefined when it has nothing to translate. */
export async function formTexts(jsonconfig: unknown, language: Language): Promise<FormStoreInit['texts']> {
  if (!hasTranslations(jsonconfig)) return undefined
  const { localizeConfig } = await import('@tramita/contract/translations')
  return { language, localize: localizeConfig }
}
