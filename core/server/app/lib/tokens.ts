import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'

/**
 * Secret tokens (sessions, recovery links, sign-in tickets, API tokens): 256 random bits, URL-safe,
 * stored only as their SHA-256 so a leaked table leaks no usable token.
 */
export function newToken(prefix = ''): string {
  return prefix + randomBytes(32).toString('base64url')
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex')
}

/** Constant-time comparison of two strings (different lengths are simply unequal). */
export function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
}
