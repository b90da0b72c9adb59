/** SMTP configuration rule (spec 001 §5, §9): the port each connection security requires. */

/** The port SSL and TLS connections require (spec 001 §9: SSL 465, TLS 587). */
export const SMTP_PORTS = { ssl: 465, tls: 587 } as const

export type SmtpSecurity = 'ssl' | 'tls' | 'none'

/** Reads a port given as a number or as digits; null when it is not a whole number from 1 to 65535. */
export function parsePort(port: number | string): number | null {
  const n = typeof port === 'number' ? port : /^\s*\d+\s*$/.test(port) ? Number(port) : NaN
  return Number.isInteger(n) && n >= 1 && n <= 65535 ? n : null
}

/**
 * Whether an SMTP port suits the security chosen (spec 001 §5): SSL requires 465, TLS requires 587.
 * Without security the spec fixes no port, so any valid port (1-65535) is accepted.
 */
export function smtpPortMatches(security: SmtpSecurity, port: number | string): boolean {
  const n = parsePort(port)
  if (n === null) return false
  return security === 'none' ? true : n === SMTP_PORTS[security]
}
