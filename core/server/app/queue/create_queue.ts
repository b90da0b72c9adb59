import { MemoryQueue } from './memory_queue.js'
import { RedisQueue, type RedisQueueOptions } from './bullmq_queue.js'
import type { Queue, QueueLogger } from './types.js'

/** BullMQ on Redis when a URL is given, the in-process runner otherwise. */
export function createQueue(opts: Partial<RedisQueueOptions> & { logger?: QueueLogger }): Queue {
  return opts.redisUrl ? new RedisQueue(opts as RedisQueueOptions) : new MemoryQueue(opts.logger)
}
