import { settingsDefaults, type SettingsDeclaration, type SettingsValues } from '@tramita/plugin-api'

/** The result route's body cap (fixed when the route is declared): no scan may be larger. */
export const SCAN_BODY_BYTES = 512 * 1024 ** 2

/**
 * The devices plugin's settings (administrators change them on the core's settings screen; labels and
 * help: `devices.settings.<key>` in locales/).
 */
export const DEVICES_SETTINGS_DECLARATION = {
  /** Agents that may work at once (0: no limit). The oldest agents hold the licences; others show NO LICENSE. */
  licensedAgents: { type: 'integer', default: 0, min: 0, max: 10_000 },
  /**
   * How long a print or scan waits for its agent. Past it the job fails as "agent off or disconnected"
   * and is not done when the agent comes back (a print out of date is not printed).
   */
  jobMinutes: { type: 'integer', default: 60, min: 1, max: 24 * 60, unit: 'minutes' },
  /** The largest scan an agent may send, in bytes. */
  maxScanBytes: { type: 'integer', default: 100 * 1024 ** 2, min: 1024, max: SCAN_BODY_BYTES, unit: 'bytes' },
  /** The largest print job (all its files together), in bytes. */
  maxPrintBytes: { type: 'integer', default: 200 * 1024 ** 2, min: 1024, max: 2 * 1024 ** 3, unit: 'bytes' },
} as const satisfies SettingsDeclaration

export const DEVICES_SETTINGS = settingsDefaults(DEVICES_SETTINGS_DECLARATION)
export type DevicesSettings = SettingsValues<typeof DEVICES_SETTINGS_DECLARATION>
