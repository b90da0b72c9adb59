import { test } from '@japa/runner'
import { WORKER_SLOTS, runBounded, workerLoad } from '@tramita/plugin-api/workers'
import { pngPixels } from '#lib/png_size'
import { blankPng } from '#tests/helpers/blank_png'
import { waitUntil } from '#tests/helpers/wait'

const GATED = new URL('../helpers/gated_worker.ts', import.meta.url)

test.group('bounded workers (@tramita/plugin-api/workers)', () => {
  test('no more than WORKER_SLOTS run at once; the others wait, then each answers', async ({ assert }) => {
    const started = new Int32Array(new SharedArrayBuffer(4))
    const gate = new Int32Array(new SharedArrayBuffer(4))
    const calls = Array.from({ length: WORKER_SLOTS + 2 }, () =>
      runBounded<string>(GATED, { started, gate }, { heapMb: 32, timeoutMs: 30_000 })
    )
    await waitUntil(() => Atomics.load(started, 0) === WORKER_SLOTS, 20_000, `${WORKER_SLOTS} workers started`)
    assert.deepEqual(workerLoad(), { running: WORKER_SLOTS, waiting: 2 })
    Atomics.store(gate, 0, 1)
    Atomics.notify(gate, 0)
    assert.deepEqual(await Promise.all(calls), Array(WORKER_SLOTS + 2).fill('done'))
    assert.equal(Atomics.load(started, 0), WORKER_SLOTS + 2)
    assert.deepEqual(workerLoad(), { running: 0, waiting: 0 })
  }).timeout(60_000)
})

test.group('PNG size (lib/png_size.ts)', () => {
  test('width × height from the header; null for what is not a PNG', ({ assert }) => {
    assert.equal(pngPixels(blankPng(40, 30)), 1200)
    assert.isNull(pngPixels(Buffer.from('%PDF-1.4 not a png at all, not at all')))
    assert.isNull(pngPixels(blankPng(40, 30).subarray(0, 20)))
  })
})
