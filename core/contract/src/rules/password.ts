/**
 * New-password rules (spec 000 §2 "Password change / recovery", §5 "New password", §9 minimum 8):
 * the live checklist and the confirmation that must match.
 */

/** Minimum password length (spec 000 §9). */
export const PASSWORD_MIN_LENGTH = 8

/** The checklist rules, in the order they are shown and reported. */
export const PASSWORD_RULES = [
  'min_length',
  'uppercase',
  'digit',
  'symbol',
  'ascending_digits',
  'repeated_char',
  'confirmation',
] as const

export type PasswordRule = (typeof PASSWORD_RULES)[number]

/**
 * The i18n key (core/i18n) of each rule's checklist text, a statement of what holds when the rule is
 * met ("At least 8 characters", "The passwords match"), shown with a tick or a cross.
 */
export const PASSWORD_RULE_MESSAGES: Readonly<Record<PasswordRule, string>> = {
  min_length: 'password.rules.min_length',
  uppercase: 'password.rules.uppercase',
  digit: 'password.rules.digit',
  symbol: 'password.rules.symbol',
  ascending_digits: 'password.rules.no_sequence',
  repeated_char: 'password.rules.no_repeat',
  confirmation: 'password.rules.match',
}

/** Rules whose failure has a text of its own: the spec's 'password_no_coincide' for the confirmation. */
const PASSWORD_RULE_FAILURES: Readonly<Partial<Record<PasswordRule, string>>> = {
  confirmation: 'password_no_coincide',
}

/** The i18n key of a rule's checklist line as it stands: its statement, or its failure text when it has one. */
export function passwordRuleMessage(rule: PasswordRule, ok: boolean): string {
  return (!ok && PASSWORD_RULE_FAILURES[rule]) || PASSWORD_RULE_MESSAGES[rule]
}

/** True when the text holds three consecutive digits in ascending order, like 123 or the 456 of 4567 (spec 000 §5). */
export function hasAscendingDigits(text: string): boolean {
  for (let i = 0; i + 2 < text.length; i++) {
    const a = text.charCodeAt(i)
    // Only 0-9; no wrap-around, so 890 is not a sequence.
    if (a >= 48 && a <= 57 && text.charCodeAt(i + 1) === a + 1 && text.charCodeAt(i + 2) === a + 2) return true
  }
  return false
}

/** True when one character appears three times in a row (spec 000 §5); case counts, so 'aAa' is not a repeat. */
export function hasRepeatedChar(text: string): boolean {
  const chars = [...text]
  for (let i = 0; i + 2 < chars.length; i++) {
    if (chars[i] === chars[i + 1] && chars[i] === chars[i + 2]) return true
  }
  return false
}

const RULE_CHECKS: Readonly<Record<PasswordRule, (password: string, confirmation: string) => boolean>> = {
  min_length: (p) => [...p].length >= PASSWORD_MIN_LENGTH,
  uppercase: (p) => /\p{Lu}/u.test(p),
  digit: (p) => /[0-9]/.test(p),
  // A symbol is anything that is neither a letter (with its accents) nor a number: punctuation, spaces, emoji.
  symbol: (p) => /[^\p{L}\p{M}\p{N}]/u.test(p),
  ascending_digits: (p) => !hasAscendingDigits(p),
  repeated_char: (p) => !hasRepeatedChar(p),
  confirmation: (p, c) => c !== '' && p === c,
}

export interface PasswordCheck {
  ok: boolean
  /** The rules that do not hold, in {@link PASSWORD_RULES} order. */
  failed: PasswordRule[]
}

/**
 * Checks a new password and its confirmation (spec 000 §5 "New password"): at least 8 characters, an
 * uppercase letter, a digit, a symbol, no ascending run of three digits, no character three times in a
 * row, and a confirmation that is not empty and equals the password. Submit only when `ok`.
 */
export function checkPassword(password: string, confirmation: string): PasswordCheck {
  const failed = PASSWORD_RULES.filter((rule) => !RULE_CHECKS[rule](password, confirmation))
  return { ok: failed.length === 0, failed }
}
