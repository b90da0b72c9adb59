import { randomInt } from 'node:crypto'

/**
 * Case codes people type on the consultation page: 10 characters of Crockford's base32 (no I, L, O,
 * U), about 50 bits, shown as two groups (K7M2Q-9XD4H). Typing is forgiving: lower case, spaces,
 * hyphens, O for 0 and I or L for 1 are accepted.
 */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'
const LENGTH = 10

export function newCaseCode(): string {
  let code = ''
  for (let i = 0; i < LENGTH; i++) code += ALPHABET[randomInt(ALPHABET.length)]
  return `${code.slice(0, 5)}-${code.slice(5)}`
}

/** The stored form of a typed code, or null when it cannot be one. */
export function normalizeCaseCode(typed: unknown): string | null {
  if (typeof typed !== 'string' || typed.length > 40) return null
  const plain = typed.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1')
  if (plain.length !== LENGTH || [...plain].some((c) => !ALPHABET.includes(c))) return null
  return `${plain.slice(0, 5)}-${plain.slice(5)}`
}
