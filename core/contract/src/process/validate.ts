/**
 * `validateProcess(definition, form?)`: every problem of a process definition with its JSON Pointer:
 * the schema first, then the references (states, steps, decisions, assignees, and, given the form,
 * the fields it names). `processWithDefaults` gives the definition the engine runs.
 */
import { Value } from '@sinclair/typebox/value'
import { schemaProblems, type ConfigProblem } from '../validate-config.js'
import { itemsByName } from '../layout.js'
import { isEmail } from '../rules/text.js'
import type { FormConfig } from '../config.js'
import { END_STATE, INIT_STATE, ProcessDefinition, START_TASK, type ProcessNext } from './schema.js'

const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T

export function processWithDefaults(definition: unknown): ProcessDefinition {
  if (typeof definition !== 'object' || definition === null) return definition as ProcessDefinition
  return Value.Default(ProcessDefinition, clone(definition)) as ProcessDefinition
}

export function validateProcess(definition: unknown, form?: FormConfig): ConfigProblem[] {
  if (typeof definition !== 'object' || definition === null || Array.isArray(definition)) {
    return [{ path: '', message: 'the process definition must be an object' }]
  }
  const process = processWithDefaults(definition)
  const problems = schemaProblems(ProcessDefinition, process)
  if (problems.length > 0) return problems

  const states = new Set<string>()
  process.states.forEach((state, i) => {
    if (states.has(state.id)) problems.push({ path: `/states/${i}/id`, message: `state "${state.id}" is repeated` })
    states.add(state.id)
  })
  for (const required of [INIT_STATE, END_STATE]) {
    if (!states.has(required)) problems.push({ path: '/states', message: `the state "${required}" is missing` })
  }
  const steps = new Set<string>()
  process.steps.forEach((step, i) => {
    if (steps.has(step.id)) problems.push({ path: `/steps/${i}/id`, message: `step "${step.id}" is repeated` })
    if (step.id === START_TASK) {
      problems.push({ path: `/steps/${i}/id`, message: `"${START_TASK}" names the starter's form; choose another id` })
    }
    steps.add(step.id)
  })
  const fields = form ? itemsByName(form) : undefined
  const isField = (name: string) => fields?.get(name)?.kind === 'field'

  const checkState = (id: string | undefined, path: string) => {
    if (id !== undefined && !states.has(id)) problems.push({ path, message: `"${id}" is not a state of this process` })
  }
  const checkNext = (next: ProcessNext, path: string) => {
    if (next.step !== null && !steps.has(next.step)) {
      problems.push({ path: `${path}/step`, message: `"${next.step}" is not a step of this process` })
    }
    checkState(next.state, `${path}/state`)
  }

  checkNext(process.start, '/start')
  process.steps.forEach((step, i) => {
    const at = `/steps/${i}`
    checkState(step.state, `${at}/state`)
    step.go_to_states.forEach((id, j) => checkState(id, `${at}/go_to_states/${j}`))
    const assign = step.assign
    if ((assign.type === 'user' || assign.type === 'rol' || assign.type === 'area') && assign.id === undefined) {
      problems.push({ path: `${at}/assign/id`, message: `a ${assign.type} assignee needs an id` })
    }
    if (assign.type === 'external' && !isEmail(assign.email ?? '')) {
      problems.push({ path: `${at}/assign/email`, message: 'an external assignee needs a valid e-mail' })
    }
    if (assign.type === 'field') {
      if (!assign.field)
        problems.push({ path: `${at}/assign/field`, message: 'name the field that holds the assignee' })
      else if (fields && !isField(assign.field)) {
        problems.push({ path: `${at}/assign/field`, message: `"${assign.field}" is not a field of the form` })
      }
    }
    if (step.kind === 'approve') {
      // The decisions say where an approval leads; a `next` here would be silently ignored.
      if (step.next.step !== null || step.next.state !== undefined) {
        problems.push({ path: `${at}/next`, message: 'an approval step leads on through its decisions, not next' })
      }
      if (step.decisions.length === 0) {
        problems.push({ path: `${at}/decisions`, message: 'an approval step needs at least one decision' })
      }
      const ids = new Set<string>()
      step.decisions.forEach((decision, d) => {
        if (ids.has(decision.id)) {
          problems.push({ path: `${at}/decisions/${d}/id`, message: `decision "${decision.id}" is repeated` })
        }
        ids.add(decision.id)
        checkNext(decision.next, `${at}/decisions/${d}/next`)
      })
    } else {
      if (step.decisions.length > 0) {
        problems.push({ path: `${at}/decisions`, message: 'only approval steps have decisions' })
      }
      checkNext(step.next, `${at}/next`)
    }
  })

  const consult = process.external_consultation
  if (fields) {
    if (consult.select_restrinct_consult && !isField(consult.select_restrinct_consult)) {
      problems.push({
        path: '/external_consultation/select_restrinct_consult',
        message: `"${consult.select_restrinct_consult}" is not a field of the form`,
      })
    }
    consult.select_show_info.forEach((name, i) => {
      if (!isField(name)) {
        problems.push({
          path: `/external_consultation/select_show_info/${i}`,
          message: `"${name}" is not a field of the form`,
        })
      }
    })
  }
  return problems
}
