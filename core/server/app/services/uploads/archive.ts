import { createReadStream } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { Writable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { promisify } from 'node:util'
import { createGunzip, inflate } from 'node:zlib'
import yauzl, { type Entry, type ZipFile } from 'yauzl'

/**
 * Archive bombs (issue 17): a zip (OOXML and ODF files are zips) or a gzip whose content inflates to
 * far more than it weighs, and a PDF whose object or cross-reference streams do (pdf-lib inflates
 * those when it loads a PDF). Checked before anything unpacks a user's file: the entry count and the
 * declared sizes from the zip's central directory first, then every entry is inflated and counted,
 * so an archive whose headers lie is caught too (yauzl refuses an entry longer than it declares).
 * Inflation streams through zlib's thread pool and stops at the first limit passed.
 */

export interface ArchiveLimits {
  maxEntries: number
  /** All entries together, inflated. */
  maxInflatedBytes: number
  /** Inflated bytes per byte of the archive, once the content passes `ratioFloorBytes`. */
  maxRatio: number
  /** Below this inflated size any ratio is fine (a few KB of zeros compress a thousandfold). */
  ratioFloorBytes: number
}

const MB = 1024 * 1024

/**
 * Office documents compress 5–20×, plain text and XML rarely beyond 50×; the crafted docx of issue
 * 17 (58 KB → 20 MB) is 350×.
 */
export const ARCHIVE_LIMITS: ArchiveLimits = {
  maxEntries: 5000,
  maxInflatedBytes: 200 * MB,
  maxRatio: 100,
  ratioFloorBytes: 1 * MB,
}

export type ArchiveProblem = 'not_archive' | 'too_many_entries' | 'too_large'

/**
 * Counts inflated bytes against the limits: past the ratio floor, at most maxRatio bytes per byte of
 * the archive, and never more than maxInflatedBytes.
 */
class Budget {
  total = 0
  private readonly limit: number
  constructor(archiveBytes: number, limits: ArchiveLimits) {
    const byRatio = Math.max(limits.ratioFloorBytes, limits.maxRatio * archiveBytes)
    this.limit = Math.min(limits.maxInflatedBytes, byRatio)
  }

  /** Counts `bytes`; false once the total is past the limit. */
  add(bytes: number): boolean {
    this.total += bytes
    return this.total <= this.limit
  }

  /** How many more bytes may be inflated. */
  room(): number {
    return Math.max(0, this.limit - this.total)
  }
}

class Refused extends Error {
  constructor(readonly problem: ArchiveProblem) {
    super(problem)
  }
}

/** What is wrong with a zip (a file path or its bytes), or null when it may be unpacked. */
export async function zipProblem(
  source: string | Buffer,
  archiveBytes: number,
  limits: ArchiveLimits = ARCHIVE_LIMITS
): Promise<ArchiveProblem | null> {
  let zip: ZipFile
  try {
    const options = { lazyEntries: true, autoClose: true, validateEntrySizes: true }
    zip =
      typeof source === 'string'
        ? await yauzl.openPromise(source, options)
        : await yauzl.fromBufferPromise(source, options)
  } catch {
    return 'not_archive'
  }
  try {
    if (zip.entryCount > limits.maxEntries) throw new Refused('too_many_entries')
    const declared = new Budget(archiveBytes, limits)
    const inflated = new Budget(archiveBytes, limits)
    await new Promise<void>((resolve, reject) => {
      zip.on('error', reject)
      zip.on('end', resolve)
      zip.on('entry', (entry: Entry) => {
        if (!declared.add(entry.uncompressedSize)) return reject(new Refused('too_large'))
        if (entry.fileName.endsWith('/')) return zip.readEntry()
        // An encrypted entry cannot be inflated here; its declared size was counted above.
        if (entry.isEncrypted()) return zip.readEntry()
        inflateEntry(zip, entry, inflated).then(() => zip.readEntry(), reject)
      })
      zip.readEntry()
    })
    return null
  } catch (error) {
    return error instanceof Refused ? error.problem : 'not_archive'
  } finally {
    zip.close()
  }
}

async function inflateEntry(zip: ZipFile, entry: Entry, budget: Budget): Promise<void> {
  const stream = await zip.openReadStreamPromise(entry)
  await pipeline(stream, counter(budget))
}

/** A sink that counts what passes and fails the pipeline (stopping the inflation) past the budget. */
function counter(budget: Budget): Writable {
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      done(budget.add(chunk.length) ? null : new Refused('too_large'))
    },
  })
}

/** What is wrong with a gzip file, or null: its single stream inflated and counted. */
export async function gzipProblem(
  path: string,
  archiveBytes: number,
  limits: ArchiveLimits = ARCHIVE_LIMITS
): Promise<ArchiveProblem | null> {
  try {
    await pipeline(createReadStream(path), createGunzip(), counter(new Budget(archiveBytes, limits)))
    return null
  } catch (error) {
    return error instanceof Refused ? error.problem : 'not_archive'
  }
}

const inflateAsync = promisify(inflate) as (data: Buffer, options: { maxOutputLength: number }) => Promise<Buffer>

/** A stream's dictionary naming it an object stream or a cross-reference stream. */
const PARSED_STREAM = /\/Type\s*\/(ObjStm|XRef)\b/
const STREAM = Buffer.from('stream')

/**
 * What is wrong with a PDF's object and cross-reference streams, or null: each Flate stream of those
 * kinds inflated, through zlib's thread pool, against the limits. Image and page streams are left
 * alone (a scanned white page rightly compresses 500×), and so are other filters: the PDF workers
 * cap what pdf-lib decodes of any stream (@tramita/plugin-api/pdf-limits), this check refuses the
 * common bomb at the door.
 */
export async function pdfProblem(
  path: string,
  archiveBytes: number,
  limits: ArchiveLimits = ARCHIVE_LIMITS
): Promise<ArchiveProblem | null> {
  const bytes = await readFile(path)
  const budget = new Budget(archiveBytes, limits)
  for (let at = bytes.indexOf(STREAM); at !== -1; at = bytes.indexOf(STREAM, at + STREAM.length)) {
    const eol = bytes[at + STREAM.length] === 0x0d ? 2 : 1
    if (bytes[at + STREAM.length + eol - 1] !== 0x0a || bytes.subarray(at - 3, at).toString('latin1') === 'end') {
      continue
    }
    // The dictionary just before the keyword, back to its object's `obj`.
    const head = bytes.subarray(Math.max(0, at - 2048), at).toString('latin1')
    if (!PARSED_STREAM.test(head.slice(head.lastIndexOf(' obj') + 1))) continue
    try {
      // zlib stops at the stream's own end: what follows (endstream, other objects) is ignored; one
      // byte more than the room left is enough to know the stream is too large.
      const data = bytes.subarray(at + STREAM.length + eol)
      const inflated = await inflateAsync(data, { maxOutputLength: budget.room() + 1 })
      if (!budget.add(inflated.length)) return 'too_large'
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') return 'too_large'
      // Not Flate data as stored (another filter, or none): left to the workers' decode limits.
    }
  }
  return null
}
