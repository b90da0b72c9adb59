import { createHash } from 'node:crypto'
import db from '@adonisjs/lucid/services/db'
import type { ApiClient } from '@japa/api-client'
import { generate } from 'otplib'
import Role from '#models/role'
import User from '#models/user'
import { hashPassword, prehash } from '#lib/password'
import { seedBase } from '#services/seed_service'

export const PASSWORD = 'Clave#Segura2026'

export interface MakeUser {
  /** A fixed id (user 1 has rights of its own in the spec); the table's next id otherwise. */
  id?: number
  username: string
  role?: string
  password?: string
  email?: string | null
  twoFa?: boolean
  requiredTfa?: boolean
  apiEnabled?: boolean
  blocked?: boolean
}

/** A user with a real argon2id password hash and the given role. */
export async function makeUser(opts: MakeUser): Promise<User> {
  await seedBase()
  const user = await User.create({
    ...(opts.id ? { id: opts.id } : {}),
    username: opts.username,
    email: opts.email === undefined ? `${opts.username}@example.test` : opts.email,
    passwordHash: await hashPassword(prehash(opts.password ?? PASSWORD)),
    firstName: opts.username,
    lastName: 'Test',
    enabled: true,
    blocked: opts.blocked ?? false,
    apiEnabled: opts.apiEnabled ?? false,
    requiredTfa: opts.requiredTfa ?? false,
    twoFa: false,
    authSource: 'local',
  })
  if (opts.role) {
    const role = await Role.findByOrFail('name', opts.role)
    await user.related('roles').attach([role.id])
  }
  return user
}

/** Starts every test from empty user tables and counters. */
export async function resetAuthTables(): Promise<void> {
  for (const table of [
    'rate_limits',
    'login_tickets',
    'recovery_codes',
    'password_resets',
    'api_tokens',
    'sessions',
    'audit_logs',
  ]) {
    await db.from(table).delete()
  }
  await db.from('users').delete()
}

export function login(client: ApiClient, user: string, password = PASSWORD, extra: Record<string, string> = {}) {
  return client
    .put('/data/login')
    .form({ case: 'PUT', user, password: prehash(password), side_login: 'admin', type_login: 'normal', ...extra })
}

/** Signs in and returns the session token (for users without two-factor). */
export async function tokenFor(client: ApiClient, user: string, password = PASSWORD): Promise<string> {
  const response = await login(client, user, password)
  const token = response.body()?.data?.token_new
  if (!token) throw new Error(`sign-in of ${user} failed: ${JSON.stringify(response.body())}`)
  return token
}

/** Fetches a captcha challenge and solves it the way the browser does. */
/** The number whose SHA-256 with the salt is the challenge (ALTCHA's proof of work), or null. */
function solveSha256(challenge: string, salt: string, maxNumber: number): number | null {
  for (let n = 0; n <= maxNumber; n++) {
    if (
      createHash('sha256')
        .update(salt + n)
        .digest('hex') === challenge
    )
      return n
  }
  return null
}

export async function solvedCaptcha(client: ApiClient): Promise<string> {
  const challenge = (await client.get('/data/captcha')).body().data
  // Solved with node's synchronous SHA-256: altcha-lib's solver awaits WebCrypto once per number,
  // which at the larger ranges took seconds on a loaded machine and ran the test past its timeout.
  const number = solveSha256(challenge.challenge, challenge.salt, challenge.maxnumber)
  if (challenge.algorithm !== 'SHA-256' || number === null) throw new Error('captcha not solved')
  const solution = { number }
  return Buffer.from(
    JSON.stringify({
      algorithm: challenge.algorithm,
      challenge: challenge.challenge,
      number: solution.number,
      salt: challenge.salt,
      signature: challenge.signature,
    })
  ).toString('base64')
}

/** The current TOTP code for a base32 seed, as an authenticator app would show it. */
export function totp(secret: string, at = Date.now()): Promise<string> {
  return generate({ secret, epoch: Math.floor(at / 1000) })
}
