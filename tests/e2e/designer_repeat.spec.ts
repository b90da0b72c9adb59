import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import type { Browser, Page } from 'playwright-core'
import { launchChromium } from './chromium.ts'
import { a11yViolations } from './a11y.ts'
import { BASE as base, people, waitUntil } from './session.ts'
import { createForm, recordOnlyProcess } from '../../core/server/app/services/process/forms.ts'
import { resetAuthTables } from '../../core/server/tests/helpers/auth.ts'
import { resetProcessTables } from '../../core/server/tests/helpers/process.ts'
import { DEFAULT_DEMO_PASSWORD, seedDemo } from '../../core/server/app/services/seed_service.ts'

/** The form's draft as the designer last saved it. */
async function storedGroup(formId: number) {
  const draft = await db.from('form_versions').where('form_id', formId).whereNull('published_at').firstOrFail()
  const config = JSON.parse(draft.jsonconfig) as { fields: { field_name: string; data?: Record<string, unknown> }[] }
  return config.fields.find((f) => f.field_name === 'hijos')!.data ?? {}
}

const saved = (page: Page) => page.locator('[data-testid=save-status][data-state=saved]').waitFor()

/** A repeating group in the designer's property panel (issue 24): its row limits and its cells. */
test.group('repeating groups in the designer in Chromium', (group) => {
  let browser: Browser
  const session = people(() => browser, DEFAULT_DEMO_PASSWORD)

  group.setup(async () => {
    browser = await launchChromium()
    return () => browser.close()
  })
  group.each.setup(async () => {
    await resetProcessTables()
    await resetAuthTables()
    await db.from('user_areas').delete()
    await db.from('areas').delete()
    await seedDemo()
    return () => session.closeAll()
  })

  test('rows limits set, a cell added, typed as a dropdown (its options shown), its condition on its row; valid', async ({
    assert,
  }) => {
    const supervisor = await db.from('users').where('username', 'supervisor').firstOrFail()
    const { formId } = await createForm(
      {
        name: 'Familia',
        jsonconfig: {
          form: { pages: [{ name: 'Datos', layout: [['hijos']] }] },
          fields: [{ field_name: 'hijos', type: 'repeat', data: { label: { value: 'Hijos' } } }],
          elements: [],
        },
        process: recordOnlyProcess('Familia'),
      },
      Number(supervisor.id)
    )
    const page = await session.signedIn('supervisor')
    await page.goto(`${base}/designer/forms/${formId}`)
    const panel = page.getByRole('complementary', { name: 'Propiedades' })
    await page.locator('[data-testid=item][data-name="hijos"]').click()

    await panel.getByLabel('Filas mínimas').fill('1')
    await panel.getByLabel('Filas máximas (-1: sin límite)').fill('3')
    await panel.getByRole('button', { name: 'Añadir a Celdas' }).click()
    const cell = panel.locator('.panel-entry').filter({ hasText: 'cell_1' })
    await cell.getByLabel('Tipo', { exact: true }).selectOption('select')
    // A dropdown cell has its type's own keys: its options.
    await cell.getByRole('button', { name: 'Añadir a Opciones' }).waitFor()
    // The cell's condition is checked against its row: a cell the group does not have is refused.
    await cell.getByTestId('edit-script-show_with_formule').click()
    const editor = cell.locator('.monaco-editor').first()
    await editor.waitFor()
    await editor.click()
    await page.keyboard.type("row.nada == 'a'", { delay: 30 })
    await cell.getByTestId('script-blocked').waitFor({ timeout: 15_000 })
    await page.keyboard.press('Control+A')
    await page.keyboard.type("row.cell_1 == 'a'", { delay: 30 })
    await cell.getByTestId('script-blocked').waitFor({ state: 'detached', timeout: 15_000 })
    await saved(page)
    await waitUntil(async () => {
      const data = await storedGroup(formId)
      return data.min_rows === 1 && data.max_rows === 3 && Array.isArray(data.cells) && data.cells.length === 1
    })
    await waitUntil(async () => {
      const [stored] = (await storedGroup(formId)).cells as { data?: { show_with_formule?: string } }[]
      return stored?.data?.show_with_formule === "row.cell_1 == 'a'"
    })
    assert.deepEqual((await storedGroup(formId)).cells, [
      { field_name: 'cell_1', type: 'select', data: { show_with_formule: "row.cell_1 == 'a'" } },
    ])
    assert.equal(await page.getByTestId('problems').innerText(), 'Sin problemas: se puede publicar')
    assert.deepEqual(await a11yViolations(page, { legacy: true }), [])
  })
})
