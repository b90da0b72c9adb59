import { createHash } from 'node:crypto'
import { createChallenge, verifySolution } from 'altcha-lib/v1'
import env from '#start/env'
import { spendOnce } from '#services/auth/throttle'

/**
 * The sign-in captcha: an ALTCHA proof of work (self-hosted, no third party). The server signs a
 * challenge; the browser finds the number whose SHA-256 with the salt matches (about a second of
 * work at most), and the answer is accepted once, before it expires.
 */
export const CAPTCHA_MAX_NUMBER = 50_000
const CAPTCHA_TTL_MINUTES = 10

function hmacKey(): string {
  return createHash('sha256')
    .update(`tramita-altcha:${env.get('APP_KEY').release()}`)
    .digest('hex')
}

export async function newCaptchaChallenge() {
  return createChallenge({
    hmacKey: hmacKey(),
    maxNumber: CAPTCHA_MAX_NUMBER,
    expires: new Date(Date.now() + CAPTCHA_TTL_MINUTES * 60_000),
  })
}

/** True for a correct, unexpired, not yet used solution (base64 JSON, as the ALTCHA client sends it). */
export async function verifyCaptcha(payload: unknown): Promise<boolean> {
  if (typeof payload !== 'string' || payload.length === 0 || payload.length > 2000) return false
  let parsed: { signature?: unknown; salt?: unknown }
  try {
    parsed = JSON.parse(Buffer.from(payload, 'base64').toString('utf8'))
  } catch {
    return false
  }
  if (typeof parsed?.signature !== 'string' || typeof parsed.salt !== 'string') return false
  const ok = await verifySolution(payload, hmacKey(), true).catch(() => false)
  if (!ok) return false
  // Spent marks outlive the challenge's own expiry, so a solution can never be replayed.
  return spendOnce('captcha', parsed.signature, `${CAPTCHA_TTL_MINUTES + 1} mins`)
}
