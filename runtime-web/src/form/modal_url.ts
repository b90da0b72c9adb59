/**
 * Which URLs the form's modal opens (FormModal, loaded with forms that have actions): kept apart from
 * overlays.ts, which the form route loads, so the lazy modal does not split that module off the route.
 */

/** Only http(s) and same-site paths open in a modal: never javascript:, data: or other schemes. */
export function safeModalUrl(url: string, origin: string): URL | null {
  try {
    const parsed = new URL(url, origin)
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed : null
  } catch {
    return null
  }
}
