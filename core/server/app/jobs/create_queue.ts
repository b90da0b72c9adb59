import { BullMqQueue } from './bullmq_queue.js'
import { InProcessQueue } from './in_process_queue.js'
import type { CreateQueueOptions, Queue, QueueLogger } from './types.js'

const consoleLogger: QueueLogger = {
  info: (...args) => console.info(...args),
  warn: (...args) => console.warn(...args),
  error: (...args) => console.error(...args),
}

/** BullMQ on Redis when `redisUrl` is given (REDIS_URL), the in-process runner otherwise. */
export function createQueue(opts: CreateQueueOptions = {}): Queue {
  const logger = opts.logger ?? consoleLogger
  if (opts.redisUrl) {
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
