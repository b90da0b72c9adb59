/**
 * What runs a form's scripts in the browser: QuickJS in a Web Worker plus the contract's evaluation
 * (which parses scripts with acorn to know what each reads). Both load on first use, so the form's
 * first page never waits for them; one worker serves the whole page.
 */
import type { evaluateChange, evaluateForm } from '@tramita/contract/evaluate'
import type { ScriptRunner } from '@tramita/sandbox'

export interface Scripting {
  runner: ScriptRunner
  evaluateChange: typeof evaluateChange
  evaluateForm: typeof evaluateForm
}

let shared: Promise<Scripting> | undefined

export function browserScripting(): Promise<Scripting> {
  shared ??= Promise.all([
    import('@tramita/sandbox/browser').then(startWorker),
    import('@tramita/contract/evaluate'),
  ]).then(([runner, evaluation]) => ({
    runner,
    evaluateChange: evaluation.evaluateChange,
    evaluateForm: evaluation.evaluateForm,
  }))
  return shared
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
