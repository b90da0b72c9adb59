/** Console output for the CLI: steps with their duration, and one-line failures. */
export function step<T>(label: string, fn: () => Promise<T>): Promise<T> {
  const started = Date.now()
  process.stdout.write(`• ${label}… `)
  return fn().then(
    (value) => {
      process.stdout.write(`done (${Date.now() - started} ms)\n`)
      return value
    },
    (error) => {
      process.stdout.write('failed\n')
      throw error
    }
  )
}

/** Thrown for failures whose message is the whole story (no stack trace printed). */
export class CliError extends Error {}

export function reportAndExit(error: unknown): never {
  let message = error instanceof Error ? error.message : String(error)
  // Invalid environment variables: the reasons are in `help`, one per line.
  const help = (error as { help?: unknown })?.help
  if (typeof help === 'string' && help) message += `: ${help.replace(/^- /gm, '').split('\n').join('; ')}`
  console.error(`tramita: ${message.split('\n')[0]}`)
  if (process.env.TRAMITA_DEBUG && error instanceof Error && !(error instanceof CliError)) console.error(error.stack)
  process.exit(1)
}

export function isInteractive(): boolean {
  return Boolean(process.stdin.isTTY && process.stdout.isTTY && !process.env.CI)
}

/** Set by commands that keep running after their action returns (serve). */
export const runState = { keepAlive: false }
