import { InProcessQueue } from './in_process_queue.js'
import type { CreateQueueOptions, Queue, QueueLogger } from './types.js'

const consoleLogger: QueueLogger = {
  info: (...args) => console.info(...args),
  warn: (...args) => console.warn(...args),
  error: (...args) => console.error(...args),
}

/**
 * BullMQ on Redis when `redisUrl` is given (REDIS_URL), the in-process runner otherwise. BullMQ is
 * loaded only then: it is 170 modules that an embedded install or a CLI command without Redis never uses.
 */
export async function createQueue(opts: CreateQueueOptions = {}): Promise<Queue> {
  const logger = opts.logger ?? consoleLogger
  if (opts.redisUrl) {
    const { BullMqQueue } = await import('./bullmq_queue.js')
    return new BullMqQueue({
      redisUrl: opts.redisUrl,
      prefix: opts.prefix,
      logger,
      stalledIntervalMs: opts.stalledIntervalMs,
      lockDurationMs: opts.lockDurationMs,
    })
  }
  return new InProcessQueue(logger)
}
