/**
 * Calls that move files with progress (uploads and downloads of the documents library): fetch reports
 * no upload progress, XMLHttpRequest does, for both directions. Same conventions as call() in api.ts:
 * the spec's fields and `case`, the session's `token` and `user` headers, the page's language; an
 * upload answers `{status: 'done', data}` or fails with the server's message.
 */
import { CallError, buildRequest, clearSession, interpretBody, readSession, type CallBody, type Fields } from './api.js'

/** Bytes moved so far and the total (null while the browser does not know it). */
export type Progress = (loaded: number, total: number | null) => void

function pageLanguage(): string | undefined {
  return globalThis.document?.documentElement.lang || undefined
}

function open(method: string, url: string, headers: Record<string, string>, signal?: AbortSignal): XMLHttpRequest {
  const request = new XMLHttpRequest()
  request.open(method, url)
  for (const [name, value] of Object.entries(headers)) request.setRequestHeader(name, value)
  signal?.addEventListener('abort', () => request.abort(), { once: true })
  return request
}

function settle<T>(request: XMLHttpRequest, read: () => T | Promise<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onload = () => {
      Promise.resolve().then(read).then(resolve, reject)
    }
    request.onerror = () => reject(new CallError('Error'))
    request.onabort = () => reject(new DOMException('Aborted', 'AbortError'))
  })
}

/** A failed answer's outcome; an answer of Unauthorized ends the session as call() does. */
function failure(body: unknown, hadSession: boolean): CallError {
  const outcome = interpretBody(body)
  const message = outcome.ok ? 'Error' : outcome.message
  if (!outcome.ok && outcome.unauthorized && hadSession) {
    clearSession()
    globalThis.location?.reload()
  }
  return new CallError(message, body)
}

/** Sends form fields (files among them) and reports the upload's progress; resolves a 'done' body. */
export function sendWithProgress<T = unknown>(
  method: 'POST' | 'PUT',
  path: string,
  fields: Fields,
  onProgress: Progress,
  signal?: AbortSignal
): Promise<CallBody<T>> {
  const session = readSession()
  const { url, init } = buildRequest(method, path, fields, session, {}, pageLanguage())
  const request = open(method, url, init.headers, signal)
  request.upload.onprogress = (event) => onProgress(event.loaded, event.lengthComputable ? event.total : null)
  const answer = settle(request, () => {
    let body: unknown = null
    try {
      body = JSON.parse(request.responseText)
    } catch {}
    const outcome = interpretBody<T>(body)
    if (outcome.ok) return outcome.body
    throw failure(body, Boolean(session.token))
  })
  request.send(init.body ?? null)
  return answer
}

/** Fetches a file's bytes with the session's headers, reporting the download's progress. */
export function receiveWithProgress(path: string, onProgress: Progress, signal?: AbortSignal): Promise<Blob> {
  const session = readSession()
  const { url, init } = buildRequest('GET', path, {}, session, {}, pageLanguage())
  const request = open('GET', url, init.headers, signal)
  request.responseType = 'blob'
  request.onprogress = (event) => onProgress(event.loaded, event.lengthComputable ? event.total : null)
  const answer = settle(request, async () => {
    const blob = request.response as Blob
    if (request.status >= 200 && request.status < 300) return blob
    // A refusal is a JSON `{status: 'fail', message}` body.
    let body: unknown = null
    try {
      body = JSON.parse(await blob.text())
    } catch {}
    throw failure(body, Boolean(session.token))
  })
  request.send()
  return answer
}
