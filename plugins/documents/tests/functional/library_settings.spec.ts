import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import type { UploadAnswer } from '../../shared/library.js'
import { libraryJobs } from '../../server/library/jobs.js'
import {
  api,
  call,
  person,
  resetLibrary,
  text,
  txt,
  uploadFiles,
  type Client,
  type Person,
} from './library_fixtures.js'

/** What an administrator changes on the core's settings screen (PUT /inside/plugin_settings/documents). */
async function adminSaves(client: Client, admin: Person, patch: Record<string, unknown>) {
  const response = await call(client, 'put', '/inside/plugin_settings/documents', admin.token, { settings: patch })
  response.assertStatus(200)
}

async function upload(client: Client, who: Person, name: string, bytes: string) {
  const response = await uploadFiles(client, who.token, [{ name, bytes: txt(bytes) }])
  response.assertStatus(200)
  return (response.body().data as UploadAnswer).results[0]!
}

/** The documents plugin reads the settings an administrator saved, on its next request or job. */
test.group('documents library: the settings administrators change', (group) => {
  group.each.setup(async () => {
    await resetLibrary()
  })

  test('a lowered quota refuses the next upload over it; a lowered file size too', async ({ client, assert }) => {
    const admin = await person(client, 'admin_docs', 'supervisor')
    const ana = await person(client, 'ana_settings', 'teacher')
    assert.equal((await upload(client, ana, 'uno.txt', '0123456789')).status, 'stored')

    await adminSaves(client, admin, { quotaBytes: 15 })
    assert.deepEqual((await api(client, 'usage', ana.token)).body().data, { used: 10, quota: 15 })
    const over = await upload(client, ana, 'dos.txt', '0123456789')
    assert.deepEqual(
      [over.status, over.status === 'refused' ? over.message : ''],
      ['refused', text('es', 'insufficient_storage')]
    )
    assert.equal((await upload(client, ana, 'tres.txt', '01234')).status, 'stored')

    // 0 is unlimited; then a file larger than the lowered largest file is refused.
    await adminSaves(client, admin, { quotaBytes: 0, maxUploadBytes: 4 })
    const large = await upload(client, ana, 'cuatro.txt', '01234')
    assert.deepEqual(
      [large.status, large.status === 'refused' ? large.reason : ''],
      ['refused', 'documents.file_too_large']
    )
    assert.equal((await upload(client, ana, 'cinco.txt', '0123')).status, 'stored')
  })

  test('the daily job empties the trash after the trashDays an administrator set', async ({ client, assert }) => {
    const admin = await person(client, 'admin_docs', 'superuser')
    const ana = await person(client, 'ana_settings', 'teacher')
    const files = []
    for (const name of ['doce.txt', 'ocho.txt']) {
      const result = await upload(client, ana, name, name)
      if (result.status !== 'stored') throw new Error(JSON.stringify(result))
      files.push(result.file)
    }
    ;(await api(client, 'trash', ana.token, {}, { files: files.map((f) => f.id) })).assertStatus(200)
    for (const [file, days] of [
      [files[0]!, 12],
      [files[1]!, 8],
    ] as const) {
      await db
        .from('documents_files')
        .where('id', file.id)
        .update({ trashed_at: new Date(Date.now() - days * 24 * 3600 * 1000) })
    }
    const job = libraryJobs.find((j) => j.name === 'purge_trash')!
    const run = () =>
      job.handle({}, { id: 't', name: 'documents:purge_trash', attempt: 1, signal: new AbortController().signal })
    const trashed = async () => {
      const listing = (await api(client, 'list', ana.token, { view: 'trash' })).body().data
      return (listing.files as { name: string }[]).map((f) => f.name).sort()
    }
    await run()
    assert.deepEqual(await trashed(), ['doce.txt', 'ocho.txt'], 'the default keeps 30 days')
    await adminSaves(client, admin, { trashDays: 10 })
    await run()
    assert.deepEqual(await trashed(), ['ocho.txt'])
  })
})
