/**
 * A signature from outside the browser for the core's signature dialog (spec 000 §2, §7 signing flow):
 * a request opened on the server (its token is the upload address's only key), then the picture of the
 * signed template's box once `signature_upload_finish` arrives for that token on the page's socket.
 * Without a machine the person's own signing app sends the PDF (signpro mode); with one, the signing pad
 * of that machine's agent is asked at once.
 */
import { call } from '@tramita/web/api'
import type { FormDevices, SignatureRequest } from '@tramita/plugin-api/web'
import { DEVICES_ROUTES, SIGNATURE_EVENT, type SignatureEvent, type SignatureOpened } from '../../shared/devices.js'
import { socketEvent } from './host.js'
import { stagedFile } from './scan.js'

/** The saved picture's name, as the dialog's own (spec 001 §9 "firma.png"). */
const PICTURE_NAME = 'firma.png'
/** Past the request's end nothing can arrive: the wait stops a little after it. */
const GRACE_MS = 30_000

export const signature: FormDevices['signature'] = async (request) => {
  const { method, path } = DEVICES_ROUTES.openSignature
  // Listening starts before the request: a pad may sign before its answer is read. Until the token is
  // known, answers are kept and looked at once it is.
  let token: string | null = null
  const early: SignatureEvent[] = []
  const stop = new AbortController()
  const abort = () => stop.abort(request.signal?.reason)
  request.signal?.addEventListener('abort', abort, { once: true })
  const heard = socketEvent(
    SIGNATURE_EVENT,
    (data) => {
      const event = data as SignatureEvent
      if (token === null) early.push(event)
      return token !== null && event?.token === token
    },
    // Replaced by the request's own end below (a wait cannot be re-timed: this one is long enough).
    15 * 60_000,
    stop.signal
  )
  heard.catch(() => undefined)
  let opened: SignatureOpened
  try {
    const fields = { field: request.field, data: request.form ?? '', machine: request.machine ?? '' }
    opened = (await call<SignatureOpened>(method, path, fields, { signal: request.signal })).data as SignatureOpened
  } catch (error) {
    stop.abort(error)
    request.signal?.removeEventListener('abort', abort)
    throw error
  }
  token = opened.token
  const before = early.find((event) => event?.token === token)
  const ends = Math.max(new Date(opened.expires_at).getTime() - Date.now(), 0) + GRACE_MS
  const done = (async () => {
    const timer = setTimeout(() => stop.abort(new DOMException('no signature arrived', 'TimeoutError')), ends)
    try {
      const event = before ?? ((await heard) as SignatureEvent)
      if (event.status !== 'good' || !event.path) throw new Error(event.message || 'signature failed')
      return await stagedFile(event.path, PICTURE_NAME, request.signal)
    } finally {
      clearTimeout(timer)
      request.signal?.removeEventListener('abort', abort)
    }
  })()
  // The dialog may be closed without waiting: never an unhandled rejection.
  done.catch(() => undefined)
  const answer: SignatureRequest = { token: opened.token, template: opened.template, upload: opened.upload, done }
  return answer
}
