import { rateLimit } from '#services/rate_limits'
import { CallFailure } from '#lib/envelope'

/**
 * Brute-force defences, kept in the limiter's store (Redis, or the database without Redis or while
 * it is unreachable: services/rate_limits.ts), so every node sees the same counts:
 * - failed sign-ins per account name (over 15 minutes) and per client address (over an hour): from
 *   the third a captcha is required (spec 000 §4), its work doubling with each further failure
 *   (captcha.ts), and past a ceiling the account or address is refused outright;
 * - a request rate per client address on every sign-in path (password, two-factor, LDAP check,
 *   recovery, password change, API sign-in).
 */
export const CAPTCHA_AFTER_FAILURES = 3
export const ACCOUNT_FAILURE_CEILING = 10
/** Failed sign-ins one address may make in an hour (a school behind one NAT address shares it). */
export const ADDRESS_FAILURE_CEILING = 30
/** Requests per minute per address on each sign-in path (AUTH_RATE_PER_MINUTE; the benchmark raises it). */
export const AUTH_REQUESTS_PER_MINUTE = Number(process.env.AUTH_RATE_PER_MINUTE) || 30

const failures = () => rateLimit({ requests: 1_000_000, duration: '15 mins' })
const addressFailures = () => rateLimit({ requests: 1_000_000, duration: '1 hour' })

const accountKey = (name: string) => `login_fail:acct:${name.trim().toLowerCase().slice(0, 200)}`
const addressKey = (ip: string) => `login_fail:ip:${ip}`

/** Failed sign-ins from one address in the current hour (the captcha's work grows with them). */
export async function failuresFromAddress(ip: string): Promise<number> {
  return (await addressFailures().get(addressKey(ip)))?.consumed ?? 0
}
export interface FailureCounts {
  account: number
  address: number
}

export async function failureCounts(name: string, ip: string): Promise<FailureCounts> {
  const [account, address] = await Promise.all([
    failures().get(accountKey(name)),
    addressFailures().get(addressKey(ip)),
  ])
  return { account: account?.consumed ?? 0, address: address?.consumed ?? 0 }
}

export function captchaRequired(counts: FailureCounts): boolean {
  return Math.max(counts.account, counts.address) >= CAPTCHA_AFTER_FAILURES
}

/** Which ceiling the counts reached (the account's lasts 15 minutes, the address's an hour), if any. */
export function overCeiling(counts: FailureCounts): 'account' | 'address' | null {
  if (counts.account >= ACCOUNT_FAILURE_CEILING) return 'account'
  return counts.address >= ADDRESS_FAILURE_CEILING ? 'address' : null
}

export async function recordFailure(name: string, ip: string): Promise<FailureCounts> {
  const [account, address] = await Promise.all([
    failures().increment(accountKey(name)),
    addressFailures().increment(addressKey(ip)),
  ])
  return { account: account.consumed, address: address.consumed }
}

/** After three wrong second-factor codes the account must pass a captcha again (spec 000 §4). */
export async function forceCaptcha(name: string): Promise<void> {
  const store = failures()
  const current = (await store.get(accountKey(name)))?.consumed ?? 0
  if (current < CAPTCHA_AFTER_FAILURES) await store.increment(accountKey(name), CAPTCHA_AFTER_FAILURES - current)
}

export async function clearAccountFailures(name: string): Promise<void> {
  await failures().delete(accountKey(name))
}

/** Counts one request under `key`; past `perMinute` in a minute it answers 429 with Retry-After. */
export async function limitPerMinute(key: string, perMinute: number, message: string): Promise<void> {
  const response = await rateLimit({ requests: perMinute, duration: '1 min' }).increment(key)
  if (response.consumed > perMinute) {
    const error = new CallFailure(message, 429, 'E_CALL_FAILED')
    error.retryAfter = response.availableIn
    throw error
  }
}

/** Counts one request on a sign-in path; over the rate it answers 429 with Retry-After. */
export function limitAuthRequest(path: string, ip: string, message: string): Promise<void> {
  return limitPerMinute(`auth_req:${path}:${ip}`, AUTH_REQUESTS_PER_MINUTE, message)
}

/** Counts a wrong code at the signed-in prompt for one session (15 minutes); returns the count. */
export async function countPromptFailure(sessionId: number): Promise<number> {
  return (await failures().increment(`prompt_fail:${sessionId}`)).consumed
}

/** Marks a one-time value (a solved captcha) as spent; false when it had been spent already. */
export async function spendOnce(kind: string, id: string, ttl: string): Promise<boolean> {
  const response = await rateLimit({ requests: 1, duration: ttl }).increment(`once:${kind}:${id}`)
  return response.consumed === 1
}
