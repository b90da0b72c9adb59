import { createReadStream } from 'node:fs'
import { Writable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { createGunzip } from 'node:zlib'
import yauzl, { type Entry, type ZipFile } from 'yauzl'

/**
 * Archive bombs (issue 17): a zip (OOXML and ODF files are zips) or a gzip whose content inflates to
 * far more than it weighs. Checked before anything unpacks a user's file: the entry count and the
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

/** Counts inflated bytes against the limits; `over` says which limit the running total passed. */
class Budget {
  total = 0
  constructor(
    private readonly archiveBytes: number,
    private readonly limits: ArchiveLimits
  ) {}

  add(bytes: number): boolean {
    this.total += bytes
    return !this.over()
  }

  over(): boolean {
    if (this.total > this.limits.maxInflatedBytes) return true
    return (
      this.total > this.limits.ratioFloorBytes && this.total / Math.max(1, this.archiveBytes) > this.limits.maxRatio
    )
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
