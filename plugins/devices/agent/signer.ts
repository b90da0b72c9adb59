import { spawn } from 'node:child_process'
import { openAsBlob } from 'node:fs'
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { tmpdir } from 'node:os'
import type { AgentMessage, SignOrder } from '../shared/protocol.js'

/**
 * The agent's signing pad (spec 000 §7 signing flow): the program named by `--sign-command` (the pad's
 * own software, or a script around it) is run as `COMMAND TEMPLATE OUTPUT` for each sign order: it
 * shows the template PDF, has the person sign in its box, and writes the signed PDF to OUTPUT. The
 * agent then sends OUTPUT to the order's upload address. A program that fails, runs over its time or
 * writes nothing is reported to the server (`sign_failed`), which tells the person.
 */

export interface SignerOptions {
  server: string
  command: string
  send(message: AgentMessage): boolean
  log(line: string): void
  timeoutMs?: number
}

/** A person signing takes a while; a pad that hangs does not hold the order for ever. */
const SIGN_TIMEOUT_MS = 5 * 60_000
const HTTP_TIMEOUT_MS = 60_000
/** The server's own cap on a signed PDF (server/signatures/requests.ts). */
const MAX_SIGNED_BYTES = 10 * 1024 ** 2

export class Signer {
  private readonly running = new Set<string>()

  constructor(private readonly options: SignerOptions) {}

  /** Runs one order in the background; the same order twice (a resent message) runs once. */
  take(order: SignOrder): void {
    if (this.running.has(order.token)) return
    this.running.add(order.token)
    void this.sign(order)
      .catch((error: unknown) => {
        const detail = String((error as Error)?.message ?? error).slice(0, 500)
        this.options.log(`signature failed: ${detail}`)
        this.options.send({ type: 'sign_failed', token: order.token, detail })
      })
      .finally(() => this.running.delete(order.token))
  }

  /** Resolves when no order is running (the agent stopping). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await new Promise((resolve) => setTimeout(resolve, 100))
  }

  private async sign(order: SignOrder): Promise<void> {
    const dir = await mkdtemp(join(tmpdir(), 'tramita-sign-'))
    try {
      const template = join(dir, 'plantilla_firma.pdf')
      const output = join(dir, 'firma.pdf')
      const answer = await fetch(this.url(order.template), { signal: AbortSignal.timeout(HTTP_TIMEOUT_MS) })
      if (!answer.ok) throw new Error(`the template could not be fetched (${answer.status})`)
      await writeFile(template, new Uint8Array(await answer.arrayBuffer()))
      await this.runCommand(template, output)
      const size = (await stat(output).catch(() => null))?.size ?? 0
      if (size === 0) throw new Error('the sign command wrote no PDF')
      if (size > MAX_SIGNED_BYTES) throw new Error('the signed PDF is too large')
      const form = new FormData()
      form.append('file', await openAsBlob(output, { type: 'application/pdf' }), 'firma.pdf')
      const sent = await fetch(this.url(order.upload), {
        method: 'POST',
        body: form,
        signal: AbortSignal.timeout(HTTP_TIMEOUT_MS),
      })
      if (!sent.ok) {
        const body = (await sent.json().catch(() => ({}))) as { message?: string }
        throw new Error(body.message ?? `the server refused the signature (${sent.status})`)
      }
      this.options.log('signature sent')
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  }

  /** The command, with no shell (the paths are arguments, never parsed), killed past its time. */
  private runCommand(template: string, output: string): Promise<void> {
    const timeoutMs = this.options.timeoutMs ?? SIGN_TIMEOUT_MS
    return new Promise((resolve, reject) => {
      const child = spawn(this.options.command, [template, output], {
        stdio: ['ignore', 'ignore', 'pipe'],
        timeout: timeoutMs,
        killSignal: 'SIGKILL',
      })
      let stderr = ''
      child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-300)))
      child.on('error', reject)
      child.on('close', (code, signal) => {
        if (code === 0) return resolve()
        const why = signal ? `stopped after ${Math.round(timeoutMs / 1000)} s` : `exit code ${code}`
        reject(new Error(`the sign command failed (${why})${stderr.trim() ? `: ${stderr.trim()}` : ''}`))
      })
    })
  }

  private url(path: string): string {
    return new URL(path, this.options.server).href
  }
}
