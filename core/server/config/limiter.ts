import env from '#start/env'
import { defineConfig, stores } from '@adonisjs/limiter'

/**
 * Sign-in counters and rate limits live where every node sees them: Redis when REDIS_URL is set,
 * the database's `rate_limits` table otherwise. Nothing is kept only in one process's memory.
 */
const limiterConfig = defineConfig({
  default: env.get('REDIS_URL') ? 'redis' : 'database',
  stores: {
    redis: stores.redis({ connectionName: 'main' }),
    database: stores.database({ tableName: 'rate_limits' }),
    memory: stores.memory({}),
  },
})

export default limiterConfig

declare module '@adonisjs/limiter/types' {
  export interface LimitersList extends InferLimiters<typeof limiterConfig> {}
}
