/**
 * Required fields (spec 000 §5): a required field counts only when it is enabled, on a page layout and
 * shown; inside a section, at least one element showing that section must be shown too. The list is
 * in reading order and is what the runtime shows under MISSING_REQUIRED_HEADING.
 */
import { coreRegistry } from './core-types.js'
import { itemsByName, sectionPages } from './layout.js'
import { setEntryKey, setRepeatCaption, setRepeats } from './sets.js'
import { customMessage } from './rule-messages.js'
import { cellKey, cellShown, cellType, cellValue, repeatCells, rowCaption, type RepeatItem } from './types/repeat.js'
import type { FieldTypeRegistry } from './registry.js'
import type { FormConfig } from './config.js'
import type { FormState } from './form-state.js'

export interface MissingField {
  field: string
  /** Index in form.pages of the navigable page to jump to (the one holding the section, for section fields). */
  page: number
  label: string
  /** The designer's required message (data.validate.messages.required), when one is set. */
  message?: string
}

/** The names shown on each navigable page, sections expanded where a shown section element stands. */
export function shownNames(config: FormConfig, state: FormState): { name: string; page: number }[] {
  const sections = sectionPages(config)
  const items = itemsByName(config)
  const out: { name: string; page: number }[] = []
  const walk = (pageIndex: number, page: number, trail: Set<number>) => {
    for (const row of config.form.pages[pageIndex]!.layout) {
      for (const name of row) {
        if (!state[name]?.show) continue
        out.push({ name, page })
        const entry = items.get(name)
        if (entry?.kind === 'element' && entry.item.type === 'section') {
          const target = sections.get(String(entry.item.data.section_id))
          if (target !== undefined && !trail.has(target)) walk(target, page, new Set(trail).add(target))
        }
      }
    }
  }
  config.form.pages.forEach((page, index) => {
    if (!page.section) walk(index, index, new Set([index]))
  })
  return out
}

/** What the required check of a group's cells reads beside the state. */
export interface CellContext {
  /** Cell conditions by cellKey, from the evaluation (evaluate.ts). */
  conditions?: ReadonlyMap<string, boolean>
  /** The language of the rows' captions ("Fila 2"). */
  lang?: string
}

/**
 * Required, enabled, shown fields whose value does not pass their type's required rule; and in a
 * shown, enabled repeating group, each row's required cells that are shown: a cell with a condition
 * is shown when `cells.conditions` holds true for its cellKey (evaluate.ts), as an item's condition does.
 */
export function missingRequired(
  config: FormConfig,
  values: Record<string, unknown>,
  state: FormState,
  registry: FieldTypeRegistry = coreRegistry(),
  cells: CellContext = {}
): MissingField[] {
  const items = itemsByName(config)
  const missing: MissingField[] = []
  const seen = new Set<string>()
  for (const { name, page } of shownNames(config, state)) {
    const entry = items.get(name)
    const fieldState = state[name]
    if (!entry || entry.kind !== 'field' || !fieldState || seen.has(name)) continue
    seen.add(name)
    if (fieldState.natural !== 'enabled') continue
    if (repeatCells(entry.item).length > 0) missing.push(...missingCells(entry.item, values[name], page, cells))
    if (!fieldState.required) continue
    const fieldType = registry.get('field', entry.item.type)
    if (!fieldType) continue
    const label = entry.item.data.label.value || name
    const message = customMessage(entry.item, 'required')
    const worded = message === undefined ? {} : { message }
    if (entry.item.isSet) {
      // A set field's own value stays blank: each of its repetitions is what must be filled.
      const driving = items.get(entry.item.set)
      for (const repeat of setRepeats(driving?.kind === 'field' ? driving.item : undefined, values[entry.item.set])) {
        const key = setEntryKey(name, repeat.id)
        if (!fieldType.required(entry.item, values[key] ?? fieldType.defaultValue(entry.item))) {
          missing.push({ field: key, page, label: `${label} (${setRepeatCaption(entry.item, repeat)})`, ...worded })
        }
      }
      continue
    }
    const value = values[name] ?? fieldType.defaultValue(entry.item)
    if (!fieldType.required(entry.item, value)) missing.push({ field: name, page, label, ...worded })
  }
  return missing
}

/** The required, shown cells left empty in a group's rows, in row order. */
function missingCells(
  group: FormConfig['fields'][number],
  rows: unknown,
  page: number,
  { conditions = new Map(), lang }: CellContext
): MissingField[] {
  const item = group as unknown as RepeatItem
  const label = item.data.label.value || item.field_name
  const out: MissingField[] = []
  ;(Array.isArray(rows) ? rows : []).forEach((row: Record<string, unknown>, index) => {
    for (const cell of repeatCells(group)) {
      if (!cell.data.validate?.required) continue
      const key = cellKey(item.field_name, index, cell.field_name)
      if (!cellShown(cell, key, conditions) || (cell.state as { natural?: string }).natural !== 'enabled') continue
      if (cellType(cell.type)?.required(cell, cellValue(cell, row))) continue
      const cellLabel = cell.data.label?.value || cell.field_name
      out.push({ field: key, page, label: `${label} (${rowCaption(item, index, { lang })}): ${cellLabel}` })
    }
  })
  return out
}

/**
 * Whether a failed required check stops a save or send (spec 000 §5): it does, except in invisible
 * mode, and for send when the task is new or enter.
 */
export function requiredCheckBlocks(
  action: 'save' | 'send',
  context: { invisible?: boolean; case: string },
  missingCount: number
): boolean {
  if (missingCount === 0 || context.invisible) return false
  return !(action === 'send' && (context.case === 'new' || context.case === 'enter'))
}
