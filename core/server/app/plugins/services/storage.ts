import { createHash, randomUUID } from 'node:crypto'
import { createReadStream, createWriteStream } from 'node:fs'
import { mkdir, mkdtemp, rename, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join, resolve, sep } from 'node:path'
import { PassThrough, Readable, Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import drive from '@adonisjs/drive/services/main'
import type { Language, PluginStorage, PluginUpload, StoredObject, UploadRefusal } from '@tramita/plugin-api'
import { translate } from '@tramita/i18n'
import { inspectUpload, isRefusal } from '#services/uploads/inspect'

const EXTENSION = /^[a-z0-9]{1,10}$/
const KEY_TAIL = /^\d{4}\/\d{2}\/[0-9a-f-]{36}\.[a-z0-9]{1,10}$/

/** Types of what a plugin makes itself (`put`): by extension, since its bytes are not sniffed. */
const MIME_BY_EXTENSION: Record<string, string> = {
  pdf: 'application/pdf',
  zip: 'application/zip',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  gif: 'image/gif',
  txt: 'text/plain',
  csv: 'text/csv',
  json: 'application/json',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  mp4: 'video/mp4',
  mp3: 'audio/mpeg',
}

/** A new key of a plugin's object: `plugins/<id>/<yyyy>/<mm>/<uuid>.<ext>`, never taken from a request. */
export function pluginObjectKey(pluginId: string, extension: string, now = new Date()): string {
  const ext = extension.replace(/^\./, '').toLowerCase()
  if (!EXTENSION.test(ext)) throw new Error(`plugin "${pluginId}": invalid file extension "${extension.slice(0, 20)}"`)
  const month = String(now.getUTCMonth() + 1).padStart(2, '0')
  return `plugins/${pluginId}/${now.getUTCFullYear()}/${month}/${randomUUID()}.${ext}`
}

/** Is this a key this plugin's storage made? Anything else (another plugin's, a core file, `..`) is refused. */
export function isPluginKey(pluginId: string, key: unknown): key is string {
  const prefix = `plugins/${pluginId}/`
  return typeof key === 'string' && key.startsWith(prefix) && KEY_TAIL.test(key.slice(prefix.length))
}

/** Counts and hashes the bytes that pass through it. */
function hashing() {
  const hash = createHash('sha256')
  let size = 0
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      hash.update(chunk)
      size += chunk.length
      callback(null, chunk)
    },
  })
  return { stream, done: () => ({ size, sha256: hash.digest('hex') }) }
}

/** The bytes from `start` to `end` (inclusive) of a stream that starts at 0 (a store without ranged reads). */
async function* slice(source: AsyncIterable<Uint8Array>, start: number, end: number): AsyncIterable<Uint8Array> {
  let position = 0
  for await (const chunk of source) {
    const from = Math.max(start - position, 0)
    const to = Math.min(end + 1 - position, chunk.length)
    if (to > from) yield chunk.subarray(from, to)
    position += chunk.length
    if (position > end) return
  }
}

/** The local disk's folder when the drive is the file system (ranged reads and paths without a copy). */
function localRoot(): string | null {
  const driver = drive.use().driver as { options?: { location?: string | URL } }
  const location = driver.options?.location
  if (!location || driver.constructor.name !== 'FSDriver') return null
  return typeof location === 'string' ? location : location.pathname
}

/** A ranged GET on S3 (the drive's own read has no range): a seek in a large video reads only that part. */
async function s3Range(key: string, range: { start: number; end: number }): Promise<AsyncIterable<Uint8Array> | null> {
  const driver = drive.use().driver as { options?: { client?: unknown; bucket?: string } }
  if (driver.constructor.name !== 'S3Driver' || !driver.options?.client || !driver.options.bucket) return null
  const { GetObjectCommand, S3Client } = await import('@aws-sdk/client-s3')
  if (!(driver.options.client instanceof S3Client)) return null
  const answer = await driver.options.client.send(
    new GetObjectCommand({ Bucket: driver.options.bucket, Key: key, Range: `bytes=${range.start}-${range.end}` })
  )
  return (answer.Body as AsyncIterable<Uint8Array> | undefined) ?? null
}

function localPath(root: string, key: string): string {
  const path = resolve(root, key)
  if (!path.startsWith(resolve(root) + sep)) throw new Error('storage key outside the disk')
  return path
}

export function pluginStorage(pluginId: string): PluginStorage {
  const checkKey = (key: string) => {
    if (!isPluginKey(pluginId, key))
      throw new Error(`plugin "${pluginId}": "${String(key).slice(0, 80)}" is not its storage key`)
  }

  /** Streams `source` to a new key, hashing on the way. */
  async function store(source: Readable, extension: string, mime: string): Promise<StoredObject> {
    const key = pluginObjectKey(pluginId, extension)
    const counter = hashing()
    const root = localRoot()
    if (root) {
      // On the local disk: written beside its place and renamed once whole, so a source that fails
      // half-way (a zip being written, say) leaves nothing, however late the file system settles.
      const path = localPath(root, key)
      const partial = `${path}.partial-${randomUUID()}`
      await mkdir(dirname(path), { recursive: true })
      try {
        await pipeline(source, counter.stream, createWriteStream(partial))
        await rename(partial, path)
      } catch (error) {
        await rm(partial, { force: true })
        throw error
      }
      return { key, mime, ...counter.done() }
    }
    const body = new PassThrough()
    // The drive reads `body`; the pipeline feeds it through the hasher (errors reach both).
    const feeding = pipeline(source, counter.stream, body)
    const [written, fed] = await Promise.allSettled([drive.use().putStream(key, body, { contentType: mime }), feeding])
    const failure = [fed, written].find((r) => r.status === 'rejected')
    if (failure) {
      // A failed multipart upload leaves no object on S3; a delete covers a store that made one anyway.
      await drive
        .use()
        .delete(key)
        .catch(() => {})
      throw failure.reason
    }
    return { key, mime, ...counter.done() }
  }

  return {
    async putUpload(upload: PluginUpload, language: Language = 'es'): Promise<StoredObject | UploadRefusal> {
      const result = await inspectUpload(
        { tmpPath: upload.tmpPath, clientName: upload.name, size: upload.size },
        0,
        { fieldType: 'file', allowed: [], limit: -1, foldertype: 'files' },
        upload.size
      )
      if (isRefusal(result)) {
        return {
          reason: result.key,
          message: translate(language, result.key, result.vars),
          ...(result.status ? { status: result.status } : {}),
        }
      }
      return store(createReadStream(upload.tmpPath), result.storageExt, result.mime)
    },

    put(bytes, extension) {
      const ext = extension.replace(/^\./, '').toLowerCase()
      const source = bytes instanceof Uint8Array ? Readable.from([bytes]) : Readable.from(bytes)
      return store(source, ext, MIME_BY_EXTENSION[ext] ?? 'application/octet-stream')
    },

    async read(key, range) {
      checkKey(key)
      if (range && (range.start < 0 || range.end < range.start)) throw new Error('invalid range')
      const root = localRoot()
      if (root) {
        const path = localPath(root, key)
        // A stream of a missing file would fail later, unhandled: say so now.
        if (!(await stat(path).catch(() => null))?.isFile()) throw new Error(`plugin "${pluginId}": no object ${key}`)
        return createReadStream(path, range ? { start: range.start, end: range.end } : {})
      }
      if (range) {
        const ranged = await s3Range(key, range)
        if (ranged) return ranged
      }
      const stream = await drive.use().getStream(key)
      return range ? slice(stream, range.start, range.end) : stream
    },

    async withLocalFile(key, work) {
      checkKey(key)
      const root = localRoot()
      if (root) return work(localPath(root, key))
      const dir = await mkdtemp(join(tmpdir(), 'tramita-plugin-'))
      const path = join(dir, key.split('/').pop()!)
      try {
        await pipeline(await drive.use().getStream(key), createWriteStream(path))
        return await work(path)
      } finally {
        await rm(dir, { recursive: true, force: true })
      }
    },

    async delete(key) {
      checkKey(key)
      const disk = drive.use()
      if (await disk.exists(key)) await disk.delete(key)
    },
  }
}
