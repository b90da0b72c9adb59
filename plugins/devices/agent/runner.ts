import { openAsBlob } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { tmpdir } from 'node:os'
import {
  AGENT_FILE_PATH,
  AGENT_RESULT_PATH,
  type AgentMessage,
  type JobError,
  type JobOrder,
  type PrintOrder,
  type ScanOrder,
} from '../shared/protocol.js'
import { DeviceError } from './drivers/errors.js'
import { printFile } from './drivers/ipp_printer.js'
import { scanToFile } from './drivers/sane_scanner.js'
import type { Inventory } from './inventory.js'

/**
 * Does the server's jobs, one at a time per machine (a printer's queue), and keeps each outcome until
 * the server acknowledges it. A job the server sends again (after a reconnect) while it runs or waits
 * is not started twice; one that was done before this process started is found on the printer by its
 * job name and not printed again (printFile).
 */

export interface RunnerOptions {
  server: string
  token: string
  inventory: Inventory
  /** Sends a message on the socket now; false when it is not connected (the result waits). */
  send(message: AgentMessage): boolean
  log(line: string): void
  saneEnv?: NodeJS.ProcessEnv
  printTimeoutMs?: number
  scanTimeoutMs?: number
  maxScanBytes?: number
}

type Result = Extract<AgentMessage, { type: 'result' }>

const PRINT_TIMEOUT_MS = 10 * 60_000
const SCAN_TIMEOUT_MS = 5 * 60_000
const HTTP_TIMEOUT_MS = 60_000
const MAX_SCAN_BYTES = 100 * 1024 ** 2
const UPLOAD_TRIES = 5

export class Runner {
  /** Jobs running or waiting their turn, by id. */
  private readonly active = new Set<string>()
  /** Outcomes the server has not acknowledged, by job id (sent again at each connection). */
  private readonly unacked = new Map<string, Result>()
  private readonly cancelled = new Set<string>()
  private readonly queues = new Map<string, Promise<void>>()

  constructor(private readonly options: RunnerOptions) {}

  take(orders: JobOrder[]): void {
    for (const order of orders) {
      // Running, waiting, or done and not yet acknowledged (its result goes again): not started twice.
      if (this.active.has(order.id) || this.unacked.has(order.id)) continue
      this.active.add(order.id)
      const previous = this.queues.get(order.machineUid) ?? Promise.resolve()
      const next = previous.then(() => this.run(order)).finally(() => this.active.delete(order.id))
      this.queues.set(order.machineUid, next)
    }
  }

  cancel(id: string): void {
    if (this.active.has(id)) this.cancelled.add(id)
  }

  acknowledged(id: string): void {
    this.unacked.delete(id)
  }

  /** After a (re)connection: every outcome the server may not have. */
  resend(): void {
    for (const result of this.unacked.values()) this.options.send(result)
  }

  get pending(): number {
    return this.active.size
  }

  /** Waits for what is running (a graceful stop). */
  async idle(): Promise<void> {
    await Promise.all(this.queues.values())
  }

  private report(result: Result) {
    this.unacked.set(result.id, result)
    this.options.send(result)
  }

  private async run(order: JobOrder): Promise<void> {
    if (this.cancelled.delete(order.id)) return
    const machine = this.options.inventory.has(order.machineUid)
    try {
      if (order.kind === 'print') {
        if (!machine?.printer) throw new DeviceError('unknown_machine', order.machineUid)
        await this.print(machine.printer, order)
        this.report({ type: 'result', id: order.id, status: 'done' })
        this.options.log(`print ${order.id}: done`)
      } else {
        if (!machine?.scanner) throw new DeviceError('unknown_machine', order.machineUid)
        await this.scan(machine.scanner, order)
        this.options.log(`scan ${order.id}: sent`)
      }
    } catch (error) {
      const failure = asFailure(error, order.kind)
      this.options.log(`${order.kind} ${order.id}: failed (${failure.code}: ${failure.detail})`)
      this.report({ type: 'result', id: order.id, status: 'failed', error: failure.code, detail: failure.detail })
    }
  }

  private async print(uri: string, order: PrintOrder): Promise<void> {
    const timeoutMs = this.options.printTimeoutMs ?? PRINT_TIMEOUT_MS
    for (const file of order.files) {
      const url = this.url(AGENT_FILE_PATH, order.id, file.n)
      const response = await fetch(url, {
        headers: { token: this.options.token },
        signal: AbortSignal.timeout(HTTP_TIMEOUT_MS),
      })
      if (!response.ok)
        throw new DeviceError('print_error', `the server answered ${response.status} for file ${file.n}`)
      const bytes = new Uint8Array(await response.arrayBuffer())
      await printFile(
        uri,
        {
          // One name per job and file: a job sent again finds what was printed already.
          jobName: `tramita-${order.id}-${file.n}`,
          bytes,
          mime: file.mime,
          copies: order.copies,
          bothSides: order.bothSides,
          color: order.color,
          tray: order.tray,
          media: order.media,
        },
        { timeoutMs }
      )
    }
  }

  /**
   * Scans into a temporary file and uploads it (the upload is the job's result). An upload that fails
   * for the network or the server's sake is tried again; one the server refuses (4xx) is a failed scan.
   */
  private async scan(device: string, order: ScanOrder): Promise<void> {
    const dir = await mkdtemp(join(tmpdir(), 'tramita-scan-'))
    try {
      const name = `scan-${new Date().toISOString().replace(/[:.]/g, '-')}.${order.format === 'jpeg' ? 'jpg' : order.format}`
      const path = join(dir, name)
      await scanToFile(device, order, path, {
        timeoutMs: this.options.scanTimeoutMs ?? SCAN_TIMEOUT_MS,
        maxBytes: this.options.maxScanBytes ?? MAX_SCAN_BYTES,
        env: this.options.saneEnv,
      })
      const url = this.url(AGENT_RESULT_PATH, order.id)
      for (let attempt = 1; ; attempt++) {
        const form = new FormData()
        form.append('file', await openAsBlob(path, { type: mimeOf(order.format) }), name)
        const answer = await fetch(url, {
          method: 'POST',
          headers: { token: this.options.token },
          body: form,
          signal: AbortSignal.timeout(HTTP_TIMEOUT_MS),
        }).catch((error: Error) => error)
        if (!(answer instanceof Error) && answer.ok) return
        if (!(answer instanceof Error) && answer.status >= 400 && answer.status < 500 && answer.status !== 429) {
          const body = (await answer.json().catch(() => ({}))) as { message?: string }
          throw new DeviceError('scan_error', body.message ?? `the server refused the scan (${answer.status})`)
        }
        if (attempt >= UPLOAD_TRIES) {
          throw new DeviceError('scan_error', answer instanceof Error ? answer.message : `server ${answer.status}`)
        }
        await new Promise((resolve) => setTimeout(resolve, 1000 * 2 ** attempt))
      }
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  }

  private url(path: string, id: string, n?: number): string {
    const filled = path.replace(':id', encodeURIComponent(id)).replace(':n', String(n ?? 0))
    return new URL(filled, this.options.server).href
  }
}

function mimeOf(format: ScanOrder['format']): string {
  return format === 'pdf' ? 'application/pdf' : format === 'png' ? 'image/png' : 'image/jpeg'
}

function asFailure(error: unknown, kind: JobOrder['kind']): { code: JobError; detail: string } {
  if (error instanceof DeviceError) return { code: error.code, detail: error.detail.slice(0, 500) }
  return {
    code: kind === 'print' ? 'print_error' : 'scan_error',
    detail: String((error as Error)?.message ?? error).slice(0, 500),
  }
}
