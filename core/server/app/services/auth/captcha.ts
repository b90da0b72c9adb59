import { createHash } from 'node:crypto'
import { createChallenge, verifySolution } from 'altcha-lib/v1'
import env from '#start/env'
import { CAPTCHA_AFTER_FAILURES, spendOnce } from '#services/auth/throttle'

/**
 * The sign-in captcha: an ALTCHA proof of work (self-hosted, no third party). The server signs a
 * challenge; the browser finds the number whose SHA-256 with the salt matches, and the answer is
 * accepted once, before it expires. The range to search (ALTCHA's maxnumber) grows with the failed
 * sign-ins seen: 50,000 at the third failure (tens of milliseconds), doubled for each one after it,
 * up to 3,200,000 (64 times the work, seconds in a browser). The range is signed into the challenge's
 * salt, so a challenge fetched while the count was lower does not pass once it has grown.
 */
export const CAPTCHA_MAX_NUMBER = 50_000
export const CAPTCHA_MAX_NUMBER_CEILING = 3_200_000
const CAPTCHA_TTL_MINUTES = 10

/** The range a challenge searches after `failures` failed sign-ins. */
export function captchaMaxNumber(failures: number): number {
  const doublings = Math.max(0, failures - CAPTCHA_AFTER_FAILURES)
  return Math.min(CAPTCHA_MAX_NUMBER * 2 ** Math.min(doublings, 30), CAPTCHA_MAX_NUMBER_CEILING)
}

function hmacKey(): string {
  return createHash('sha256')
    .update(`tramita-altcha:${env.get('APP_KEY').release()}`)
    .digest('hex')
}

/** A challenge sized for `failures` (the most seen for the caller's address or account). */
export async function newCaptchaChallenge(failures: number) {
  const maxNumber = captchaMaxNumber(failures)
  return createChallenge({
    hmacKey: hmacKey(),
    maxNumber,
    params: { work: String(maxNumber) },
    expires: new Date(Date.now() + CAPTCHA_TTL_MINUTES * 60_000),
  })
}

/**
 * True for a correct, unexpired, not yet used solution (base64 JSON, as the ALTCHA client sends it)
 * of a challenge as hard as `failures` asks, or one step easier (another failure from the same
 * address may land between fetching the challenge and sending its answer).
 */
export async function verifyCaptcha(payload: unknown, failures: number): Promise<boolean> {
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
  // The salt is signed with the challenge, so its `work` is the range the server chose.
  const work = Number(new URLSearchParams(parsed.salt.split('?')[1] ?? '').get('work'))
  if (!(work >= captchaMaxNumber(failures - 1))) return false
  // Spent marks outlive the challenge's own expiry, so a solution can never be replayed.
  return spendOnce('captcha', parsed.signature, `${CAPTCHA_TTL_MINUTES + 1} mins`)
}
