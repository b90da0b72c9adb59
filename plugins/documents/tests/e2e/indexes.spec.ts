import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { checkA11y } from '../../../../tests/e2e/a11y.ts'
import { BASE as base, PHONE } from '../../../../tests/e2e/session.ts'
import { makeUser } from '../../../../core/server/tests/helpers/auth.ts'
import { file } from '../functional/sharing_fixtures.ts'
import { libraryBrowser } from './library_page.ts'

/**
 * A file's indexes in Chromium (spec 001 §3): a new index with typed columns made from the file's
 * dialog, the file filed under it with its values, shown again when the dialog reopens, taken out; on
 * a phone too; axe on the dialog.
 */
test.group('documents indexes in Chromium', (group) => {
  const crowd = libraryBrowser(group)

  for (const [size, viewport] of [
    ['desktop', undefined],
    ['phone', PHONE],
  ] as const) {
    test(`${size}: a new index, the file filed under it with typed values, then taken out`, async ({ assert }) => {
      const ana = await makeUser({ username: 'ana', role: 'teacher' })
      const contract = await file(ana.id, 'contrato.txt')
      const page = await crowd.signedIn('ana', viewport)
      await page.goto(`${base}/documents`)
      const row = page.locator('[data-testid=docs-file][data-name="contrato.txt"]')
      await row.getByRole('button', { name: 'Índices contrato.txt' }).click()
      const dialog = page.getByTestId('docs-indexes-dialog')
      await dialog.getByText('Este archivo no está indexado todavía.').waitFor()

      // A new index with two columns, a text and a number.
      await dialog.getByRole('button', { name: 'Nuevo índice' }).click()
      const made = dialog.getByTestId('docs-new-index')
      await made.getByLabel('Nombre del índice').fill('Expedientes')
      await made.getByLabel('Nombre de la columna 1').fill('expediente')
      await made.getByRole('button', { name: 'Agregar columna' }).click()
      await made.getByLabel('Nombre de la columna 2').fill('folios')
      await made.getByLabel('Tipo de la columna 2').selectOption({ label: 'Número' })
      await checkA11y(page, `new index (${size})`)
      await made.getByRole('button', { name: 'Crear' }).click()
      await made.waitFor({ state: 'detached' })

      // The new index is chosen: its typed fields, saved.
      const form = dialog.getByTestId('docs-index-values')
      await form.getByLabel('expediente', { exact: true }).fill('EXP-17')
      assert.equal(await form.getByLabel('folios', { exact: true }).getAttribute('type'), 'number')
      await form.getByLabel('folios', { exact: true }).fill('12')
      await form.getByRole('button', { name: 'Guardar' }).click()
      await dialog.getByTestId('docs-filed').getByText('EXP-17').waitFor()
      const stored = await db.from('documents_file_metadata').where('file_id', contract.id).firstOrFail()
      assert.deepEqual(JSON.parse(stored.values), { expediente: 'EXP-17', folios: 12 })
      await checkA11y(page, `a file's indexes (${size})`)

      // Reopened, the values are there; taken out, they are gone.
      await dialog.getByRole('button', { name: 'Cerrar' }).first().click()
      await dialog.waitFor({ state: 'detached' })
      await row.getByRole('button', { name: 'Índices contrato.txt' }).click()
      await dialog.getByTestId('docs-filed').getByText('12').waitFor()
      await dialog.getByRole('button', { name: 'Quitar del índice Expedientes' }).click()
      await dialog.getByText('Este archivo no está indexado todavía.').waitFor()
      assert.lengthOf(await db.from('documents_file_metadata').where('file_id', contract.id), 0)
    })
  }
})
