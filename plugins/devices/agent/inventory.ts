import type { MachineReport } from '../shared/protocol.js'
import { discover } from './drivers/discovery.js'
import { printerInfo } from './drivers/ipp_printer.js'
import { listScanners, scannerSources } from './drivers/sane_scanner.js'

/**
 * The machines an agent reports: the printers and scanners it was told of (--printer, --scanner) and,
 * unless discovery is off, the IPP printers found by mDNS and the scanners SANE lists (sane-airscan
 * brings eSCL/WSD network scanners into that list). Each is asked for its state at every report;
 * discovery runs less often, since it listens for seconds.
 */

export interface InventoryOptions {
  printers: string[]
  scanners: string[]
  discover: boolean
  /** scanimage's environment (SANE_CONFIG_DIR…). */
  saneEnv?: NodeJS.ProcessEnv
  /** How long a device may take to answer one question. */
  askMs?: number
  /** How long mDNS discovery listens. */
  listenMs?: number
}

const ASK_MS = 5000
const LISTEN_MS = 3000

export class Inventory {
  private printers = new Set<string>()
  private scanners = new Set<string>()
  private scannerNames = new Map<string, string>()

  constructor(private readonly options: InventoryOptions) {
    for (const uri of options.printers) this.printers.add(uri)
    for (const device of options.scanners) this.scanners.add(device)
  }

  /** Looks for devices (mDNS printers, SANE's list) and adds what it finds to those it asks about. */
  async discover(): Promise<void> {
    if (!this.options.discover) return
    const [network, sane] = await Promise.all([
      discover({ timeoutMs: this.options.listenMs ?? LISTEN_MS }).catch(() => []),
      listScanners({ timeoutMs: this.options.askMs ?? ASK_MS, env: this.options.saneEnv }).catch(() => []),
    ])
    for (const device of network) if (device.kind === 'printer') this.printers.add(device.uri)
    for (const scanner of sane) {
      this.scanners.add(scanner.device)
      this.scannerNames.set(scanner.device, `${scanner.vendor} ${scanner.model}`.trim())
    }
  }

  /** Every known device, each asked now whether it is ready. */
  async report(): Promise<MachineReport[]> {
    const askMs = this.options.askMs ?? ASK_MS
    const printers = await Promise.all(
      [...this.printers].map(async (uri): Promise<MachineReport> => {
        const ip = hostOf(uri)
        try {
          const info = await printerInfo(uri, { timeoutMs: askMs })
          return {
            uid: uri,
            name: info.name || uri,
            brand: info.brand,
            model: info.model,
            ip,
            printer: { uri, ready: info.ready, trays: info.trays, duplex: info.duplex, color: info.color },
            scanner: null,
          }
        } catch {
          // Off or unreachable: still reported, not ready, so its people see it as not available.
          return {
            uid: uri,
            name: uri,
            brand: '',
            model: '',
            ip,
            printer: { uri, ready: false, trays: [], duplex: false, color: false },
            scanner: null,
          }
        }
      })
    )
    const scanners = await Promise.all(
      [...this.scanners].map(async (device): Promise<MachineReport> => {
        const sources = await scannerSources(device, { timeoutMs: askMs, env: this.options.saneEnv }).catch(() => null)
        const name = this.scannerNames.get(device) || device
        return {
          uid: device,
          name,
          brand: name.split(' ')[0] ?? '',
          model: name.split(' ').slice(1).join(' '),
          ip: '',
          scanner: { device, ready: sources !== null, sources: sources ?? [] },
          printer: null,
        }
      })
    )
    return [...printers, ...scanners]
  }

  /** The printer URI or scanner device of a machine this agent reports. */
  has(uid: string): { printer?: string; scanner?: string } | null {
    if (this.printers.has(uid)) return { printer: uid }
    if (this.scanners.has(uid)) return { scanner: uid }
    return null
  }
}

function hostOf(uri: string): string {
  try {
    return new URL(uri).hostname.replace(/^\[|\]$/g, '')
  } catch {
    return ''
  }
}
