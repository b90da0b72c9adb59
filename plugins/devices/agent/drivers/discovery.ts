import { isIPv4 } from 'node:net'
import { Bonjour, type Service } from 'bonjour-service'

/**
 * Finds network printers (IPP) and scanners (eSCL) by mDNS / DNS-SD. Each device answers for a while;
 * discover() listens for `timeoutMs`, then closes its socket.
 */

export interface DiscoveredDevice {
  kind: 'printer' | 'scanner'
  /** The DNS-SD instance name ("HP LaserJet M404 [1A2B3C]"). */
  name: string
  host: string
  port: number
  addresses: string[]
  /** ipp(s)://address:port/rp for a printer, http(s)://address:port/rs for an eSCL scanner. */
  uri: string
  txt: Record<string, string>
}

const SERVICES = [
  { type: 'ipp', kind: 'printer', scheme: 'ipp', path: 'rp' },
  { type: 'ipps', kind: 'printer', scheme: 'ipps', path: 'rp' },
  { type: 'uscan', kind: 'scanner', scheme: 'http', path: 'rs' },
  { type: 'uscans', kind: 'scanner', scheme: 'https', path: 'rs' },
] as const
const REQUERY_MS = 1000

export async function discover({
  timeoutMs,
  signal,
}: {
  timeoutMs: number
  signal?: AbortSignal
}): Promise<DiscoveredDevice[]> {
  const found = new Map<string, Found>()
  /** A and AAAA records heard in any answer, by host name. */
  const hostAddresses = new Map<string, Set<string>>()
  let failure: Error | null = null
  // Without this callback a socket error (port 5353 refused) would be thrown from the event loop.
  const bonjour = new Bonjour(undefined, (error: Error) => (failure ??= error))
  // bonjour-service takes a service's addresses from the answer that first named it and never adds
  // later ones; an announcement whose address records came apart left a device without an address
  // (seen once in a full test run). Every answer's address records are kept here, and asked for when missing.
  const mdns = (bonjour as unknown as { server: { mdns: Mdns } }).server.mdns
  const onResponse = (packet: MdnsPacket) => {
    for (const record of [...(packet.answers ?? []), ...(packet.additionals ?? [])]) {
      if ((record.type !== 'A' && record.type !== 'AAAA') || typeof record.data !== 'string') continue
      const host = record.name.toLowerCase()
      if (!hostAddresses.has(host)) hostAddresses.set(host, new Set())
      hostAddresses.get(host)!.add(record.data)
    }
  }
  mdns.on('response', onResponse)
  const browsers = SERVICES.map((service) =>
    bonjour.find({ type: service.type, protocol: 'tcp' }, (answer) => {
      const entry = { answer, ...service }
      // A device announces IPP and IPPS (eSCL over HTTP and HTTPS) under one name: it is listed once,
      // by its plain URI, which every printer serves (older ones' TLS is often one Node refuses).
      const key = `${service.kind}\n${answer.name.toLowerCase()}\n${String(answer.host).toLowerCase()}`
      const seen = found.get(key)
      if (!seen || (isSecure(seen.scheme) && !isSecure(service.scheme))) found.set(key, entry)
    })
  )
  const addressesOf = ({ answer }: Found) => [
    ...new Set([...(answer.addresses ?? []), ...(hostAddresses.get(String(answer.host).toLowerCase()) ?? [])]),
  ]
  await new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer)
      clearInterval(again)
      signal?.removeEventListener('abort', done)
      resolve()
    }
    const timer = setTimeout(done, timeoutMs)
    // Asked again each second, as mDNS browsers do (RFC 6762 §5.2): one query or answer may be lost.
    const again = setInterval(() => {
      browsers.forEach((browser) => browser.update())
      for (const entry of found.values())
        if (addressesOf(entry).length === 0) mdns.query(String(entry.answer.host), 'A')
    }, REQUERY_MS)
    signal?.addEventListener('abort', done)
    if (signal?.aborted) done()
  })
  for (const browser of browsers) browser.stop()
  mdns.removeListener('response', onResponse)
  // Resolves once the mDNS socket is closed: nothing of the search is left in the event loop.
  await new Promise<void>((resolve) => bonjour.destroy(() => resolve()))
  if (failure && found.size === 0) throw failure
  return [...found.values()]
    .map((entry) => toDevice(entry, addressesOf(entry)))
    .sort((a, b) => a.name.localeCompare(b.name) || a.uri.localeCompare(b.uri))
}

type Found = { answer: Service } & (typeof SERVICES)[number]

interface MdnsPacket {
  answers?: { name: string; type: string; data: unknown }[]
  additionals?: { name: string; type: string; data: unknown }[]
}

interface Mdns {
  on(event: 'response', listener: (packet: MdnsPacket) => void): void
  removeListener(event: 'response', listener: (packet: MdnsPacket) => void): void
  query(name: string, type: string): void
}

function toDevice({ answer: service, kind, scheme, path: pathKey }: Found, addresses: string[]): DiscoveredDevice {
  const txt: Record<string, string> = {}
  // TXT keys are case-insensitive (RFC 6763 §6.4): lower-cased here so rp and RP read alike.
  for (const [key, value] of Object.entries(service.txt ?? {})) txt[key.toLowerCase()] = String(value)
  const path = (txt[pathKey] ?? '').replace(/^\/+/, '')
  return {
    kind,
    name: service.name,
    host: service.host,
    port: service.port,
    addresses,
    uri: `${scheme}://${uriHost(addresses, service.host)}:${service.port}/${path}`,
    txt,
  }
}

/** An IPv4 address if there is one, else a routable IPv6 one (bracketed), else the .local host name. */
function uriHost(addresses: string[], host: string): string {
  const v4 = addresses.find((address) => isIPv4(address))
  if (v4) return v4
  // A link-local address needs its interface (fe80::1%eth0), which mDNS answers do not carry.
  const v6 = addresses.find((address) => address.includes(':') && !/^fe80:/i.test(address))
  return v6 ? `[${v6}]` : host
}

function isSecure(scheme: string) {
  return scheme === 'ipps' || scheme === 'https'
}
