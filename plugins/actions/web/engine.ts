/**
 * The action engine (spec 000 §4, 001 §4). An action definition (validations.actions[]) runs only when
 * its condition holds in the sandbox (a failure or a timeout counts as false, and is reported), then
 * jumps to its start page, then runs its steps in order, each awaited. A failing step stops its action.
 * After every action the required-field check re-runs. Scripts run in the host's sandbox, which has a
 * time limit: a runaway condition or script ends as a reported failure, never a hung form.
 */
import { actionConfigWithDefaults, coreActionRegistry } from '@tramita/contract'
import type { Json } from '@tramita/sandbox'
import { fillTemplate, watchedPlaceholders, type PlaceholderValues } from './placeholders.js'
import type { ActionContext, ActionEngine, ActionEngineOptions, PlaceholderScope, StepContext } from './types.js'

/** An action definition as withDefaults resolves it (contract schema/validations.ts). */
interface Definition {
  name: string
  onevent: boolean
  conditions: { active: boolean; code: string }
  start_page: { active: boolean; page: number | string }
  actions: { type: string; config: Record<string, unknown> }[]
}

/** start_action chains deeper than this stop (an action starting itself would never end). */
export const MAX_ACTION_DEPTH = 100

function asJson(value: unknown): Json {
  return value === undefined ? null : (value as Json)
}

/** A page given by index or by name, as an index in form.pages (undefined when there is none). */
export function pageIndex(pages: readonly { name?: string }[], page: unknown): number | undefined {
  if (typeof page === 'number') return Number.isInteger(page) && page >= 0 && page < pages.length ? page : undefined
  if (typeof page !== 'string' || page === '') return undefined
  if (/^\d+$/.test(page)) return pageIndex(pages, Number(page))
  const index = pages.findIndex((p) => p.name === page)
  return index >= 0 ? index : undefined
}

export function createActionEngine(options: ActionEngineOptions): ActionEngine {
  const { form, host, handlers } = options
  const types = options.types ?? coreActionRegistry()
  const definitions = new Map<string, Definition>()
  for (const definition of (form.config.validations?.actions ?? []) as Definition[]) {
    if (!definitions.has(definition.name)) definitions.set(definition.name, definition)
  }
  const placeholders: Omit<PlaceholderValues, 'row'> = { device: {}, task: { ...options.task } }
  const watched = new Map<string, ReadonlySet<string>>()
  for (const [name, definition] of definitions) {
    const names = watchedPlaceholders(definition.actions)
    if (names.size > 0) watched.set(name, names)
  }

  function variables(row: Record<string, unknown> | undefined): Record<string, Json> {
    return {
      ...form.vars,
      ...(form.valuesNow() as Record<string, Json>),
      device: placeholders.device,
      task: placeholders.task,
      ...(row ? { row: row as Json } : {}),
    }
  }

  async function run(name: string, context: ActionContext | undefined, depth: number): Promise<void> {
    const definition = definitions.get(name)
    if (!definition) {
      host.report(name, `no action named "${name}"`)
      return
    }
    if (depth > MAX_ACTION_DEPTH) {
      host.report(name, `start_action chain deeper than ${MAX_ACTION_DEPTH}: stopped`)
      return
    }
    const row = context?.row
    const step: StepContext = {
      form,
      host,
      action: name,
      ...(row ? { row } : {}),
      fill: (template) => fillTemplate(template, form, { ...placeholders, row }, host.language()),
      script: (source) => host.runScript(source, variables(row)),
      runAction: (next, nextContext) => run(next, nextContext ?? context, depth + 1),
      setDevice: (values) => setPlaceholders('device', values, name),
    }
    try {
      if (!(await holds(definition, step))) return
      if (definition.start_page?.active) {
        const index = pageIndex(form.config.form.pages, definition.start_page.page)
        if (index !== undefined) form.goToPage(index)
      }
      for (const [i, raw] of (definition.actions ?? []).entries()) {
        const handler = handlers.get(raw.type)
        if (!handler) {
          host.report(name, `step ${i}: no handler for the action type "${raw.type}"`)
          return
        }
        try {
          await handler.run(actionConfigWithDefaults(raw, types), step)
        } catch (error) {
          host.report(name, `step ${i} (${raw.type}): ${error instanceof Error ? error.message : String(error)}`)
          return
        }
      }
    } finally {
      form.recheckRequired()
    }
  }

  /** The definition's condition: absent or inactive holds; a failed evaluation (timeout included) does not. */
  async function holds(definition: Definition, step: StepContext): Promise<boolean> {
    const code = definition.conditions?.active ? (definition.conditions.code ?? '').trim() : ''
    if (code === '') return true
    // Conditions read the values after the formulas the last change started.
    await form.scriptsIdle()
    const result = await step.script(code)
    if (!result.ok) {
      host.report(definition.name, `condition: ${result.error.message}`)
      return false
    }
    return Boolean(result.value)
  }

  return {
    watched,
    run: (name, context) => run(name, context, 0),
    async started() {
      for (const [name, definition] of definitions) if (definition.onevent) await run(name, undefined, 0)
    },
    setPlaceholders: (scope: PlaceholderScope, values: Record<string, Json>) => setPlaceholders(scope, values),
  }

  /** New placeholder values; the actions naming a changed one re-run (but `by`, the action that set them). */
  async function setPlaceholders(scope: PlaceholderScope, values: Record<string, Json>, by?: string) {
    const current = placeholders[scope]
    const changed = Object.keys(values).filter(
      (key) => JSON.stringify(asJson(current[key])) !== JSON.stringify(asJson(values[key]))
    )
    placeholders[scope] = { ...current, ...values }
    if (changed.length === 0) return
    const keys = new Set(changed.map((key) => `${scope}.${key}`))
    for (const [name, names] of watched) {
      if (name !== by && [...names].some((key) => keys.has(key))) await run(name, undefined, 0)
    }
  }
}
