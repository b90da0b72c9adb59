import { SMTP_PORTS, parsePort, smtpPortMatches, type SmtpSecurity } from '@tramita/contract/rules'

/**
 * An optional URL variable limited to some protocols. The stock URL rule insists on a public TLD,
 * which refuses `http://localhost` and `redis://127.0.0.1`, both normal here.
 */
export function urlVariable(protocols: string[]) {
  return (key: string, value?: string): string | undefined => {
    if (value === undefined || value === '') return undefined
    let url: URL
    try {
      url = new URL(value)
    } catch {
      throw new Error(`Invalid value for "${key}": "${value}" is not a URL`)
    }
    if (!protocols.includes(url.protocol)) {
      throw new Error(`Invalid value for "${key}": expected a ${protocols.join(' or ')}// URL, got "${url.protocol}"`)
    }
    return value
  }
}

/**
 * SMTP_PORT, checked against SMTP_SECURITY with the contract's rule (spec 001 §5: SSL requires 465,
 * TLS requires 587), so a wrong pair stops the start instead of failing at the first e-mail.
 */
export function smtpPortVariable(key: string, value?: string): number | undefined {
  if (value === undefined || value === '') return undefined
  const security = (process.env.SMTP_SECURITY || 'tls') as SmtpSecurity
  const port = parsePort(value)
  if (port === null) throw new Error(`Invalid value for "${key}": "${value}" is not a port number`)
  if (!smtpPortMatches(security, port)) {
    throw new Error(
      `Invalid value for "${key}": SMTP_SECURITY=${security} requires port ${SMTP_PORTS[security as 'ssl']}`
    )
  }
  return port
}

/** An optional size in megabytes: a number above 0 and at most 10240 (10 GB). */
export function megabytesVariable(key: string, value?: string): number | undefined {
  if (value === undefined || value === '') return undefined
  const mb = Number(value)
  if (!Number.isFinite(mb) || mb <= 0 || mb > 10_240) {
    throw new Error(`Invalid value for "${key}": "${value}" is not a size in MB between 0 and 10240`)
  }
  return mb
}

/** An optional limit in milliseconds: a whole number from 100 (a tenth of a second) to 600000 (10 minutes). */
export function millisecondsVariable(key: string, value?: string): number | undefined {
  if (value === undefined || value === '') return undefined
  const ms = Number(value)
  if (!Number.isInteger(ms) || ms < 100 || ms > 600_000) {
    throw new Error(`Invalid value for "${key}": "${value}" is not a time in ms between 100 and 600000`)
  }
  return ms
}
