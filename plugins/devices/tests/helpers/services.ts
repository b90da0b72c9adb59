import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { chmod, cp, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { waitUntil } from '../../../../core/server/tests/helpers/wait.js'

/**
 * The real programs the driver tests talk to: CUPS's ippeveprinter (cups-ipp-utils) as the printer,
 * SANE's `test` backend (sane-utils) as the scanner, Avahi (avahi-daemon, dbus) for DNS-SD.
 */

/** Every program started here, killed when the test process exits however it ends. */
const running = new Set<ChildProcess>()
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL')
})

/** Runs a program to its end; a missing one fails with the Debian package that brings it. */
function run(program: string, args: string[], timeoutMs = 10_000) {
  return new Promise<{ code: number; output: string }>((resolve, reject) => {
    execFile(program, args, { timeout: timeoutMs }, (error, stdout, stderr) => {
      // The exit status, or a spawn error's name (ENOENT), or null when killed at the timeout.
      const code = (error as { code?: number | string | null } | null)?.code
      if (code === 'ENOENT') return reject(new Error(`${program} is missing: ${PACKAGES}`))
      resolve({ code: error ? (typeof code === 'number' ? code : 1) : 0, output: `${stdout}${stderr}` })
    })
  })
}
const PACKAGES = 'apt-get install cups-ipp-utils sane-utils avahi-daemon dbus (.ci/run does)'
/** Daemons and ippeveprinter live in /usr/sbin, which a user's PATH may lack. */
const sbin = (program: string) => (existsSync(`/usr/sbin/${program}`) ? `/usr/sbin/${program}` : program)

/**
 * Starts D-Bus and Avahi when they do not answer (ippeveprinter will not start without DNS-SD):
 * start_avahi.sh, which .ci/run calls too, under a lock shared by test processes running side by side.
 * Where it had to start a bus of its own, the programs this process starts from now on use that bus.
 */
export async function ensureAvahi(): Promise<void> {
  const script = fileURLToPath(new URL('./start_avahi.sh', import.meta.url))
  const started = await run('sh', [script], 60_000)
  if (started.code !== 0) throw new Error(`D-Bus and Avahi did not start: ${started.output}`)
  const address = /^DBUS_SYSTEM_BUS_ADDRESS=(.*)$/m.exec(started.output)?.[1]
  if (address) process.env.DBUS_SYSTEM_BUS_ADDRESS = address
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().on('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

export interface TestPrinter {
  name: string
  uri: string
  port: number
  spoolDir: string
  /** Its -v log so far (for failure messages). */
  log(): string
  /** SIGSTOP: the port still accepts connections (the kernel does) but nothing answers. */
  suspend(): void
  resume(): void
  stop(): Promise<void>
}

export interface PrinterOptions {
  name: string
  /**
   * The print command's shell script (ippeveprinter -c): it gets the document's path, and its stderr's
   * `STATE: +media-empty-error` lines become printer-state-reasons. Default `exit 0`: jobs complete at
   * once (without -c ippeveprinter takes about 12 s per job).
   */
  script?: string
}

/** A fresh ippeveprinter on a free port with its own spool folder, once it answers IPP. */
export async function startPrinter({ name, script = 'exit 0' }: PrinterOptions): Promise<TestPrinter> {
  await ensureAvahi()
  const spoolDir = await mkdtemp(join(tmpdir(), 'tramita-printer-'))
  const command = join(spoolDir, 'print-command.sh')
  await writeFile(command, `#!/bin/sh\n${script}\n`)
  await chmod(command, 0o755)
  const port = await freePort()
  // -2: duplex; -s 10,8: a colour speed, which makes it a colour printer; -k: keep the documents.
  const args = ['-v', '-2', '-s', '10,8', '-M', 'Tramita', '-m', 'Test Printer', '-p', String(port)]
  args.push('-f', 'application/pdf,image/jpeg,image/png', '-d', spoolDir, '-k', '-c', command, name)
  const child = spawn(sbin('ippeveprinter'), args, { cwd: spoolDir, stdio: ['ignore', 'pipe', 'pipe'] })
  running.add(child)
  let log = ''
  const keep = (chunk: Buffer) => (log = (log + chunk).slice(-64 * 1024))
  child.stdout!.on('data', keep)
  child.stderr!.on('data', keep)
  let spawnError: NodeJS.ErrnoException | null = null
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => resolve())
    child.once('error', (error) => ((spawnError = error), resolve()))
  }).finally(() => running.delete(child))
  const uri = `ipp://127.0.0.1:${port}/ipp/print`
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null && !spawnError) {
      child.kill('SIGCONT')
      child.kill('SIGTERM')
      const killer = setTimeout(() => child.kill('SIGKILL'), 5000)
      await exited
      clearTimeout(killer)
    }
    await rm(spoolDir, { recursive: true, force: true })
  }
  try {
    await waitUntil(
      async () => {
        if (spawnError)
          throw new Error(spawnError.code === 'ENOENT' ? `ippeveprinter is missing: ${PACKAGES}` : spawnError.message)
        if (child.exitCode !== null) throw new Error(`ippeveprinter exited (${child.exitCode}):\n${log}`)
        return (await ipptool(uri, 'get-printer-attributes.test')).code === 0
      },
      15_000,
      () => `ippeveprinter answering on ${uri}:\n${log}`,
      200
    )
  } catch (error) {
    await stop()
    throw error
  }
  return {
    name,
    uri,
    port,
    spoolDir,
    log: () => log,
    suspend: () => void child.kill('SIGSTOP'),
    resume: () => void child.kill('SIGCONT'),
    stop,
  }
}

/** CUPS's own IPP client, so tests check what the printer recorded without the driver's encoding. */
function ipptool(uri: string, testFile: string, variables: Record<string, string> = {}) {
  const defines = Object.entries(variables).flatMap(([key, value]) => ['-d', `${key}=${value}`])
  return run('ipptool', ['-T', '3', '-tv', ...defines, uri, testFile])
}

/** A job's attributes as the printer recorded them (copies, sides, media, job-name, job-state…), as text. */
export async function jobAttributes(printer: TestPrinter, jobId: number): Promise<Record<string, string>> {
  const testFile = join(printer.spoolDir, 'get-job.test')
  await writeFile(
    testFile,
    `{
  NAME "job attributes"
  OPERATION Get-Job-Attributes
  GROUP operation-attributes-tag
  ATTR charset attributes-charset utf-8
  ATTR language attributes-natural-language en
  ATTR uri printer-uri $uri
  ATTR integer job-id $job_id
  ATTR name requesting-user-name tramita
  STATUS successful-ok
}
`
  )
  const { code, output } = await ipptool(printer.uri, testFile, { job_id: String(jobId) })
  if (code !== 0) throw new Error(`ipptool Get-Job-Attributes failed:\n${output}`)
  // "        copies (integer) = 2", after the answer's status line.
  const answer = output.slice(output.indexOf('status-code ='))
  return Object.fromEntries(
    [...answer.matchAll(/^\s+([a-z0-9-]+) \([^)]+\) = (.*)$/gm)].map(([, key, value]) => [key, value])
  )
}

export interface ReceivedFile {
  jobId: number
  /** The job name as ippeveprinter wrote it in the file name (spaces, slashes and the like become _). */
  name: string
  path: string
  bytes: number
}

/** The documents the printer received (kept by -k as `<job-id>-<job-name>.<ext>`), by job id. */
export async function receivedFiles(printer: TestPrinter): Promise<ReceivedFile[]> {
  const files = []
  for (const entry of await readdir(printer.spoolDir)) {
    const match = /^(\d+)-(.*)\.(pdf|png|jpg|jpeg)$/.exec(entry)
    if (!match) continue
    const path = join(printer.spoolDir, entry)
    files.push({ jobId: Number(match[1]), name: match[2], path, bytes: (await stat(path)).size })
  }
  return files.sort((a, b) => a.jobId - b.jobId)
}

export interface SaneTestConfig {
  env: NodeJS.ProcessEnv
  dir: string
  remove(): Promise<void>
}

/**
 * A SANE configuration with the `test` backend alone (Debian ships it disabled). `testOptions` are lines
 * of its test.conf: `{ 'read-status-code': '"SANE_STATUS_NO_DOCS"' }` makes every scan fail that way.
 * The scan area may reach 40 cm (the backend's default is 20) so the spec's 28 × 22 cm fits.
 */
export async function saneTestEnv(testOptions: Record<string, string> = {}): Promise<SaneTestConfig> {
  if (!existsSync('/etc/sane.d')) throw new Error(`/etc/sane.d is missing: ${PACKAGES}`)
  const dir = await mkdtemp(join(tmpdir(), 'tramita-sane-'))
  await cp('/etc/sane.d', dir, { recursive: true })
  await writeFile(join(dir, 'dll.conf'), 'test\n')
  // dll.d adds backends of other packages (airscan, which would search the network).
  await rm(join(dir, 'dll.d'), { recursive: true, force: true })
  const options: Record<string, string> = { geometry_max: '400.0', ...testOptions }
  const lines = (await readFile(join(dir, 'test.conf'), 'utf8'))
    .split('\n')
    .filter((line) => !(line.split(/\s+/)[0] in options))
  await writeFile(
    join(dir, 'test.conf'),
    [...lines, ...Object.entries(options).map(([key, value]) => `${key} ${value}`)].join('\n') + '\n'
  )
  return { env: { ...process.env, SANE_CONFIG_DIR: dir }, dir, remove: () => rm(dir, { recursive: true, force: true }) }
}
