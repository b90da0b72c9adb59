/**
 * One page scanned for a core dialog (the ID card's faces): the scan route with the field's token_form
 * `field$$$id$$$side`, its scanforms_upload answer on the page's socket, then the staged file itself, so
 * the dialog handles it as an upload. Failures reject with the server's message (spec 001 §8); no answer
 * in time rejects with a TimeoutError (the dialog has its own text for it).
 */
import { call, readSession, sessionHeaders } from '@tramita/web/api'
import { SCAN_EVENT, type ScanEvent } from '../../shared/devices.js'
import { isGoodScan, placeAndWait, scanCallFields, scanTokenForm } from '../scan_order.js'
import { socketEvent } from './host.js'

/** A scanner's page takes seconds; a queue behind other jobs, more. The action's own default. */
export const SCAN_WAIT_MS = 120_000

export interface ScanRequest {
  machine: string
  field: string
  /** The form's key: the server checks the scan against this form's field. */
  form: string
  side?: string
  signal?: AbortSignal
}

export async function scan(request: ScanRequest, ms = SCAN_WAIT_MS): Promise<File> {
  const tokenForm = scanTokenForm(request.field, undefined, request.side || 'front')
  const order = scanCallFields(request.machine, tokenForm)
  const event = await placeAndWait<ScanEvent>(
    socketEvent,
    { event: SCAN_EVENT, match: (data) => data?.token_form === tokenForm, ms, signal: request.signal },
    () => call('POST', order.path, { ...order.fields, data: request.form }, { signal: request.signal }),
    (why) => Object.assign(new Error(why), { name: 'TimeoutError' })
  )
  // A failure's message is the server's, in the page's language (spec 001 §8).
  if (!isGoodScan(event)) throw new Error(event.message || 'scan failed')
  return stagedFile(event.path, event.real_name || `${request.side || 'scan'}${event.ext ?? ''}`, request.signal)
}

/** A staged file's bytes (a scan, a signature: its owner's to read, with the session's headers). */
export async function stagedFile(path: string, name: string, signal?: AbortSignal): Promise<File> {
  const response = await fetch(path, { headers: sessionHeaders(readSession()), signal, credentials: 'same-origin' })
  if (!response.ok) throw new Error(`${response.status} ${response.statusText}`)
  const blob = await response.blob()
  return new File([blob], name, { type: blob.type.split(';')[0] || 'application/octet-stream' })
}
