import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from '@japa/runner'
import { ABANDONED_REQUEST_MS, sweepAbandonedRequests } from '#lib/request_folders'

test.group('upload request folders', () => {
  test('a folder a killed process left a day ago goes; a live request’s and anything else stay', async ({
    assert,
    cleanup,
  }) => {
    const dir = mkdtempSync(join(tmpdir(), 'tramita-sweep-'))
    cleanup(() => rmSync(dir, { recursive: true, force: true }))
    const now = Date.now()
    const make = (name: string, ageMs: number) => {
      mkdirSync(join(dir, name))
      writeFileSync(join(dir, name, 'part'), 'x')
      const at = new Date(now - ageMs)
      utimesSync(join(dir, name), at, at)
    }
    make('request-abandoned', ABANDONED_REQUEST_MS + 60_000)
    make('request-live', 60_000)
    make('otra-carpeta', ABANDONED_REQUEST_MS * 3)
    assert.equal(await sweepAbandonedRequests(dir, now), 1)
    assert.deepEqual(readdirSync(dir).sort(), ['otra-carpeta', 'request-live'])
    assert.equal(await sweepAbandonedRequests(join(dir, 'missing'), now), 0)
  })
})
