import type { ScriptRunner } from '@tramita/sandbox'
import { createSandboxPool } from '@tramita/sandbox/node'
import { workerExecArgv } from '@tramita/plugin-api/workers'

/**
 * The server's script runner: a small pool of QuickJS sandboxes in worker threads, made on first use
 * (a CLI command that never evaluates a form starts no worker) and closed at shutdown.
 */
let pool: ScriptRunner | undefined

export function scriptRunner(): ScriptRunner {
  pool ??= createSandboxPool({ size: 2, execArgv: workerExecArgv() })
  return pool
}

export async function closeScripts(): Promise<void> {
  const current = pool
  pool = undefined
  await current?.dispose()
}
