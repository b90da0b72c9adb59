import { test } from '@japa/runner'
import { Bonjour } from 'bonjour-service'
import { type DiscoveredDevice, discover } from '../../agent/drivers/discovery.js'
import { printerInfo } from '../../agent/drivers/ipp_printer.js'
import { waitUntil } from '../../../../core/server/tests/helpers/wait.js'
import { ensureAvahi, startPrinter } from '../helpers/services.js'

/** mDNS discovery: a printer announced by Avahi (ippeveprinter registers itself), an eSCL scanner published here. */

/** UDP sockets open in this process (an mDNS search holds one while it runs). */
const udpSockets = () => process.getActiveResourcesInfo().filter((kind) => kind === 'UDPWrap').length

/** Searches until `match` shows up (Avahi probes a new name for a moment first); returns that search's list. */
async function discoverUntil(match: (device: DiscoveredDevice) => boolean): Promise<DiscoveredDevice[]> {
  let last: DiscoveredDevice[] = []
  await waitUntil(
    async () => {
      last = await discover({ timeoutMs: 2000 })
      return last.some(match)
    },
    20_000,
    () => `the device among ${JSON.stringify(last.map((device) => device.name))}`
  )
  return last
}

test.group('mDNS discovery', (group) => {
  group.setup(() => ensureAvahi())

  test('finds ippeveprinter through Avahi’s announcement, once, with a URI the IPP driver reaches', async ({
    assert,
    cleanup,
  }) => {
    const printer = await startPrinter({ name: `Tramita ${process.pid} discovery` })
    cleanup(() => printer.stop())
    const sockets = udpSockets()

    const found = await discoverUntil((device) => device.name === printer.name)
    // Announced as _ipp._tcp and _ipps._tcp: listed once, by its plain URI.
    const mine = found.filter((device) => device.name === printer.name)
    assert.lengthOf(mine, 1)
    const [device] = mine
    assert.deepInclude(device, { kind: 'printer', port: printer.port })
    // By the address of the interface the answer came on: 127.0.0.1 (lo) or this machine's on eth0.
    assert.match(device.uri, new RegExp(`^ipp://[^/]+:${printer.port}/ipp/print$`))
    assert.include(device.addresses, new URL(device.uri).hostname)
    assert.equal(device.txt.rp, 'ipp/print')
    assert.equal((await printerInfo(device.uri, { timeoutMs: 5000 })).name, printer.name)
    assert.equal(udpSockets(), sockets, 'the search closed its socket')
  })

  test('finds an eSCL scanner published over mDNS', async ({ assert, cleanup }) => {
    const publisher = new Bonjour()
    cleanup(() => new Promise<void>((resolve) => publisher.unpublishAll(() => publisher.destroy(() => resolve()))))
    const name = `Tramita ${process.pid} scanner`
    publisher.publish({ name, type: 'uscan', port: 9095, txt: { rs: 'eSCL', ty: 'Tramita Test Scanner' } })

    const device = (await discoverUntil((found) => found.name === name)).find((found) => found.name === name)!
    assert.equal(device.kind, 'scanner')
    assert.match(device.uri, /^http:\/\/[^/]+:9095\/eSCL$/)
    assert.equal(device.txt.ty, 'Tramita Test Scanner')
  })
})
