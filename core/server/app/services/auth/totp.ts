import { generateSecret, generateURI, verify } from 'otplib'
import QRCode from 'qrcode'
import encryption from '@adonisjs/core/services/encryption'

/**
 * TOTP (RFC 6238, 6 digits, 30 s) for the second factor. Seeds are encrypted at rest with the app
 * key; a code is accepted once (its time step must be later than the last one used) and one step of
 * clock drift either way is allowed.
 */
export const TOTP_ISSUER = 'Tramita'

export function newSeed(): string {
  return generateSecret()
}

export function sealSeed(seed: string): string {
  return encryption.encrypt(seed, undefined, 'totp-seed')
}

export function openSeed(sealed: string | null): string | null {
  if (!sealed) return null
  return encryption.decrypt<string>(sealed, 'totp-seed')
}

export async function enrolment(seed: string, username: string) {
  const uri = generateURI({ issuer: TOTP_ISSUER, label: username, secret: seed })
  return { uri, qr: await QRCode.toDataURL(uri, { margin: 1, width: 220 }) }
}

/** The time step of a valid, unused code, or null. */
export async function checkCode(seed: string, code: string, lastStep: number | null): Promise<number | null> {
  if (!/^\d{6}$/.test(code)) return null
  const result = await verify({
    secret: seed,
    token: code,
    epochTolerance: 30,
    ...(lastStep !== null ? { afterTimeStep: lastStep } : {}),
  }).catch(() => null)
  return result && result.valid && 'timeStep' in result ? result.timeStep : null
}
