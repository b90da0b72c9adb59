import { Readable } from 'node:stream'
import drive from '@adonisjs/drive/services/main'
import type { HttpContext } from '@adonisjs/core/http'
import type { PluginFileAnswer, PluginStorage } from '@tramita/plugin-api'
import { setStoredFileHeaders } from '#lib/security_headers'

export function isFileAnswer(value: unknown): value is PluginFileAnswer {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'file'
}

/**
 * The one byte range of a `Range: bytes=a-b` header within `size` bytes: null when there is none
 * (or several, which are answered whole), 'unsatisfiable' when it lies outside the file.
 */
export function parseRange(
  header: string | undefined,
  size: number
): { start: number; end: number } | null | 'unsatisfiable' {
  const match = /^bytes=(\d*)-(\d*)$/.exec((header ?? '').trim())
  if (!match || (match[1] === '' && match[2] === '')) return null
  let start: number
  let end: number
  if (match[1] === '') {
    // A suffix: the last N bytes.
    const suffix = Number(match[2])
    if (suffix === 0) return 'unsatisfiable'
    start = Math.max(size - suffix, 0)
    end = size - 1
  } else {
    start = Number(match[1])
    end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1)
  }
  if (start >= size || end < start) return 'unsatisfiable'
  return { start, end }
}

/** A Content-Disposition with an ASCII fallback name and the real one in UTF-8 (RFC 6266). */
export function contentDisposition(kind: 'inline' | 'attachment', name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\%]/g, '_')
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`
}

/**
 * Sends a plugin's file: its storage object (with HTTP ranges, for media players and PDF viewers)
 * or the stream it made, with the stored-file policy of the core (sandboxed, nosniff).
 */
export async function sendFile(ctx: HttpContext, answer: PluginFileAnswer, storage: PluginStorage): Promise<void> {
  const { response } = ctx
  // Text without a charset is read as Latin-1 by browsers: stored text is UTF-8.
  const textual = /^text\/|^application\/(json|xml|javascript)/.test(answer.mime) && !/charset=/i.test(answer.mime)
  response.header('Content-Type', textual ? `${answer.mime}; charset=utf-8` : answer.mime)
  response.header('Content-Disposition', contentDisposition(answer.disposition, answer.name))
  const maxAge = answer.publicMaxAge
  const shared = typeof maxAge === 'number' && Number.isSafeInteger(maxAge) && maxAge > 0
  response.header('Cache-Control', shared ? `public, max-age=${maxAge}` : 'private, no-cache')
  setStoredFileHeaders(response, answer.mime)
  if ('stream' in answer.source) {
    if (answer.size !== undefined) response.header('Content-Length', String(answer.size))
    response.stream(Readable.from(answer.source.stream))
    return
  }
  const key = answer.source.key
  const size = answer.size ?? (await drive.use().getMetaData(key)).contentLength
  response.header('Accept-Ranges', 'bytes')
  const range = ctx.request.method() === 'GET' ? parseRange(ctx.request.header('range'), size) : null
  if (range === 'unsatisfiable') {
    response.header('Content-Range', `bytes */${size}`)
    response.status(416)
    response.send('')
    return
  }
  if (range) {
    response.status(206)
    response.header('Content-Range', `bytes ${range.start}-${range.end}/${size}`)
    response.header('Content-Length', String(range.end - range.start + 1))
    response.stream(Readable.from(await storage.read(key, range)))
    return
  }
  response.header('Content-Length', String(size))
  response.stream(Readable.from(await storage.read(key)))
}
