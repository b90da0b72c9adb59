/** The enabled plugins' device capture for the core's dialogs, generated at build time (core/plugin-api/src/discover.ts). */
declare module 'virtual:tramita-form-devices' {
  import type { FormDevices } from '@tramita/plugin-api/web'
  /**
   * Loads the first enabled plugin's `./form-devices` (a lazy chunk); null when no enabled plugin has
   * one: the dialogs then offer no device. runtime-web/src/form/form_devices.ts calls `init` once.
   */
  export const formDevices: null | (() => Promise<FormDevices>)
}
