import type { PluginSettings } from '@tramita/plugin-api'
import { DEVICES_SETTINGS, type DevicesSettings } from '../shared/settings.js'

/** The plugin's settings as plain values: the declared defaults under what was saved. */
export async function devicesSettings(settings: PluginSettings): Promise<DevicesSettings> {
  return { ...DEVICES_SETTINGS, ...((await settings.get()) as Partial<DevicesSettings>) }
}
