import User from '#models/user'
import { prehash, verifyPassword } from '#lib/password'
import { DEFAULT_DEMO_PASSWORD, DEMO_USERNAMES } from '#services/seed_service'

/** Where `serve` listens unless HOST (or --host) says otherwise: this machine only. */
export const DEFAULT_HOST = '127.0.0.1'

/** True for addresses only this machine reaches (127.0.0.0/8, ::1, localhost). */
export function isLoopback(host: string): boolean {
  const h = host
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
  return h === 'localhost' || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h) || /^::ffff:127(\.\d{1,3}){3}$/.test(h)
}

/** The demo accounts that still sign in with the password printed in the README. */
export async function demoAccountsWithPublishedPassword(): Promise<string[]> {
  const users = await User.query().whereIn('username', DEMO_USERNAMES).select('username', 'password_hash').orderBy('id')
  const published = prehash(DEFAULT_DEMO_PASSWORD)
  const exposed: string[] = []
  for (const user of users) {
    if (user.passwordHash && (await verifyPassword(user.passwordHash, published))) exposed.push(user.username)
  }
  return exposed
}

/**
 * Refuses to listen beyond this machine while a demo account keeps the published password: anyone who
 * read the README could sign in as its superuser. Checked only for a non-loopback address, so a local
 * start pays nothing (each check is an argon2 verification).
 */
export async function assertNoExposedDemo(host: string): Promise<void> {
  if (isLoopback(host)) return
  const exposed = await demoAccountsWithPublishedPassword()
  if (exposed.length === 0) return
  throw new Error(
    `refusing to listen on ${host}: the demo account(s) ${exposed.join(', ')} still have the README's password; ` +
      `change it (or remove them), or listen on 127.0.0.1`
  )
}
