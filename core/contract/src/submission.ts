/**
 * `validateSubmission(config, values, context)`: what every server save runs. The server trusts no
 * client result: it recomputes formulas, visibility, state and required-ness in the sandbox, refuses
 * unknown fields, wrong value shapes and over-limit files, and returns the values to store.
 */
import { coreRegistry } from './core-types.js'
import { withDefaults } from './defaults.js'
import { contractText } from './messages.js'
import { itemsByName } from './layout.js'
import { schemaProblems } from './validate-config.js'
import { evaluateForm, type EvaluationContext, type ScriptFailure } from './evaluate.js'
import { applyConditions, declaredState } from './form-state.js'
import { missingRequired, type MissingField } from './required.js'
import { parseSetEntryKey, setEntries } from './sets.js'
import { localizeConfig } from './translations.js'
import { isLanguage } from '@tramita/i18n'
import { repeatCells } from './types/repeat.js'
import type { FieldTypeRegistry } from './registry.js'
import type { FormConfig } from './config.js'

export type CaseMode = 'new' | 'enter' | 'edit' | 'see' | 'approve'

export interface SubmissionContext extends EvaluationContext {
  case: CaseMode
  /** The process step being completed (fields with show_on_task lists are shown only on theirs). */
  task?: string
  registry?: FieldTypeRegistry
  lang?: string
}

export interface SubmissionResult {
  ok: boolean
  /** Required fields left empty (checked for the new and enter cases, as the runtime does). */
  missing: MissingField[]
  errors: { field: string; message: string }[]
  /**
   * Every field's value to store: formulas recomputed, unsaveable and set fields blank; each set
   * field's repetitions under `name[id]` (sets.ts), only those its driving value gives now.
   */
  values: Record<string, unknown>
  /** Conditions and formulas that failed; for the designer, not the end user. */
  scriptErrors: ScriptFailure[]
  /** The sandbox could not run the scripts at all: nothing here may be trusted or stored. */
  unavailable: boolean
}

const resolvedConfigs = new WeakMap<object, FormConfig>()

/** The form as its reader reads it: translated texts (labels, custom messages) in the reader's language. */
function readIn(form: FormConfig, lang: string | undefined): FormConfig {
  return lang !== undefined && isLanguage(lang) ? localizeConfig(form, lang) : form
}

/** withDefaults, once per config object: the server keeps one object per published form version. */
function resolved(config: unknown, registry: FieldTypeRegistry): FormConfig {
  if (typeof config !== 'object' || config === null) return withDefaults(config, registry)
  let result = resolvedConfigs.get(config)
  if (!result) {
    result = withDefaults(config, registry)
    resolvedConfigs.set(config, result)
  }
  return result
}

export async function validateSubmission(
  config: unknown,
  submitted: Record<string, unknown>,
  context: SubmissionContext
): Promise<SubmissionResult> {
  const registry = context.registry ?? coreRegistry()
  const form = readIn(resolved(config, registry), context.lang)
  const ctx = { lang: context.lang }
  const items = itemsByName(form)
  const errors: SubmissionResult['errors'] = []
  const values: Record<string, unknown> = {}

  for (const name of Object.keys(submitted)) {
    const entry = items.get(parseSetEntryKey(name)?.name ?? name)
    const known = parseSetEntryKey(name) ? entry?.item.isSet === true : entry?.kind === 'field'
    if (!known) errors.push({ field: name, message: contractText(ctx, 'errors.unknown_field', { field: name }) })
  }
  /** Stores `raw` under `key` when it has the type's shape and passes its checks; reports it otherwise. */
  const take = (item: (typeof form.fields)[number], key: string, raw: unknown) => {
    const fieldType = registry.get('field', item.type)!
    const shape = schemaProblems(fieldType.valueSchema!, raw)
    if (shape.length > 0) {
      const detail = shape.map((p) => `${p.path || '/'} ${p.message}`).join('; ')
      errors.push({ field: key, message: contractText(ctx, 'errors.wrong_shape', { field: key, detail }) })
      return
    }
    for (const message of fieldType.validate(item, raw, ctx)) errors.push({ field: key, message })
    values[key] = raw
  }
  for (const item of form.fields) {
    const fieldType = registry.get('field', item.type)
    if (!fieldType) continue
    values[item.field_name] = fieldType.defaultValue(item)
    const raw = submitted[item.field_name]
    if (raw === undefined || raw === null || !item.saveable || item.isSet) continue
    take(item, item.field_name, raw)
  }

  const evaluation = await evaluateForm(form, values, context)
  // A formula that fails leaves the entered value; a result of the wrong shape never replaces it.
  for (const item of form.fields) {
    const computed = evaluation.values[item.field_name]
    if (computed === values[item.field_name]) continue
    const fieldType = registry.get('field', item.type)!
    const shaped = schemaProblems(fieldType.valueSchema!, computed).length === 0
    // A group's computed rows pass its own checks too (each formula cell's type and limits), as entered rows do.
    const checked = shaped && repeatCells(item).length > 0 ? fieldType.validate(item, computed, ctx) : []
    if (shaped && checked.length === 0) values[item.field_name] = computed
    else {
      const detail = checked.length > 0 ? checked.join('; ') : JSON.stringify(computed)
      evaluation.failures.push({
        field: item.field_name,
        kind: 'formula',
        code: 'SCRIPT_ERROR',
        message: contractText(ctx, 'errors.wrong_shape', { field: item.field_name, detail }),
      })
    }
  }

  // The repetitions the driving values (formulas applied) give now; a repetition no longer given is dropped.
  for (const { item, key } of setEntries(form, values)) {
    const raw = submitted[key]
    if (raw === undefined || raw === null || !item.saveable || !registry.get('field', item.type)) continue
    take(item, key, raw)
  }

  const state = applyConditions(declaredState(form, { task: context.task }), evaluation.conditions)
  const missing =
    context.case === 'new' || context.case === 'enter'
      ? missingRequired(form, values, state, registry, { conditions: evaluation.conditions, lang: context.lang })
      : []
  const unavailable = evaluation.failures.some((failure) => failure.code === 'SANDBOX_UNAVAILABLE')
  return {
    ok: !unavailable && errors.length === 0 && missing.length === 0,
    missing,
    errors,
    values,
    scriptErrors: evaluation.failures,
    unavailable,
  }
}
