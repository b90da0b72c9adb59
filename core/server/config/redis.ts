import env from '#start/env'
import { defineConfig } from '@adonisjs/redis'
import { requestRedisOptions } from '#jobs/redis_options'

/**
 * The Redis connection the limiter's store uses when REDIS_URL is set. It is opened at start only
 * with REDIS_URL (without it the limiter keeps its counters in the database), and fails commands at
 * once while Redis is away, so the limiter falls back to the database (services/rate_limits.ts).
 */
function fromUrl(value: string | undefined) {
  const url = new URL(value ?? 'redis://127.0.0.1:6379')
  return {
    host: url.hostname,
    port: Number(url.port || 6379),
    username: url.username ? decodeURIComponent(url.username) : undefined,
    password: url.password ? decodeURIComponent(url.password) : undefined,
    db: url.pathname.length > 1 ? Number(url.pathname.slice(1)) : 0,
    tls: url.protocol === 'rediss:' ? {} : undefined,
    keyPrefix: `${env.get('QUEUE_PREFIX', 'tramita')}:`,
    ...requestRedisOptions,
  }
}

const redisConfig = defineConfig({
  connection: 'main',
  connections: { main: fromUrl(env.get('REDIS_URL')) },
})

export default redisConfig

declare module '@adonisjs/redis/types' {
  export interface RedisConnections extends InferConnections<typeof redisConfig> {}
}
