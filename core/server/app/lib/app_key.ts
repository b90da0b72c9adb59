import { randomBytes } from 'node:crypto'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { dataPath } from './paths.js'

/**
 * APP_KEY signs and encrypts. Production sets it; the embedded default generates one on first start
 * and keeps it in the data dir (mode 0600) so restarts keep sessions and encrypted values readable.
 */
export function ensureAppKey(): void {
  if (process.env.APP_KEY) return
  const file = dataPath('app.key')
  if (!existsSync(file)) {
    writeFileSync(file, randomBytes(32).toString('base64url'), { mode: 0o600 })
  }
  process.env.APP_KEY = readFileSync(file, 'utf8').trim()
}
