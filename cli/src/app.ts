import type { ApplicationService } from '@adonisjs/core/types'
import { createIgnitor } from '@tramita/server/bin/ignite.ts'

/**
 * Boots the server application in console mode (config, database, plugins; no HTTP listener), runs
 * `fn`, then terminates it so connections close and the process can exit.
 */
export async function withApp<T>(fn: (app: ApplicationService) => Promise<T>): Promise<T> {
  const app = createIgnitor().createApp('console')
  await app.init()
  await app.boot()
  await app.start(async () => {})
  try {
    return await fn(app)
  } finally {
    await app.terminate()
  }
}
