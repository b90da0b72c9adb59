/**
 * The live form: values, field states, the current page and the missing-required list, for one case.
 * No React here: components subscribe to one field (subscribeField) so a keystroke re-renders that
 * field and what its scripts change, never the whole form. Scripts (formulas, conditions, events) run
 * in the sandbox through the contract's evaluateChange/evaluateForm, one at a time, in order.
 */
import {
  applyConditions,
  applyEffects,
  declaredState,
  itemsByName,
  missingRequired,
  navigablePages,
  initialValues,
  repeatCells,
  cellShown,
  formulaCells,
  sectionPages,
  setEntries,
  requiredCheckBlocks,
  type CaseMode,
  type EventName,
  type FieldState,
  type FieldTypeRegistry,
  type FormConfig,
  type FormItem,
  type FormState,
  type InitialState,
  type KnownReads,
  type MissingField,
  type PageConfig,
  type RepeatCell,
} from '@tramita/contract'
import type { Effect, Json } from '@tramita/sandbox'
import type { Language } from '@tramita/i18n'

type Localize = (config: FormConfig, language: Language) => FormConfig
import { Overlays } from './overlays.js'
import type { Scripting } from './scripts.js'

export interface FormStoreInit {
  config: FormConfig
  registry: FieldTypeRegistry
  mode: CaseMode
  /** The process step being done (the starter's is 'start'); fields with show_on_task follow it. */
  task?: string
  values: Record<string, unknown>
  /** Process and URL variables scripts read (code_process, gnrl_id, id_process, this_id, ...). */
  vars?: Record<string, Json>
  /** Resolves the sandbox and the evaluation code when first needed (both are loaded lazily). */
  scripting?: () => Promise<Scripting>
  /**
   * The server's first evaluation of these values (the form's info `initial`): given only when the
   * store starts from exactly the values and variables the server had (no presets, no local edits).
   */
  initial?: InitialState | null
  invisible?: boolean
  /**
   * The language the form's texts are shown in, and the contract's localizeConfig: given only for a
   * form that has translations (texts.ts loads it then), so other forms never download it.
   */
  texts?: { language: Language; localize: Localize }
  /**
   * Loads the action engine (plugins/actions, a lazily loaded chunk) for this store: given only for a
   * form with actions or autocomplete rules (validations), so other forms never download it.
   */
  actions?: (store: FormStore) => Promise<ActionRunner>
}

/** What the store needs of the action engine (plugins/actions/web). */
export interface ActionRunner {
  /** Runs the named action to its end (its condition first); failures are reported, never thrown. */
  run(name: string, context?: ActionContext): Promise<void>
  /** The store started: the onevent actions run. */
  started(): Promise<void>
  /** Device or task placeholders changed: actions naming them re-run (optional for test doubles). */
  setPlaceholders?(scope: 'device' | 'task', values: Record<string, Json>): Promise<void>
  /** Fields changed: the autocomplete rules reading them run (plugins/actions/web/autocomplete.ts). */
  valuesChanged?(names: readonly string[]): void | Promise<void>
}

/** Where an action was started from: a table button passes its row. */
export interface ActionContext {
  row?: Record<string, unknown>
}

type Listener = () => void
type SubmitHandler = (action: 'save' | 'send', goToState?: string) => void

/** Runs `work` now; what it throws before its first await becomes a rejection, as in a `then`. */
function startNow(work: () => Promise<void>): Promise<void> {
  try {
    return work()
  } catch (error) {
    return Promise.reject(error)
  }
}

/**
 * A group's rows as they are now with the computed cells of an evaluation laid over them: only the
 * formula cells, so what was typed while the evaluation ran is kept (the next evaluation follows it).
 */
function withComputedCells(rows: unknown, computed: unknown, cells: readonly string[]): unknown {
  if (!Array.isArray(rows) || !Array.isArray(computed)) return rows
  return rows.map((row: Record<string, unknown>, i) => {
    const from = computed[i] as Record<string, unknown> | undefined
    if (!from || typeof from !== 'object') return row
    return { ...row, ...Object.fromEntries(cells.filter((cell) => cell in from).map((cell) => [cell, from[cell]])) }
  })
}

/** The group a cell condition's key (`group.row.cell`) names; undefined for an item's name (no dots). */
const cellGroup = (key: string): string | undefined => (key.includes('.') ? key.split('.')[0] : undefined)

/** The cases whose fields are read-only until "edit values" is switched on (spec 000 §4). */
const READ_ONLY_CASES: ReadonlySet<CaseMode> = new Set(['see', 'approve'])
const NO_CONDITIONS: ReadonlyMap<string, boolean> = new Map()

export class FormStore {
  /** The form as designed; `config` is it in the language shown. */
  private readonly designed: FormConfig
  private shown: FormConfig
  private language: Language | undefined
  private readonly localizer: Localize | undefined
  readonly registry: FieldTypeRegistry
  readonly mode: CaseMode
  readonly task: string | undefined
  readonly invisible: boolean
  readonly vars: Record<string, Json>
  readonly pages: number[]
  /** Section pages by section_id (sections, the navbar, the lateral menu and modals show them). */
  private readonly sections: Map<string, number>
  /**
   * Whether the form has any condition or formula. Without one the sandbox never loads; with one,
   * every change goes through evaluateChange, which knows (from the contract's graph) what reads it.
   */
  private readonly scripted: boolean
  private items: ReturnType<typeof itemsByName>
  private readonly scriptingFactory?: () => Promise<Scripting>
  private scripting?: Promise<Scripting>
  /** The server's first evaluation is this store's (settled): start() does not run it again. */
  private serverEvaluated = false
  /** Each script's reads as the server's graph found them (given with a settled first evaluation). */
  private reads?: KnownReads
  /** The scripting once loaded: an idle store then hands a change to the worker without waiting a tick. */
  private loaded?: Scripting

  private values: Record<string, unknown>
  private declared: FormState
  private conditions = new Map<string, boolean>()
  /** Items with a condition, when scripts can run: hidden until their condition has run (initialState). */
  private readonly conditioned = new Set<string>()
  private effects: Effect[] = []
  private state: FormState
  private options: Record<string, unknown> = {}
  private styles: Record<string, Record<string, unknown>> = {}
  private editing = false
  private pagePosition = 0
  private version = 0
  private missingCache: { version: number; list: MissingField[] } | null = null

  private readonly fieldListeners = new Map<string, Set<Listener>>()
  private readonly listeners = new Set<Listener>()
  /** Scripts run one batch at a time, in the order changes happened. */
  private queue: Promise<void> = Promise.resolve()
  private pendingScripts = 0
  /** Script failures, for the console and the designer; never shown to the end user (spec 000 §8). */
  readonly scriptErrors: { field: string; message: string }[] = []
  /** Modals and the download-progress panel over the form. */
  readonly overlays = new Overlays()
  private readonly actionsFactory?: (store: FormStore) => Promise<ActionRunner>
  private actionRunner?: Promise<ActionRunner>
  /** The onevent actions started by start(): idle() waits for them (an invisible save comes after). */
  private initActions: Promise<void> = Promise.resolve()

  constructor(init: FormStoreInit) {
    this.designed = init.config
    this.language = init.texts?.language
    this.localizer = init.texts?.localize
    this.shown = init.texts ? init.texts.localize(init.config, init.texts.language) : init.config
    this.registry = init.registry
    this.mode = init.mode
    this.task = init.task
    this.invisible = init.invisible ?? false
    this.vars = init.vars ?? {}
    this.scriptingFactory = init.scripting
    this.actionsFactory = init.actions
    this.items = itemsByName(this.shown)
    this.pages = navigablePages(init.config)
    this.sections = sectionPages(init.config)
    this.scripted = [...this.items.values()].some(
      ({ item }) =>
        item.data.formule ||
        item.data.show_with_formule ||
        repeatCells(item).some((cell) => String(cell.data.show_with_formule).trim() !== '') ||
        formulaCells(item).length > 0
    )
    // What start() runs needs the scripting code: it starts loading now, beside the rest of the set-up
    // (a failure is reported by the script that awaits it).
    if (this.scriptingFactory && (this.scripted || [...this.items.values()].some(({ item }) => item.data.on_load)))
      this.loadScripting().catch(() => undefined)
    this.values = initialValues(init.config, init.registry, init.values)
    this.declared = declaredState(init.config, { task: init.task })
    if (init.scripting) {
      for (const { item } of this.items.values()) {
        const source = item.data.show_with_formule
        if (typeof source === 'string' && source.trim() !== '') this.conditioned.add(item.field_name)
      }
      if (init.initial) this.takeInitial(init.initial)
      // The browser's own first evaluation would give the same (InitialState.settled): start() skips it,
      // and the graph takes each script's reads from the server instead of parsing every script.
      if (init.initial?.settled) {
        this.serverEvaluated = true
        this.reads = init.initial.reads
      }
    }
    this.state = this.initialState()
  }

  /** The form in the language shown (only texts differ from the designed one). */
  get config(): FormConfig {
    return this.shown
  }

  /**
   * Shows the form's texts in `language`, keeping every value and state: a language switch mid-case
   * loses nothing. Views read items when they render, so the caller re-renders them.
   */
  localize(language: Language): void {
    if (!this.localizer || language === this.language) return
    this.language = language
    const shown = this.localizer(this.designed, language)
    if (shown === this.shown) return
    this.shown = shown
    this.items = itemsByName(shown)
    this.missingCache = null
  }

  // ── subscriptions ───────────────────────────────────────────────────────────

  /** Any change (values, states, page, editing): for the bars and the missing-required list. */
  subscribe = (listener: Listener): (() => void) => {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  subscribeField(name: string, listener: Listener): () => void {
    let set = this.fieldListeners.get(name)
    if (!set) this.fieldListeners.set(name, (set = new Set()))
    set.add(listener)
    return () => set.delete(listener)
  }

  getVersion = (): number => this.version

  /** Changes seen by one field: its snapshot for useSyncExternalStore. */
  fieldTick(name: string): number {
    return this.ticks.get(name) ?? 0
  }

  private readonly ticks = new Map<string, number>()

  private changed(names: Iterable<string>) {
    this.version += 1
    for (const name of names) {
      this.ticks.set(name, (this.ticks.get(name) ?? 0) + 1)
      for (const listener of this.fieldListeners.get(name) ?? []) listener()
    }
    for (const listener of this.listeners) listener()
  }

  // ── reading ────────────────────────────────────────────────────────────────

  item(name: string): { item: FormItem; kind: 'field' | 'element' } | undefined {
    return this.items.get(name)
  }

  value(name: string): unknown {
    return this.values[name]
  }

  /** Every value now; replaced, never mutated, on each change. */
  valuesNow(): Readonly<Record<string, unknown>> {
    return this.values
  }

  fieldState(name: string): FieldState | undefined {
    return this.state[name]
  }

  optionsOf(name: string): unknown {
    return this.options[name]
  }

  styleOf(name: string): Record<string, unknown> | undefined {
    return this.styles[name]
  }

  /** Shown now: its state shows it and, in the read-only cases, it is one shown there (`see`). */
  isShown(name: string): boolean {
    const state = this.state[name]
    if (!state?.show) return false
    return !this.isReadOnlyCase() || state.see
  }

  /** see and approve are read-only unless "edit values" is on. */
  isReadOnlyCase(): boolean {
    return READ_ONLY_CASES.has(this.mode) && !this.editing
  }

  isReadOnly(name: string): boolean {
    return this.isReadOnlyCase() || this.state[name]?.natural === 'readonly'
  }

  isDisabled(name: string): boolean {
    return this.state[name]?.natural === 'disabled'
  }

  /**
   * Whether a repeating group's cell shows in a row (`key` is its cellKey): the contract's cellShown over
   * the conditions run so far (one with a condition shows once that row's condition has held).
   */
  isCellShown(key: string, cell: RepeatCell): boolean {
    return cellShown(cell, key, this.conditions)
  }

  /** The star shows only for a required field that is enabled (spec 000 §5). */
  showsRequired(name: string): boolean {
    const state = this.state[name]
    return Boolean(state?.required && state.natural === 'enabled' && !this.isReadOnlyCase())
  }

  isEditing(): boolean {
    return this.editing
  }

  // ── pages ──────────────────────────────────────────────────────────────────

  /** Position in the navigable pages (sections are skipped). */
  pagePositionNow(): number {
    return this.pagePosition
  }

  /** Index in form.pages of the page shown. */
  currentPage(): number {
    return this.pages[this.pagePosition] ?? 0
  }

  /** The section page a section element, the navbar or the menu names, if there is one. */
  sectionPage(sectionId: string): PageConfig | undefined {
    const index = this.sections.get(sectionId)
    return index === undefined ? undefined : this.config.form.pages[index]
  }

  /**
   * The positions a person goes through: all but the pages that conditions emptied, and the one shown
   * now. A page whose every item is hidden, one of them by its condition, is passed over (as a
   * conditional Form.io wizard page is skipped) instead of being shown empty; a page hidden only by
   * its step or its design stays as it was.
   */
  private shownPositions(): number[] {
    return this.pages.flatMap((pageIndex, position) => {
      const names = this.config.form.pages[pageIndex]?.layout.flat() ?? []
      const emptied =
        names.length > 0 &&
        names.every((name) => !this.isShown(name)) &&
        names.some((name) => this.conditionOf(name) === false)
      return position === this.pagePosition || !emptied ? [position] : []
    })
  }

  isLastPage(): boolean {
    return !this.shownPositions().some((position) => position > this.pagePosition)
  }

  /** The page shown, counted among the pages that have something to show: for "page 2 of 3". */
  pageNumber(): { page: number; pages: number } {
    const positions = this.shownPositions()
    return { page: positions.indexOf(this.pagePosition) + 1, pages: positions.length }
  }

  /** To the last page with something shown (where the send button and the missing list are). */
  goToLastPage() {
    const positions = this.shownPositions()
    this.goToPosition(positions[positions.length - 1] ?? this.pagePosition)
  }

  goToPosition(position: number) {
    const bounded = Math.max(0, Math.min(this.pages.length - 1, position))
    if (bounded === this.pagePosition) return
    this.pagePosition = bounded
    this.changed([])
  }

  /** Jumps to a page by its index in form.pages (a section page goes nowhere). */
  goToPage(pageIndex: number) {
    const position = this.pages.indexOf(pageIndex)
    if (position >= 0) this.goToPosition(position)
  }

  next() {
    const later = this.shownPositions().find((position) => position > this.pagePosition)
    if (later !== undefined) this.goToPosition(later)
  }

  previous() {
    const earlier = this.shownPositions().filter((position) => position < this.pagePosition)
    if (earlier.length > 0) this.goToPosition(earlier[earlier.length - 1]!)
  }

  // ── the required check ─────────────────────────────────────────────────────

  /** Required fields left empty; checked in the new and enter cases only (spec 000 §4). */
  missing(): MissingField[] {
    if (this.mode !== 'new' && this.mode !== 'enter') return []
    if (this.missingCache?.version !== this.version) {
      this.missingCache = {
        version: this.version,
        list: missingRequired(this.config, this.values, this.state, this.registry, {
          conditions: this.conditions,
          lang: this.language,
        }),
      }
    }
    return this.missingCache.list
  }

  /** Runs the required check again and tells the views (after every action, spec 000 §4). */
  recheckRequired() {
    this.missingCache = null
    this.changed([])
  }

  /** Whether a save or send may go ahead now (spec 000 §5 exceptions included). */
  mayProceed(action: 'save' | 'send'): boolean {
    return !requiredCheckBlocks(action, { invisible: this.invisible, case: this.mode }, this.missing().length)
  }

  // ── changing ───────────────────────────────────────────────────────────────

  /** A value entered by the user (or set by an action): stored, then what depends on it re-runs. */
  setValue(name: string, value: unknown) {
    if (Object.is(this.values[name], value)) return
    this.values = { ...this.values, [name]: value }
    this.changed([name])
    this.tellRules([name])
    this.schedule(
      async ({ runner, evaluateChange }) => {
        const result = await evaluateChange(this.config, name, this.values, {
          runner,
          vars: this.vars,
          known: this.reads,
        })
        this.absorb(result.values, result.conditions, result.failures)
      },
      () => this.scripted
    )
  }

  /** Sets a value from text the way an outside source does (URL presets, autocomplete): the type coerces it. */
  setText(name: string, text: string) {
    const entry = this.items.get(name)
    if (!entry || entry.kind !== 'field') return
    const fieldType = this.registry.get('field', entry.item.type)
    if (fieldType) this.setValue(name, fieldType.coerce(entry.item, text))
  }

  /** Switches "edit values" (see and approve): fields become editable, or go back to the saved ones. */
  setEditing(on: boolean, restore?: Record<string, unknown>) {
    if (this.editing === on) return
    this.editing = on
    if (!on && restore) this.values = { ...this.values, ...restore }
    this.changed(this.items.keys())
  }

  /** Every formula and condition, then the on_load events: what the form does once loaded. */
  start(): Promise<void> {
    const evaluated = this.serverEvaluated
    this.serverEvaluated = false
    this.schedule(
      async ({ runner, evaluateForm }) => {
        const result = await evaluateForm(this.config, this.values, { runner, vars: this.vars, known: this.reads })
        this.absorb(result.values, result.conditions, result.failures)
      },
      () => this.scripted && !evaluated
    )
    for (const { item } of this.items.values()) if (item.data.on_load) this.fireEvent(item.field_name, 'on_load')
    const engine = this.actionEngine()
    if (engine) this.initActions = engine.then((runner) => runner.started()).catch(this.reportTo(''))
    return this.idle()
  }

  /**
   * Runs an item's event script; what it asks (set a value, a state, options, a style) is applied.
   * Resolves when the event's named actions have run (views need not wait; tests do).
   */
  fireEvent(name: string, event: EventName): Promise<void> {
    const item = this.items.get(name)?.item
    const actions = item?.events[event]
    // The event's named actions run in order, each to its end, beside the event's script.
    const ran = (actions ?? []).reduce((done, action) => done.then(() => this.runAction(action)), Promise.resolve())
    const source = item?.data[event]
    if (typeof source !== 'string' || source.trim() === '') return ran
    this.schedule(
      async ({ runner }) => {
        const result = await runner.run(source, { ...this.vars, ...(this.values as Record<string, Json>) })
        if (!result.ok) {
          this.scriptErrors.push({ field: name, message: result.error.message })
          return
        }
        this.applyEffects(result.effects)
      },
      () => true
    )
    return ran
  }

  /**
   * Runs a named action of the form (validations.actions): its condition, then its steps in order.
   * Resolves when it has finished; a failure is recorded in scriptErrors, never thrown. Table
   * buttons pass their row (`row` in the action's scripts and `${row.column}` placeholders).
   */
  runAction(name: string, context?: ActionContext): Promise<void> {
    const engine = this.actionEngine()
    if (!engine) return Promise.resolve()
    return engine.then((runner) => runner.run(name, context)).catch(this.reportTo(name))
  }

  /** New device or task placeholder values (see plugins/actions/web/placeholders.ts). */
  setPlaceholders(scope: 'device' | 'task', values: Record<string, Json>): Promise<void> {
    return this.actionEngine()?.then((runner) => runner.setPlaceholders?.(scope, values)) ?? Promise.resolve()
  }

  /** Autocomplete rules follow changes once the engine is loaded (start() loads it for a form with rules). */
  private tellRules(names: string[]) {
    void this.actionRunner?.then((runner) => runner.valuesChanged?.(names)).catch(this.reportTo(names[0]!))
  }

  private reportTo(field: string) {
    return (error: unknown) => {
      this.scriptErrors.push({ field, message: error instanceof Error ? error.message : String(error) })
    }
  }

  /** The action engine, loaded on first use; undefined for a form without actions. */
  private actionEngine(): Promise<ActionRunner> | undefined {
    if (!this.actionsFactory) return undefined
    this.actionRunner ??= this.actionsFactory(this)
    return this.actionRunner
  }

  /** Applies effects recorded by a script (or an action): values go through setValue so dependants re-run. */
  applyEffects(effects: readonly Effect[]) {
    const touched: string[] = []
    for (const effect of effects) {
      if (effect.op === 'setValue') this.setValue(effect.field, effect.value)
      else if (effect.op === 'setOptions') {
        this.options = { ...this.options, [effect.field]: effect.options }
        touched.push(effect.field)
      } else if (effect.op === 'setStyle') {
        this.styles = { ...this.styles, [effect.field]: effect.style as Record<string, unknown> }
        touched.push(effect.field)
      } else if (effect.op === 'setState') {
        this.effects.push(effect)
        touched.push(effect.field)
      }
    }
    if (touched.length > 0) this.recomputeState(touched)
  }

  /** Resolves once every script scheduled so far has run, and the onevent actions. */
  idle(): Promise<void> {
    return Promise.all([this.queue, this.initActions]).then(() => undefined)
  }

  /** Resolves once the scripts scheduled so far (not the actions) have run. */
  scriptsIdle(): Promise<void> {
    return this.queue
  }

  /**
   * The values a save sends: every field, unsaveable and set fields blank (spec 000 §7), and each
   * repetition a set field has now under its own key (the contract's sets.ts).
   */
  payload(): Record<string, unknown> {
    const out: Record<string, unknown> = {}
    for (const item of this.config.fields) {
      const fieldType = this.registry.get('field', item.type)
      if (!fieldType) continue
      out[item.field_name] = !item.saveable || item.isSet ? fieldType.defaultValue(item) : this.values[item.field_name]
    }
    for (const { item, key } of setEntries(this.config, this.values)) {
      const value = this.values[key]
      if (item.saveable && value !== undefined && value !== null) out[key] = value
    }
    return out
  }

  /**
   * The server's first evaluation, sent with the form's info: formula results and conditions as this
   * store's own first evaluation (start()) will leave them, so page 1 is drawn right before it has run.
   * Only formula fields and conditioned items take it; start() still evaluates and corrects, unless the
   * server said it is settled (what that evaluation would give).
   */
  private takeInitial(initial: InitialState) {
    for (const [name, value] of Object.entries(initial.values)) {
      const item = this.items.get(name)?.item
      if (item && (item.data.formule || formulaCells(item).length > 0) && name in this.values) this.values[name] = value
    }
    for (const [name, shown] of Object.entries(initial.conditions)) {
      if (this.conditioned.has(name) || cellGroup(name)) this.conditions.set(name, shown === true)
    }
  }

  /** Back to the first page with the given values (the done screen's redo). */
  reset(values: Record<string, unknown> = {}) {
    this.values = initialValues(this.config, this.registry, values)
    this.conditions = new Map()
    this.effects = []
    this.options = {}
    this.styles = {}
    this.pagePosition = 0
    this.state = this.initialState()
    this.changed(this.items.keys())
    void this.start()
  }

  /** The page's send/save (bottom bar, send and save elements, and later the save and send actions). */
  setSubmitHandler(handler: SubmitHandler | undefined) {
    this.submitHandler = handler
  }

  /** `goToState`: the process state a save action moves the case to ('' follows the process). */
  requestSubmit(action: 'save' | 'send', goToState?: string) {
    this.submitHandler?.(action, goToState)
  }

  private submitHandler?: SubmitHandler

  // ── internals ──────────────────────────────────────────────────────────────

  /**
   * Queues `work` behind the scripts scheduled before it. With nothing pending and the scripting
   * loaded it starts at once, inside the caller: a keystroke's batch is then posted to the worker
   * from the input event itself, before React renders the field, not a microtask after that render.
   */
  /** The scripting code, loaded once; QuickJS starts loading with it if a script of the form needs it. */
  private loadScripting(): Promise<Scripting> {
    this.scripting ??= this.scriptingFactory!().then((scripting) => {
      scripting.prepare?.(this.designed, this.reads !== undefined)
      return scripting
    })
    return this.scripting
  }

  private schedule(work: (scripting: Scripting) => Promise<void>, needed: () => boolean) {
    if (!this.scriptingFactory || !needed()) return
    this.pendingScripts += 1
    const loaded = this.loaded
    const running =
      loaded && this.pendingScripts === 1
        ? startNow(() => work(loaded))
        : this.queue.then(async () => {
            const scripting = await this.loadScripting()
            this.loaded = scripting
            await work(scripting)
          })
    this.queue = running
      .catch((error: unknown) => {
        this.scriptErrors.push({ field: '', message: error instanceof Error ? error.message : String(error) })
      })
      .finally(() => {
        this.pendingScripts -= 1
        if (this.pendingScripts === 0) this.changed([])
      })
  }

  /** Takes formula results and conditions from an evaluation. */
  private absorb(
    computed: Record<string, unknown>,
    conditions: ReadonlyMap<string, boolean>,
    failures: readonly { field: string; message: string }[]
  ) {
    for (const failure of failures) this.scriptErrors.push({ field: failure.field, message: failure.message })
    const touched: string[] = []
    let values = this.values
    for (const item of this.config.fields) {
      const name = item.field_name
      const cells = formulaCells(item)
      if ((!item.data.formule && cells.length === 0) || !(name in computed) || Object.is(computed[name], values[name]))
        continue
      if (values === this.values) values = { ...values }
      values[name] = cells.length > 0 ? withComputedCells(values[name], computed[name], cells) : computed[name]
      touched.push(name)
    }
    this.values = values
    if (touched.length > 0) this.tellRules(touched)
    for (const [name, shown] of conditions) {
      if (this.conditions.get(name) !== shown) {
        this.conditions.set(name, shown)
        // A cell's condition (group.row.cell) redraws its group.
        touched.push(cellGroup(name) ?? name)
      }
    }
    if (touched.length > 0) this.recomputeState(touched)
  }

  /**
   * Before the first evaluation, an item with a condition shows as the server's evaluation sent with
   * the form's info says (takeInitial); without one it is hidden, as it is when the condition is false
   * or fails (spec 000 §8): the usual case (conditions on fields not yet filled) ends so, instead of
   * fields that vanish once the evaluation has run. One whose condition holds then appears with it.
   */
  private initialState(): FormState {
    return applyConditions(this.declared, new Map([...this.conditioned].map((name) => [name, this.conditionOf(name)!])))
  }

  private conditionOf(name: string): boolean | undefined {
    return this.conditions.get(name) ?? (this.conditioned.has(name) ? false : undefined)
  }

  /**
   * Only the touched items' conditions or effects changed: their entries are rebuilt from the declared
   * state, the others kept, so an answer to a keystroke costs what it touched, not the whole form.
   */
  private recomputeState(touched: string[]) {
    const state = { ...this.state }
    for (const name of new Set(touched)) {
      const declared = this.declared[name]
      if (!declared) continue
      const condition = this.conditionOf(name)
      const own = applyConditions(
        { [name]: declared },
        condition === undefined ? NO_CONDITIONS : new Map([[name, condition]])
      )
      state[name] = applyEffects(
        own,
        this.effects.filter((effect) => effect.op === 'setState' && effect.field === name)
      )[name]!
    }
    this.state = state
    this.changed(touched)
  }
}
