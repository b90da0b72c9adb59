/**
 * Whether a WebSocket upgrade's Origin may connect. Browsers always send Origin; it must be the
 * server's own origin (same host), APP_URL's, or one listed in ALLOWED_ORIGINS. Non-browser clients
 * (local agents) send none and are still held to the token check.
 */
export function originAllowed(origin: string | undefined, host: string | undefined, allowed: string[]): boolean {
  if (!origin) return true
  let parsed: URL
  try {
    parsed = new URL(origin)
  } catch {
    return false
  }
  if (host && parsed.host === host) return true
  return allowed.some((entry) => {
    try {
      return new URL(entry).origin === parsed.origin
    } catch {
      return false
    }
  })
}
