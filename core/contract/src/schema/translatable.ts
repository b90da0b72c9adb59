/**
 * The schema side of a form's translations (translations.ts applies them): which strings a reader
 * sees, and the `translations` key every field and element may hold.
 */
import type { StringOptions } from '@sinclair/typebox'
import type { Language } from '@tramita/i18n'
import * as Type from './type.js'

/** The schema keyword marking a string as words a reader sees (ajv knows it as an annotation). */
export const TRANSLATABLE = 'translatable'

/** A string the form's reader sees, so it may be given per language. */
export const Translatable = (options: StringOptions = {}) => Type.String({ ...options, [TRANSLATABLE]: true })

const TextMap = Type.Record(Type.String({ minLength: 1 }), Type.String())

/** Per language (the keys are @tramita/i18n's LANGUAGES, a test holds them equal), the item's texts by key. */
export const Translations = Type.Object(
  { es: Type.Optional(TextMap), en: Type.Optional(TextMap), zh: Type.Optional(TextMap) },
  { additionalProperties: false, default: {} }
)

export type TranslationMap = Partial<Record<Language, Record<string, string>>>
