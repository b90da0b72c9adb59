import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { checkA11y } from '../../../../tests/e2e/a11y.ts'
import { BASE as base, PHONE } from '../../../../tests/e2e/session.ts'
import { makeUser } from '../../../../core/server/tests/helpers/auth.ts'
import { libraryBrowser } from './library_page.ts'

/** A folder of 60 files in Chromium: pages of 50 with their range, and sorting by a column both ways. */
test.group('documents paging and sorting in Chromium', (group) => {
  const crowd = libraryBrowser(group)

  test('pages of 50 with their range; sorted by size, then the other way; on a phone too', async ({ assert }) => {
    const ana = await makeUser({ username: 'ana', role: 'teacher' })
    const now = new Date()
    // Rows only: the listing reads names and sizes (file-060.txt is the largest).
    await db.table('documents_files').multiInsert(
      Array.from({ length: 60 }, (_, i) => ({
        folder_id: null,
        owner_id: ana.id,
        name: `file-${String(i + 1).padStart(3, '0')}.txt`,
        extension: 'txt',
        mime: 'text/plain',
        size: (i + 1) * 10,
        storage_key: `plugins/documents/2026/11/00000000-0000-4000-8000-${String(i).padStart(12, '0')}.txt`,
        sha256: '0'.repeat(64),
        current_version: 1,
        created_at: now,
        updated_at: now,
      }))
    )
    const page = await crowd.signedIn('ana')
    await page.goto(`${base}/documents`)
    const pager = page.getByTestId('docs-pager')
    await pager.getByText('1–50 de 60').waitFor()
    const names = () =>
      page.locator('[data-testid=docs-file]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-name')))
    assert.lengthOf(await names(), 50)
    assert.equal((await names())[0], 'file-001.txt')
    assert.isTrue(await pager.getByRole('button', { name: 'Anterior' }).isDisabled())
    await pager.getByRole('button', { name: 'Siguiente' }).click()
    await pager.getByText('51–60 de 60').waitFor()
    assert.deepEqual((await names()).slice(0, 2), ['file-051.txt', 'file-052.txt'])

    // Sorting starts again at the first page; a second click turns the order.
    const size = page.getByRole('columnheader', { name: 'Tamaño' })
    await size.getByRole('button').click()
    await pager.getByText('1–50 de 60').waitFor()
    assert.equal(await size.getAttribute('aria-sort'), 'ascending')
    await size.getByRole('button').click()
    await page.locator('[data-testid=docs-file]').first().and(page.locator('[data-name="file-060.txt"]')).waitFor()
    assert.equal(await size.getAttribute('aria-sort'), 'descending')
    await checkA11y(page, 'a sorted page')

    const phone = await crowd.signedIn('ana', PHONE)
    await phone.goto(`${base}/documents`)
    await phone.getByTestId('docs-pager').getByText('1–50 de 60').waitFor()
    await checkA11y(phone, 'paged list, phone')
  })
})
