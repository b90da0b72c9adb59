import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import type { Browser, Page } from 'playwright-core'
import { launchChromium } from './chromium.ts'
import { a11yViolations } from './a11y.ts'
import { BASE as base, PHONE, people as browsers, waitUntil } from './session.ts'
import { PASSWORD, makeUser, resetAuthTables } from '../../core/server/tests/helpers/auth.ts'
import { resetProcessTables } from '../../core/server/tests/helpers/process.ts'
import { publishForm } from '../../core/server/app/services/process/forms.ts'
import { caseKey } from '../../core/server/app/services/process/engine.ts'

/** A process that ends as soon as the form is sent: only the stored values matter here. */
const PROCESS = {
  label: 'Hijos',
  color: '#1C1066',
  states: [
    { id: 'init', label: 'Iniciado', color: '#7f82ff' },
    { id: 'end', label: 'Finalizado', color: '#1C1066' },
  ],
  start: { step: null, state: 'end' },
}

/** Children, one to three: a required name, an age, a document, its passport number only for a passport. */
const FORM = {
  form: { pages: [{ name: 'Familia', layout: [['pais'], ['hijos']] }] },
  fields: [
    { field_name: 'pais', type: 'text', data: { label: { value: 'País' } } },
    {
      field_name: 'hijos',
      type: 'repeat',
      data: {
        label: { value: 'Hijos' },
        min_rows: 1,
        max_rows: 3,
        cells: [
          { field_name: 'nombre', type: 'text', data: { label: { value: 'Nombre' }, validate: { required: true } } },
          { field_name: 'edad', type: 'number', data: { label: { value: 'Edad' } } },
          {
            field_name: 'doc',
            type: 'select',
            data: {
              label: { value: 'Documento' },
              options: [
                { id: 'ti', label: 'Tarjeta' },
                { id: 'pp', label: 'Pasaporte' },
              ],
            },
          },
          {
            field_name: 'pasaporte',
            type: 'text',
            data: {
              label: { value: 'Número de pasaporte' },
              validate: { required: true },
              show_with_formule: "row.doc === 'pp' && pais !== 'CO'",
            },
          },
          { field_name: 'vive', type: 'switch', data: { label: { value: 'Vive conmigo' } } },
          // Computed in each row from its own age.
          {
            field_name: 'meses',
            type: 'number',
            data: { label: { value: 'Meses' }, formule: "row.edad === '' ? '' : row.edad * 12" },
          },
        ],
      },
    },
  ],
}

test.group('repeating groups in Chromium', (group) => {
  let browser: Browser
  const session = browsers(() => browser, PASSWORD)

  group.setup(async () => {
    browser = await launchChromium()
    return () => browser.close()
  })
  group.each.setup(async () => {
    await resetProcessTables()
    await resetAuthTables()
    return () => session.closeAll()
  })

  const rowsOf = (page: Page) => page.locator('[data-field=hijos] [data-row]')
  const row = (page: Page, index: number) => page.locator(`[data-field=hijos] [data-row="${index}"]`)

  test('rows are added up to max and removed down to min; cells, conditions per row and required cells', async ({
    assert,
  }) => {
    await makeUser({ id: 1, username: 'admin', role: 'superuser' })
    await makeUser({ username: 'madre', role: 'student' })
    const form = await publishForm({ name: 'Familia', jsonconfig: FORM, process: PROCESS, userId: null })
    const page = await session.signedIn('madre', PHONE)
    await page.goto(`${base}/forms/new?data=${form.key}`)
    await page.getByLabel('País').waitFor()
    // The group's renderer is loaded with the form (a chunk of its own): its row comes with it.
    await row(page, 0).waitFor()

    // min_rows: one row to start with, which cannot be removed.
    assert.equal(await rowsOf(page).count(), 1)
    assert.equal(await page.getByRole('button', { name: /^Quitar/ }).count(), 0)
    const add = page.getByRole('button', { name: 'Añadir fila' })

    // Adding by keyboard moves the focus into the new row; at max_rows the add button goes.
    await add.focus()
    await page.keyboard.press('Enter')
    assert.equal(await rowsOf(page).count(), 2)
    await page.waitForFunction(() => document.activeElement?.id === 'ff-hijos.1.nombre', null, { timeout: 3000 })
    await add.click()
    assert.equal(await rowsOf(page).count(), 3)
    assert.equal(await add.count(), 0, 'no add button at max_rows')

    // Each row's cells, named by their labels inside the row (one group per row).
    await row(page, 0).getByLabel('Nombre').fill('Ana')
    await row(page, 1).getByLabel('Nombre').fill('Borrar')
    await row(page, 2).getByLabel('Nombre').fill('')
    await row(page, 2).getByLabel('Edad').fill('4')

    // Removing the middle row keeps the others' values; the add button is back.
    await page.getByRole('button', { name: 'Quitar Fila 2' }).click()
    assert.equal(await rowsOf(page).count(), 2)
    assert.equal(await row(page, 0).getByLabel('Nombre').inputValue(), 'Ana')
    assert.equal(await row(page, 1).getByLabel('Edad').inputValue(), '4')
    await add.waitFor()
    // The computed cell follows its row's age, and cannot be typed in.
    await waitUntil(async () => (await row(page, 1).getByLabel('Meses').inputValue()) === '48')
    assert.isFalse(await row(page, 1).getByLabel('Meses').isEditable())
    assert.equal(await row(page, 0).getByLabel('Meses').inputValue(), '')

    // The passport cell shows in the row that chose a passport, and only while the country is not CO.
    await row(page, 0).getByLabel('Documento').selectOption({ label: 'Pasaporte' })
    await row(page, 0).getByLabel('Número de pasaporte').waitFor()
    assert.equal(await row(page, 1).getByLabel('Número de pasaporte').count(), 0)
    await page.getByLabel('País').fill('CO')
    await row(page, 0).getByLabel('Número de pasaporte').waitFor({ state: 'detached' })
    await page.getByLabel('País').fill('AR')
    await row(page, 0).getByLabel('Número de pasaporte').fill('X123')
    await row(page, 0).getByRole('switch', { name: 'Vive conmigo' }).click()

    // On a phone a row's cells stack, nothing scrolls sideways; and the screen passes axe.
    const cells = await row(page, 0)
      .locator('.frepeat__cell')
      .evaluateAll((list) => list.map((cell) => Math.round(cell.getBoundingClientRect().left)))
    assert.isAbove(cells.length, 3)
    assert.lengthOf(new Set(cells), 1, 'every cell starts at the same left edge: one under the other')
    assert.isAtMost(await page.evaluate(() => document.documentElement.scrollWidth), PHONE.width)
    assert.deepEqual(await a11yViolations(page, { legacy: true }), [])

    // Row 2's required name is empty: sending lists it; its entry takes the focus to that cell.
    await page.getByTestId('form-send').click()
    const missing = page.getByTestId('missing-required')
    await missing.getByRole('button', { name: 'Hijos (Fila 2): Nombre' }).click()
    await page.waitForFunction(() => document.activeElement?.id === 'ff-hijos.1.nombre')
    await page.keyboard.type('Luis')
    await missing.waitFor({ state: 'detached' })

    await page.getByTestId('form-send').click()
    await page.getByTestId('form-done').waitFor()
    const cases = await db.from('cases')
    assert.lengthOf(cases, 1)
    const values = JSON.parse(cases[0].values) as Record<string, unknown>
    assert.deepEqual(values.hijos, [
      { nombre: 'Ana', edad: '', doc: 'pp', pasaporte: 'X123', vive: true, meses: '' },
      { nombre: 'Luis', edad: 4, doc: '', pasaporte: '', vive: false, meses: 48 },
    ])

    // The case seen afterwards: the rows as stored, read-only, the passport shown by its row's condition.
    const admin = await session.signedIn('admin')
    await admin.goto(`${base}/forms/see?key_process=${caseKey(cases[0].id)}`)
    await row(admin, 1).waitFor()
    assert.equal(await rowsOf(admin).count(), 2)
    assert.equal(await row(admin, 0).getByLabel('Nombre').inputValue(), 'Ana')
    assert.isFalse(await row(admin, 0).getByLabel('Nombre').isEditable())
    await row(admin, 0).getByLabel('Número de pasaporte').waitFor()
    assert.equal(await row(admin, 1).getByLabel('Número de pasaporte').count(), 0)
    assert.equal(await admin.getByRole('button', { name: 'Añadir fila' }).count(), 0)
    assert.equal(await admin.getByRole('button', { name: /^Quitar/ }).count(), 0)
  })
})
