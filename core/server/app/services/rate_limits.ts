import limiter from '@adonisjs/limiter/services/main'
import type { LimiterResponse } from '@adonisjs/limiter'
import redis from '@adonisjs/redis/services/main'
import logger from '@adonisjs/core/services/logger'
import env from '#start/env'
import { watchRedis } from '#jobs/redis_options'

/**
 * The counters of sign-in defences and rate limits. With REDIS_URL they live in Redis; while Redis
 * cannot be reached they fall back to the database's `rate_limits` table (counts start afresh there,
 * and go back to Redis's when it returns), so sign-in keeps answering through an outage.
 */

export interface RateLimitOptions {
  requests: number
  duration: string
}

type Store = 'redis' | 'database'

/** Redis when configured and its connection is up now; the database otherwise. */
export function rateLimitStore(): Store {
  if (!env.get('REDIS_URL')) return 'database'
  return redis.connection('main').status === 'ready' ? 'redis' : 'database'
}

/** Opens the Redis connection at start, so the first request already finds it ready; logs outages once. */
export function connectRateLimitStore(): void {
  if (!env.get('REDIS_URL')) return
  redis.doNotLogErrors()
  watchRedis(redis.connection('main').ioConnection, 'Rate limits', logger)
}

let warnedAt = 0

async function run<T>(options: RateLimitOptions, call: (store: ReturnType<typeof limiter.use>) => Promise<T>) {
  // use() parses the duration in place: each call gets its own copy.
  if (rateLimitStore() === 'redis') {
    try {
      return await call(limiter.use('redis', { ...options }))
    } catch (error) {
      if (!(error instanceof Error)) throw error
      if (Date.now() - warnedAt > 60_000) {
        warnedAt = Date.now()
        logger.warn(`rate limits: Redis failed (${error.message}); counting in the database meanwhile`)
      }
    }
  }
  return call(limiter.use('database', { ...options }))
}

/** The limiter calls this codebase uses, each on the store rateLimitStore() picks. */
export function rateLimit(options: RateLimitOptions) {
  return {
    get: (key: string): Promise<LimiterResponse | null> => run(options, (store) => store.get(key)),
    increment: (key: string, amount?: number): Promise<LimiterResponse> =>
      run(options, (store) => store.increment(key, amount)),
    delete: (key: string): Promise<boolean> => run(options, (store) => store.delete(key)),
  }
}
