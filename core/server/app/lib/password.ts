import { hash, verify } from '@node-rs/argon2'
import { createHash } from 'node:crypto'

/**
 * Passwords arrive as the spec's SHA-256 prehash (hex) from the client; the server stores argon2id
 * of it (m = 19 MiB, t = 2, p = 1, OWASP's baseline) with a pepper kept out of the database.
 */
// algorithm 2 is Argon2id (a const enum in the package's types, so written as its value).
const OPTIONS = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 }

function pepper(): Buffer {
  const secret = process.env.PASSWORD_PEPPER ?? process.env.APP_KEY
  if (!secret) throw new Error('PASSWORD_PEPPER (or APP_KEY) must be set to hash passwords')
  return createHash('sha256').update(`tramita-pepper:${secret}`).digest()
}

/** What the spec's client sends for a typed password: hex SHA-256. Used by seeds and tests. */
export function prehash(plain: string): string {
  return createHash('sha256').update(plain, 'utf8').digest('hex')
}

export async function hashPassword(prehashed: string): Promise<string> {
  return hash(prehashed, { ...OPTIONS, secret: pepper() })
}

/** The stored hash of a password typed in a form the server sees in full (change, recovery, admin). */
export function hashTypedPassword(plain: string): Promise<string> {
  return hashPassword(prehash(plain))
}

/**
 * A hash of a random value, verified against when the user is unknown so that an unknown name takes
 * as long to refuse as a wrong password (argon2 dominates the time of a sign-in).
 */
let decoy: Promise<string> | undefined
export async function verifyDecoy(prehashed: string): Promise<false> {
  decoy ??= hashPassword(prehash(`decoy:${Math.random()}`))
  await verifyPassword(await decoy, prehashed)
  return false
}

export async function verifyPassword(stored: string, prehashed: string): Promise<boolean> {
  try {
    return await verify(stored, prehashed, { secret: pepper() })
  } catch {
    return false
  }
}
