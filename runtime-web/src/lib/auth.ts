import { solveChallenge } from 'altcha-lib/v1'
import { SESSION_KEYS } from '@tramita/web/api'

/**
 * Browser side of sign-in (spec 000 §7): the password leaves the browser as its SHA-256 (hex), or,
 * for a directory user, encrypted with the server's RSA public key (RSA-OAEP, SHA-256); the captcha
 * is an ALTCHA proof of work solved here.
 */
export async function prehash(password: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(password))
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('')
}

function pemBody(pem: string): ArrayBuffer {
  const base64 = pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '')
  const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))
  return bytes.buffer
}

export async function encryptForDirectory(publicPem: string, password: string): Promise<string> {
  const key = await crypto.subtle.importKey('spki', pemBody(publicPem), { name: 'RSA-OAEP', hash: 'SHA-256' }, false, [
    'encrypt',
  ])
  const cipher = await crypto.subtle.encrypt({ name: 'RSA-OAEP' }, key, new TextEncoder().encode(password))
  return btoa(String.fromCharCode(...new Uint8Array(cipher)))
}

export interface CaptchaChallenge {
  algorithm: string
  challenge: string
  salt: string
  signature: string
  maxnumber?: number
}

/** Solves a challenge and returns the payload the server expects (base64 JSON). */
export async function solveCaptcha(challenge: CaptchaChallenge): Promise<string | null> {
  const solution = await solveChallenge(challenge.challenge, challenge.salt, challenge.algorithm, challenge.maxnumber)
    .promise
  if (!solution) return null
  const payload = {
    algorithm: challenge.algorithm,
    challenge: challenge.challenge,
    number: solution.number,
    salt: challenge.salt,
    signature: challenge.signature,
  }
  return btoa(JSON.stringify(payload))
}

function store(): Storage | null {
  try {
    return globalThis.sessionStorage ?? null
  } catch {
    return null
  }
}

/**
 * Whether the browser keeps a session here: sessionStorage exists and takes a write (blocked storage
 * throws on access, some private modes on setItem). Without it sign-in cannot last (spec 000 §8).
 */
export function sessionStorageWorks(): boolean {
  try {
    const probe = 'tramita.probe'
    globalThis.sessionStorage.setItem(probe, '1')
    globalThis.sessionStorage.removeItem(probe)
    return true
  } catch {
    return false
  }
}

export function writeSession(token: string, username: string): void {
  const s = store()
  s?.setItem(SESSION_KEYS.token, token)
  s?.setItem(SESSION_KEYS.user, username)
  s?.setItem(SESSION_KEYS.logged, 'true')
}

/** Where sign-in leads (spec 000 §2): the principal host's validate_login with the token, else /document_management. */
export function afterLoginUrl(token: string, principalHost?: string | null): string {
  if (principalHost) {
    const base = principalHost.replace(/\/+$/, '')
    return `${base}/validate_login?token=${encodeURIComponent(token)}`
  }
  return '/document_management'
}
