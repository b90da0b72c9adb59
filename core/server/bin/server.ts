import { prettyPrintError } from '@adonisjs/core'
import { createIgnitor } from './ignite.js'

/** Starts the HTTP server (used by `tramita serve` and directly by tests that spawn nodes). */
export async function startHttpServer() {
  await createIgnitor().httpServer().start()
}

if (import.meta.url === `file://${process.argv[1]}`) {
  startHttpServer().catch((error) => {
    process.exitCode = 1
    prettyPrintError(error)
  })
}
