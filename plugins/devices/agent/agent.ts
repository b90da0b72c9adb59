import { randomBytes } from 'node:crypto'
import { hostname } from 'node:os'
import WebSocket from 'ws'
import {
  AGENT_HEARTBEAT_MS,
  AGENT_SOCKET_PATH,
  CLOSE_REVOKED,
  CLOSE_UNSUPPORTED,
  INSTANCE_HEADER,
  MAX_MESSAGE_BYTES,
  PROTOCOL_VERSION,
  type AgentMessage,
  type AgentStatus,
  type ServerMessage,
} from '../shared/protocol.js'
import { Inventory, type InventoryOptions } from './inventory.js'
import { Runner } from './runner.js'
import { Signer } from './signer.js'
import { AgentFiles } from './files.js'

/**
 * The agent: one WebSocket to the server, kept open (reconnected with growing waits after any drop or
 * server restart), a report of its machines at every connection and heartbeat, and the server's jobs
 * run by its Runner. It stops for good only when the server says its token is refused (revoked or
 * unknown) or its protocol is not supported.
 */

export interface AgentOptions extends InventoryOptions {
  server: string
  token: string
  version: string
  log?: (line: string) => void
  /** Reconnection waits: from `minMs`, doubling to `maxMs`, with ±20 % jitter. */
  backoff?: { minMs: number; maxMs: number }
  heartbeatMs?: number
  discoverEveryMs?: number
  /** The signing pad's program (signer.ts); without it the agent takes no sign orders. */
  signCommand?: string
  signTimeoutMs?: number
  /** Synchronized folders only under these directories (files.ts); empty: anywhere this user may use. */
  filesRoots?: string[]
}

export class AgentStopped extends Error {}

const DISCOVER_EVERY_MS = 5 * 60_000

export class Agent {
  /** A new id at each start: the server lets this process take its own connection over after a drop. */
  readonly instance = randomBytes(12).toString('hex')
  readonly inventory: Inventory
  readonly runner: Runner
  readonly signer: Signer | null
  /** Synchronized folders' files (files.ts). */
  readonly files: AgentFiles
  status: AgentStatus | 'CONNECTING' = 'CONNECTING'
  private socket?: WebSocket
  private stopped = false
  private failures = 0
  private timers: NodeJS.Timeout[] = []
  private reconnectTimer?: NodeJS.Timeout
  private finished!: (error?: Error) => void
  /** Settles when the agent stops: resolved by stop(), rejected when the server refuses it for good. */
  readonly done: Promise<void>
  private readonly log: (line: string) => void

  constructor(private readonly options: AgentOptions) {
    this.log = options.log ?? ((line) => console.log(`${new Date().toISOString()} ${line}`))
    this.inventory = new Inventory(options)
    this.runner = new Runner({
      server: options.server,
      token: options.token,
      inventory: this.inventory,
      send: (message) => this.send(message),
      log: this.log,
      saneEnv: options.saneEnv,
    })
    this.signer = options.signCommand
      ? new Signer({
          server: options.server,
          command: options.signCommand,
          send: (message) => this.send(message),
          log: this.log,
          timeoutMs: options.signTimeoutMs,
        })
      : null
    this.files = new AgentFiles({
      server: options.server,
      token: options.token,
      allowedRoots: options.filesRoots ?? [],
      send: (message) => this.send(message),
      log: this.log,
    })
    this.done = new Promise<void>((resolve, reject) => {
      this.finished = (error) => (error ? reject(error) : resolve())
    })
    // The caller may not wait on `done` (a test that stops the agent): never an unhandled rejection.
    this.done.catch(() => undefined)
  }

  async start(): Promise<void> {
    await this.inventory.discover()
    this.connect()
    const heartbeat = setInterval(() => void this.heartbeat(), this.options.heartbeatMs ?? AGENT_HEARTBEAT_MS)
    const rediscover = setInterval(
      () => void this.inventory.discover().then(() => this.heartbeat()),
      this.options.discoverEveryMs ?? DISCOVER_EVERY_MS
    )
    this.timers.push(heartbeat, rediscover)
  }

  /** Closes the connection and lets running jobs end; no reconnection. */
  async stop(): Promise<void> {
    this.stopped = true
    for (const timer of this.timers) clearInterval(timer)
    clearTimeout(this.reconnectTimer)
    this.socket?.close(1000, 'agent stopping')
    await this.runner.idle()
    await this.signer?.idle()
    this.files.stop()
    await this.files.idle()
    this.finished()
  }

  private socketUrl(): string {
    const url = new URL(AGENT_SOCKET_PATH, this.options.server)
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:'
    return url.href
  }

  private connect() {
    if (this.stopped) return
    this.status = 'CONNECTING'
    const socket = new WebSocket(this.socketUrl(), {
      headers: { token: this.options.token, [INSTANCE_HEADER]: this.instance },
      maxPayload: MAX_MESSAGE_BYTES,
      handshakeTimeout: 15_000,
    })
    this.socket = socket
    socket.on('open', () => {
      this.failures = 0
      this.log(`connected to ${this.options.server}`)
      void this.hello(socket)
    })
    socket.on('message', (data) => {
      try {
        this.receive(JSON.parse(data.toString()) as ServerMessage)
      } catch (error) {
        this.log(`ignored a message: ${(error as Error).message}`)
      }
    })
    // The server refused the connection before it opened: its HTTP answer says why.
    socket.on('unexpected-response', (req, res) => {
      this.socket = undefined
      let reason = ''
      res.on('data', (chunk: Buffer) => (reason = (reason + chunk.toString()).slice(0, 200)))
      res.on('end', () => {
        req.destroy()
        const status = res.statusCode ?? 0
        if (status === 401 || status === 426) return this.giveUp(`refused by the server (${status}): ${reason}`)
        this.log(`refused by the server (${status}): ${reason}; trying again`)
        this.retry()
      })
    })
    socket.on('error', (error) => this.log(`connection error: ${error.message}`))
    socket.on('close', (code, why) => {
      // A socket given up on (refused above, or replaced) says nothing more.
      if (this.socket !== socket) return
      this.socket = undefined
      if (this.stopped) return
      if (code === CLOSE_REVOKED || code === CLOSE_UNSUPPORTED) {
        return this.giveUp(`closed by the server (${code}): ${why.toString()}`)
      }
      this.log(`disconnected (${code}${why.length ? `: ${why.toString()}` : ''}); reconnecting`)
      this.retry()
    })
  }

  private retry() {
    if (this.stopped || this.reconnectTimer) return
    const { minMs, maxMs } = this.options.backoff ?? { minMs: 1000, maxMs: 30_000 }
    const wait = Math.min(maxMs, minMs * 2 ** this.failures++) * (0.8 + Math.random() * 0.4)
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined
      this.connect()
    }, wait)
  }

  private giveUp(reason: string) {
    this.log(reason)
    this.stopped = true
    for (const timer of this.timers) clearInterval(timer)
    clearTimeout(this.reconnectTimer)
    this.files.stop()
    this.status = 'CANCELLED'
    this.finished(new AgentStopped(reason))
  }

  private async hello(socket: WebSocket) {
    const machines = await this.inventory.report()
    if (this.socket !== socket) return
    this.send({
      type: 'hello',
      protocol: PROTOCOL_VERSION,
      version: this.options.version,
      hostname: hostname(),
      machines,
      sign: this.signer !== null,
    })
    // Outcomes the server may have missed while the link was down.
    this.runner.resend()
  }

  private async heartbeat() {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return
    this.send({ type: 'machines', machines: await this.inventory.report() })
  }

  private receive(message: ServerMessage) {
    switch (message.type) {
      case 'welcome':
        this.status = message.status
        this.log(`agent "${message.name}" (${message.agentId}): ${message.status}`)
        return
      case 'status':
        this.status = message.status
        return
      case 'jobs':
        this.runner.take(message.jobs)
        return
      case 'ack':
        this.runner.acknowledged(message.id)
        return
      case 'cancel':
        this.runner.cancel(message.id)
        return
      case 'sign':
        if (this.signer) this.signer.take(message)
        else this.send({ type: 'sign_failed', token: message.token, detail: 'this agent has no sign command' })
        return
      case 'files':
        this.files.take(message)
        return
      case 'watch':
        this.files.watch(message.roots)
        return
    }
  }

  private send(message: AgentMessage): boolean {
    const socket = this.socket
    if (!socket || socket.readyState !== WebSocket.OPEN) return false
    socket.send(JSON.stringify(message))
    return true
  }
}
