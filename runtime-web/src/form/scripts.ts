/**
 * What runs a form's scripts in the browser: conditions and formulas that are pure expressions on the
 * page itself (@tramita/sandbox/expression, no eval), the rest in QuickJS in a Web Worker, loaded only
 * when a script needs it; plus the contract's evaluation (which parses scripts with acorn to know what
 * each reads). Both load on first use, so the form's first page never waits for them; one worker serves
 * the whole page.
 */
import { EVENT_SCRIPTS, REPEAT_TYPE, type FormConfig } from '@tramita/contract'
import type { evaluateChange, evaluateForm } from '@tramita/contract/evaluate'
import type { ScriptRunner } from '@tramita/sandbox'

export interface Scripting {
  runner: ScriptRunner
  evaluateChange: typeof evaluateChange
  evaluateForm: typeof evaluateForm
  /**
   * Starts loading QuickJS at once when a script of the form is not an expression the page can run.
   * `expressions`: the server found every formula and condition an expression (a settled first
   * evaluation), so only event scripts are read.
   */
  prepare?(config: FormConfig, expressions?: boolean): void
}

let shared: Promise<Scripting> | undefined

export function browserScripting(): Promise<Scripting> {
  shared ??= Promise.all([import('@tramita/sandbox/expression'), import('@tramita/contract/evaluate')]).then(
    ([expression, evaluation]) => {
      const runner = expression.createHybridRunner(expression.compileExpression, () =>
        import('@tramita/sandbox/browser').then(startWorker)
      )
      return {
        runner,
        evaluateChange: evaluation.evaluateChange,
        evaluateForm: evaluation.evaluateForm,
        prepare: (config, expressions) => {
          if (runner.needsQuickJS(scriptsOf(config, expressions))) runner.warm()
        },
      }
    }
  )
  return shared
}

/** Whether the form has any script (formula, condition or event handler): it will need browserScripting. */
export function hasScripts(config: Pick<FormConfig, 'fields'>): boolean {
  return !scriptsOf(config).next().done
}

/**
 * Starts loading the scripting code for a form that will need it, then lets the browser send the
 * requests (they go out only once the current task ends) before the caller builds the form's store, a
 * long synchronous task: the code then arrives while the store is made instead of after it.
 */
export async function startScripting(jsonconfig: unknown): Promise<void> {
  const fields = (jsonconfig as { fields?: unknown } | null)?.fields
  if (!Array.isArray(fields) || !hasScripts({ fields })) return
  browserScripting().catch(() => undefined)
  await new Promise((resolve) => setTimeout(resolve, 0))
}

/** Every script of the form: formulas, conditions and event handlers (only these with `eventsOnly`). */
function* scriptsOf(config: Pick<FormConfig, 'fields'>, eventsOnly = false): Generator<string> {
  for (const field of config.fields) {
    // As the server sends it (before withDefaults) a field may come without data.
    const data = (field.data ?? {}) as Record<string, unknown>
    for (const key of eventsOnly ? EVENT_SCRIPTS : ['formule', 'show_with_formule', ...EVENT_SCRIPTS]) {
      const source = data[key]
      if (typeof source === 'string' && source.trim() !== '') yield source
    }
    // A repeating group's cells have conditions of their own (run per row).
    if (!eventsOnly && field.type === REPEAT_TYPE && Array.isArray(data.cells)) {
      for (const cell of data.cells as { data?: { show_with_formule?: unknown } }[]) {
        const source = cell.data?.show_with_formule
        if (typeof source === 'string' && source.trim() !== '') yield source
      }
    }
  }
}

/**
 * The pool starts its worker on the first batch, which would come only once the evaluation code has
 * loaded and acorn has read every script on the main thread: QuickJS (~700 kB) would start loading
 * late. A trivial batch starts the worker now, so QuickJS loads while the page renders.
 */
function startWorker({ createWorkerSandbox }: typeof import('@tramita/sandbox/browser')): ScriptRunner {
  const runner = createWorkerSandbox()
  void runner.runBatch([{ source: '0' }])
  return runner
}
