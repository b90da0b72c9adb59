/**
 * SurveyJS triggers → actions (issue 24). survey-core checks a trigger when a question its expression
 * reads changes value, and acts when the expression is then true: `setvalue` writes `setValue` into
 * `setToName`, `copyvalue` copies `fromName` there, `runexpression` writes its `runExpression`'s
 * result. Each becomes an action definition whose condition is the translated expression and whose
 * one step is set_value with a formula, run on the change (on_change) of every field the expression
 * reads. A value is carried only where the target holds it as SurveyJS does (text into a text question,
 * a number into a number, one of its ids into a choice, true/false into a yes/no, ids into a multiple
 * choice; a copy between two questions of one kind; a run expression into a number or a calculated
 * value): anything else, `complete`, `skip` and a trigger on a variable are reported with the reason.
 */
import { analyzeScript } from '@tramita/sandbox'
import type { FormDraft } from './draft.js'
import { array, atom, literal, type Js } from './js.js'
import { scriptRef } from './names.js'
import { surveyResolver } from './surveyjs-common.js'
import { translateSurveyExpression } from './surveyjs-emit.js'
import { surveyField, type SurveyField } from './surveyjs-semantics.js'
import { isObject, listOf, type DraftItem, type Json } from './types.js'
import { YES_NO } from './values.js'

const NOT_CARRIED: Record<string, string> = {
  complete: 'a trigger that completes the survey has no equivalent; send the form from an action instead',
  skip: 'a trigger that jumps to a question has no equivalent; use a go_to_page action',
  visible: 'the old visible trigger: use visibleIf on the questions instead',
}

/** The formula writing `value` into a field of this kind, or why SurveyJS's value does not fit it. */
function literalFor(field: SurveyField, value: unknown): Js | string {
  const ids = field.options.map(String)
  switch (field.kind) {
    case 'text':
      if (typeof value === 'string') return literal(value)
      break
    case 'number':
      if (typeof value === 'number' && Number.isFinite(value)) return literal(value)
      break
    case 'choice':
      if ((typeof value === 'string' || typeof value === 'number') && ids.includes(String(value)))
        return literal(String(value))
      break
    case 'yesno':
      if (typeof value === 'boolean') return literal(YES_NO[value ? 0 : 1])
      break
    case 'multi':
      if (Array.isArray(value) && value.every((v) => ids.includes(String(v))))
        return array(value.map((v) => literal(String(v))))
      break
  }
  return `the value ${JSON.stringify(value)} does not fit a ${field.kind} question`
}

/** What the trigger writes, or why it is not carried. */
function formulaOf(draft: FormDraft, trigger: Json, type: string, target: DraftItem): Js | string {
  const field = surveyField(target)
  if (type === 'setvalue') {
    if (!field) return `a value set into a ${target.type} field is not carried`
    return literalFor(field, trigger.setValue)
  }
  if (type === 'copyvalue') {
    const from = typeof trigger.fromName === 'string' ? draft.find(trigger.fromName) : undefined
    if (!from) return `"${String(trigger.fromName)}" is not a question of the survey`
    const source = surveyField(from)
    if (!field || !source || source.kind !== field.kind || String(source.options) !== String(field.options)) {
      return 'a copy between questions that hold different kinds of value is not carried'
    }
    return atom(scriptRef(from.field_name))
  }
  const run = typeof trigger.runExpression === 'string' ? trigger.runExpression : ''
  if (run.trim() === '') return 'a run expression trigger without runExpression'
  if (field?.kind !== 'number' && target.type !== 'var')
    return 'a run expression is carried into a number or a calculated value only'
  const result = translateSurveyExpression(run, surveyResolver(draft))
  return typeof result === 'string' ? `runExpression not translated: ${result} (${run})` : result
}

/** The survey's triggers as actions run on the change of the fields their expressions read. */
export function surveyTriggers(draft: FormDraft, json: Json): void {
  listOf(json.triggers).forEach((trigger, index) => {
    const path = `/triggers/${index}`
    if (!isObject(trigger)) return draft.skip(path, 'not a trigger')
    const type = String(trigger.type ?? '').toLowerCase()
    if (NOT_CARRIED[type]) return draft.skip(path, NOT_CARRIED[type])
    if (!['setvalue', 'copyvalue', 'runexpression'].includes(type))
      return draft.skip(path, `the trigger "${type}" has no equivalent`)
    const expression = typeof trigger.expression === 'string' ? trigger.expression : ''
    if (expression.trim() === '') return draft.skip(path, 'a trigger needs an expression')
    draft.later(() => {
      const target = typeof trigger.setToName === 'string' ? draft.find(trigger.setToName) : undefined
      if (!target)
        return draft.skip(`${path}/setToName`, `"${String(trigger.setToName)}" is not a question of the survey`)
      const when = translateSurveyExpression(expression, surveyResolver(draft))
      if (typeof when === 'string') return draft.skip(`${path}/expression`, `not translated: ${when} (${expression})`)
      const formula = formulaOf(draft, trigger, type, target)
      if (typeof formula === 'string') return draft.skip(path, formula)
      const read = analyzeScript(when.code)
        .names.map((name) => draft.item(name))
        .filter((i) => i !== undefined)
      const name = draft.action({
        name: `trigger_${index + 1}`,
        conditions: { active: true, code: when.code },
        actions: [{ type: 'set_value', config: { field: target.field_name, formula: formula.code } }],
      })
      for (const item of new Set(read)) draft.on(item, 'on_change', name)
    })
  })
}
