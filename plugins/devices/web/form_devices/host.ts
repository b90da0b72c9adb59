/**
 * What the runtime lends this module (FormDevicesHost: the page's socket), kept from `init` for the
 * calls that wait on it (scan.ts, signature.ts). A plugin cannot open the session bar's socket itself.
 */
import type { FormDevicesHost } from '@tramita/plugin-api/web'

let current: FormDevicesHost | null = null

export function setHost(host: FormDevicesHost): void {
  current = host
}

/** The page's socket wait; a call before `init` is the runtime's mistake. */
export const socketEvent: FormDevicesHost['socketEvent'] = (kase, match, timeoutMs, signal) => {
  if (!current) return Promise.reject(new Error('form devices used before init'))
  return current.socketEvent(kase, match, timeoutMs, signal)
}
