import { test } from '@japa/runner'
import drive from '@adonisjs/drive/services/main'
import db from '@adonisjs/lucid/services/db'
import { newObjectKey } from '#services/storage'
import { filePathOf, findUpload, pruneStaged, stageUploads, type NewUpload } from '#services/uploads/staging'
import { waitUntil } from '#tests/helpers/wait'

const DAY_AND_AN_HOUR_MS = 25 * 3600_000

function upload(): NewUpload {
  const key = newObjectKey('files', 'pdf')
  return {
    path: filePathOf(key),
    storage_key: key,
    real_name: 'acta.pdf',
    ext: 'pdf',
    mime: 'application/pdf',
    size: 7,
    ip: '127.0.0.1',
    owner_user_id: null,
    owner_task_id: null,
    form_id: null,
    field: 'soporte',
    foldertype: 'files',
  }
}

/** Issue 17 item 5: a process killed between storing a file and recording it leaves nothing unfindable. */
test.group('uploads: the row before the file', () => {
  test('a kill while the file is being written leaves a row, and the prune removes row and file', async ({
    assert,
  }) => {
    const row = upload()
    let rowWhenWriting: boolean | undefined
    let written = false
    // The write stores the object and then never returns: the process "dies" right there.
    void stageUploads([row], async (r) => {
      rowWhenWriting = (await findUpload(r.path)) !== null
      await drive.use().put(r.storage_key, '%PDF-1.')
      written = true
      await new Promise<never>(() => {})
    })
    await waitUntil(() => written)
    assert.isTrue(rowWhenWriting, 'the staged row exists before the file is written')
    assert.isTrue(await drive.use().exists(row.storage_key))

    // A day later the abandoned upload is found through its row: both go.
    await db
      .from('uploads')
      .where('path', row.path)
      .update({ created_at: new Date(Date.now() - DAY_AND_AN_HOUR_MS) })
    assert.isAtLeast(await pruneStaged(new Date(Date.now() - 24 * 3600_000)), 1)
    assert.isNull(await findUpload(row.path))
    assert.isFalse(await drive.use().exists(row.storage_key))
  })

  test('a write that fails takes the request’s rows and files with it', async ({ assert }) => {
    const first = upload()
    const second = upload()
    await assert.rejects(
      () =>
        stageUploads([first, second], async (r) => {
          if (r === second) throw new Error('disk full')
          await drive.use().put(r.storage_key, '%PDF-1.')
        }),
      'disk full'
    )
    for (const r of [first, second]) {
      assert.isNull(await findUpload(r.path))
      assert.isFalse(await drive.use().exists(r.storage_key))
    }
  })
})
