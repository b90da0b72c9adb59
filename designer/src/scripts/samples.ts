/**
 * The sample values "try it" starts from: every field of the form at its type's value before
 * anything is entered, and the process variables as they are before the case exists.
 */
import { coreRegistry, itemWithDefaults, type FieldTypeRegistry } from '@tramita/contract'
import type { Json } from '@tramita/sandbox'

/** The form's items as the script tools read them (a jsonconfig, or the part of it with the fields). */
export interface ScriptFormConfig {
  fields?: readonly {
    field_name: string
    type: string
    data?: { label?: { value?: unknown }; [key: string]: unknown }
  }[]
}

/** The process variables (spec 000 §3) as they are on a new case. */
export const PROCESS_SAMPLE: Readonly<Record<string, Json>> = {
  code_process: '',
  gnrl_id: 0,
  id_process: 0,
  this_id: 0,
}

export function sampleVariables(
  config: ScriptFormConfig,
  registry: FieldTypeRegistry = coreRegistry()
): Record<string, Json> {
  const out: Record<string, Json> = { ...PROCESS_SAMPLE }
  for (const item of config.fields ?? []) {
    if (typeof item.field_name !== 'string' || !item.field_name) continue
    const type = registry.get('field', item.type)
    let value: unknown = ''
    try {
      value = type ? type.defaultValue(itemWithDefaults(item, 'field', registry)) : ''
    } catch {
      // A half-edited item may not have what its default needs yet: the empty text will do.
    }
    out[item.field_name] = (value ?? null) as Json
  }
  return out
}
