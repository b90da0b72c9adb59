import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import type { Page } from 'playwright-core'
import { checkA11y } from '../../../../tests/e2e/a11y.ts'
import { BASE as base, PHONE } from '../../../../tests/e2e/session.ts'
import { makeUser } from '../../../../core/server/tests/helpers/auth.ts'
import { libraryBrowser } from './library_page.ts'

/** An index's card on the indexes screen, by its name. */
const card = (page: Page, name: string) => page.locator(`[data-testid=docs-index][data-name="${name}"]`)

const stored = async (name: string) => {
  const row = await db.from('documents_indexes').where('name', name).first()
  return row ? { parent_id: row.parent_id, columns: JSON.parse(row.columns) } : null
}

/**
 * The indexes screen in Chromium (spec 001 §3): an index made with two typed columns, a refused name
 * (the server's message in the dialog), renamed with a column retyped (its values' loss announced),
 * deleted after a confirmation; someone else's index offers no changes; on a phone nothing overflows
 * sideways. axe checks the screen and its dialogs.
 */
test.group('documents indexes screen in Chromium', (group) => {
  const crowd = libraryBrowser(group)

  test('desktop: make, refuse a taken name, rename and retype a column, delete', async ({ assert }) => {
    await makeUser({ username: 'ana', role: 'teacher' })
    const page = await crowd.signedIn('ana')
    await page.goto(`${base}/documents/indexes`)
    await page.getByText('Todavía no hay índices.', { exact: false }).waitFor()

    // A new index with two columns: a text and a number.
    await page.getByRole('button', { name: 'Nuevo índice' }).click()
    const made = page.getByTestId('docs-new-index-dialog')
    await made.getByLabel('Nombre del índice').fill('Expedientes')
    await made.getByLabel('Nombre de la columna 1').fill('expediente')
    await made.getByRole('button', { name: 'Agregar columna' }).click()
    await made.getByLabel('Nombre de la columna 2').fill('folios')
    await made.getByLabel('Tipo de la columna 2').selectOption({ label: 'Número' })
    await checkA11y(page, 'new index dialog')
    await made.getByRole('button', { name: 'Crear' }).click()
    await made.waitFor({ state: 'detached' })
    const expedientes = card(page, 'Expedientes')
    await expedientes.getByText('folios').waitFor()
    assert.deepEqual(await stored('Expedientes'), {
      parent_id: null,
      columns: [
        { name: 'expediente', type: 'text' },
        { name: 'folios', type: 'number' },
      ],
    })

    // A sub-index under it, then the same name again at the top level: the server's refusal is shown.
    await page.getByRole('button', { name: 'Nuevo índice' }).click()
    await made.getByLabel('Nombre del índice').fill('Contratos')
    await made.getByLabel('Dentro de').selectOption({ label: 'Expedientes' })
    await made.getByLabel('Nombre de la columna 1').fill('contratista')
    await made.getByRole('button', { name: 'Crear' }).click()
    await made.waitFor({ state: 'detached' })
    await page
      .getByRole('list', { name: 'Subíndices de Expedientes' })
      .getByRole('heading', { name: 'Contratos' })
      .waitFor()
    await page.getByRole('button', { name: 'Nuevo índice' }).click()
    await made.getByLabel('Nombre del índice').fill('Expedientes')
    await made.getByLabel('Nombre de la columna 1').fill('otra')
    await made.getByRole('button', { name: 'Crear' }).click()
    await made.getByRole('alert').getByText('Ya existe un índice con ese nombre en el mismo nivel.').waitFor()
    await made.getByRole('button', { name: 'Cancelar' }).click()
    await made.waitFor({ state: 'detached' })
    assert.lengthOf(await db.from('documents_indexes').where('name', 'Expedientes'), 1)
    await checkA11y(page, 'indexes screen')

    // Renamed, its number column made a text: the form says that column's values go.
    await expedientes.getByRole('button', { name: 'Editar Expedientes', exact: true }).click()
    const edit = page.getByTestId('docs-edit-index-dialog')
    await edit.getByLabel('Nombre del índice').fill('Expedientes 2026')
    await edit.getByLabel('Tipo de la columna 2').selectOption({ label: 'Texto' })
    await edit.getByTestId('docs-index-drops').getByText('folios', { exact: false }).waitFor()
    await checkA11y(page, 'edit index dialog')
    await edit.getByRole('button', { name: 'Guardar' }).click()
    await edit.waitFor({ state: 'detached' })
    await card(page, 'Expedientes 2026').waitFor()
    assert.deepEqual((await stored('Expedientes 2026'))?.columns, [
      { name: 'expediente', type: 'text' },
      { name: 'folios', type: 'text' },
    ])

    // The sub-index renamed as its parent was: another level, so allowed; a repeat at its own level is not.
    const contratos = card(page, 'Contratos')
    await contratos.getByRole('button', { name: 'Editar Expedientes 2026 › Contratos' }).click()
    await edit.getByLabel('Nombre del índice').fill('Expedientes 2026')
    await edit.getByRole('button', { name: 'Guardar' }).click()
    await edit.waitFor({ state: 'detached' })
    await card(page, 'Expedientes 2026').nth(1).waitFor()

    // Deleted after a confirmation: its sub-index goes with it.
    await card(page, 'Expedientes 2026')
      .first()
      .getByRole('button', { name: 'Eliminar Expedientes 2026', exact: true })
      .click()
    const confirm = page.getByTestId('docs-delete-index-dialog')
    await confirm.getByText('los archivos se conservan', { exact: false }).waitFor()
    await checkA11y(page, 'delete index dialog')
    await confirm.getByRole('button', { name: 'Eliminar' }).click()
    await confirm.waitFor({ state: 'detached' })
    await page.getByText('Todavía no hay índices.', { exact: false }).waitFor()
    assert.lengthOf(await db.from('documents_indexes'), 0)
  })

  test('phone: someone else’s index offers no changes; a refused edit shows the server’s message', async ({
    assert,
  }) => {
    const ana = await makeUser({ username: 'ana', role: 'teacher' })
    await makeUser({ username: 'beto', role: 'student' })
    const now = new Date()
    for (const name of ['Actas', 'Informes de gestión con un nombre bastante largo para un teléfono']) {
      await db.table('documents_indexes').insert({
        name,
        parent_id: null,
        columns: JSON.stringify([{ name: 'numero_de_acta_registrada', type: 'text' }]),
        owner_id: ana.id,
        created_at: now,
      })
    }

    // Beto lists them and may make his own, but has no edit or delete on Ana's.
    const beto = await crowd.signedIn('beto', PHONE)
    await beto.goto(`${base}/documents/indexes`)
    await card(beto, 'Actas').waitFor()
    assert.equal(await card(beto, 'Actas').getByRole('button').count(), 0)
    await beto.getByRole('button', { name: 'Nuevo índice' }).waitFor()

    // Ana, on a phone: the screen fits its width; renaming to a sibling's name is refused in the dialog.
    const page = await crowd.signedIn('ana', PHONE)
    await page.goto(`${base}/documents/indexes`)
    await card(page, 'Actas').waitFor()
    const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
    assert.isAtMost(await overflow(), 0, 'the list does not overflow sideways')
    await card(page, 'Actas').getByRole('button', { name: 'Editar Actas' }).click()
    const edit = page.getByTestId('docs-edit-index-dialog')
    await edit.getByLabel('Nombre del índice').fill('Informes de gestión con un nombre bastante largo para un teléfono')
    await edit.getByRole('button', { name: 'Guardar' }).click()
    await edit.getByRole('alert').getByText('Ya existe un índice con ese nombre en el mismo nivel.').waitFor()
    const box = (await edit.boundingBox())!
    assert.isAtMost(box.x + box.width, PHONE.width, 'the dialog fits the phone')
    await checkA11y(page, 'edit index dialog (phone)')
    await edit.getByRole('button', { name: 'Cerrar' }).first().click()
    await edit.waitFor({ state: 'detached' })
    assert.isNotNull(await stored('Actas'))
  })
})
