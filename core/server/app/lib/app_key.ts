import { randomBytes } from 'node:crypto'
import { existsSync, linkSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dataPath } from './paths.js'

/**
 * APP_KEY signs and encrypts. Production sets it; the embedded default generates one on first start
 * and keeps it in the data dir (mode 0600) so restarts keep sessions and encrypted values readable.
 * Processes starting side by side (`serve --workers N`) must agree on one key: each writes its own
 * to a file of its own and links it into place, which only the first can do; all then read the winner.
 * (Nodes on several hosts share no data dir: production sets APP_KEY on every one.)
 */
export function ensureAppKey(): void {
  if (process.env.APP_KEY) return
  const file = dataPath('app.key')
  if (!existsSync(file)) {
    const mine = `${file}.${process.pid}`
    writeFileSync(mine, randomBytes(32).toString('base64url'), { mode: 0o600 })
    try {
      linkSync(mine, file)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    } finally {
      rmSync(mine, { force: true })
    }
  }
  process.env.APP_KEY = readFileSync(file, 'utf8').trim()
}
