import { test } from '@japa/runner'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Disk } from 'flydrive'
import { S3Driver } from 'flydrive/drivers/s3'
import S3rver from 's3rver'
import { storageDown } from '#exceptions/handler'
import { s3Limits } from '#lib/storage_timeouts'
import { NOT_ABOUT_THE_DATABASE } from '#tests/helpers/processes'
import { startStallingProxy, type StallingProxy } from '#tests/helpers/stalling_proxy'

/** Short, so that each wait here is a fraction of a second; the product's default is 30 s. */
const LIMIT_MS = 500
const BUCKET = 'bounded-probe'

/** A disk on the S3 server at `endpoint` with the app's S3 limits at LIMIT_MS. */
function s3Disk(endpoint: string): Disk {
  return new Disk(
    new S3Driver({
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
      region: 'us-east-1',
      bucket: BUCKET,
      endpoint,
      forcePathStyle: true,
      visibility: 'private',
      // As the cluster: s3rver does not read the SDK's streamed uploads with checksum trailers.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      ...s3Limits(LIMIT_MS),
    })
  )
}

/**
 * Every wait for S3 has a limit (core/server/app/lib/storage_timeouts.ts): the app's S3 settings with
 * LIMIT_MS, against a real S3 server (s3rver) behind a proxy that can stop passing bytes. Without the
 * limits the stalled read below lasts until this test's own timeout.
 */
test.group('S3 waits are bounded', (group) => {
  let proxy: StallingProxy
  let server: S3rver
  let dir: string
  let disk: Disk
  group.setup(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tramita-s3-bounded-'))
    server = new S3rver({
      port: 0,
      address: '127.0.0.1',
      directory: dir,
      silent: true,
      configureBuckets: [{ name: BUCKET }],
    })
    const { port } = await server.run()
    proxy = await startStallingProxy({ host: '127.0.0.1', port })
    disk = s3Disk(`http://127.0.0.1:${proxy.port}`)
  })
  group.each.setup(() => proxy?.resume())
  group.teardown(async () => {
    await proxy?.close()
    await server?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  test('a silent store fails the call as storage down (a 503); once it answers, the file is there', async ({
    assert,
  }) => {
    await disk.put('probe.txt', 'hola')
    proxy.stall()
    const error = await disk.get('probe.txt').then(
      () => null,
      (e: unknown) => e
    )
    proxy.resume()
    assert.isNotNull(error, 'the read fails instead of waiting')
    assert.isTrue(storageDown(error), `storage down: ${String(error)}`)
    assert.equal(await disk.get('probe.txt'), 'hola')
  })
    .skip(...NOT_ABOUT_THE_DATABASE)
    .timeout(30_000)

  test('a store that refuses connections is storage down too; other failures are not', async ({ assert }) => {
    const closed = s3Disk('http://127.0.0.1:1')
    const refused = await closed.get('probe.txt').catch((e: unknown) => e)
    assert.isTrue(storageDown(refused), `storage down: ${String(refused)}`)
    const missing = await disk.get('no-such-file.txt').catch((e: unknown) => e)
    assert.isFalse(storageDown(missing), 'a missing file is not the store down')
    assert.isFalse(storageDown(new Error('anything else')))
  }).skip(...NOT_ABOUT_THE_DATABASE)
})
