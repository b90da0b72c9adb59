import { setTimeout as sleep } from 'node:timers/promises'
import type { Media } from '../../shared/protocol.js'
import { DeviceError } from './errors.js'
import { type IppAttributes, IppRefused, ippCall, list } from './ipp_client.js'

/** Printing through IPP (IPP Everywhere printers, CUPS queues, ippeveprinter). */

export interface PrinterInfo {
  name: string
  brand: string
  model: string
  /** Accepts jobs now: not stopped, and no reason of severity `-error` (media-empty-error, door-open-error…). */
  ready: boolean
  /** media-source-supported, in the printer's order: tray n of a print order is the n-th. */
  trays: string[]
  duplex: boolean
  color: boolean
  stateReasons: string[]
}

export interface PrintRequest {
  /** The printer's job-name: printFile finds an earlier attempt by it, so one name prints once. */
  jobName: string
  bytes: Uint8Array
  mime: string
  copies: number
  bothSides: boolean
  color: boolean
  /** 1-based. */
  tray: number
  media: Media
}

export interface PrintOutcome {
  jobId: number
  state: 'completed'
  /** The printer already had this job (an earlier attempt): it was not sent again. */
  reused: boolean
}

export interface PrinterCallOptions {
  timeoutMs: number
  signal?: AbortSignal
}

const PRINTER_ATTRIBUTES = [
  'printer-name',
  'printer-make-and-model',
  'printer-state',
  'printer-state-reasons',
  'media-source-supported',
  'sides-supported',
  'print-color-mode-supported',
]
const MEDIA: Record<Media, { keyword: string; x: number; y: number }> = {
  letter: { keyword: 'na_letter_8.5x11in', x: 21590, y: 27940 },
  legal: { keyword: 'na_legal_8.5x14in', x: 21590, y: 35560 },
}
/** Job states as the parser names them (the enum's numbers when it does not know one). */
const ENDED = new Map<unknown, string>([
  ['completed', 'completed'],
  [9, 'completed'],
  ['aborted', 'aborted'],
  [8, 'aborted'],
  ['canceled', 'canceled'],
  [7, 'canceled'],
])
const POLL_MS = 500
/** The end of a job's budget kept for asking the printer why the job has not ended (no_paper or not). */
const REASONS_MS = 1000

export async function printerInfo(uri: string, options: PrinterCallOptions): Promise<PrinterInfo> {
  const { printer } = await ippCall(
    uri,
    { operation: 'Get-Printer-Attributes', attributes: { 'requested-attributes': PRINTER_ATTRIBUTES } },
    options
  )
  const makeAndModel = String(printer['printer-make-and-model'] ?? '').trim()
  const [brand = '', ...model] = makeAndModel.split(/\s+/)
  const stateReasons = list(printer['printer-state-reasons']).filter((reason) => reason !== 'none')
  const state = printer['printer-state']
  return {
    name: String(printer['printer-name'] ?? ''),
    brand,
    model: model.join(' ') || brand,
    ready: state !== 'stopped' && state !== 5 && !stateReasons.some((reason) => reason.endsWith('-error')),
    trays: list(printer['media-source-supported']),
    duplex: list(printer['sides-supported']).some((side) => side.startsWith('two-sided')),
    color: list(printer['print-color-mode-supported']).includes('color'),
    stateReasons,
  }
}

/**
 * Prints one document and waits for the printer to finish it, all within `timeoutMs`. A job of the same
 * name already on the printer (sent before a crash or a lost answer) is waited for instead of sent again.
 */
export async function printFile(
  uri: string,
  request: PrintRequest,
  { timeoutMs, signal }: PrinterCallOptions
): Promise<PrintOutcome> {
  const deadline = Date.now() + timeoutMs
  const left = () => ({ timeoutMs: Math.max(1, deadline - Date.now()), signal })

  const earlier = await findJob(uri, request.jobName, left)
  if (earlier !== null) {
    await waitForJob(uri, earlier, deadline, left)
    return { jobId: earlier, state: 'completed', reused: true }
  }
  const info = await printerInfo(uri, left())
  const { jobs } = await ippCall(
    uri,
    {
      operation: 'Print-Job',
      attributes: { 'job-name': request.jobName, 'document-format': request.mime },
      job: jobTemplate(request, info.trays),
      data: request.bytes,
    },
    left()
  )
  const jobId = Number(jobs[0]?.['job-id'])
  if (!Number.isInteger(jobId)) throw new DeviceError('print_error', `${uri} accepted the job without a job-id`)
  await waitForJob(uri, jobId, deadline, left)
  return { jobId, state: 'completed', reused: false }
}

/** The Print-Job's job template: media by keyword, or in a media-col when a tray has to be named with it. */
function jobTemplate(request: PrintRequest, trays: string[]): IppAttributes {
  const media = MEDIA[request.media]
  // A tray the printer does not list is left to the printer (its default source).
  const source = trays[request.tray - 1]
  return {
    copies: Math.max(1, Math.floor(request.copies)),
    sides: request.bothSides ? 'two-sided-long-edge' : 'one-sided',
    'print-color-mode': request.color ? 'color' : 'monochrome',
    ...(source
      ? { 'media-col': { 'media-size': { 'x-dimension': media.x, 'y-dimension': media.y }, 'media-source': source } }
      : { media: media.keyword }),
  }
}

/** The newest job of this name that is done or under way (canceled and aborted ones are to be redone). */
async function findJob(uri: string, jobName: string, left: () => PrinterCallOptions): Promise<number | null> {
  const getJobs = async (which: string) => {
    const attributes = { 'which-jobs': which, 'requested-attributes': ['job-id', 'job-name', 'job-state'] }
    return (await ippCall(uri, { operation: 'Get-Jobs', attributes }, left())).jobs
  }
  let jobs: IppAttributes[]
  try {
    jobs = await getJobs('all')
  } catch (error) {
    // which-jobs 'all' came with IPP/2.x's job extensions; older printers know these two.
    if (!(error instanceof IppRefused)) throw error
    jobs = [...(await getJobs('not-completed')), ...(await getJobs('completed'))]
  }
  const alive = jobs
    .filter(
      (job) => job['job-name'] === jobName && !['aborted', 'canceled'].includes(ENDED.get(job['job-state']) ?? '')
    )
    .map((job) => Number(job['job-id']))
  return alive.length > 0 ? Math.max(...alive) : null
}

async function waitForJob(uri: string, jobId: number, deadline: number, left: () => PrinterCallOptions) {
  const attributes = {
    'job-id': jobId,
    'requested-attributes': ['job-state', 'job-state-reasons', 'job-state-message'],
  }
  for (;;) {
    const { jobs } = await ippCall(uri, { operation: 'Get-Job-Attributes', attributes }, left())
    const job = jobs[0] ?? {}
    const ended = ENDED.get(job['job-state'])
    if (ended === 'completed') return
    if (ended) throw await jobFailure(uri, jobId, `${ended} (${describe(job)})`, left)
    if (Date.now() + POLL_MS + REASONS_MS >= deadline) {
      throw await jobFailure(uri, jobId, `still ${job['job-state']} after the time allowed (${describe(job)})`, left)
    }
    await sleep(POLL_MS, undefined, { signal: left().signal }).catch(() => {
      throw new DeviceError('print_error', `job ${jobId} on ${uri}: waiting was cancelled`)
    })
  }
}

/** no_paper when the printer says so (media-empty-error, media-needed-report…); print_error otherwise. */
async function jobFailure(uri: string, jobId: number, what: string, left: () => PrinterCallOptions) {
  let reasons: string[] = []
  try {
    reasons = (await printerInfo(uri, left())).stateReasons
  } catch {}
  const detail = `job ${jobId} on ${uri} ${what}${reasons.length ? `; printer: ${reasons.join(', ')}` : ''}`
  const noPaper = reasons.some((reason) => /^media-(empty|needed)/.test(reason))
  return new DeviceError(noPaper ? 'no_paper' : 'print_error', detail)
}

function describe(job: IppAttributes): string {
  return [...list(job['job-state-reasons']), job['job-state-message']].filter(Boolean).join(', ')
}
