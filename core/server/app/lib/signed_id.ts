import { createHmac } from 'node:crypto'
import env from '#start/env'
import { sameSecret } from '#lib/tokens'

/**
 * An id with a MAC (HMAC-SHA256 under APP_KEY, 128 bits shown), for links that must not be guessed
 * or enumerated: `key_process` of a case and the `token` of a task. Nothing is stored: the server
 * recomputes the MAC, so a link can always be rebuilt for an inbox and never forged.
 */
function mac(purpose: string, id: number): string {
  return createHmac('sha256', env.get('APP_KEY').release())
    .update(`tramita:${purpose}:${id}`)
    .digest('base64url')
    .slice(0, 22)
}

export function signId(purpose: string, id: number): string {
  return `${id}.${mac(purpose, id)}`
}

/** The id a signed text carries, or null when it is malformed or its MAC is wrong. */
export function readSignedId(purpose: string, text: unknown): number | null {
  if (typeof text !== 'string' || text.length > 64) return null
  const match = /^([1-9]\d{0,9})\.([\w-]{22})$/.exec(text)
  if (!match) return null
  const id = Number(match[1])
  return sameSecret(match[2], mac(purpose, id)) ? id : null
}
