/**
 * ioredis settings that keep a Redis outage from holding requests or killing the process. A request
 * connection fails a command at once while Redis is away (no offline queue, one retry, a command
 * timeout); every connection reconnects every 2 s at most, so service comes back with Redis.
 */
const CONNECT_TIMEOUT_MS = 3000
const COMMAND_TIMEOUT_MS = 3000

const reconnect = (times: number) => Math.min(times * 200, 2000)

/** For connections that serve requests (enqueue, publish, limiter counters). */
export const requestRedisOptions = {
  connectTimeout: CONNECT_TIMEOUT_MS,
  commandTimeout: COMMAND_TIMEOUT_MS,
  maxRetriesPerRequest: 1,
  enableOfflineQueue: false,
  retryStrategy: reconnect,
}

/** For blocking or subscribing connections (workers, job events, pub/sub): they wait for Redis instead. */
export const waitingRedisOptions = {
  connectTimeout: CONNECT_TIMEOUT_MS,
  maxRetriesPerRequest: null,
  retryStrategy: reconnect,
}

/** While Redis stays away, its error is logged again at most this often. */
const REPEAT_LOG_MS = 60_000

interface Watched {
  on(event: 'error', listener: (error: Error) => void): unknown
  on(event: 'ready', listener: () => void): unknown
}

/**
 * Logs a connection's outage on its first error (again each minute it lasts) and its return, instead
 * of every reconnect attempt; the listener also keeps ioredis from reporting the error as unhandled.
 */
export function watchRedis(
  client: Watched,
  what: string,
  logger: { warn(...a: unknown[]): void; info(...a: unknown[]): void }
): void {
  let down = false
  let loggedAt = 0
  client.on('error', (error: Error) => {
    const wasDown = down
    down = true
    if (wasDown && Date.now() - loggedAt < REPEAT_LOG_MS) return
    loggedAt = Date.now()
    logger.warn(`${what} (Redis): ${error.message}`)
  })
  client.on('ready', () => {
    if (!down) return
    down = false
    logger.info(`${what}: Redis reachable again`)
  })
}

interface Closable {
  status: string
  quit(): Promise<unknown>
  disconnect(): void
}

/**
 * Ends a connection without waiting on an absent Redis: QUIT (bounded) only while it is up, else a
 * plain disconnect. ioredis rejects QUIT at once on a connection that is retrying, and a QUIT sent just
 * before Redis went away could wait for ever.
 */
export async function endRedis(client: Closable | undefined, ms = COMMAND_TIMEOUT_MS): Promise<void> {
  if (!client || client.status === 'end') return
  if (client.status === 'ready') {
    const quit = await withTimeout(client.quit(), ms, 'Redis QUIT').then(
      () => true,
      () => false
    )
    if (quit) return
  }
  client.disconnect()
}

export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms)
  })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}
