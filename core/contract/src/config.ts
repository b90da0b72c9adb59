/**
 * Types of a resolved jsonconfig (defaults applied), derived from the schemas so the two cannot drift.
 * `FormConfigInput` is what a designer may write: any key with a default may be left out.
 */
import type { Static } from '@sinclair/typebox'
import type { FormConfigBase } from './schema/form.js'
import type { ItemOf } from './registry.js'

/** A field or element with the common keys typed; its type-specific keys are read through its type. */
export type FormItem = ItemOf & { data: Record<string, any> }

export type FormConfig = Omit<Static<typeof FormConfigBase>, 'fields' | 'elements'> & {
  fields: FormItem[]
  elements: FormItem[]
}

type DeepPartial<T> = T extends (infer U)[]
  ? DeepPartial<U>[]
  : T extends object
    ? { [K in keyof T]?: DeepPartial<T[K]> }
    : T

/** What a designer writes: names, types and pages are needed; everything with a default may be omitted. */
export type FormConfigInput = DeepPartial<FormConfig>
