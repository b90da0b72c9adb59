/**
 * The devices plugin's device capture for the core's dialogs (`./form-devices`, loaded lazily through
 * `virtual:tramita-form-devices`): the person's machines, a scanned page (the ID card's faces) and a
 * signing pad's or signing app's signature. The runtime calls `init` once with the page's socket.
 */
import type { FormDevices } from '@tramita/plugin-api/web'
import { setHost } from './host.js'
import { machines } from './machines.js'
import { scan } from './scan.js'
import { signature } from './signature.js'

const formDevices: FormDevices = {
  init: setHost,
  machines,
  scan: (request) => scan(request),
  signature,
}

export default formDevices
