import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from '#tests/helpers/processes'
import { waitUntil } from '#tests/helpers/wait'

/**
 * A real ClamAV for the upload tests, with a database of one signature of our own (no download): it
 * loads in well under a second. The marked file is harmless text only this database knows.
 */

const CLAMD = '/usr/sbin/clamd'
export const CLAMSCAN = '/usr/bin/clamscan'

export const MARKED_FILE = Buffer.from('Tramita test file: a ClamAV signature of our own matches these bytes.\n')
/** ClamAV names a match from a database it did not sign UNOFFICIAL. */
export const MARKED_VIRUS = 'Tramita.Test.Marked.UNOFFICIAL'

export function clamavInstalled(): boolean {
  return existsSync(CLAMD) && existsSync(CLAMSCAN)
}

/** A directory holding the one-signature database (an MD5 hash signature of MARKED_FILE). */
export function signatureDatabase(): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'tramita-clamav-'))
  mkdirSync(join(dir, 'db'))
  const md5 = createHash('md5').update(MARKED_FILE).digest('hex')
  writeFileSync(join(dir, 'db', 'tramita.hdb'), `${md5}:${MARKED_FILE.length}:Tramita.Test.Marked\n`)
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) }
}

/** clamd on a free local port; stop() ends it (by its own pid) and removes its files. */
export async function startClamd(): Promise<{ host: string; port: number; database: string; stop: () => void }> {
  const { dir, remove } = signatureDatabase()
  const port = await freePort()
  writeFileSync(
    join(dir, 'clamd.conf'),
    [
      'Foreground yes',
      `DatabaseDirectory ${join(dir, 'db')}`,
      `TCPSocket ${port}`,
      'TCPAddr 127.0.0.1',
      `LogFile ${join(dir, 'clamd.log')}`,
      '',
    ].join('\n')
  )
  const child = spawn(CLAMD, ['-c', join(dir, 'clamd.conf')], { stdio: 'ignore' })
  let exited = false
  child.on('exit', () => (exited = true))
  const stop = () => {
    child.kill('SIGKILL')
    remove()
  }
  process.once('exit', stop)
  await waitUntil(async () => exited || (await pings(port)), 30_000, `clamd answering PING on port ${port}`, 100)
  if (exited) throw new Error(`clamd exited; see its configuration in ${dir}`)
  return { host: '127.0.0.1', port, database: join(dir, 'db'), stop }
}

function pings(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port })
    let reply = ''
    socket.setTimeout(1000, () => socket.destroy())
    socket.on('error', () => resolve(false))
    socket.on('close', () => resolve(reply.startsWith('PONG')))
    socket.on('data', (chunk: Buffer) => (reply += chunk.toString()))
    socket.on('connect', () => socket.write('zPING\0'))
  })
}
