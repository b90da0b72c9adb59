import RedisProvider from '@adonisjs/redis/redis_provider'
import { endRedis } from '#jobs/redis_options'

/**
 * @adonisjs/redis's provider, but its shutdown does not wait on an absent Redis: its quitAll() sends
 * QUIT to connections that are retrying, which ioredis rejects (the process then exits with an error),
 * so each connection is ended by endRedis() instead: QUIT while up, dropped otherwise.
 */
export default class BoundedRedisProvider extends RedisProvider {
  async shutdown() {
    const redis = await this.app.container.make('redis')
    const connections = Object.values(redis.activeConnections).filter((c) => c !== undefined)
    await Promise.all(connections.flatMap((c) => [endRedis(c.ioConnection), endRedis(c.ioSubscriberConnection)]))
  }
}
