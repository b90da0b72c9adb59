import { test } from '@japa/runner'
import fc from 'fast-check'
import { batchesOf } from '../../server/ocr/run.js'

test.group('OCR batches (run.ts batchesOf)', () => {
  test('every pending page once, in order; sizes within one of each other and at most ten', ({ assert }) => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 300 }), fc.integer({ min: 1, max: 8 }), (pages, workers) => {
        const pending = Array.from({ length: pages }, (_, i) => i * 2 + 1)
        const batches = batchesOf(pending, workers)
        assert.deepEqual(batches.flat(), pending)
        const sizes = batches.map((b) => b.length)
        if (pages === 0) return
        assert.isAtMost(Math.max(...sizes), 10)
        assert.isAtMost(Math.max(...sizes) - Math.min(...sizes), 1)
        // Every worker has as many batches as the others, unless there are fewer pages than workers.
        if (pages >= workers) assert.equal(batches.length % workers, 0)
      })
    )
  })

  test('a 20-page scan on two workers is two runs of ten', ({ assert }) => {
    const pages = Array.from({ length: 20 }, (_, i) => i + 1)
    assert.deepEqual(
      batchesOf(pages, 2).map((b) => b.length),
      [10, 10]
    )
  })
})
