import { Readable } from 'node:stream'
import { ZipFile } from 'yazl'
import type { PluginFileAnswer, PluginPrincipal, PluginServices } from '@tramita/plugin-api'
import { OPERATION_LIMITS, type FiledAnswer, type MergeType } from '../../shared/operations.js'
import { cleanName } from '../library/names.js'
import { documentsSettings } from '../library/usage.js'
import { requirePermission } from '../sharing/access.js'
import { summary } from '../search/search.js'
import { asOperation, failure } from './failures.js'
import { insertNewFile } from './new_file.js'
import { runBounded } from '@tramita/plugin-api/workers'

type Deps = Pick<PluginServices, 'db' | 'people' | 'storage' | 'settings' | 'caseFiles'>

export interface MergeRequest {
  type: MergeType
  /** Library file ids, and paths of a form's files (uploads, generated documents) the caller may read. */
  files: (number | string)[]
  name: string | undefined
  /** File the result into `folderId` (null: the caller's root) instead of sending it. */
  save: boolean
  folderId: number | null
}

interface Source {
  name: string
  extension: string
  mime: string
  size: number
  read(): Promise<AsyncIterable<Uint8Array>>
}

/** The merge worker's limits: past them the worker is stopped and the merge refused. */
const WORKER_LIMITS = { heapMb: 512, timeoutMs: 60_000 }

/**
 * merge_doc (spec 001 §7): merge_docs joins PDFs (pdf-lib, in a worker thread), zip_docs streams a zip
 * (yazl, each file read from storage as the zip is written: never held in memory). Every file must be
 * readable by the caller. The result is sent as a file, or filed into a folder the caller may write
 * (save_doc) as the caller's own, answered with doc_subido_success.
 */
export function mergeDocuments(
  deps: Deps,
  who: PluginPrincipal,
  request: MergeRequest
): Promise<PluginFileAnswer | FiledAnswer> {
  return asOperation('copy', async () => {
    const zip = request.type === 'zip_docs'
    const maxFiles = zip ? OPERATION_LIMITS.zipFiles : OPERATION_LIMITS.mergeFiles
    if (request.files.length === 0) throw failure('copy', 400, 'nothing_to_merge')
    if (request.files.length > maxFiles) throw failure('copy', 413, 'too_many')
    const extension = zip ? 'zip' : 'pdf'
    const base = cleanName(request.name?.trim() ? request.name : zip ? 'documentos' : 'documento')
    const name = base.toLowerCase().endsWith(`.${extension}`) ? base : cleanName(`${base}.${extension}`)
    if (request.save && request.folderId !== null) {
      await requirePermission(deps, who, { type: 'folder', id: request.folderId }, 'all')
    }
    const sources: Source[] = []
    for (const ref of request.files) sources.push(await sourceOf(deps, who, ref))
    const bytes = sources.reduce((sum, s) => sum + s.size, 0)
    if (bytes > (zip ? OPERATION_LIMITS.zipBytes : OPERATION_LIMITS.mergeBytes)) throw failure('copy', 413, 'too_large')

    if (zip) {
      const stream = zipStream(sources)
      if (!request.save)
        return { kind: 'file', source: { stream }, name, mime: 'application/zip', disposition: 'attachment' }
      return file(deps, who, request, { name, extension, mime: 'application/zip', pages: null }, stream)
    }
    if (sources.some((s) => s.extension.toLowerCase() !== 'pdf' && s.mime !== 'application/pdf')) {
      throw failure('copy', 400, 'not_pdf')
    }
    const inputs: Uint8Array[] = []
    for (const source of sources) inputs.push(await readAll(source))
    const joined = await joinPdfs(inputs)
    if (!request.save) {
      return {
        kind: 'file',
        source: { stream: Readable.from([joined.bytes]) },
        name,
        mime: 'application/pdf',
        disposition: 'attachment',
        size: joined.bytes.length,
      }
    }
    return file(deps, who, request, { name, extension, mime: 'application/pdf', pages: joined.pages }, joined.bytes)
  })
}

/** Stores the result and files it as the caller's; the stored object is deleted again when filing fails. */
async function file(
  deps: Deps,
  who: PluginPrincipal,
  request: MergeRequest,
  facts: { name: string; extension: string; mime: string; pages: number | null },
  bytes: Uint8Array | AsyncIterable<Uint8Array>
): Promise<FiledAnswer> {
  const settings = await documentsSettings(deps.settings)
  const stored = await deps.storage.put(bytes, facts.extension)
  try {
    const id = await deps.db.transaction((db) =>
      insertNewFile(db, settings, who, 'copy', { folderId: request.folderId, ...facts, stored })
    )
    const row = await deps.db.table('files').where('id', id).first()
    return { code: 'doc_subido_success', file: summary(row) }
  } catch (error) {
    await deps.storage.delete(stored.key)
    throw error
  }
}

/**
 * A file to merge: one of the library the caller may read, or a form's file (upload or generated
 * document) the core lets them read; one they may not is not found, either way.
 */
async function sourceOf(deps: Deps, who: PluginPrincipal, ref: number | string): Promise<Source> {
  if (typeof ref === 'string') {
    const found = await deps.caseFiles.open(ref, who)
    if (!found) throw failure('copy', 404, 'access_not_found')
    const dot = found.name.lastIndexOf('.')
    return { ...found, extension: dot > 0 ? found.name.slice(dot + 1).toLowerCase() : '' }
  }
  await requirePermission(deps, who, { type: 'file', id: ref }, 'read')
  const row = await deps.db
    .table('files')
    .select('name', 'extension', 'mime', 'size', 'storage_key')
    .where('id', ref)
    .first()
  return { ...row, size: Number(row.size), read: () => deps.storage.read(row.storage_key) }
}

async function readAll(source: Source): Promise<Uint8Array> {
  const bytes = new Uint8Array(source.size)
  let at = 0
  for await (const chunk of await source.read()) {
    if (at + chunk.length > bytes.length) throw failure('copy', 400, 'not_pdf')
    bytes.set(chunk, at)
    at += chunk.length
  }
  return bytes.subarray(0, at)
}

/** The zip's bytes as they are written; entries named after the files, a repeated name numbered. */
function zipStream(sources: Source[]): AsyncIterable<Uint8Array> {
  const zip = new ZipFile()
  const used = new Set<string>()
  for (const source of sources) {
    const entry = uniqueEntry(used, source.name)
    zip.addReadStreamLazy(entry, { size: source.size }, (done) => {
      source.read().then(
        (chunks) => done(null, Readable.from(chunks)),
        (error: unknown) => done(error, undefined as unknown as NodeJS.ReadableStream)
      )
    })
  }
  zip.end()
  return zip.outputStream as unknown as AsyncIterable<Uint8Array>
}

function uniqueEntry(used: Set<string>, name: string): string {
  const safe = name.replace(/[/\\]/g, '_') || 'documento'
  const dot = safe.lastIndexOf('.')
  const stem = dot > 0 ? safe.slice(0, dot) : safe
  const ext = dot > 0 ? safe.slice(dot) : ''
  let candidate = safe
  for (let n = 2; used.has(candidate.toLowerCase()); n++) candidate = `${stem} (${n})${ext}`
  used.add(candidate.toLowerCase())
  return candidate
}

/** Runs merge_worker.ts with heap and time limits; a PDF it cannot read is refused as not_pdf. */
async function joinPdfs(inputs: Uint8Array[]): Promise<{ bytes: Uint8Array; pages: number }> {
  let answer: { bytes?: Uint8Array; pages?: number; error?: number }
  try {
    answer = await runBounded(new URL('./merge_worker.ts', import.meta.url), { inputs }, WORKER_LIMITS)
  } catch {
    throw failure('copy', 422, 'merge_too_heavy')
  }
  if (!answer.bytes) throw failure('copy', 400, 'not_pdf')
  return { bytes: answer.bytes, pages: answer.pages ?? 0 }
}
