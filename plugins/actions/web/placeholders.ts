/**
 * Placeholders in action configs. Besides the contract's `${field}` (a field's display text, or a
 * process variable), a step may name:
 * - `${row.column}`: a cell of the table row whose button started the action;
 * - `${device.key}`: a value a device reported (a scan's file, a reader's code; the devices plugin
 *   sets them through FormStore.setPlaceholders('device', ...));
 * - `${task.key}`: the process step being done (id, label, kind, status; the runtime sets them).
 * An action whose steps name a device or task placeholder re-runs when that value changes.
 */
import { fillPlaceholders } from '@tramita/contract'
import type { Json } from '@tramita/sandbox'
import type { ActionForm, PlaceholderScope } from './types.js'

const SCOPED = /\$\{\s*(row|device|task)\.([A-Za-z_$][A-Za-z0-9_$]*)\s*\}/g

export interface PlaceholderValues {
  row?: Record<string, unknown>
  device: Record<string, Json>
  task: Record<string, Json>
}

function text(value: unknown): string {
  if (value === undefined || value === null) return ''
  return typeof value === 'object' ? JSON.stringify(value) : String(value)
}

/** A field's display text (its type's value_replace), a variable's text, or undefined for an unknown name. */
export function displayText(form: ActionForm, name: string, lang: string): string | undefined {
  const entry = form.item(name)
  if (entry?.kind === 'field') {
    const value = form.valuesNow()[name]
    const fieldType = form.registry.get('field', entry.item.type)
    try {
      if (fieldType) return fieldType.stored(entry.item, value, { lang }).value_replace
    } catch {
      // A value of another shape (set by a script): its plain text.
    }
    return text(value)
  }
  return Object.hasOwn(form.vars, name) ? text(form.vars[name]) : undefined
}

/** Fills the scoped placeholders first (unknown keys become ''), then the form's own. */
export function fillTemplate(template: string, form: ActionForm, scoped: PlaceholderValues, lang: string): string {
  const withScoped = String(template ?? '').replace(SCOPED, (_whole, scope: 'row' | PlaceholderScope, key: string) =>
    text(scoped[scope]?.[key])
  )
  return fillPlaceholders(withScoped, (name) => displayText(form, name, lang))
}

/** The device and task placeholders a step list names, as `scope.key`. */
export function watchedPlaceholders(steps: unknown): Set<string> {
  const found = new Set<string>()
  for (const match of JSON.stringify(steps ?? []).matchAll(SCOPED)) {
    if (match[1] !== 'row') found.add(`${match[1]}.${match[2]}`)
  }
  return found
}
