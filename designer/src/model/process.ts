/**
 * Process commands (issue 6, Process; spec 000 §3–§4): states, steps and who does each, approval
 * decisions and where they lead, which steps show a field. The process is plain JSON beside the form
 * (the contract's ProcessDefinition); removing a state or a step also removes what pointed at it, so
 * the process stays one the engine can run, and what is left unset is for validation to flag.
 */
import { END_STATE, INIT_STATE, STATE_ID_PATTERN, type ProcessDecision, type ProcessStep } from '@tramita/contract'
import { edit, findItem, type Command, type DesignDocument } from './document.js'

type Json = Record<string, unknown>
type Next = { step?: string | null; state?: string }
// Sparse: what is left out takes the schema's default on read (a decision's comment rule, say).
type Step = Partial<Omit<ProcessStep, 'decisions'>> & {
  id: string
  decisions?: Partial<ProcessDecision>[]
  next?: Next
}

const ID = new RegExp(STATE_ID_PATTERN)

/** The spec's decisions of an approval step: Aprobar and Rechazar, both ending the case until designed. */
export const DEFAULT_DECISIONS = [
  { id: 'aprobar', label: 'Aprobar', color: '#2E7D32', next: { step: null } },
  { id: 'rechazar', label: 'Rechazar', color: '#C62828', next: { step: null } },
]

const list = <T>(process: Json, key: string): T[] => {
  if (!Array.isArray(process[key])) process[key] = []
  return process[key] as T[]
}
const states = (process: Json) => list<{ id: string; label: string; color?: string }>(process, 'states')
const steps = (process: Json) => list<Step>(process, 'steps')

/**
 * An id from a label, as the process schema wants it (lower-case letters, digits, underscores; a
 * letter first), made unique among `taken` with _2, _3…
 */
export function processId(label: string, taken: Iterable<string>): string {
  const base =
    label
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '_')
      .replace(/^[^a-z]+|_+$/g, '')
      .slice(0, 36) || 'paso'
  const used = new Set(taken)
  if (!used.has(base)) return base
  for (let n = 2; ; n++) if (!used.has(`${base}_${n}`)) return `${base}_${n}`
}

/** Every `next` of the process: the start, each fill step's, each decision's. */
function everyNext(process: Json): Next[] {
  const out: Next[] = []
  if (process.start && typeof process.start === 'object') out.push(process.start as Next)
  for (const step of steps(process)) {
    if (step.next) out.push(step.next)
    for (const decision of step.decisions ?? []) if (decision.next) out.push(decision.next as Next)
  }
  return out
}

function stepAt(doc: DesignDocument, id: string): Step {
  const step = steps(doc.process).find((s) => s.id === id)
  if (!step) throw new RangeError(`No step ${id}`)
  return step
}

/** A new state, before `end`; its id is processId(label, the state ids) for a caller that selects it. */
export function addState(label: string, color = '#7f82ff'): Command {
  if (label.trim() === '') throw new RangeError('A state needs a name')
  return edit((doc) => {
    const all = states(doc.process)
    const id = processId(
      label,
      all.map((s) => s.id)
    )
    const endAt = all.findIndex((s) => s.id === END_STATE)
    all.splice(endAt < 0 ? all.length : endAt, 0, { id, label: label.trim(), color })
  })
}

/** Removes a state (never `init` or `end`) and every reference to it: the steps no longer enter it. */
export function removeState(id: string): Command {
  if (id === INIT_STATE || id === END_STATE) throw new RangeError(`The ${id} state is always there`)
  return edit((doc) => {
    const all = states(doc.process)
    const index = all.findIndex((s) => s.id === id)
    if (index < 0) throw new RangeError(`No state ${id}`)
    all.splice(index, 1)
    for (const next of everyNext(doc.process)) if (next.state === id) delete next.state
    for (const step of steps(doc.process)) {
      if (step.state === id) delete step.state
      if (step.go_to_states) step.go_to_states = step.go_to_states.filter((s) => s !== id)
    }
  })
}

/** A new step at the end (id: processId(label, the step ids)); an approval starts with Aprobar and Rechazar. */
export function addStep(kind: 'fill' | 'approve', label: string): Command {
  if (label.trim() === '') throw new RangeError('A step needs a name')
  return edit((doc) => {
    const all = steps(doc.process)
    const id = processId(
      label,
      all.map((s) => s.id)
    )
    const step: Step = { id, label: label.trim(), kind, assign: { type: 'user' }, notify: true }
    if (kind === 'approve') step.decisions = structuredClone(DEFAULT_DECISIONS)
    else step.next = { step: null }
    all.push(step)
    // The first step of a process nobody starts yet is where new cases go.
    const start = (doc.process.start ?? {}) as Next
    if (!start.step && all.length === 1) doc.process.start = { ...start, step: id }
  })
}

/**
 * Removes a step: whatever led to it now ends the case, and fields shown only on it are shown on
 * the steps left in their lists (or on every step when none is left).
 */
export function removeStep(id: string): Command {
  return edit((doc) => {
    const all = steps(doc.process)
    const index = all.findIndex((s) => s.id === id)
    if (index < 0) throw new RangeError(`No step ${id}`)
    all.splice(index, 1)
    for (const next of everyNext(doc.process)) if (next.step === id) next.step = null
    for (const item of [...doc.jsonconfig.fields, ...doc.jsonconfig.elements]) {
      const shown = item.show_on_task
      if (Array.isArray(shown) && shown.includes(id)) {
        const left = shown.filter((s) => s !== id)
        if (left.length > 0) item.show_on_task = left
        else delete item.show_on_task
      }
    }
  })
}

/** Moves a step in the list (the order the designer shows; the engine follows `next`). */
export function moveStep(from: number, to: number): Command {
  return edit((doc) => {
    const all = steps(doc.process)
    if (!all[from] || !all[to]) throw new RangeError(`No step position ${all[from] ? to : from}`)
    all.splice(to, 0, ...all.splice(from, 1))
  })
}

/** A decision of an approval step, ending the case until it is pointed somewhere. */
export function addDecision(stepId: string, label: string, color = '#336699'): Command {
  if (label.trim() === '') throw new RangeError('A decision needs a name')
  return edit((doc) => {
    const step = stepAt(doc, stepId)
    const decisions = (step.decisions ??= [])
    const id = processId(
      label,
      decisions.map((d) => d.id ?? '')
    )
    decisions.push({ id, label: label.trim(), color, next: { step: null } })
  })
}

export function removeDecision(stepId: string, decisionId: string): Command {
  return edit((doc) => {
    const step = stepAt(doc, stepId)
    const index = (step.decisions ?? []).findIndex((d) => d.id === decisionId)
    if (index < 0) throw new RangeError(`No decision ${decisionId} in ${stepId}`)
    step.decisions!.splice(index, 1)
  })
}

/**
 * Which steps show a field or element (`show_on_task`): an empty list shows it on every step. Step
 * ids must exist (the start task's name, `start`, is the contract's START_TASK and allowed too).
 */
export function setShownOnSteps(name: string, stepIds: readonly string[]): Command {
  return edit((doc) => {
    const { item } = findItem(doc.jsonconfig, name) ?? {}
    if (!item) throw new RangeError(`No item ${name}`)
    const known = new Set(['start', ...steps(doc.process).map((s) => s.id)])
    const unknown = stepIds.find((id) => !known.has(id))
    if (unknown) throw new RangeError(`No step ${unknown}`)
    if (stepIds.length === 0) delete item.show_on_task
    else item.show_on_task = [...new Set(stepIds)]
  })
}

/** Ids the schema accepts for states, steps and decisions (for the editors' own checks as typed). */
export const isProcessId = (id: string) => ID.test(id)
