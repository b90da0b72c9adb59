/**
 * The form's logic (issue 6, Lógica; spec 000 §3–§4): its actions (validations.actions: name, onevent,
 * condition, start page, ordered steps of a registered action type) and its autocomplete rules
 * (validations.autocomplete). Actions are named: fields run them by name on their events and
 * start_action steps start them by name, so a rename follows those references, and what uses an
 * action is listed before it is deleted. Keys are set through `setValue` at their paths like any other.
 */
import { configRoles, coreActionRegistry, type ActionTypeRegistry } from '@tramita/contract'
import { edit, type Command, type DesignDocument, type DraftConfig } from './document.js'

/** An action as written (sparse: only `name` is required). */
export interface DraftAction {
  name: string
  onevent?: boolean
  conditions?: { active?: boolean; code?: string }
  start_page?: { active?: boolean; page?: number | string }
  actions?: DraftStep[]
  [key: string]: unknown
}

export interface DraftStep {
  type: string
  config?: Record<string, unknown>
}

export interface DraftRule {
  id_field: string
  action: string
  origin: string
  [key: string]: unknown
}

const list = <T>(value: unknown): T[] => (Array.isArray(value) ? (value as T[]) : [])

/** The form's actions as written. */
export const actionsOf = (config: DraftConfig): DraftAction[] => list(config.validations?.actions)
/** The form's autocomplete rules as written. */
export const rulesOf = (config: DraftConfig): DraftRule[] => list(config.validations?.autocomplete)
/** Every action name, in order (fields' events offer these). */
export const actionNames = (config: DraftConfig): string[] => actionsOf(config).map((a) => a.name)

/** The list at validations[key] of a draft, created when the sparse document lacks it. */
function validationsList<T>(doc: DesignDocument, key: 'actions' | 'autocomplete'): T[] {
  const config = doc.jsonconfig
  config.validations ??= {}
  if (!Array.isArray(config.validations[key])) config.validations[key] = []
  return config.validations[key] as T[]
}

function checkIndex(items: readonly unknown[], index: number, what: string): void {
  if (!Number.isInteger(index) || index < 0 || index >= items.length) throw new RangeError(`No ${what} ${index}`)
}

function move<T>(items: T[], from: number, to: number, what: string): void {
  checkIndex(items, from, what)
  checkIndex(items, to, what)
  const [moved] = items.splice(from, 1)
  items.splice(to, 0, moved!)
}

/** `base`, else `base_2`, `base_3`… not used by another action. */
export function uniqueActionName(config: DraftConfig, base = 'accion'): string {
  const taken = new Set(actionNames(config))
  const stem = base.trim().replace(/_\d+$/, '') || 'accion'
  if (!taken.has(base.trim()) && base.trim() !== '') return base.trim()
  for (let n = 2; ; n++) if (!taken.has(`${stem}_${n}`)) return `${stem}_${n}`
}

/** A new action with no steps (its defaults: no condition, runs on its fields' events). */
export function addAction(name?: string): Command {
  return edit((doc) => {
    const actions = validationsList<DraftAction>(doc, 'actions')
    const chosen = name?.trim() || uniqueActionName(doc.jsonconfig)
    if (actions.some((a) => a.name === chosen)) throw new RangeError(`The action "${chosen}" already exists`)
    actions.push({ name: chosen, actions: [] })
  })
}

/** Where a name is used: a field's event, or a start_action step of another (or the same) action. */
export interface ActionUsage {
  /** JSON Pointer into the document. */
  path: string
  kind: 'event' | 'start_action'
  /** The field or element (events), or the action holding the step. */
  owner: string
  /** The event (events) or the step's number from 1 (start_action). */
  detail: string
}

/** The config keys of each step that name an action (start_action's `action`, a plugin's own). */
function actionKeys(step: DraftStep, actionTypes: ActionTypeRegistry): string[] {
  const actionType = actionTypes.get(step.type)
  if (!actionType) return []
  return Object.entries(configRoles(actionType))
    .filter(([, role]) => role === 'action')
    .map(([key]) => key)
}

/** Every place that runs the action `name`. */
export function actionUsages(
  config: DraftConfig,
  name: string,
  actionTypes: ActionTypeRegistry = coreActionRegistry()
): ActionUsage[] {
  const found: ActionUsage[] = []
  for (const key of ['fields', 'elements'] as const) {
    config[key].forEach((item, index) => {
      for (const [event, names] of Object.entries((item.events ?? {}) as Record<string, unknown>)) {
        if (list<string>(names).includes(name)) {
          found.push({
            path: `/jsonconfig/${key}/${index}/events/${event}`,
            kind: 'event',
            owner: item.field_name,
            detail: event,
          })
        }
      }
    })
  }
  actionsOf(config).forEach((action, a) =>
    list<DraftStep>(action.actions).forEach((step, s) => {
      for (const key of actionKeys(step, actionTypes)) {
        if (step.config?.[key] === name) {
          found.push({
            path: `/jsonconfig/validations/actions/${a}/actions/${s}/config/${key}`,
            kind: 'start_action',
            owner: action.name,
            detail: String(s + 1),
          })
        }
      }
    })
  )
  return found
}

/**
 * Renames action `index`; fields' events and steps that start it follow. A name that is empty or
 * already another action's is refused (the runtime finds actions by name).
 */
export function renameAction(
  index: number,
  to: string,
  actionTypes: ActionTypeRegistry = coreActionRegistry()
): Command {
  const name = to.trim()
  if (name === '') throw new RangeError('An action needs a name')
  return (doc) => {
    const actions = actionsOf(doc.jsonconfig)
    checkIndex(actions, index, 'action')
    const from = actions[index]!.name
    if (from === name) return doc
    if (actions.some((a) => a.name === name)) throw new RangeError(`The action "${name}" already exists`)
    return edit((draft) => {
      const config = draft.jsonconfig
      actionsOf(config)[index]!.name = name
      for (const item of [...config.fields, ...config.elements]) {
        const events = (item.events ?? {}) as Record<string, unknown>
        for (const [event, names] of Object.entries(events)) {
          if (Array.isArray(names)) events[event] = names.map((n: string) => (n === from ? name : n))
        }
      }
      for (const action of actionsOf(config)) {
        for (const step of list<DraftStep>(action.actions)) {
          for (const key of actionKeys(step, actionTypes)) if (step.config?.[key] === from) step.config[key] = name
        }
      }
    })(doc)
  }
}

/** A copy of action `index` right after it, named `<name>_2` (or the next free number). */
export function duplicateAction(index: number): Command {
  return edit((doc) => {
    const actions = validationsList<DraftAction>(doc, 'actions')
    checkIndex(actions, index, 'action')
    const copy = JSON.parse(JSON.stringify(actions[index])) as DraftAction
    copy.name = uniqueActionName(doc.jsonconfig, `${copy.name}_2`)
    actions.splice(index + 1, 0, copy)
  })
}

/**
 * Deletes action `index` and takes its name out of the fields' events (a list that simply runs one
 * action fewer). A start_action step naming it is left for the validation to flag where it is: the
 * step around it is the designer's work. The UI lists `actionUsages` before asking.
 */
export function removeAction(index: number): Command {
  return edit((doc) => {
    const actions = validationsList<DraftAction>(doc, 'actions')
    checkIndex(actions, index, 'action')
    const [removed] = actions.splice(index, 1)
    if (actions.some((a) => a.name === removed!.name)) return // a duplicate name still runs
    for (const item of [...doc.jsonconfig.fields, ...doc.jsonconfig.elements]) {
      const events = (item.events ?? {}) as Record<string, unknown>
      for (const [event, names] of Object.entries(events)) {
        if (!Array.isArray(names) || !names.includes(removed!.name)) continue
        const kept = names.filter((n: string) => n !== removed!.name)
        if (kept.length > 0) events[event] = kept
        else delete events[event]
      }
    }
  })
}

export const moveAction = (from: number, to: number): Command =>
  edit((doc) => move(validationsList<DraftAction>(doc, 'actions'), from, to, 'action'))

function stepsOf(doc: DesignDocument, index: number): DraftStep[] {
  const actions = validationsList<DraftAction>(doc, 'actions')
  checkIndex(actions, index, 'action')
  const action = actions[index]!
  if (!Array.isArray(action.actions)) action.actions = []
  return action.actions
}

/** A step of a registered type appended to action `index`; its config starts empty (its defaults apply). */
export function addActionStep(
  index: number,
  type: string,
  actionTypes: ActionTypeRegistry = coreActionRegistry()
): Command {
  actionTypes.require(type)
  return edit((doc) => {
    stepsOf(doc, index).push({ type, config: {} })
  })
}

/** Another type for a step: the keys the new type also has are kept, the rest dropped. */
export function setActionStepType(
  index: number,
  step: number,
  type: string,
  actionTypes: ActionTypeRegistry = coreActionRegistry()
): Command {
  const keys = Object.keys(actionTypes.require(type).schema.properties)
  return edit((doc) => {
    const steps = stepsOf(doc, index)
    checkIndex(steps, step, 'step')
    const old = steps[step]!
    if (old.type === type) return
    const config = Object.fromEntries(Object.entries(old.config ?? {}).filter(([key]) => keys.includes(key)))
    steps[step] = { type, config }
  })
}

export const moveActionStep = (index: number, from: number, to: number): Command =>
  edit((doc) => move(stepsOf(doc, index), from, to, 'step'))

export const removeActionStep = (index: number, step: number): Command =>
  edit((doc) => {
    const steps = stepsOf(doc, index)
    checkIndex(steps, step, 'step')
    steps.splice(step, 1)
  })

/** A new autocomplete rule for a field: "now" from a formula until designed (action and origin are required). */
export function addAutocompleteRule(idField: string): Command {
  return edit((doc) => {
    validationsList<DraftRule>(doc, 'autocomplete').push({ id_field: idField, action: 'value', origin: 'formula' })
  })
}

export const removeAutocompleteRule = (index: number): Command =>
  edit((doc) => {
    const rules = validationsList<DraftRule>(doc, 'autocomplete')
    checkIndex(rules, index, 'rule')
    rules.splice(index, 1)
  })

export const moveAutocompleteRule = (from: number, to: number): Command =>
  edit((doc) => move(validationsList<DraftRule>(doc, 'autocomplete'), from, to, 'rule'))

/**
 * A field renamed: action steps that name it (set_value's field, set_state's fields...) follow, on a
 * mutable draft of the document (called by renameReferences).
 */
export function renameFieldInActions(
  doc: DesignDocument,
  from: string,
  to: string,
  actionTypes: ActionTypeRegistry = coreActionRegistry()
): void {
  for (const action of actionsOf(doc.jsonconfig)) {
    for (const step of list<DraftStep>(action.actions)) {
      const actionType = actionTypes.get(step.type)
      if (!actionType || !step.config) continue
      for (const [key, role] of Object.entries(configRoles(actionType))) {
        const value = step.config[key]
        if (role === 'field' && value === from) step.config[key] = to
        else if (role === 'fields' && Array.isArray(value)) step.config[key] = value.map((n) => (n === from ? to : n))
      }
    }
  }
}
