/**
 * Form.io logic (a component's `logic`: triggers and actions) → form actions (issue 24). Form.io
 * re-runs a component's logic on every change, from its original definition: each entry whose trigger
 * holds applies its actions; a property an entry no longer sets goes back to the original. So an entry
 * becomes an action run at load and on the change of every field it reads, whose condition is the
 * trigger, and, for properties, a second one whose condition is the trigger's negation and which puts
 * the original back. Carried: the properties `disabled` and `validate.required` (set_state) and the
 * `value` action (set_value with a formula, as `value = ...` or a script: formio-script-body.ts).
 * Reported: other properties (labels, `hidden`, whose logic state Form.io keeps apart), a property
 * two entries set (their order decides in Form.io), mergeComponentSchema, customAction and event
 * triggers.
 */
import { analyzeScript } from '@tramita/sandbox'
import type { FormDraft } from './draft.js'
import { findKey, formioTrigger } from './formio-conditions.js'
import { formioScriptBody } from './formio-script-body.js'
import { translateFormioScript } from './formio-script.js'
import { not } from './js.js'
import { isObject, listOf, type DraftItem, type Json } from './types.js'

type Step = { type: string; config: Json }

/** The properties carried, with the set_state step that sets one and the item's original. */
const PROPERTIES: Record<string, (on: boolean) => Json> = {
  disabled: (on) => ({ natural: on ? 'disabled' : 'enabled' }),
  'validate.required': (on) => ({ required: on }),
}
const original = (item: DraftItem, property: string): boolean =>
  property === 'disabled'
    ? item.state?.natural === 'disabled'
    : item.data.validate !== undefined && (item.data.validate as Json).required === true

const propertyOf = (action: unknown) =>
  isObject(action) && action.type === 'property' && isObject(action.property)
    ? String(action.property.value)
    : undefined

/** The value action's formula, or why it has none. */
function valueFormula(draft: FormDraft, source: unknown): string | { refused: string } {
  if (typeof source !== 'string' || source.trim() === '') return { refused: 'a value action without a script' }
  const find = (key: string) => findKey(draft, key)
  const expression = translateFormioScript(source, 'value', find)
  return typeof expression === 'object' ? expression.code : formioScriptBody(source, 'value', find)
}

/** The component's logic as actions on the form, bound to the fields they read. */
export function formioLogic(draft: FormDraft, item: DraftItem, component: Json, path: string): void {
  const entries = listOf(component.logic)
  const counts = new Map<string, number>()
  for (const entry of entries) {
    for (const action of isObject(entry) ? listOf(entry.actions) : []) {
      const property = propertyOf(action)
      if (property) counts.set(property, (counts.get(property) ?? 0) + 1)
    }
  }
  entries.forEach((entry, index) => {
    const at = `${path}/logic/${index}`
    if (!isObject(entry)) return draft.skip(at, 'not a logic entry')
    draft.later(() => {
      const when = formioTrigger(draft, entry.trigger, `${at}/trigger`)
      if (!when) return
      const on: Step[] = []
      const off: Step[] = []
      listOf(entry.actions).forEach((action, a) => {
        const here = `${at}/actions/${a}`
        const property = propertyOf(action)
        if (isObject(action) && action.type === 'value') {
          const formula = valueFormula(draft, action.value)
          if (typeof formula === 'string') on.push({ type: 'set_value', config: { field: item.field_name, formula } })
          else draft.skip(`${here}/value`, `not translated: ${formula.refused}`)
        } else if (property && PROPERTIES[property] && counts.get(property) === 1) {
          const state = String((action as Json).state) === 'true'
          on.push({ type: 'set_state', config: { fields: [item.field_name], ...PROPERTIES[property](state) } })
          off.push({
            type: 'set_state',
            config: { fields: [item.field_name], ...PROPERTIES[property](original(item, property)) },
          })
        } else if (property && PROPERTIES[property]) {
          draft.skip(here, `the property "${property}" is set by more than one logic entry; their order decides`)
        } else {
          const what = property
            ? `the property "${property}"`
            : `the action "${String(isObject(action) ? action.type : '')}"`
          draft.skip(here, `${what} has no equivalent`)
        }
      })
      if (on.length === 0) return
      const name = `${item.field_name}_logic_${index + 1}`
      const actions = [{ name, steps: on, code: when.code }]
      if (off.length > 0) actions.push({ name: `${name}_off`, steps: off, code: not(when).code })
      const read = new Set<DraftItem>()
      for (const { name: action, steps, code } of actions) {
        draft.action({ name: action, onevent: true, conditions: { active: true, code }, actions: steps })
        const sources = [code, ...steps.map((s) => String(s.config.formula ?? ''))]
        for (const source of sources) {
          for (const used of analyzeScript(source).names) {
            const field = draft.item(used)
            if (field) read.add(field)
          }
        }
      }
      for (const field of read) for (const { name: action } of actions) draft.on(field, 'on_change', action)
    })
  })
}
