/**
 * The device capture the core's dialogs offer (scanners for the ID card's faces, signing pads), from the
 * enabled plugin that provides it (`virtual:tramita-form-devices`; none: no device options). Loaded on a
 * dialog's first use and given the page's socket once (FormDevices.init), as the action engine's host is.
 */
import type { FormDevices } from '@tramita/plugin-api/web'
import { formDevices } from 'virtual:tramita-form-devices'

/** Whether an enabled plugin brings devices: the dialogs draw their device options only then. */
export const formDevicesEnabled = formDevices !== null

let loaded: Promise<FormDevices> | null = null

/** The devices, loaded and initialised once; null when no enabled plugin provides them. */
export function loadFormDevices(): Promise<FormDevices> | null {
  if (!formDevices) return null
  if (!loaded) {
    loaded = formDevices().then((devices) => {
      devices.init({
        // The session bar's socket (lib/socket.ts, already loaded once signed in).
        socketEvent: (kase, match, timeoutMs, signal) =>
          import('../lib/socket.js').then(({ waitForMessage }) => waitForMessage(kase, match, timeoutMs, signal)),
      })
      return devices
    })
    // A failed load (a chunk the network lost) is tried again next time.
    loaded.catch(() => (loaded = null))
  }
  return loaded
}
