import type { ScriptRunner } from '@tramita/sandbox'
import { createSandboxPool } from '@tramita/sandbox/node'

/**
 * The server's script runner: a small pool of QuickJS sandboxes in worker threads, made on first use
 * (a CLI command that never evaluates a form starts no worker) and closed at shutdown.
 */
let pool: ScriptRunner | undefined

const TS_LOADER = '@poppinss/ts-exec'

/**
 * The sandbox's worker is TypeScript. `tramita serve` registers ts-exec in code (cli/bin/tramita.js),
 * which workers do not inherit, and Node's own type stripping cannot load it: every worker died before
 * it was ready and every script failed. Workers get the loader explicitly unless `--import` has it
 * (only the loader: the parent's other options may be process-wide ones a worker refuses, like --eval).
 */
export function workerExecArgv(): string[] | undefined {
  return process.execArgv.some((arg) => arg.includes(TS_LOADER)) ? undefined : ['--import', TS_LOADER]
}

export function scriptRunner(): ScriptRunner {
  pool ??= createSandboxPool({ size: 2, execArgv: workerExecArgv() })
  return pool
}

export async function closeScripts(): Promise<void> {
  const current = pool
  pool = undefined
  await current?.dispose()
}
