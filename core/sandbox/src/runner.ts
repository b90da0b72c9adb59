import type { Sandbox, ScriptRunner } from './types.ts'

/** The in-process sandbox behind the async face the pool and the browser worker share. */
export function asRunner(sandbox: Sandbox): ScriptRunner {
  return {
    run: async (source, vars, opts) => sandbox.run(source, vars, opts),
    runBatch: async (calls, shared, opts) => sandbox.runBatch(calls, shared, opts),
    dispose: () => sandbox.dispose(),
  }
}
