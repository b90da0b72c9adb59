/** What SurveyJS questions share: choices, conditions, and the properties the jsonconfig cannot hold. */
import { once, type Condition, type FormDraft } from './draft.js'
import { translateSurveyExpression, type Resolve } from './surveyjs-emit.js'
import { keepTranslations, pickText } from './source-text.js'
import { isMeaningful, isObject, listOf, part, type DraftItem, type Json } from './types.js'
import { fieldRef } from './values.js'
import { surveyField } from './surveyjs-semantics.js'

export type Option = { id: string | number; label: string }

/** Choices as options: 'a', 3 or {value, text} (text may be a locale map; it defaults to the value). */
export function surveyOptions(list: unknown): Option[] {
  return listOf(list).flatMap((choice): Option[] => {
    if (typeof choice === 'string' || typeof choice === 'number') return [{ id: choice, label: String(choice) }]
    if (!isObject(choice) || (typeof choice.value !== 'string' && typeof choice.value !== 'number')) return []
    return [{ id: choice.value, label: pickText(choice.text) || String(choice.value) }]
  })
}

/** Questions by name for expressions, case-insensitively (the draft is built that way). */
export const surveyResolver =
  (draft: FormDraft): Resolve =>
  (name) => {
    const item = draft.find(name)
    return item ? { ...fieldRef(item), survey: surveyField(item) } : undefined
  }

/** visibleIf as a condition resolved at the end; what cannot be translated is reported with the expression. */
export function surveyCondition(draft: FormDraft, element: Json, path: string): Condition | undefined {
  const source = element.visibleIf
  if (typeof source !== 'string' || source.trim() === '') return undefined
  return once(() => {
    const result = translateSurveyExpression(source, surveyResolver(draft))
    if (typeof result === 'object') return result
    draft.skip(`${path}/visibleIf`, `not translated: ${result} (${source})`)
    return undefined
  })
}

const NO_DEFAULT = 'the jsonconfig has no default values (an autocomplete rule with action "value" can set one)'

/** Properties with a meaning the jsonconfig cannot hold, reported when set. */
const LOST: [string, string][] = [
  ['defaultValue', NO_DEFAULT],
  ['defaultValueExpression', NO_DEFAULT],
  ['correctAnswer', 'quiz answers are not kept'],
  ['enableIf', 'no conditional enabling (an action with set_state can do it)'],
  ['requiredIf', 'no conditional required (an action with set_state can do it)'],
  ['setValueIf', 'no conditional values'],
  ['setValueExpression', 'no conditional values'],
  ['resetValueIf', 'no conditional values'],
  ['choicesVisibleIf', 'no conditions on choices'],
  ['choicesEnableIf', 'no conditions on choices'],
  ['choicesByUrl', 'choices from a web service are not imported'],
  ['choicesFromQuestion', 'choices copied from another question are not imported'],
  ['hasOther', 'no "other" choice with its comment'],
  ['showOtherItem', 'no "other" choice with its comment'],
  ['hasNone', 'no "none" choice'],
  ['showNoneItem', 'no "none" choice'],
  ['hasSelectAll', 'no "select all" choice'],
  ['showSelectAllItem', 'no "select all" choice'],
  ['minSelectedChoices', 'no limits on how many choices are taken'],
  ['maxSelectedChoices', 'no limits on how many choices are taken'],
  ['hasComment', 'no comment box beside a question'],
  ['showCommentArea', 'no comment box beside a question'],
  ['valueName', 'no shared value names'],
]

export function reportLost(draft: FormDraft, q: Json, path: string): void {
  for (const [key, reason] of LOST) {
    if (isMeaningful(q[key])) draft.skip(`${path}/${key}`, reason)
  }
}

const CHOICE_TYPES = ['select', 'list', 'radios']

/** Label, help texts, required, read-only and visibility. `label: false` keeps a label the maker set. */
export function applyCommon(
  item: DraftItem,
  q: Json,
  options: { label?: boolean; required?: boolean; locale?: string } = {}
): void {
  const label = part(item.data, 'label')
  const text = (key: string, source: unknown, shown: string) => {
    keepTranslations(item, key, source, shown, options.locale)
    return shown
  }
  if (options.label !== false) {
    label.value = text(
      'label.value',
      q.title ?? q.label,
      pickText(q.title) || pickText(q.label) || String(q.name ?? '')
    )
  }
  if (pickText(q.description) !== '')
    label.description = text('label.description', q.description, pickText(q.description))
  const source = q.placeholder ?? q.placeHolder
  const placeholder = pickText(source)
  if (placeholder !== '') {
    if (CHOICE_TYPES.includes(item.type)) item.data.placeholder = text('placeholder', source, placeholder)
    else part(item.data, 'ref').placeholder = text('ref.placeholder', source, placeholder)
  }
  // validate may already hold the validators' messages.
  if (options.required !== false && q.isRequired === true) part(item.data, 'validate').required = true
  if (q.readOnly === true) item.state = { ...item.state, natural: 'readonly' }
  if (hiddenForGood(q)) item.state = { ...item.state, show: false }
}

/**
 * `visible: false` hides for good only without a visibleIf: SurveyJS runs a visibleIf at load and on
 * every change, and its result sets `visible`, so the condition alone decides.
 */
export function hiddenForGood(element: Json): boolean {
  const condition = element.visibleIf
  return element.visible === false && !(typeof condition === 'string' && condition.trim() !== '')
}
