import { dictionary } from '@zxcvbn-ts/language-common'
import type { HttpContext } from '@adonisjs/core/http'
import { checkPassword, type PasswordRule } from '@tramita/contract/rules'
import { fail } from '#lib/envelope'
import { message } from '#lib/messages'

/**
 * The server's password policy: the spec's rules (the contract's checkPassword, the same function
 * the browser's checklist runs) plus a blocklist of ~49,000 common passwords (zxcvbn-ts' list).
 * A password is refused when it, or it without its trailing digits and symbols, is on the list:
 * 'Password1!' is 'password' with decorations.
 */
const COMMON = new Set((dictionary['passwords-common'] as string[]).map((p) => p.toLowerCase()))

/** Longest password accepted (characters): long passphrases are welcome, megabyte bodies are not. */
export const PASSWORD_MAX_LENGTH = 256

export type PolicyFailure = PasswordRule | 'common' | 'too_long'

export function isCommonPassword(password: string): boolean {
  const lower = password.normalize('NFC').toLowerCase()
  if (COMMON.has(lower)) return true
  const stem = lower.replace(/[^\p{L}]+$/u, '')
  return stem.length >= 4 && COMMON.has(stem)
}

export function checkPasswordPolicy(password: string, confirmation: string): { ok: boolean; failed: PolicyFailure[] } {
  const failed: PolicyFailure[] = [...checkPassword(password, confirmation).failed]
  if ([...password].length > PASSWORD_MAX_LENGTH) failed.push('too_long')
  if (isCommonPassword(password)) failed.push('common')
  return { ok: failed.length === 0, failed }
}

/** Refuses (400, with the failed rules) a new password that breaks the policy. */
export function requirePasswordPolicy(ctx: HttpContext, password: string, confirmation: string): void {
  const policy = checkPasswordPolicy(password, confirmation)
  if (!policy.ok) fail(message(ctx, 'auth.password_rules'), 400, { failed: policy.failed })
}
