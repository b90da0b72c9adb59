import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { checkA11y } from '../../../../tests/e2e/a11y.ts'
import { BASE as base, PHONE } from '../../../../tests/e2e/session.ts'
import { makeUser } from '../../../../core/server/tests/helpers/auth.ts'
import { dropFiles, libraryBrowser, row } from './library_page.ts'

/**
 * A file's versions and comments in Chromium (spec 001 §3, §9): a new version uploaded from the dialog,
 * the first one restored (as version 3), a comment added; the dialog passes axe on a desktop and a phone.
 */
test.group('documents versions and comments in Chromium', (group) => {
  const crowd = libraryBrowser(group)

  test('a new version, the first restored, a comment; on a phone too', async ({ assert }) => {
    await makeUser({ username: 'ana', role: 'teacher' })
    const page = await crowd.signedIn('ana')
    await page.goto(`${base}/documents`)
    await page.getByTestId('docs-empty').waitFor()
    await dropFiles(page, page.getByTestId('docs-list'), [{ name: 'acta.txt', text: 'primera' }])
    const acta = row(page, 'file', 'acta.txt')
    await acta.getByRole('button', { name: 'Versiones y comentarios acta.txt' }).click()
    const dialog = page.getByTestId('docs-details-dialog')
    const versions = dialog.getByTestId('docs-versions')
    await versions.locator('li[data-number="1"]').getByText('actual').waitFor()
    await dialog.getByText('Todavía no hay comentarios.').waitFor()

    // A new version from the dialog's file picker.
    const chooser = page.waitForEvent('filechooser')
    await dialog.getByRole('button', { name: 'Subir una nueva versión' }).click()
    await (await chooser).setFiles({ name: 'acta.txt', mimeType: 'text/plain', buffer: Buffer.from('segunda') })
    await versions.locator('li[data-number="2"]').getByText('actual').waitFor()

    // The first one restored: it comes back as version 3, with the first one's bytes.
    await versions.getByRole('button', { name: 'Restaurar la versión 1' }).click()
    await versions.locator('li[data-number="3"]').getByText('actual').waitFor()
    const stored = await db.from('documents_files').where('name', 'acta.txt').firstOrFail()
    const first = await db.from('documents_versions').where({ file_id: stored.id, number: 1 }).firstOrFail()
    assert.equal(stored.current_version, 3)
    assert.equal(stored.storage_key, first.storage_key)

    await dialog.getByLabel('Nuevo comentario').fill('Revisado por la secretaría')
    await dialog.getByRole('button', { name: 'Comentar' }).click()
    await dialog.getByTestId('docs-comments').getByText('Revisado por la secretaría').waitFor()
    await checkA11y(page, 'versions and comments')

    const phone = await crowd.signedIn('ana', PHONE)
    await phone.goto(`${base}/documents`)
    // The row's actions wrap: the list fits the phone without a sideways scroll.
    await row(phone, 'file', 'acta.txt').waitFor()
    const list = await phone.getByTestId('docs-list').evaluate((e) => ({ scroll: e.scrollWidth, width: e.clientWidth }))
    assert.isAtMost(list.scroll, list.width, 'no sideways scroll on a phone')
    await row(phone, 'file', 'acta.txt').getByRole('button', { name: 'Versiones y comentarios acta.txt' }).click()
    await phone.getByTestId('docs-details-dialog').getByText('Revisado por la secretaría').waitFor()
    await checkA11y(phone, 'versions and comments, phone')
  })
})
