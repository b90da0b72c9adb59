import { buildGraph, initialValues, sourcesOf, type FormConfig, type InitialState } from '@tramita/contract'
import { initialState } from '@tramita/contract/evaluate'
import type { Json } from '@tramita/sandbox'
import { compileExpression, createHybridRunner } from '@tramita/sandbox/expression'
import { fieldTypeRegistry } from '#plugins/field_types'
import logger from '@adonisjs/core/services/logger'

/**
 * The first evaluation of a form as it is opened, sent with its info (issue 23): the browser draws page 1
 * as its own evaluation will leave it, conditions that hold at load included, before that has run.
 *
 * Only for a form whose conditions and formulas are all expressions the interpreter takes
 * (@tramita/sandbox/expression: in this process, no loops, bounded in size, nothing but the values):
 * one with a real script gets null and the browser evaluates it as before, so opening a form never
 * waits on the QuickJS pool. The hint is only what to draw first; saves are checked as always.
 */
// No QuickJS here: a form that passed needsQuickJS never asks for it, and an expression whose value
// leaves the subset (the interpreter hands it over) ends the hint instead.
const runner = createHybridRunner(compileExpression, () => Promise.reject(new Error('not an expression')))

/** Whether every formula and condition of the form is an expression (kept per form object). */
const expressionsOnly = new WeakMap<FormConfig, boolean>()

function onlyExpressions(form: FormConfig): boolean {
  let known = expressionsOnly.get(form)
  if (known === undefined) {
    const graph = buildGraph(form)
    known = !runner.needsQuickJS([...graph.formulaLevels.flat(), ...graph.conditions].flatMap(sourcesOf))
    expressionsOnly.set(form, known)
  }
  return known
}

export async function initialStateFor(
  form: FormConfig,
  values: Record<string, unknown>,
  vars: Record<string, Json>
): Promise<InitialState | null> {
  if (!onlyExpressions(form)) return null
  try {
    const start = initialValues(form, await fieldTypeRegistry(), values)
    return await initialState(form, start, { runner, vars })
  } catch (error) {
    logger.debug({ err: error }, 'form initial state left to the browser')
    return null
  }
}
