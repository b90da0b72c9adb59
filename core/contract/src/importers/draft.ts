/**
 * The jsonconfig while an importer builds it: fields and elements with unique names, pages of rows,
 * and what could not be mapped. Conditions and formulas read other fields by their source names, which
 * may come later in the source, so they are resolved in `finish`, once every field has its name.
 */
import type { FormConfigInput } from '../config.js'
import { and, type Js } from './js.js'
import { NameAllocator, readAsRowCell } from './names.js'
import type { TypeMapping } from './type-map.js'
import type { DraftItem, Json, Unmapped } from './types.js'

/** A condition resolved at the end; it reports its own failure once and then yields undefined. */
export type Condition = () => Js | undefined

/** Runs `fn` once and keeps the answer: a container's condition is shared by all its children. */
export function once<T>(fn: () => T): () => T {
  let done = false
  let result: T
  return () => {
    if (!done) {
      result = fn()
      done = true
    }
    return result
  }
}

export const DEFAULT_PAGE = 'Página 1'

export class FormDraft {
  readonly unmapped: Unmapped[] = []
  private readonly names = new NameAllocator()
  private readonly fields: DraftItem[] = []
  private readonly elements: DraftItem[] = []
  private readonly byName = new Map<string, DraftItem>()
  private readonly bySource = new Map<string, DraftItem>()
  private readonly pages: { name: string; layout: string[][] }[] = []
  private readonly conditions = new Map<DraftItem, Condition[]>()
  private readonly finishers: (() => void)[] = []
  private readonly actions: Json[] = []

  /** The language of the source's unmarked texts (a SurveyJS locale map's `default`). */
  sourceLocale = 'en'

  /** The mapping file's entries for this source's library (type-map.ts). */
  typeMap: Record<string, TypeMapping> = {}

  /** SurveyJS reads question names case-insensitively; Form.io keys are exact. */
  constructor(private readonly caseInsensitive = false) {}

  /** Whether scripts here may read a row's cells (`row.x`): only in a repeating group's row. */
  get readsRows(): boolean {
    return false
  }

  skip(path: string, reason: string): void {
    this.unmapped.push({ path, reason })
  }

  /** A new field named after its source key; conditions find it by that key. */
  field(sourceKey: string, type: string, data: Json = {}): DraftItem {
    const item: DraftItem = { field_name: this.names.allocate(sourceKey), type, data }
    this.fields.push(item)
    this.byName.set(item.field_name, item)
    this.alias(sourceKey, item)
    return item
  }

  /** A new element; elements hold no value, so conditions never read them. */
  element(baseName: string, type: string, data: Json = {}): DraftItem {
    const item: DraftItem = { field_name: this.names.allocate(baseName, type), type, data }
    this.elements.push(item)
    this.byName.set(item.field_name, item)
    return item
  }

  /** Another source name for a field (a matrix row is `matrix.row` in SurveyJS). The first one wins. */
  alias(sourceKey: string, item: DraftItem): void {
    if (!this.bySource.has(sourceKey)) this.bySource.set(sourceKey, item)
    const folded = sourceKey.toLowerCase()
    if (this.caseInsensitive && !this.bySource.has(folded)) this.bySource.set(folded, item)
  }

  /** The field a source name refers to. */
  find(sourceKey: string): DraftItem | undefined {
    return (
      this.bySource.get(sourceKey) ?? (this.caseInsensitive ? this.bySource.get(sourceKey.toLowerCase()) : undefined)
    )
  }

  /** Whether an item of this type was built (a form with its own send button needs no other). */
  hasType(type: string): boolean {
    return [...this.byName.values()].some((item) => item.type === type)
  }

  item(name: string): DraftItem | undefined {
    return this.byName.get(name)
  }

  /** Conditions that must all hold for the item to show (its own and its containers'). */
  when(item: DraftItem, conditions: Condition[]): void {
    if (conditions.length > 0) this.conditions.set(item, [...(this.conditions.get(item) ?? []), ...conditions])
  }

  /** A form action (validations.actions); returns its name. */
  action(definition: Json & { name: string }): string {
    this.actions.push(definition)
    return definition.name
  }

  /** Runs the named action on the item's event. */
  on(item: DraftItem, event: 'on_change', action: string): void {
    const events = (item.events ??= {})
    events[event] = [...(events[event] ?? []), action]
  }

  /** Work that needs every name (formulas). */
  later(fn: () => void): void {
    this.finishers.push(fn)
  }

  page(name: string): void {
    this.pages.push({ name: name.trim() || `Página ${this.pages.length + 1}`, layout: [] })
  }

  get pageCount(): number {
    return this.pages.length
  }

  /** Rows for the current page (the first page is opened when none is). */
  addRows(rows: string[][]): void {
    if (this.pages.length === 0) this.page(DEFAULT_PAGE)
    this.pages[this.pages.length - 1]!.layout.push(...rows.filter((row) => row.length > 0))
  }

  finish(display: 'wizard' | 'form'): FormConfigInput {
    for (const fn of this.finishers) fn()
    for (const [item, conditions] of this.conditions) {
      const parts = conditions.map((c) => c()).filter((js): js is Js => js !== undefined)
      const condition = and(parts)
      if (condition) item.data.show_with_formule = condition.code
    }
    if (this.pages.length === 0) this.page(DEFAULT_PAGE)
    return {
      form: { display, pages: this.pages },
      validations: { autocomplete: [], actions: this.actions },
      fields: this.fields,
      elements: this.elements,
    }
  }
}

/** How a source names a cell of the same row in its scripts: {row.x} (matrices), {panel.x} (dynamic panels). */
const ROW_PREFIX = /^(?:row|panel)\.(.+)$/i

/**
 * The row of a repeating group while its cells are built by the source's own field makers: their
 * names are the group's own (a cell may share one with a form field), and its conditions read them
 * as `row.<name>` (names.ts). A name no cell has is the form's; what cannot be mapped, conditions
 * and late work go to the form's draft, so they are reported and resolved with everything else.
 */
export class RowDraft extends FormDraft {
  constructor(
    private readonly form: FormDraft,
    caseInsensitive = false
  ) {
    super(caseInsensitive)
    this.sourceLocale = form.sourceLocale
  }

  override get readsRows(): boolean {
    return true
  }

  override field(sourceKey: string, type: string, data: Json = {}): DraftItem {
    const item = super.field(sourceKey, type, data)
    readAsRowCell(item)
    return item
  }

  /** A cell by its name (or 'row.x', 'panel.x'), else the form's field of that name. */
  override find(sourceKey: string): DraftItem | undefined {
    const cell = ROW_PREFIX.exec(sourceKey)?.[1]
    return (cell === undefined ? undefined : super.find(cell)) ?? super.find(sourceKey) ?? this.form.find(sourceKey)
  }

  override skip(path: string, reason: string): void {
    this.form.skip(path, reason)
  }

  override when(item: DraftItem, conditions: Condition[]): void {
    this.form.when(item, conditions)
  }

  override later(fn: () => void): void {
    this.form.later(fn)
  }
}
