import type { IncomingMessage, Server } from 'node:http'
import type { Duplex } from 'node:stream'
import { WebSocket, WebSocketServer } from 'ws'
import type { PluginPeerEndpoint } from '@tramita/plugin-api'
import { NodeBus } from './bus.js'

/** A program's message is JSON of at most this size (an agent's machine list fits many times over). */
const MAX_PAYLOAD = 256 * 1024
/** Pinged this often; a peer that has not answered the previous ping by then is dropped. */
const KEEP_ALIVE_MS = 25_000
/** How long a node's stop waits for its peers' closes to be handled. */
const CLOSE_WAIT_MS = 3000

interface Peer {
  id: string
  ws: WebSocket
  endpoint: PluginPeerEndpoint
  alive: boolean
  /** Messages are handled one after another, in the order they came. */
  queue: Promise<void>
  /** Settles once the plugin has heard of the close. */
  ended: Promise<void>
}

/** What goes over the bus: a message for a peer, or the order to close it, for the node holding it. */
type Envelope = { peer: string; message: unknown } | { peer: string; close: { code: number; reason: string } }

export interface PeerHubOptions {
  redisUrl?: string
  channel: string
  logger: { info(...a: unknown[]): void; warn(...a: unknown[]): void; error(...a: unknown[]): void }
  /** Is the plugin still enabled (a plugin that failed to boot keeps no endpoint)? */
  live(pluginId: string): boolean
  /** Counts one connection attempt of this address (shared by every node); false refuses it. */
  admitAddress(ip: string): Promise<boolean>
  clientIp?(req: IncomingMessage): string
  keepAliveMs?: number
}

/**
 * Plugins' program endpoints (plugin-api PluginPeers: a device agent's WebSocket). Each node holds the
 * connections that reached it; send and disconnect go over the bus, so they reach a peer whichever node
 * it is on. The token comes in a header only (a browser cannot set one on a WebSocket, so a page of
 * another site cannot open one with a visitor's cookies), and the plugin admits or refuses it.
 */
export class PeerHub {
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: MAX_PAYLOAD })
  private readonly endpoints = new Map<string, { pluginId: string; endpoint: PluginPeerEndpoint }>()
  private readonly peers = new Map<string, Peer>()
  private readonly bus: NodeBus
  private server?: Server
  private timer?: NodeJS.Timeout
  private closing?: Promise<void>

  constructor(private readonly options: PeerHubOptions) {
    this.bus = new NodeBus(
      { redisUrl: options.redisUrl, channel: options.channel, name: 'Program sockets', logger: options.logger },
      (raw) => this.deliverRaw(raw)
    )
  }

  /** Declares a plugin's endpoint at its full path (checked by the caller to be the plugin's). */
  declare(pluginId: string, path: string, endpoint: PluginPeerEndpoint): void {
    const taken = this.endpoints.get(path)
    if (taken) throw new Error(`plugin "${pluginId}": socket ${path} is already declared by "${taken.pluginId}"`)
    this.endpoints.set(path, { pluginId, endpoint })
  }

  get declared(): number {
    return this.endpoints.size
  }

  start(): Promise<void> {
    return this.bus.start()
  }

  attach(server: Server): void {
    if (this.server === server) return
    this.server?.off('upgrade', this.onUpgrade)
    this.server = server
    server.on('upgrade', this.onUpgrade)
    clearInterval(this.timer)
    this.timer = setInterval(() => this.keepAlive(), this.options.keepAliveMs ?? KEEP_ALIVE_MS)
    this.timer.unref()
  }

  private onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = new URL(req.url ?? '/', 'http://local').pathname
    const declared = this.endpoints.get(path)
    if (!declared) return
    const refuse = (code: number, reason: string) => {
      const body = Buffer.from(reason)
      socket.end(
        `HTTP/1.1 ${code} ${refusalText(code)}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\n` +
          `Content-Length: ${body.length}\r\n\r\n${reason}`
      )
    }
    if (!this.options.live(declared.pluginId)) return refuse(404, 'not found')
    const header = req.headers.token
    const token = Array.isArray(header) ? header[0] : header
    if (!token) return refuse(401, 'a token header is required')
    const ip = this.options.clientIp?.(req) ?? req.socket.remoteAddress ?? ''
    this.options
      .admitAddress(ip)
      .then(async (admitted) => {
        if (!admitted) return refuse(429, 'too many connection attempts')
        const header = (name: string) => {
          const value = req.headers[name.toLowerCase()]
          return Array.isArray(value) ? value[0] : value
        }
        const answer = await declared.endpoint.admit(token, ip, header)
        if ('refuse' in answer) return refuse(answer.refuse, answer.reason)
        if (socket.destroyed) return void (await declared.endpoint.closed?.(answer.peerId))
        this.wss.handleUpgrade(req, socket, head, (ws) => this.onConnection(ws, answer.peerId, declared.endpoint))
      })
      .catch((error) => {
        this.options.logger.error({ err: error }, 'program socket admission failed')
        refuse(503, 'try again later')
      })
  }

  private onConnection(ws: WebSocket, id: string, endpoint: PluginPeerEndpoint) {
    let settle!: () => void
    const ended = new Promise<void>((resolve) => (settle = resolve))
    const peer: Peer = { id, ws, endpoint, alive: true, queue: Promise.resolve(), ended }
    // A newer connection of the same peer id replaces the older one on this node.
    this.peers.get(id)?.ws.terminate()
    this.peers.set(id, peer)
    let gone = false
    const end = () => {
      if (gone) return
      gone = true
      if (this.peers.get(id) === peer) this.peers.delete(id)
      // After what it sent has been handled, so a result is never read after its sender's close.
      peer.queue = peer.queue
        .then(() => endpoint.closed?.(id))
        .catch((error) => this.options.logger.error({ err: error }, 'program socket close failed'))
        .finally(settle)
    }
    ws.on('close', end)
    ws.on('error', end)
    ws.on('pong', () => (peer.alive = true))
    ws.on('message', (data, isBinary) => {
      let message: unknown
      try {
        if (isBinary) throw new Error('binary')
        message = JSON.parse(data.toString())
      } catch {
        return ws.close(1003, 'messages are JSON text')
      }
      peer.queue = peer.queue.then(() =>
        endpoint.received(id, message).catch((error) => {
          this.options.logger.warn(`program socket message refused: ${(error as Error).message}`)
          ws.close(1008, String((error as Error).message).slice(0, 120))
        })
      )
    })
    peer.queue = peer.queue.then(() =>
      (endpoint.opened?.(id) ?? Promise.resolve()).catch((error) => {
        this.options.logger.error({ err: error }, 'program socket open failed')
        ws.close(1011, 'try again later')
      })
    )
  }

  /** Drops the peers that did not answer the last ping (a dead link sends no close), pings the others. */
  private keepAlive() {
    for (const peer of this.peers.values()) {
      if (!peer.alive) {
        peer.ws.terminate()
        continue
      }
      peer.alive = false
      peer.ws.ping()
    }
  }

  send(peerId: string, message: unknown): Promise<void> {
    return this.bus.publish(JSON.stringify({ peer: peerId, message } satisfies Envelope))
  }

  disconnect(peerId: string, code: number, reason: string): Promise<void> {
    if (!(Number.isInteger(code) && code >= 4000 && code <= 4999)) throw new Error('close codes are 4000-4999')
    return this.bus.publish(JSON.stringify({ peer: peerId, close: { code, reason: reason.slice(0, 120) } }))
  }

  private deliverRaw(raw: string) {
    let envelope: Envelope
    try {
      envelope = JSON.parse(raw) as Envelope
    } catch {
      return
    }
    const peer = typeof envelope?.peer === 'string' ? this.peers.get(envelope.peer) : undefined
    if (!peer) return
    if ('close' in envelope) return peer.ws.close(envelope.close.code, envelope.close.reason)
    if (peer.ws.readyState === WebSocket.OPEN) peer.ws.send(JSON.stringify(envelope.message))
  }

  get connections(): number {
    return this.peers.size
  }

  /** Closes every program's connection and the bus; a second call waits for the first. */
  close(): Promise<void> {
    this.closing ??= this.closeOnce()
    return this.closing
  }

  private async closeOnce(): Promise<void> {
    clearInterval(this.timer)
    this.server?.off('upgrade', this.onUpgrade)
    const open = [...this.peers.values()]
    for (const peer of open) peer.ws.close(1001, 'server shutting down')
    // The plugins hear of each close (before their own shutdown), within a bound.
    const bound = new Promise((resolve) => setTimeout(resolve, CLOSE_WAIT_MS).unref())
    await Promise.race([Promise.all(open.map((peer) => peer.ended)), bound])
    this.peers.clear()
    this.wss.close()
    await this.bus.close()
  }
}

function refusalText(code: number): string {
  const texts: Record<number, string> = {
    401: 'Unauthorized',
    403: 'Forbidden',
    404: 'Not Found',
    409: 'Conflict',
    426: 'Upgrade Required',
    429: 'Too Many Requests',
    503: 'Service Unavailable',
  }
  return texts[code] ?? 'Refused'
}
