/** The machines a dialog may offer: all_machines (spec 000 §7), what each can do now. */
import { call } from '@tramita/web/api'
import type { FormDeviceMachine } from '@tramita/plugin-api/web'
import { DEVICES_ROUTES, type MachineOption } from '../../shared/devices.js'

/** What an availability allows (spec 001 §5: not available, print only, scan only, available). */
export function machineAbilities(availability: string): { canScan: boolean; canPrint: boolean } {
  return {
    canScan: availability === 'available' || availability === 'scan only',
    canPrint: availability === 'available' || availability === 'print only',
  }
}

export async function machines(): Promise<FormDeviceMachine[]> {
  const { method, path } = DEVICES_ROUTES.allMachines
  const body = await call<{ machines?: MachineOption[] }>(method, path)
  return (body.data?.machines ?? []).map((m) => ({
    token: m.token,
    name: m.name || m.model || m.token,
    ...machineAbilities(m.availability),
    canSign: m.can_sign === true,
  }))
}
