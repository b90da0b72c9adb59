import env from '#start/env'

/**
 * The product's public address: APP_URL, else http://localhost:PORT. Links sent by e-mail are
 * built from this, never from the request's Host header (which the sender of a request controls).
 */
export function appUrl(): string {
  return env.get('APP_URL', `http://localhost:${env.get('PORT', 3333)}`).replace(/\/+$/, '')
}
