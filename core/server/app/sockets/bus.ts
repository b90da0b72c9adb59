import { Redis } from 'ioredis'
import { endRedis, requestRedisOptions, waitingRedisOptions, watchRedis, withTimeout } from '#jobs/redis_options'

/** How long start() waits for the subscription before going on without it. */
const SUBSCRIBE_WAIT_MS = 3000

interface BusLogger {
  warn(...a: unknown[]): void
  info(...a: unknown[]): void
  error(...a: unknown[]): void
}

/**
 * One channel that every app node hears: Redis pub/sub when configured, else this process alone (the
 * embedded default). The socket hubs publish through it so a message reaches the node holding its
 * connection; while Redis is away a message is delivered on this node only (not published, so no
 * node gets it twice).
 */
export class NodeBus {
  readonly driver: 'redis' | 'memory'
  private pub?: Redis
  private sub?: Redis

  constructor(
    private readonly options: { redisUrl?: string; channel: string; name: string; logger: BusLogger },
    private readonly deliver: (raw: string) => void
  ) {
    this.driver = options.redisUrl ? 'redis' : 'memory'
  }

  /** Connects (once). Redis being away does not stop the start: the subscription is remade when it answers. */
  async start(): Promise<void> {
    if (!this.options.redisUrl || this.pub) return
    const { logger, name, channel } = this.options
    this.pub = new Redis(this.options.redisUrl, requestRedisOptions)
    this.sub = new Redis(this.options.redisUrl, waitingRedisOptions)
    watchRedis(this.pub, `${name} (publish)`, logger)
    watchRedis(this.sub, `${name} (subscribe)`, logger)
    this.sub.on('message', (_channel, raw) => this.deliver(raw))
    try {
      await withTimeout(this.sub.subscribe(channel), SUBSCRIBE_WAIT_MS, `Subscribing to ${channel}`)
    } catch (error) {
      logger.warn(`${(error as Error).message}; messages from other nodes wait for Redis`)
    }
  }

  async publish(raw: string): Promise<void> {
    if (!this.pub) return this.deliver(raw)
    try {
      await this.pub.publish(this.options.channel, raw)
    } catch (error) {
      this.options.logger.warn(`${this.options.name}: delivered on this node only: ${(error as Error).message}`)
      this.deliver(raw)
    }
  }

  async health(): Promise<{ ok: boolean; driver: 'redis' | 'memory'; detail?: string }> {
    if (!this.pub) return { ok: true, driver: this.driver }
    try {
      await this.pub.ping()
      return { ok: this.sub?.status === 'ready', driver: 'redis' }
    } catch (error) {
      return { ok: false, driver: 'redis', detail: (error as Error).message }
    }
  }

  async close(): Promise<void> {
    await Promise.all([endRedis(this.pub), endRedis(this.sub)])
  }
}
