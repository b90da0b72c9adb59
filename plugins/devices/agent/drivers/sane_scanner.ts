import { spawn } from 'node:child_process'
import { createWriteStream } from 'node:fs'
import { readFile, rename, rm, stat, writeFile } from 'node:fs/promises'
import { PDFDocument } from 'pdf-lib'
import { DeviceError } from './errors.js'

/**
 * Scanning through SANE's `scanimage` (sane-utils), run without a shell. Its PDF output needs a seekable
 * file (to a pipe its cross-reference table is broken), and the byte cap needs the bytes as they come:
 * so a PDF is scanned as JPEG through the pipe and wrapped here, as scanimage does itself (DCTDecode).
 */

export interface ScannerInfo {
  device: string
  vendor: string
  model: string
  type: string
}

export interface SaneOptions {
  timeoutMs: number
  /** scanimage's whole environment (SANE_CONFIG_DIR…); this process's by default. */
  env?: NodeJS.ProcessEnv
  signal?: AbortSignal
}

export interface ScanRequest {
  color: boolean
  dpi: number
  widthCm: number
  heightCm: number
  /** A source the device lists (or its usual synonym: Platen for Flatbed); otherwise the device's default. */
  source: string
  format: 'pdf' | 'png' | 'jpeg'
  /** Uses the device's duplex source when it lists one. */
  duplex: boolean
}

export interface ScanOptions extends SaneOptions {
  /** Largest file accepted: a bigger scan is stopped and fails. */
  maxBytes: number
}

export interface ScanOutcome {
  bytes: number
  /** The source used ('' when the device's default). */
  source: string
}

const SCANIMAGE = 'scanimage'
/** What a listing or an option dump may print (a device's -A is a few kB). */
const MAX_TEXT_BYTES = 1024 * 1024
/** After SIGTERM scanimage cancels the scan (sane_cancel, so a USB scanner is left usable); SIGKILL after this. */
const KILL_GRACE_MS = 3000
/** How long scanimage may take to exit once it has named a failure, before it is stopped. */
const CLOSE_AFTER_ERROR_MS = 2000

export async function listScanners(options: SaneOptions): Promise<ScannerInfo[]> {
  const { stdout } = await runText(['-f', '%d\t%v\t%m\t%t%n'], options)
  return stdout
    .split('\n')
    .filter((line) => line.includes('\t'))
    .map((line) => {
      const [device, vendor = '', model = '', type = ''] = line.split('\t')
      return { device, vendor, model, type }
    })
}

/** The values of the device's `--source` option ([] when it has none). */
export async function scannerSources(device: string, options: SaneOptions): Promise<string[]> {
  return (await deviceChoices(device, options)).sources
}

/** The values a scan picks from: sources, and modes (named "Color" by most backends, "24bit Color" by some). */
async function deviceChoices(device: string, options: SaneOptions) {
  const { stdout } = await runText(['-d', device, '-A'], options)
  // "    --source Flatbed|Automatic Document Feeder [Flatbed]", perhaps with [inactive] or [advanced] after.
  const values = (option: string) => {
    const line = new RegExp(`^\\s*--${option}\\s+(.+?)(?:\\s+\\[[^\\]]*\\])+\\s*$`, 'm').exec(stdout)
    return line ? line[1].split('|').map((value) => value.trim()) : []
  }
  return { sources: values('source'), modes: values('mode') }
}

export async function scanToFile(
  device: string,
  request: ScanRequest,
  outPath: string,
  options: ScanOptions
): Promise<ScanOutcome> {
  if (!(request.dpi > 0 && request.widthCm > 0 && request.heightCm > 0)) {
    throw new DeviceError(
      'scan_error',
      `invalid scan area or resolution: ${request.widthCm}×${request.heightCm} cm, ${request.dpi} dpi`
    )
  }
  const deadline = Date.now() + options.timeoutMs
  const choices = await deviceChoices(device, options)
  const source = pickSource(request, choices.sources)
  const mode = pickMode(request.color, choices.modes)
  const args = [
    '-d',
    device,
    `--format=${request.format === 'png' ? 'png' : 'jpeg'}`,
    '--resolution',
    String(Math.round(request.dpi)),
    ...(mode ? ['--mode', mode] : []),
    '-x',
    String(Number((request.widthCm * 10).toFixed(1))),
    '-y',
    String(Number((request.heightCm * 10).toFixed(1))),
    ...(source ? ['--source', source] : []),
  ]
  // Written beside the target and renamed at the end: a failed scan leaves nothing at outPath.
  const partPath = `${outPath}.part`
  try {
    await scanInto(args, partPath, { ...options, timeoutMs: Math.max(1, deadline - Date.now()) }, options.timeoutMs)
    let { size: bytes } = await stat(partPath)
    if (request.format === 'pdf') bytes = await wrapJpegInPdf(partPath, request.dpi)
    if (bytes > options.maxBytes) throw tooBig(options.maxBytes)
    await rename(partPath, outPath)
    return { bytes, source }
  } catch (error) {
    await rm(partPath, { force: true })
    throw error
  }
}

/** The device's spelling of the asked source, its duplex source when asked, or '' (the device's default). */
function pickSource({ source, duplex }: ScanRequest, sources: string[]): string {
  const find = (test: (value: string) => boolean) => sources.find((value) => test(value.toLowerCase())) ?? ''
  const asked = source.trim().toLowerCase()
  if (duplex) {
    const both = find((value) => value.includes('duplex'))
    if (both) return both
  }
  const exact = find((value) => value === asked)
  if (exact) return exact
  // eSCL says Platen and Feeder (the spec's default is Platen); SANE backends mostly Flatbed and ADF.
  if (asked === 'platen' || asked === 'flatbed') return find((value) => value === 'flatbed' || value === 'platen')
  if (asked === 'feeder' || asked === 'adf')
    return find((value) => /feeder|adf/.test(value) && !value.includes('duplex'))
  return ''
}

/** Color or Gray as the device spells them ("24bit Color", "True Gray"); '' (its default) when it has neither. */
function pickMode(color: boolean, modes: string[]): string {
  const patterns = color ? [/^colou?r$/i, /colou?r/i] : [/^gr[ae]y(scale)?$/i, /true gr[ae]y/i, /gr[ae]y/i]
  for (const pattern of patterns) {
    const mode = modes.find((value) => pattern.test(value))
    if (mode) return mode
  }
  // A scanner without such a mode (a black-and-white one) scans as it can.
  return ''
}

/** What a failed scanimage said, as the server's error codes (SANE's status is also its exit code). */
export function saneFailure(stderr: string, exitCode: number | null): DeviceError {
  const lines = stderr
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
  // The device's words ("scanimage: sane_read: Document feeder jammed"), not the noise around them (a
  // backend's reader process may report the SIGPIPE it gets once scanimage stops reading).
  const detail =
    lines.find((line) => /sane_(open|start|read)|open of device/.test(line)) ??
    lines.filter((line) => !/received signal|trying to stop|rounded value/.test(line)).pop() ??
    `scanimage exited with ${exitCode}`
  if (/out of documents|SANE_STATUS_NO_DOCS/i.test(stderr) || exitCode === 7)
    return new DeviceError('not_detected', detail)
  if (/no space left|ENOSPC/i.test(stderr)) return new DeviceError('no_storage', detail)
  return new DeviceError('scan_error', detail)
}

const tooBig = (maxBytes: number) => new DeviceError('scan_error', `the scan is larger than ${maxBytes} bytes`)

/** Runs scanimage with its stdout into `path`, stopping it at the byte cap, the deadline or the signal. */
function scanInto(args: string[], path: string, options: ScanOptions, budgetMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const file = createWriteStream(path)
    let failure: DeviceError | null = null
    const child = start(args, options, (error) => stop(error), budgetMs)
    let size = 0
    let stderr = ''
    let hung: NodeJS.Timeout | undefined
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk).slice(-8192)
      // scanimage names a failed start or read as its last words, then closes the device. Closing can
      // hang (seen with SANE's test backend and an empty feeder, 1 run in 8): the device's words decide.
      if (!hung && /sane_(start|read):/.test(stderr)) {
        hung = setTimeout(() => stop(saneFailure(stderr, null)), CLOSE_AFTER_ERROR_MS)
        void child.exited.then(() => clearTimeout(hung))
      }
    })
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > options.maxBytes) stop(tooBig(options.maxBytes))
    })
    child.stdout.pipe(file)
    file.on('error', (error: NodeJS.ErrnoException) => {
      stop(
        error.code === 'ENOSPC'
          ? new DeviceError('no_storage', error.message)
          : new DeviceError('scan_error', error.message)
      )
    })
    function stop(error: DeviceError) {
      if (failure) return
      failure = error
      // Drained into nothing from now on, so a scanimage blocked on a full pipe sees its SIGTERM through.
      child.stdout.unpipe(file)
      child.stdout.resume()
      if (!file.destroyed) file.end()
      child.stop()
    }
    Promise.all([child.exited, new Promise<void>((done) => file.on('close', () => done()))]).then(([code]) => {
      if (failure) return reject(failure)
      if (code !== 0) return reject(saneFailure(stderr, code))
      if (size === 0) return reject(new DeviceError('scan_error', `scanimage wrote nothing: ${stderr.trim()}`))
      resolve()
    })
  })
}

/** Replaces the JPEG at `path` by a one-page PDF of the scanned size; returns its size. */
async function wrapJpegInPdf(path: string, dpi: number): Promise<number> {
  const pdf = await PDFDocument.create()
  const image = await pdf.embedJpg(await readFile(path))
  const points = (pixels: number) => (pixels / dpi) * 72
  pdf.addPage([points(image.width), points(image.height)]).drawImage(image, {
    x: 0,
    y: 0,
    width: points(image.width),
    height: points(image.height),
  })
  pdf.setProducer('Tramita')
  const bytes = await pdf.save()
  await writeFile(path, bytes)
  return bytes.byteLength
}

/** Runs scanimage for its text output (a listing, an option dump). */
async function runText(args: string[], options: SaneOptions): Promise<{ stdout: string }> {
  let failure: DeviceError | null = null
  const child = start(args, options, (error) => {
    failure ??= error
    child.stop()
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => {
    if (stdout.length < MAX_TEXT_BYTES) stdout += chunk
  })
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk).slice(-8192)))
  const code = await child.exited
  if (failure) throw failure
  if (code !== 0) throw saneFailure(stderr, code)
  return { stdout }
}

/**
 * Spawns scanimage; `onFailure` hears of a missing program, the deadline and the signal. `exited`
 * resolves with the exit code (null when killed) once the process is gone. `budgetMs` is the whole
 * call's time, named in the error (what is left of it is `timeoutMs`).
 */
function start(
  args: string[],
  { timeoutMs, env, signal }: SaneOptions,
  onFailure: (error: DeviceError) => void,
  budgetMs = timeoutMs
) {
  const child = spawn(SCANIMAGE, args, { env: env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] })
  let killTimer: NodeJS.Timeout | undefined
  const stop = () => {
    if (child.exitCode !== null || child.signalCode !== null || killTimer) return
    child.kill('SIGTERM')
    killTimer = setTimeout(() => child.kill('SIGKILL'), KILL_GRACE_MS)
  }
  const timer = setTimeout(
    () => onFailure(new DeviceError('scan_error', `scanimage did not finish within ${budgetMs} ms`)),
    timeoutMs
  )
  const onAbort = () => onFailure(new DeviceError('scan_error', 'the scan was cancelled'))
  signal?.addEventListener('abort', onAbort, { once: true })
  if (signal?.aborted) queueMicrotask(onAbort)
  const exited = new Promise<number | null>((resolve) => {
    child.on('error', (error: NodeJS.ErrnoException) => {
      onFailure(
        new DeviceError(
          'scan_error',
          error.code === 'ENOENT' ? `${SCANIMAGE} is not installed (apt-get install sane-utils)` : error.message
        )
      )
      resolve(null)
    })
    child.on('close', (code) => resolve(code))
  }).finally(() => {
    clearTimeout(timer)
    clearTimeout(killTimer)
    signal?.removeEventListener('abort', onAbort)
  })
  return { stdout: child.stdout, stderr: child.stderr, exited, stop }
}
