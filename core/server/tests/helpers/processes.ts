import { type ChildProcess, spawn } from 'node:child_process'
import { createServer } from 'node:net'
import { fileURLToPath } from 'node:url'
import { dirname, join, resolve } from 'node:path'
import { waitUntil } from '#tests/helpers/wait'

export const SERVER_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
export const REPO_ROOT = resolve(SERVER_ROOT, '../..')
export const TRAMITA_BIN = join(REPO_ROOT, 'cli', 'bin', 'tramita.js')

/** A port the OS says is free right now. */
export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer()
    server.unref()
    server.on('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      const port = typeof address === 'object' && address ? address.port : 0
      server.close(() => resolvePort(port))
    })
  })
}

/** How long stop() waits for a process to end before killing it. */
const STOP_LIMIT_MS = 30_000

export interface Started {
  child: ChildProcess
  output: () => string
  stop(signal?: NodeJS.Signals): Promise<number | null>
}

/** Starts a child process with Node 24 + ts-run (the CLI or a server entry) and keeps its output. */
export function startProcess(args: string[], env: Record<string, string | undefined>, cwd = REPO_ROOT): Started {
  const child = spawn(process.execPath, args, {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  child.stdout!.on('data', (d) => (out += d))
  child.stderr!.on('data', (d) => (out += d))
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)))
  return {
    child,
    output: () => out,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal)
      // A process that does not end is killed, so a suite's teardown cannot hang its step; its exit
      // code is then null, which a test expecting 0 reports.
      const kill = setTimeout(() => child.kill('SIGKILL'), STOP_LIMIT_MS)
      return exited.finally(() => clearTimeout(kill))
    },
  }
}

/**
 * For `.skip(...NOT_ABOUT_THE_DATABASE)`: a CLI test whose subject is not the database (arguments, files,
 * listen addresses, Redis going away) runs in the cli-sqlite step and is skipped in cli-mariadb-redis,
 * where it would prove the same thing again (each `tramita` call boots the app: about a second of CPU).
 */
export const NOT_ABOUT_THE_DATABASE = [
  process.env.DB_CONNECTION === 'mysql',
  'not about the database: runs in the cli-sqlite step',
] as const

/** Runs the CLI to completion and returns its exit code and output. */
export async function runCli(args: string[], env: Record<string, string | undefined> = {}) {
  const started = startProcess([TRAMITA_BIN, ...args], env)
  const code = await new Promise<number | null>((r) => started.child.once('exit', (c) => r(c)))
  return { code, output: started.output() }
}

/** Polls GET /health until the node answers (any status), or fails with the process output. */
export async function waitForHttp(port: number, started: Started, timeoutMs = 60_000): Promise<void> {
  const answers = async () => {
    if (started.child.exitCode !== null) throw new Error(`process exited early:\n${started.output()}`)
    try {
      return Boolean((await fetch(`http://127.0.0.1:${port}/health`)).status)
    } catch {
      return false
    }
  }
  await waitUntil(answers, timeoutMs, () => `an answer on port ${port}:\n${started.output()}`, 200)
}
