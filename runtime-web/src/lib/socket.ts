/**
 * The signed-in browser's socket (spec 000 §7): path /ws, messages `{case, data}`. The server's hub
 * (core/server/app/sockets/hub.ts) takes the session token in the query string, since a browser
 * cannot set headers on a WebSocket, and greets each socket with `init` (its id, for calls that
 * answer through the socket). The client reconnects with exponential backoff until closed, and code
 * subscribes by `case`. Loaded lazily by the session bar after sign-in, never by a page's first load;
 * the form's actions reach the same client through shareSocket / waitForMessage.
 */

export type SocketListener = (data: unknown) => void

/** The part of the browser's WebSocket this client uses (a fake stands in for it in tests). */
export interface SocketLike {
  onopen: ((event: unknown) => void) | null
  onmessage: ((event: { data: unknown }) => void) | null
  onclose: ((event: unknown) => void) | null
  onerror: ((event: unknown) => void) | null
  close(code?: number, reason?: string): void
}

export interface SocketOptions {
  create?: (url: string) => SocketLike
  /** First retry after this long; doubled on each failure up to maxDelayMs. */
  firstDelayMs?: number
  maxDelayMs?: number
  setTimeout?: (fn: () => void, ms: number) => unknown
  clearTimeout?: (handle: unknown) => void
}

export interface SocketClient {
  /** Calls `listener` with the data of every message of this case; returns the unsubscribe. */
  on(kase: string, listener: SocketListener): () => void
  /** This socket's id from the server's `init` (null until it arrives). */
  readonly socketId: string | null
  /** Closes the socket for good: no reconnect. */
  close(): void
}

export const FIRST_DELAY_MS = 1000
export const MAX_DELAY_MS = 30_000

/** The wait before reconnect attempt `attempt` (0 = first retry). */
export function backoffDelay(attempt: number, first = FIRST_DELAY_MS, max = MAX_DELAY_MS): number {
  return Math.min(max, first * 2 ** Math.min(attempt, 20))
}

/** ws:// or wss:// to /ws on this site, with the session token. */
export function socketUrl(location: { protocol: string; host: string }, token: string): string {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws'
  return `${scheme}://${location.host}/ws?token=${encodeURIComponent(token)}`
}

export function openSocket(url: string, options: SocketOptions = {}): SocketClient {
  const create = options.create ?? ((u: string) => new WebSocket(u) as unknown as SocketLike)
  const wait = options.setTimeout ?? ((fn: () => void, ms: number) => globalThis.setTimeout(fn, ms))
  const unwait = options.clearTimeout ?? ((h: unknown) => globalThis.clearTimeout(h as number))
  const listeners = new Map<string, Set<SocketListener>>()
  let ws: SocketLike | null = null
  let socketId: string | null = null
  let attempt = 0
  let timer: unknown = null
  let closed = false

  const deliver = (raw: unknown) => {
    let message: { case?: unknown; data?: unknown }
    try {
      message = JSON.parse(String(raw)) as { case?: unknown; data?: unknown }
    } catch {
      return
    }
    if (typeof message !== 'object' || message === null || typeof message.case !== 'string') return
    if (message.case === 'init') {
      const token = (message.data as { token?: unknown } | null)?.token
      socketId = typeof token === 'string' ? token : null
    }
    for (const listener of [...(listeners.get(message.case) ?? [])]) {
      try {
        listener(message.data)
      } catch (error) {
        console.warn(`socket listener for "${message.case}" failed`, error)
      }
    }
  }

  const connect = () => {
    timer = null
    if (closed) return
    const socket = create(url)
    ws = socket
    socket.onopen = () => {
      attempt = 0
    }
    socket.onmessage = (event) => deliver(event.data)
    socket.onerror = () => undefined
    socket.onclose = () => {
      if (ws !== socket) return
      ws = null
      socketId = null
      if (closed) return
      timer = wait(connect, backoffDelay(attempt, options.firstDelayMs, options.maxDelayMs))
      attempt++
    }
  }
  connect()

  return {
    on(kase, listener) {
      let set = listeners.get(kase)
      if (!set) listeners.set(kase, (set = new Set()))
      set.add(listener)
      return () => void set.delete(listener)
    },
    get socketId() {
      return socketId
    },
    close() {
      closed = true
      if (timer !== null) unwait(timer)
      timer = null
      const socket = ws
      ws = null
      socket?.close(1000, 'signed out')
    },
  }
}

// ── the page's socket, shared ──────────────────────────────────────────────────────────────────────

/**
 * The signed-in page's client, shared by the session bar (components/SessionGuard.tsx) once it opens
 * it, so other lazy code (the form's actions) listens on the same socket. Both import this module
 * lazily: it stays one chunk of its own, out of every page's first load.
 */
const shared = { client: null as SocketClient | null, watchers: new Set<(client: SocketClient) => void>() }

/** Makes `client` the page's socket (waiting listeners move to it); returns the way to stop sharing it. */
export function shareSocket(client: SocketClient): () => void {
  shared.client = client
  for (const watch of [...shared.watchers]) watch(client)
  return () => {
    if (shared.client === client) shared.client = null
  }
}

/** No message came in time: the socket was down, or the server had nothing to say. */
export class SocketWaitTimeout extends Error {
  constructor(
    readonly kase: string,
    readonly ms: number
  ) {
    super(`no "${kase}" message within ${Math.round(ms / 1000)} s`)
    this.name = 'SocketWaitTimeout'
  }
}

export interface WaitTimers {
  setTimeout(fn: () => void, ms: number): unknown
  clearTimeout(handle: unknown): void
}

const PAGE_TIMERS: WaitTimers = {
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as number),
}

/**
 * The first message of `kase` on the page's socket whose data `match` accepts (a match that throws
 * does not). Listens on the shared client, and on the next one if the session bar opens another (or
 * opens it only later); rejects with SocketWaitTimeout after `timeoutMs`, or with the signal's reason.
 */
export function waitForMessage(
  kase: string,
  match: (data: unknown) => boolean,
  timeoutMs: number,
  signal?: AbortSignal,
  timers: WaitTimers = PAGE_TIMERS
): Promise<unknown> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason)
    const stops: (() => void)[] = []
    const finish = () => {
      timers.clearTimeout(timer)
      shared.watchers.delete(attach)
      signal?.removeEventListener('abort', aborted)
      for (const stop of stops) stop()
    }
    const attach = (client: SocketClient) => {
      stops.push(
        client.on(kase, (data) => {
          let matched: boolean
          try {
            matched = match(data)
          } catch {
            matched = false
          }
          if (!matched) return
          finish()
          resolve(data)
        })
      )
    }
    const aborted = () => {
      finish()
      reject(signal?.reason)
    }
    const timer = timers.setTimeout(() => {
      finish()
      reject(new SocketWaitTimeout(kase, timeoutMs))
    }, timeoutMs)
    signal?.addEventListener('abort', aborted, { once: true })
    shared.watchers.add(attach)
    if (shared.client) attach(shared.client)
  })
}

/**
 * The push_notify action's message from the case's other people: a browser notification when the
 * user has allowed them (a socket message cannot ask: that needs a click), and a toast either way.
 */
export function showPushNotices(
  client: SocketClient,
  show: { toast(text: string): void; notification?: (title: string, body: string) => void }
): () => void {
  const notification = show.notification ?? browserNotification
  return client.on('push_notify', (data) => {
    const { title, message } = (data ?? {}) as { title?: unknown; message?: unknown }
    const head = typeof title === 'string' ? title : ''
    const body = typeof message === 'string' ? message : ''
    if (head === '' && body === '') return
    notification(head, body)
    show.toast(body === '' ? head : head === '' ? body : `${head}: ${body}`)
  })
}

function browserNotification(title: string, body: string) {
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return
  try {
    void new Notification(title, { body })
  } catch {
    // Some browsers allow notifications only from a service worker; the toast still shows.
  }
}
