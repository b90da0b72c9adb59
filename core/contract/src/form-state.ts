/**
 * The live state of every field and element: shown, natural (enabled / disabled / readonly), shown in
 * the read-only views, required. It starts from the config, then conditions and set_state actions
 * change it. The runtime and the server compute it with these same functions.
 */
import type { Effect } from '@tramita/sandbox'
import type { FormConfig } from './config.js'

export interface FieldState {
  show: boolean
  natural: 'enabled' | 'disabled' | 'readonly'
  see: boolean
  required: boolean
}

export type FormState = Record<string, FieldState>

/**
 * The state the config declares for a case at a step: `no_display` hides, and so does a
 * `show_on_task` list that does not name the current step.
 */
export function declaredState(config: FormConfig, options: { task?: string } = {}): FormState {
  const state: FormState = {}
  for (const item of [...config.fields, ...config.elements]) {
    const onTask =
      item.show_on_task.length === 0 || options.task === undefined || item.show_on_task.includes(options.task)
    state[item.field_name] = {
      show: item.state.show && !item.no_display && onTask,
      natural: item.state.natural,
      see: item.state.see,
      required: item.data.validate.required,
    }
  }
  return state
}

/** Hides what a false (or failed) show_with_formule condition hides. */
export function applyConditions(state: FormState, conditions: ReadonlyMap<string, boolean>): FormState {
  const next = { ...state }
  for (const [name, shown] of conditions) {
    const current = next[name]
    if (current && !shown) next[name] = { ...current, show: false }
  }
  return next
}

/** Applies set_state effects from scripts and actions (natural, see, show, required). */
export function applyEffects(state: FormState, effects: readonly Effect[]): FormState {
  const next = { ...state }
  for (const effect of effects) {
    if (effect.op !== 'setState') continue
    const current = next[effect.field]
    if (!current) continue
    const patch = Object.fromEntries(Object.entries(effect.state).filter(([, v]) => v !== undefined))
    next[effect.field] = { ...current, ...patch }
  }
  return next
}
