/// <reference lib="dom" />
/**
 * Runs the attack cases in Chromium: through createWorkerSandbox (a module Web Worker with a
 * watchdog) and through createSandbox in the page itself. Results go to `window.sandboxResults`.
 */
import { createWorkerSandbox } from '../../browser/index.ts'
import { asRunner, createSandbox, type ScriptRunner } from '../../src/index.ts'
import { attack, CASES } from '../cases.ts'

export interface HarnessReport {
  worker: Record<string, string[]>
  page: Record<string, string[]>
  batch: unknown
  restarts: number
  /** Wasm faults (the native stack exhausted before QuickJS's own limit): none expected. */
  faults: { worker: number; page: number }
}

async function runAll(runner: ScriptRunner, inPage: boolean): Promise<Record<string, string[]>> {
  const problems: Record<string, string[]> = {}
  for (const c of CASES) {
    // Native work the interrupt cannot reach would freeze the page itself: only the worker runs it.
    if (inPage && c.needsWatchdog) continue
    problems[c.name] = (await attack(runner, c)).problems
  }
  return problems
}

async function main(): Promise<HarnessReport> {
  const worker = createWorkerSandbox({ graceMs: 500 })
  const workerProblems = await runAll(worker, false)
  const batch = await worker.runBatch([{ source: 'a + b' }, { source: 'a + b', vars: { a: 10 } }, { source: 'nope' }], {
    a: 1,
    b: 2,
  })
  const { restarts, faults } = worker.stats()
  worker.dispose()
  const sandbox = await createSandbox()
  const pageProblems = await runAll(asRunner(sandbox), true)
  sandbox.dispose()
  return {
    worker: workerProblems,
    page: pageProblems,
    batch,
    restarts,
    faults: { worker: faults, page: sandbox.stats().faults },
  }
}

const target = window as unknown as { sandboxResults?: HarnessReport; sandboxError?: string }
main().then(
  (report) => {
    target.sandboxResults = report
    document.getElementById('status')!.textContent = 'done'
  },
  (error: unknown) => {
    target.sandboxError = String((error as Error)?.stack ?? error)
    document.getElementById('status')!.textContent = 'failed'
  }
)
