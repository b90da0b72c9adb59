import { randomBytes } from 'node:crypto'
// A job's simulated work in the contract tests (how long a handler runs), never a wait for something.
// eslint-disable-next-line no-restricted-syntax -- see above
import { setTimeout as sleep } from 'node:timers/promises'
import { Redis } from 'ioredis'
import { createQueue } from '../../app/jobs/create_queue.js'
import type { Queue, QueueLogger } from '../../app/jobs/types.js'

export { sleep }

export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'

export type Driver = 'memory' | 'redis'

/** A Redis key prefix of its own for each test, so runs never see each other's jobs. */
export function uniquePrefix(): string {
  return `tramita-test-${randomBytes(6).toString('hex')}`
}

/** Keeps the log quiet (failures are expected in these tests) but inspectable. */
export function quietLogger(): QueueLogger & { lines: string[] } {
  const lines: string[] = []
  const keep = (...args: unknown[]) => void lines.push(args.map(String).join(' '))
  return { lines, info: keep, warn: keep, error: keep }
}

export function openQueue(driver: Driver, prefix: string, extra: { stalledIntervalMs?: number } = {}): Promise<Queue> {
  return createQueue({
    redisUrl: driver === 'redis' ? REDIS_URL : undefined,
    prefix,
    logger: quietLogger(),
    ...extra,
  })
}

/** Deletes every Redis key under the prefix. */
export async function removeKeys(prefix: string): Promise<void> {
  const redis = new Redis(REDIS_URL)
  try {
    let cursor = '0'
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500)
      cursor = next
      if (keys.length > 0) await redis.del(...keys)
    } while (cursor !== '0')
  } finally {
    redis.disconnect()
  }
}

export function deferred<T = void>(): { promise: Promise<T>; resolve(value: T): void } {
  let resolve!: (value: T) => void
  const promise = new Promise<T>((r) => (resolve = r))
  return { promise, resolve }
}
