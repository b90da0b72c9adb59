export { createQueue } from './create_queue.js'
export { UnknownJobError } from './registry.js'
export { backoffDelay, DEFAULT_ATTEMPTS, DEFAULT_BACKOFF_MS } from './backoff.js'
export type {
  CreateQueueOptions,
  EnqueueOptions,
  JobContext,
  JobDefinition,
  JobOutcome,
  Queue,
  QueueHealth,
  QueueLogger,
} from './types.js'
