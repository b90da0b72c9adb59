import { spawn } from 'node:child_process'
import { accessSync, constants, createReadStream, readdirSync } from 'node:fs'
import { open } from 'node:fs/promises'
import { connect } from 'node:net'
import { delimiter, join } from 'node:path'

/**
 * Virus checks of uploads (issue 17). The EICAR test file is refused by its signature whatever is
 * installed, so the refusal path can be seen working on any machine. ClamAV scans when configured:
 * clamd over TCP (INSTREAM) when CLAMAV_HOST is set (`host` or `host:port`, port 3310 by default),
 * else the `clamscan` program when it is on PATH with signatures in /var/lib/clamav, else nothing more
 * is scanned. Every scan has a time
 * limit; a configured scanner that cannot answer refuses the file rather than let it through unscanned.
 */

export type ScanVerdict =
  { kind: 'clean' } | { kind: 'infected'; virus: string } | { kind: 'unavailable'; detail: string }

export type Scanner =
  | { kind: 'clamd'; host: string; port: number }
  /** database: a signature directory other than clamscan's own (tests use a tiny one). */
  | { kind: 'clamscan'; path: string; database?: string }
  | null

/** Where Debian's clamav-freshclam keeps the signatures clamscan reads by default. */
const CLAMAV_DB_DIR = '/var/lib/clamav'

const CLAMD_TIMEOUT_MS = 30_000
/** clamscan loads its whole signature database on each run (10–20 s with the full one). */
const CLAMSCAN_TIMEOUT_MS = 120_000
const CLAMD_PORT = 3310

// Split so this source file is not itself taken for the test file by a scanner.
const EICAR = Buffer.from('X5O!P%@AP[4\\PZX54(P^)7CC)7}$' + 'EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*')

/**
 * The EICAR test file as its standard defines it: the 68-byte string at the start, at most 128 bytes
 * in all, only white space after it.
 */
export async function isEicar(path: string, size: number): Promise<boolean> {
  if (size < EICAR.length || size > 128) return false
  const handle = await open(path, 'r')
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(128), 0, 128, 0)
    const head = buffer.subarray(0, bytesRead)
    return head.subarray(0, EICAR.length).equals(EICAR) && /^\s*$/.test(head.subarray(EICAR.length).toString('latin1'))
  } finally {
    await handle.close()
  }
}

/** The scanner the environment configures (read on each call: tests and operators may change it). */
export function configuredScanner(): Scanner {
  const host = process.env.CLAMAV_HOST?.trim()
  if (host) {
    const match = /^\[?([^\]]+?)\]?(?::(\d+))?$/.exec(host)
    return { kind: 'clamd', host: match?.[1] ?? host, port: Number(match?.[2] ?? CLAMD_PORT) }
  }
  // clamscan without signatures only fails: installed but never updated is not configured.
  const path = onPath('clamscan')
  return path && hasSignatures(CLAMAV_DB_DIR) ? { kind: 'clamscan', path } : null
}

function hasSignatures(dir: string): boolean {
  try {
    return readdirSync(dir).some((name) => /\.(cvd|cld|hdb|hsb|ndb|ldb)$/.test(name))
  } catch {
    return false
  }
}

function onPath(program: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue
    try {
      accessSync(join(dir, program), constants.X_OK)
      return join(dir, program)
    } catch {
      // not in this directory
    }
  }
  return null
}

/** Scans a file with the configured scanner; null when none is configured. */
export async function scanFile(path: string, scanner = configuredScanner()): Promise<ScanVerdict | null> {
  if (!scanner) return null
  if (scanner.kind === 'clamd') return clamdScan(path, scanner.host, scanner.port)
  return clamscan(scanner.path, [...(scanner.database ? [`--database=${scanner.database}`] : []), path])
}

/** For /health: which scanner checks uploads and, for clamd, whether it answers a PING. */
export async function antivirusHealth(): Promise<{ ok: boolean; driver: string; detail?: string }> {
  const scanner = configuredScanner()
  if (!scanner) return { ok: true, driver: 'none', detail: 'no ClamAV configured: only the EICAR signature is refused' }
  if (scanner.kind === 'clamscan') return { ok: true, driver: 'clamscan' }
  const reply = await clamdPing(scanner.host, scanner.port)
  return reply === 'PONG' ? { ok: true, driver: 'clamd' } : { ok: false, driver: 'clamd', detail: reply }
}

function clamdPing(host: string, port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ host, port })
    let reply = ''
    socket.setTimeout(3000, () => {
      socket.destroy()
      resolve('clamd did not answer in time')
    })
    socket.on('error', (error) => resolve(error.message))
    socket.on('data', (chunk: Buffer) => (reply += chunk.toString()))
    socket.on('close', () => resolve(reply.replace(/\0.*$/s, '').trim() || 'clamd closed the connection'))
    socket.on('connect', () => socket.write('zPING\0'))
  })
}

/** clamd's INSTREAM: the file in length-prefixed chunks, a zero length, then one reply line. */
function clamdScan(path: string, host: string, port: number): Promise<ScanVerdict> {
  return new Promise((resolve) => {
    const socket = connect({ host, port })
    let reply = ''
    let settled = false
    const settle = (verdict: ScanVerdict) => {
      if (settled) return
      settled = true
      socket.destroy()
      resolve(verdict)
    }
    socket.setTimeout(CLAMD_TIMEOUT_MS, () => settle({ kind: 'unavailable', detail: 'clamd did not answer in time' }))
    socket.on('error', (error) => settle({ kind: 'unavailable', detail: error.message }))
    socket.on('data', (chunk: Buffer) => {
      reply += chunk.toString('utf8')
      if (reply.includes('\0')) settle(clamdVerdict(reply))
    })
    socket.on('end', () => settle(clamdVerdict(reply)))
    socket.on('connect', async () => {
      try {
        socket.write('zINSTREAM\0')
        for await (const chunk of createReadStream(path, { highWaterMark: 64 * 1024 }) as AsyncIterable<Buffer>) {
          const length = Buffer.alloc(4)
          length.writeUInt32BE(chunk.length)
          if (!socket.write(Buffer.concat([length, chunk]))) {
            // A socket closed meanwhile never drains: leaving the loop closes the file.
            await new Promise((go) => {
              socket.once('drain', go)
              socket.once('close', go)
            })
          }
          if (settled || socket.destroyed) return
        }
        socket.write(Buffer.alloc(4))
      } catch (error) {
        settle({ kind: 'unavailable', detail: (error as Error).message })
      }
    })
  })
}

/** `stream: OK`, `stream: NAME FOUND`, or an error line (e.g. `INSTREAM size limit exceeded. ERROR`). */
function clamdVerdict(reply: string): ScanVerdict {
  const line = reply.replace(/\0.*$/s, '').trim()
  if (/^stream: OK$/.test(line)) return { kind: 'clean' }
  const found = /^stream: (.+) FOUND$/.exec(line)
  if (found) return { kind: 'infected', virus: found[1]! }
  return { kind: 'unavailable', detail: line || 'clamd closed the connection without a verdict' }
}

/** clamscan's exit code: 0 clean, 1 found (the name on stdout), anything else an error. */
function clamscan(program: string, args: string[]): Promise<ScanVerdict> {
  return new Promise((resolve) => {
    const child = spawn(program, ['--no-summary', '--stdout', ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-2000))
    child.stdout.on('data', keep)
    child.stderr.on('data', keep)
    const timer = setTimeout(() => child.kill('SIGKILL'), CLAMSCAN_TIMEOUT_MS)
    child.on('error', (error) => {
      clearTimeout(timer)
      resolve({ kind: 'unavailable', detail: error.message })
    })
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      if (code === 0) return resolve({ kind: 'clean' })
      const found = /: (.+) FOUND\s*$/m.exec(output)
      if (code === 1 && found) return resolve({ kind: 'infected', virus: found[1]! })
      const detail = signal ? 'clamscan did not answer in time' : output.trim().split('\n').pop() || `exit ${code}`
      resolve({ kind: 'unavailable', detail })
    })
  })
}
