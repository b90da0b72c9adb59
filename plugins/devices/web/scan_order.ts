/**
 * A scan asked from the browser (spec 000 §7 scan, §9 constants): the scan route's fields and the wait
 * for its scanforms_upload answer. One implementation for both askers: the scan_document action
 * (action_handlers.ts) and the core's ID card dialog (form_devices/scan.ts).
 */
import { DEVICES_ROUTES, type ScanEvent } from '../shared/devices.js'

/** Scan area in centimetres and paper (spec 000 §9: scan size 22 by 28). */
export const SCAN_HEIGHT_CM = 22
export const SCAN_WIDTH_CM = 28
export const SCAN_PAPER = 'letter'

/** The page's socket wait (the action engine's host.socketEvent, the dialogs' FormDevicesHost). */
export type SocketEvent = (
  kase: string,
  match: (data: unknown) => boolean,
  timeoutMs: number,
  signal?: AbortSignal
) => Promise<unknown>

/** A random id for token_form (crypto.getRandomValues works on plain http too, unlike randomUUID). */
export function randomId(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(12))
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')
}

/** The form field token_form joins with a random id and the side (spec 000 §7). */
export function scanTokenForm(field: string, id = randomId(), side: string = 'front'): string {
  return `${field}$$$${id}$$$${side}`
}

/** How to scan: the scan_document action's options; a dialog takes the defaults. */
export interface ScanSettings {
  duplex?: boolean
  color?: boolean
  dpi?: number
  /** The scanner's input: 'Platen' (the glass) or its feeder. */
  source?: string
  ocr?: boolean
  /** 'pdf' (the default), 'jpeg' or 'png'. */
  format?: string
}

/** The scan route's fields (spec 000 §7): config_printer, token_machine, token_form. */
export function scanCallFields(machine: string, tokenForm: string, settings: ScanSettings = {}) {
  const configPrinter = {
    duplex: settings.duplex === true,
    color: settings.color !== false,
    dpi: settings.dpi || 300,
    paper: SCAN_PAPER,
    height: SCAN_HEIGHT_CM,
    width: SCAN_WIDTH_CM,
    inputSource: settings.source || 'Platen',
    ocr: settings.ocr === true,
    format: settings.format || 'pdf',
  }
  return {
    path: DEVICES_ROUTES.scan.path,
    fields: { config_printer: JSON.stringify(configPrinter), token_machine: machine, token_form: tokenForm },
  }
}

/** A scan's answer that brought its file; any other is a failure whose `message` the server wrote. */
export function isGoodScan(event: ScanEvent): event is ScanEvent & { path: string } {
  return event.status === 'good' && typeof event.path === 'string' && event.path !== ''
}

/**
 * Places a job and waits for its answer on the socket: listening starts before the call (an answer may
 * come before the call's own), and stops when the call fails (its error is rethrown). No answer within
 * `ms`: the error `silent` makes of the wait's reason; an abort of `signal`: its reason.
 */
export async function placeAndWait<T>(
  socketEvent: SocketEvent,
  wait: { event: string; match: (data: T) => boolean; ms: number; signal?: AbortSignal },
  place: () => Promise<unknown>,
  silent: (why: string) => Error
): Promise<T> {
  const stop = new AbortController()
  const abort = () => stop.abort(wait.signal?.reason)
  wait.signal?.addEventListener('abort', abort, { once: true })
  if (wait.signal?.aborted) abort()
  const answer = socketEvent(wait.event, (data) => wait.match(data as T), wait.ms, stop.signal)
  // Settled below, or abandoned when the call fails: never an unhandled rejection.
  answer.catch(() => undefined)
  try {
    try {
      await place()
    } catch (error) {
      stop.abort(error)
      throw error
    }
    try {
      return (await answer) as T
    } catch (error) {
      if (wait.signal?.aborted) throw error
      throw silent(error instanceof Error ? error.message : String(error))
    }
  } finally {
    wait.signal?.removeEventListener('abort', abort)
  }
}
