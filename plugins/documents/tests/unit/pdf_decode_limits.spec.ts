import { createReadStream } from 'node:fs'
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from '@japa/runner'
import { pdfPages } from '../../server/library/pdf_pages.js'
import { DECODE_LIMITS } from '@tramita/plugin-api/pdf-limits'
import { runBounded } from '@tramita/plugin-api/workers'
import { paddedPdf } from '../../../../core/server/tests/helpers/padded_pdf.js'

const LIMITS = { heapMb: 256, timeoutMs: 60_000 }
/** Each test decodes up to 64 MB in a worker or two: seconds, more on a loaded machine than the unit suite's 10 s allow. */
const TEST_TIMEOUT_MS = 60_000
const MB = 1024 * 1024
/** Decodes to 16 MB more than one stream may: about 80 KB on disk. */
const BOMB_PAD = DECODE_LIMITS.streamBytes + 16 * MB

/** A PDF's bytes as a stored file, read by pdfPages as from the documents' storage. */
async function stored(dir: string, name: string, bytes: Uint8Array) {
  const path = join(dir, name)
  await writeFile(path, bytes)
  const storage = { read: async () => createReadStream(path) }
  const object = { key: name, mime: 'application/pdf', size: bytes.length } as Parameters<typeof pdfPages>[1]
  return { path, count: () => pdfPages(storage, object) }
}

/**
 * A PDF is size-capped before a worker reads it, but its compressed streams are not: each PDF worker
 * caps what pdf-lib inflates (@tramita/plugin-api/pdf-limits), and answers as for a file it cannot read past it.
 */
test.group('documents PDF decode limits', (group) => {
  let dir: string
  group.each.setup(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tramita-pdf-limits-'))
    return () => rm(dir, { recursive: true, force: true })
  })

  test('a page count is read from an object stream, and not from one that inflates past the limit', async ({
    assert,
  }) => {
    const small = await stored(dir, 'small.pdf', paddedPdf(1024))
    assert.equal(await small.count(), 1)
    // Hex-encoded Flate: an upload's own check inflates only plain Flate object streams.
    const bomb = paddedPdf(BOMB_PAD, { hex: true })
    assert.isBelow(bomb.length, 200 * 1024, 'a small file')
    assert.isNull(await (await stored(dir, 'bomb.pdf', bomb)).count())
  }).timeout(TEST_TIMEOUT_MS)

  test('one stream past its limit, or all of them past theirs, is refused; within both, read', async ({ assert }) => {
    const worker = new URL('../helpers/decode_worker.ts', import.meta.url)
    // Each of these streams decodes to a little under 1 MB, in a buffer of 1 MB.
    const limits = { streamBytes: 1 * MB, totalBytes: 3.5 * MB }
    const load = (bytes: Uint8Array) =>
      runBounded<{ pages?: number; error?: string }>(worker, { bytes, limits }, LIMITS)
    assert.deepEqual(await load(paddedPdf(900_000, { streams: 3 })), { pages: 1 })
    assert.deepEqual(await load(paddedPdf(2 * MB)), { error: 'a PDF stream decodes past the stream limit' })
    // pdf-lib passes over the fourth stream it cannot read; the check after the load still refuses.
    assert.deepEqual(await load(paddedPdf(900_000, { streams: 4 })), {
      error: 'a PDF stream decodes past the total limit',
    })
  }).timeout(TEST_TIMEOUT_MS)

  test('merging refuses the input that inflates past the limit, naming it', async ({ assert }) => {
    const merge = new URL('../../server/operations/merge_worker.ts', import.meta.url)
    const inputs = [paddedPdf(1024), paddedPdf(BOMB_PAD)]
    assert.deepEqual(await runBounded(merge, { inputs }, LIMITS), { error: 1 })
    const joined = await runBounded<{ pages: number }>(merge, { inputs: [paddedPdf(1024), paddedPdf(1024)] }, LIMITS)
    assert.equal(joined.pages, 2)
  }).timeout(TEST_TIMEOUT_MS)

  test("OCR's page split refuses a PDF that inflates past the limit as unreadable", async ({ assert }) => {
    const pages = new URL('../../server/ocr/pages_worker.ts', import.meta.url)
    const bomb = await stored(dir, 'bomb.pdf', paddedPdf(BOMB_PAD))
    const out = join(dir, 'out')
    await mkdir(out)
    const split = (input: string) => runBounded(pages, { task: 'split', input, dir: out, pages: 'all' }, LIMITS)
    assert.deepEqual(await split(bomb.path), { error: 'unreadable' })
    assert.deepEqual(await readdir(out), [])
    const small = await stored(dir, 'small.pdf', paddedPdf(1024))
    assert.deepEqual(await split(small.path), { pages: 1 })
    assert.deepEqual(await readdir(out), ['p-1.pdf'])
  }).timeout(TEST_TIMEOUT_MS)
})
