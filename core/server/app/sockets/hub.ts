import { randomBytes } from 'node:crypto'
import type { IncomingMessage, Server } from 'node:http'
import type { Duplex } from 'node:stream'
import { WebSocket, WebSocketServer } from 'ws'
import { NodeBus } from './bus.js'
import { originAllowed } from './origin.js'

/** A message as the spec carries it on /ws: `{case, data}`. */
export interface SocketMessage {
  case: string
  data: unknown
}

/** Who receives a published message: everyone, one user's connections, or one socket. */
export type Audience = { all: true } | { userId: number } | { socketId: string }

interface Envelope {
  to: Audience
  message: SocketMessage
}

interface Client {
  id: string
  /** null: an anonymous socket, which receives only what is addressed to its id. */
  userId: number | null
  ws: WebSocket
  idle?: NodeJS.Timeout
}

/** Sockets without a session (a public link's visitor waiting for fileReady), and their bounds. */
export interface AnonymousOptions {
  /** Anonymous sockets one address may hold open on this node at once. */
  maxPerIp: number
  /** An anonymous socket with nothing delivered to it for this long is closed. */
  idleMs: number
  /** Counts one connection attempt of this address (on every node's shared counter); false refuses it. */
  admit(ip: string): Promise<boolean>
}

export interface HubOptions {
  path?: string
  redisUrl?: string
  channel?: string
  allowedOrigins: string[]
  /** Resolves a session token to its user id, or null to refuse. */
  authenticate(token: string | null): Promise<number | null>
  /** Accepts connections without a token on these terms; without it they are refused (401). */
  anonymous?: AnonymousOptions
  /** The client's address as the HTTP side reads it (X-Forwarded-For only from trusted proxies). */
  clientIp?(req: IncomingMessage): string
  logger: { info(...a: unknown[]): void; warn(...a: unknown[]): void; error(...a: unknown[]): void }
}

/**
 * The WebSocket endpoint. Each node keeps only its own connections; publish() goes through Redis
 * pub/sub when Redis is configured so a message published on any node reaches clients on every node,
 * and is delivered locally otherwise (the embedded default). A connection without a token is an
 * anonymous socket (a public link's visitor): it gets an id like any other, receives only messages
 * addressed to that id, is bounded per address, and is closed when idle or when it sends anything.
 */
export class SocketHub {
  readonly driver: 'redis' | 'memory'
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 })
  private readonly clients = new Map<string, Client>()
  /** Open (and being admitted) anonymous sockets per client address. */
  private readonly anonymousByIp = new Map<string, number>()
  private readonly path: string
  private readonly bus: NodeBus
  private server?: Server

  constructor(private readonly options: HubOptions) {
    this.path = options.path ?? '/ws'
    const channel = options.channel ?? 'tramita:ws'
    this.bus = new NodeBus({ redisUrl: options.redisUrl, channel, name: 'Sockets', logger: options.logger }, (raw) =>
      this.deliverRaw(raw)
    )
    this.driver = this.bus.driver
  }

  /**
   * Connects to Redis (when configured; once). Redis being away does not stop
   * the start: the subscription is made (and remade after each outage) when Redis answers.
   */
  start(): Promise<void> {
    return this.bus.start()
  }

  /** Handles upgrades on the HTTP server for this hub's path (attaching twice to one server is a no-op). */
  attach(server: Server): void {
    if (this.server === server) return
    this.server?.off('upgrade', this.onUpgrade)
    this.server = server
    server.on('upgrade', this.onUpgrade)
  }

  private onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(req.url ?? '/', 'http://local')
    if (url.pathname !== this.path) return
    const refuse = (code: number, reason: string) => {
      socket.end(`HTTP/1.1 ${code} ${reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`)
    }
    if (!originAllowed(req.headers.origin, req.headers.host, this.options.allowedOrigins)) {
      return refuse(403, 'Forbidden')
    }
    // Browsers cannot set headers on a WebSocket, so the token may come in the query string.
    const header = req.headers.token
    const token = (Array.isArray(header) ? header[0] : header) ?? url.searchParams.get('token')
    if (!token) return this.upgradeAnonymous(req, socket, head, refuse)
    this.options
      .authenticate(token)
      .then((userId) => {
        if (userId === null) return refuse(401, 'Unauthorized')
        this.wss.handleUpgrade(req, socket, head, (ws) => this.onConnection(ws, userId))
      })
      .catch((error) => {
        this.options.logger.error({ err: error }, 'socket authentication failed')
        refuse(503, 'Service Unavailable')
      })
  }

  /**
   * A connection without a token: within the address's cap of open anonymous sockets on this node
   * and its rate of attempts (counted across nodes), else 429.
   */
  private upgradeAnonymous(
    req: IncomingMessage,
    socket: Duplex,
    head: Buffer,
    refuse: (code: number, reason: string) => void
  ) {
    const anonymous = this.options.anonymous
    if (!anonymous) return refuse(401, 'Unauthorized')
    const ip = this.options.clientIp?.(req) ?? req.socket.remoteAddress ?? ''
    const open = this.anonymousByIp.get(ip) ?? 0
    if (open >= anonymous.maxPerIp) return refuse(429, 'Too Many Requests')
    // Held from now until the connection ends, so attempts admitted side by side cannot pass the cap.
    this.anonymousByIp.set(ip, open + 1)
    let held = true
    const release = () => {
      if (!held) return
      held = false
      const left = (this.anonymousByIp.get(ip) ?? 1) - 1
      if (left > 0) this.anonymousByIp.set(ip, left)
      else this.anonymousByIp.delete(ip)
    }
    socket.once('close', release)
    anonymous
      .admit(ip)
      .then((admitted) => {
        if (!admitted) {
          release()
          return refuse(429, 'Too Many Requests')
        }
        if (socket.destroyed) return release()
        this.wss.handleUpgrade(req, socket, head, (ws) => this.onConnection(ws, null, release))
      })
      .catch((error) => {
        release()
        this.options.logger.error({ err: error }, 'anonymous socket admission failed')
        refuse(503, 'Service Unavailable')
      })
  }

  private onConnection(ws: WebSocket, userId: number | null, release?: () => void) {
    const id = randomBytes(16).toString('base64url')
    const client: Client = { id, userId, ws }
    this.clients.set(id, client)
    const gone = () => {
      clearTimeout(client.idle)
      this.clients.delete(id)
      release?.()
    }
    ws.on('close', gone)
    ws.on('error', gone)
    if (userId === null) {
      // An anonymous socket only listens: sending anything ends it. (ws answers pings by itself.)
      ws.on('message', () => ws.close(1008, 'anonymous sockets only listen'))
      this.keepAlive(client)
    } else {
      // Clients send nothing the server acts on yet; anything sent is ignored rather than trusted.
      ws.on('message', () => {})
    }
    // The spec's client stores the token of an `init` message: it is this socket's id, used by calls
    // that answer through the socket (public file links, scans, prints).
    this.send(ws, { case: 'init', data: { token: id } })
  }

  /** (Re)starts an anonymous socket's idle timer: closed after idleMs with nothing delivered to it. */
  private keepAlive(client: Client) {
    const idleMs = this.options.anonymous?.idleMs
    if (client.userId !== null || !idleMs) return
    clearTimeout(client.idle)
    client.idle = setTimeout(() => client.ws.close(1000, 'idle'), idleMs)
    client.idle.unref()
  }

  /**
   * Sends a message to an audience on every node. While Redis is away it reaches this node's
   * clients only (the message was not published, so none gets it twice).
   */
  publish(to: Audience, message: SocketMessage): Promise<void> {
    return this.bus.publish(JSON.stringify({ to, message } satisfies Envelope))
  }

  private deliverRaw(raw: string) {
    let envelope: Envelope
    try {
      envelope = JSON.parse(raw) as Envelope
    } catch {
      return
    }
    const to = envelope?.to
    if (typeof to !== 'object' || to === null) return
    if ('socketId' in to) {
      // The one socket of that id, on whichever node holds it (anonymous ones included).
      const client = typeof to.socketId === 'string' ? this.clients.get(to.socketId) : undefined
      if (client) this.deliver(client, envelope.message)
      return
    }
    for (const client of this.clients.values()) {
      // Anonymous sockets never get broadcasts nor any user's messages.
      if (client.userId === null) continue
      const match = ('all' in to && to.all === true) || ('userId' in to && to.userId === client.userId)
      if (match) this.deliver(client, envelope.message)
    }
  }

  private deliver(client: Client, message: SocketMessage) {
    this.send(client.ws, message)
    this.keepAlive(client)
  }

  private send(ws: WebSocket, message: SocketMessage) {
    if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message))
  }

  get connections(): number {
    return this.clients.size
  }

  health(): Promise<{ ok: boolean; driver: 'redis' | 'memory'; detail?: string }> {
    return this.bus.health()
  }

  /**
   * Takes no new clients and closes the open ones. An upgraded socket counts as a connection of the
   * HTTP server, whose close() waits for every one: a served node calls this before closing it.
   */
  disconnectClients(): void {
    this.server?.off('upgrade', this.onUpgrade)
    for (const client of this.clients.values()) {
      clearTimeout(client.idle)
      client.ws.close(1001, 'server shutting down')
    }
    this.clients.clear()
  }

  async close(): Promise<void> {
    this.disconnectClients()
    this.wss.close()
    await this.bus.close()
  }
}
