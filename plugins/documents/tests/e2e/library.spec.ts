import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { checkA11y, focusedNow, tabTo } from '../../../../tests/e2e/a11y.ts'
import { BASE as base, PHONE, waitUntil } from '../../../../tests/e2e/session.ts'
import { makeUser } from '../../../../core/server/tests/helpers/auth.ts'
import { quota } from '../functional/library_fixtures.ts'
import { dropFiles, libraryBrowser, row } from './library_page.ts'

/**
 * The library's screens in Chromium (spec 001 §2): reached from the home, a folder made and opened,
 * files dropped on the list (each in the progress panel until 2 s after it finishes), a preview,
 * trash and restore, emptying the bin after its confirmation, the quota's refusal, a phone's screen;
 * axe on every screen.
 */

test.group('documents library in Chromium', (group) => {
  const crowd = libraryBrowser(group)

  test('from the home: a folder, files dropped with their progress, a preview, trash and restore', async ({
    assert,
  }) => {
    await makeUser({ username: 'ana', role: 'student' })
    const page = await crowd.signedIn('ana')

    // The home offers the plugin's screen under its own text.
    await page.getByTestId('home-nav').getByRole('link', { name: 'Mis documentos' }).click()
    await page.waitForURL(`${base}/documents`)
    await page.getByTestId('docs-mine').waitFor()
    await page.getByTestId('docs-empty').waitFor()
    await checkA11y(page, 'my documents, empty')

    // A new folder, through its dialog.
    await page.getByRole('button', { name: 'Nueva carpeta' }).click()
    const dialog = page.getByTestId('docs-folder-dialog')
    await dialog.getByLabel('Nombre de la carpeta').fill('Informes')
    await checkA11y(page, 'new folder dialog')
    await dialog.getByRole('button', { name: 'Crear' }).click()
    await row(page, 'folder', 'Informes').waitFor()
    assert.equal(await dialog.count(), 0)

    // Into it: breadcrumbs, then two files dropped on the list.
    await row(page, 'folder', 'Informes').getByRole('link').click()
    await page.getByTestId('docs-crumbs').getByText('Informes').waitFor()
    await dropFiles(page, page.getByTestId('docs-list'), [
      { name: 'acta.txt', text: 'Acta de la reunión del lunes' },
      { name: 'notas.txt', text: 'Notas' },
    ])
    // Each file is an item of the panel that finishes, then leaves (2 s after finishing).
    const panel = page.getByTestId('docs-transfers')
    await panel.locator('li[data-direction=up]').first().waitFor()
    await panel.locator('li[data-state=done]', { hasText: 'acta.txt' }).waitFor()
    await row(page, 'file', 'acta.txt').waitFor()
    await row(page, 'file', 'notas.txt').waitFor()
    await panel.waitFor({ state: 'detached' })
    const stored = await db.from('documents_files').whereIn('name', ['acta.txt', 'notas.txt']).select('folder_id')
    assert.lengthOf(stored, 2)
    const folder = await db.from('documents_folders').where('name', 'Informes').first()
    assert.deepEqual(
      stored.map((r) => Number(r.folder_id)),
      [folder.id, folder.id].map(Number)
    )
    await checkA11y(page, 'a folder with files')

    // The preview: the text viewer in the draggable panel, closed with its button.
    await row(page, 'file', 'acta.txt').getByRole('button', { name: 'acta.txt', exact: true }).click()
    const preview = page.getByTestId('file-preview')
    await preview.waitFor()
    await preview.getByText('Acta de la reunión del lunes').waitFor()
    await checkA11y(page, 'file preview')
    await preview.getByRole('button', { name: 'Cerrar' }).click()
    await preview.waitFor({ state: 'detached' })

    // Trash one file: gone here, in the recycle bin; restored, back in its folder.
    await row(page, 'file', 'notas.txt').getByRole('button', { name: 'Enviar a la papelera notas.txt' }).click()
    await row(page, 'file', 'notas.txt').waitFor({ state: 'detached' })
    await page.getByRole('link', { name: 'Papelera' }).click()
    await page.waitForURL(`${base}/documents/trash`)
    await row(page, 'file', 'notas.txt').waitFor()
    await checkA11y(page, 'recycle bin')
    await row(page, 'file', 'notas.txt').getByRole('button', { name: 'Restaurar notas.txt' }).click()
    await row(page, 'file', 'notas.txt').waitFor({ state: 'detached' })
    await page.goto(`${base}/documents?folder=${folder.id}`)
    await row(page, 'file', 'notas.txt').waitFor()
    const back = await db.from('documents_files').where('name', 'notas.txt').first()
    assert.isNull(back.trashed_at)
  })

  test('emptying the recycle bin asks first; cancelling keeps everything', async ({ assert }) => {
    await makeUser({ username: 'bruno', role: 'teacher' })
    const page = await crowd.signedIn('bruno')
    await page.goto(`${base}/documents`)
    await page.getByTestId('docs-empty').waitFor()
    await dropFiles(page, page.getByTestId('docs-list'), [{ name: 'viejo.txt', text: 'viejo' }])
    await row(page, 'file', 'viejo.txt').getByRole('button', { name: 'Enviar a la papelera viejo.txt' }).click()
    await row(page, 'file', 'viejo.txt').waitFor({ state: 'detached' })

    await page.goto(`${base}/documents/trash`)
    await row(page, 'file', 'viejo.txt').waitFor()
    await page.getByRole('button', { name: 'Vaciar la papelera' }).click()
    const confirm = page.getByTestId('docs-empty-dialog')
    await confirm.waitFor()
    await checkA11y(page, 'empty the bin: confirmation')
    await confirm.getByRole('button', { name: 'Cancelar' }).click()
    await confirm.waitFor({ state: 'detached' })
    assert.equal(
      await db
        .from('documents_files')
        .where('name', 'viejo.txt')
        .count('* as n')
        .first()
        .then((r) => Number(r.n)),
      1
    )

    await page.getByRole('button', { name: 'Vaciar la papelera' }).click()
    await confirm.getByRole('button', { name: 'Vaciar ahora' }).click()
    await page.getByText('La papelera está vacía.').waitFor()
    await waitUntil(async () => (await db.from('documents_files').where('name', 'viejo.txt').first()) === null)
  })

  test('a PDF the viewer cannot read shows the display error, with its download', async () => {
    await makeUser({ username: 'dario', role: 'student' })
    const page = await crowd.signedIn('dario')
    await page.goto(`${base}/documents`)
    await page.getByTestId('docs-empty').waitFor()
    await dropFiles(page, page.getByTestId('docs-list'), [
      { name: 'roto.pdf', text: '%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< >>\n%%EOF\n' },
    ])
    await row(page, 'file', 'roto.pdf').getByRole('button', { name: 'roto.pdf', exact: true }).click()
    const preview = page.getByTestId('file-preview')
    await preview.getByText('No se pudo mostrar el documento; puede que no sea un PDF o que esté dañado').waitFor()
    await preview.locator('.file-preview__none').getByRole('link', { name: 'Descargar' }).waitFor()
  })

  test('by keyboard alone: a new folder, opened, every stop showing its focus', async ({ assert }) => {
    await makeUser({ username: 'elena', role: 'student' })
    const page = await crowd.signedIn('elena')
    await page.goto(`${base}/documents`)
    await page.getByTestId('docs-empty').waitFor()

    await tabTo(page, (f) => f.text === 'Nueva carpeta')
    // Not press(): the dialog opens, and later closes, after a render, and the focus passes through the
    // body meanwhile; where it lands is waited for, then checked to show.
    await page.keyboard.press('Enter')
    const dialog = page.getByTestId('docs-folder-dialog')
    await dialog.waitFor()
    await waitUntil(async () => (await focusedNow(page)).tag === 'input')
    assert.isTrue((await focusedNow(page)).visible, 'the name field takes the focus, visibly')
    await page.keyboard.type('Teclado')
    await page.keyboard.press('Enter')
    await row(page, 'folder', 'Teclado').waitFor()
    assert.equal(await dialog.count(), 0)
    await waitUntil(async () => (await focusedNow(page)).text === 'Nueva carpeta')
    assert.isTrue((await focusedNow(page)).visible, 'focus goes back to the button, visibly')

    await tabTo(page, (f) => f.tag === 'a' && f.text.includes('Teclado'))
    // Not press(): the link leaves with the rows as the folder opens, so focus may pass through the body.
    await page.keyboard.press('Enter')
    await page.getByTestId('docs-crumbs').getByText('Teclado').waitFor()
    // The opened folder's name takes the focus (the link pressed is gone with the rows it was in).
    await waitUntil(async () => (await focusedNow(page)).text === 'Teclado')
    assert.isTrue((await focusedNow(page)).visible)
    await tabTo(page, (f) => f.text === 'Subir archivos')
  })

  test('shared read-only: the share dialog, then the other person sees it under shared with me', async ({ assert }) => {
    await makeUser({ username: 'fabio', role: 'teacher' })
    const other = await makeUser({ username: 'gloria', role: 'student' })
    const owner = await crowd.signedIn('fabio')
    await owner.goto(`${base}/documents`)
    await owner.getByTestId('docs-empty').waitFor()
    await owner.getByTestId('docs-upload-input').setInputFiles({
      name: 'plan.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('Plan de trabajo'),
    })
    await row(owner, 'file', 'plan.txt').getByRole('button', { name: 'Compartir plan.txt' }).click()
    const dialog = owner.getByTestId('docs-share-dialog')
    await dialog.getByRole('combobox', { name: 'Persona' }).locator(`option[value="${other.id}"]`).waitFor({
      state: 'attached',
    })
    await checkA11y(owner, 'share dialog')
    await dialog.getByRole('combobox', { name: 'Persona' }).selectOption(String(other.id))
    await dialog.getByRole('button', { name: 'Compartir', exact: true }).click()
    await dialog.locator('.docs-shares li', { hasText: 'gloria' }).waitFor()
    await dialog.getByRole('button', { name: 'Cerrar' }).click()
    const share = await db.from('documents_shares').where('grantee_id', other.id).first()
    assert.equal(share?.permission, 'read')

    const reader = await crowd.signedIn('gloria')
    await reader.goto(`${base}/documents/shared`)
    const shared = row(reader, 'file', 'plan.txt')
    await shared.waitFor()
    await checkA11y(reader, 'shared with me')
    assert.equal(await shared.getByRole('button', { name: 'Enviar a la papelera plan.txt' }).count(), 0, 'read only')
    // A download goes through the progress panel too, and saves the file under its name.
    const [download] = await Promise.all([
      reader.waitForEvent('download'),
      shared.getByRole('button', { name: 'Descargar plan.txt' }).click(),
    ])
    assert.equal(download.suggestedFilename(), 'plan.txt')
    await reader.getByTestId('docs-transfers').locator('li[data-direction=down][data-state=done]').waitFor()
    await reader.getByTestId('docs-transfers').waitFor({ state: 'detached' })
  })

  test('signed out, a library screen sends to the sign-in form', async ({ assert }) => {
    const page = await crowd.open()
    await page.goto(`${base}/documents/trash`)
    await page.waitForURL(`${base}/`)
    await page.getByTestId('page-login').waitFor()
    assert.equal(await page.getByTestId('docs-trash').count(), 0)
  })

  test('on a phone: the screens fit and pass axe; an upload over the quota is refused with its reason', async ({
    assert,
  }) => {
    const user = await makeUser({ username: 'carla', role: 'student' })
    await quota(user.id, 10)
    const page = await crowd.signedIn('carla', PHONE)
    for (const [path, id] of [
      ['/documents', 'docs-mine'],
      ['/documents/shared', 'docs-shared'],
      ['/documents/recent', 'docs-recent'],
      ['/documents/trash', 'docs-trash'],
    ] as const) {
      await page.goto(`${base}${path}`)
      await page.getByTestId(id).locator('[data-testid=docs-empty], table').first().waitFor()
      await checkA11y(page, `${path} on a phone`)
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth)
      assert.isAtMost(overflow, 0, `${path} is wider than the phone`)
    }

    // The button's file input, with a file over the 10-byte quota: the server's reason, nothing stored.
    await page.goto(`${base}/documents`)
    await page.getByTestId('docs-empty').waitFor()
    await page.getByTestId('docs-upload-input').setInputFiles({
      name: 'grande.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('más de diez bytes de texto'),
    })
    await page.locator('.toast', { hasText: 'Espacio de almacenamiento insuficiente' }).waitFor()
    assert.isNull(await db.from('documents_files').where('name', 'grande.txt').first())
  })
})
