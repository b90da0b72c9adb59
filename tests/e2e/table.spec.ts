import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import type { Browser, Locator, Page } from 'playwright-core'
import { launchChromium } from './chromium.ts'
import { BASE as base, people, waitUntil } from './session.ts'
import { PASSWORD, makeUser, resetAuthTables } from '../../core/server/tests/helpers/auth.ts'
import { permitProcess, resetProcessTables } from '../../core/server/tests/helpers/process.ts'
import Area from '../../core/server/app/models/area.ts'
import Role from '../../core/server/app/models/role.ts'
import { publishForm } from '../../core/server/app/services/process/forms.ts'
import { latestVersionByKey } from '../../core/server/app/services/process/definitions.ts'
import { caseKey, startCase, taskToken } from '../../core/server/app/services/process/engine.ts'
import { seedBase } from '../../core/server/app/services/seed_service.ts'

/**
 * The table element in Chromium (spec 000 §3 table, §5, §8, §9; 001 §3-§5): 2,000 rows stored in a
 * case, opened by the reviewer of its step; cells edited (text by keyboard, a number stepped, a date, a
 * boolean with close and check), searched, sorted, paged by 10, 20 and 30, formula columns, a row
 * button greyed by its condition and one that runs an action with its row, head buttons following a
 * form value, a grouped and virtualised second table with child rows; the edits are what the case saves.
 */

const AREAS = ['Norte', 'Sur', 'Este', 'Oeste']
const ROWS = Array.from({ length: 2000 }, (_, i) => ({
  id: i + 1,
  persona: `Persona ${String(i + 1).padStart(4, '0')}`,
  cantidad: (i % 50) + 1,
  fecha: `2026-01-${String((i % 28) + 1).padStart(2, '0')}`,
  activo: i % 2 === 0,
  area: AREAS[i % 4],
}))

const config = {
  form: { pages: [{ name: 'Inventario', layout: [['elegido'], ['tabla'], ['grupos']] }] },
  fields: [
    { field_name: 'elegido', type: 'text', data: { label: { value: 'Elegido' } } },
    {
      field_name: 'tabla',
      type: 'table',
      data: {
        label: { value: 'Inventario' },
        ref: {
          table: {
            columns: [
              { name: 'id', label: 'N.º', type: 'number' },
              { name: 'persona', label: 'Persona', editable: true, bold: true, fontsize: 15 },
              { name: 'cantidad', label: 'Cantidad', type: 'number', editable: true },
              { name: 'fecha', label: 'Fecha', type: 'date', editable: true },
              {
                name: 'activo',
                label: 'Activo',
                type: 'boolean',
                editable: true,
                display: {
                  true: { text: 'Vigente', color: '#008000', icon: 'check' },
                  false: { text: 'Retirado', color: '#aa0000' },
                },
              },
              { name: 'area', label: 'Área' },
              { name: 'doble', label: 'Doble', type: 'formule', output: 'number', formule: 'cantidad * 2' },
              { name: 'falla', label: 'Falla', type: 'formule', formule: 'cantidad.no.existe' },
              { name: 'falta', label: 'Falta', type: 'formule', formule: 'descuento + 1' },
              {
                name: 'acciones',
                label: 'Acciones',
                type: 'buttons',
                buttons: [
                  {
                    action: 'marcar',
                    text: 'Elegir',
                    formule: 'activo === true',
                    text_error: 'Solo vigentes',
                    background: '#005500',
                    color: '#ffffff',
                  },
                ],
              },
            ],
            headButtons: [
              { action: 'limpiar', text: 'Limpiar', formule: "elegido !== ''", text_error: 'Nada que limpiar' },
              { action: 'todos', text: 'Todos' },
            ],
            header_background: '#224466',
            header_color: '#ffeeaa',
          },
        },
      },
    },
    {
      field_name: 'grupos',
      type: 'table',
      data: {
        label: { value: 'Por área' },
        ref: {
          table: {
            columns: [
              { name: 'persona', label: 'Persona' },
              { name: 'area', label: 'Área' },
              { name: 'cantidad', label: 'Cantidad', type: 'number' },
            ],
            groupBy: 'area',
            child_row: '**${persona}** trabaja en ${area}',
            search_show: false,
            pagination: { showBar: false },
          },
        },
      },
    },
  ],
  elements: [],
  validations: {
    actions: [
      { name: 'marcar', actions: [{ type: 'set_value', config: { field: 'elegido', value: '${row.persona}' } }] },
      { name: 'limpiar', actions: [{ type: 'set_value', config: { field: 'elegido', value: '' } }] },
      { name: 'todos', actions: [{ type: 'set_value', config: { field: 'elegido', value: 'todos' } }] },
    ],
  },
}

test.group('table element in Chromium', (group) => {
  let browser: Browser
  const session = people(() => browser, PASSWORD)

  group.setup(async () => {
    browser = await launchChromium()
    return () => browser.close()
  })
  group.each.setup(async () => {
    await resetProcessTables()
    await resetAuthTables()
    return () => session.closeAll()
  })

  /** A case holding the 2,000 rows, at the review step; its reviewer's page on it. */
  async function openCase(): Promise<{ page: Page; caseId: number }> {
    await seedBase()
    const area =
      (await Area.findBy('name', 'Talento humano')) ?? (await Area.create({ name: 'Talento humano', color: '#336699' }))
    const supervisor = await Role.findByOrFail('name', 'supervisor')
    const form = await publishForm({
      name: 'Inventario',
      jsonconfig: config,
      process: permitProcess(area.id, supervisor.id),
      userId: null,
    })
    const applicant = await makeUser({ username: 'solicitante', role: 'student' })
    const reviewer = await makeUser({ username: 'revisora', role: 'teacher' })
    await reviewer.related('areas').attach([area.id])
    const version = (await latestVersionByKey(form.key))!
    const started = await startCase(version, applicant.id, { values: { tabla: ROWS, grupos: ROWS } })
    const task = await db.from('tasks').where('case_id', started.caseId).where('status', 'pending').firstOrFail()
    const page = await session.signedIn('revisora', { width: 1400, height: 1000 })
    page.on('pageerror', (error) => console.error('page error:', error))
    await page.goto(
      `${base}/forms/enter?data=${form.key}&key_process=${caseKey(started.caseId)}&token=${taskToken(task.id)}`
    )
    return { page, caseId: started.caseId }
  }

  const bodyRows = (table: Locator) => table.locator('tbody tr:not(.ftable__spacer)')
  const cell = (row: Locator, column: string) => row.locator(`td[data-column=${column}]`)
  /** What a cell shows (an editable cell also holds its edit button). */
  const shown = (row: Locator, column: string) =>
    cell(row, column).evaluate(
      (td) => (td.querySelector<HTMLElement>('.ftable__value') ?? (td as HTMLElement)).innerText
    )

  test('2,000 rows: formulas, paging, sorting, search, edits, buttons and actions, groups, child rows', async ({
    assert,
  }) => {
    const { page, caseId } = await openCase()
    const table = page.locator('[data-field=tabla]')
    await table.getByTestId('table-range').waitFor()

    // Pages of 10 (spec 000 §9), header colours, formula columns computed per row in the sandbox.
    assert.equal(await bodyRows(table).count(), 10)
    assert.equal(await table.getByTestId('table-range').innerText(), '1–10 de 2000')
    const th = table.locator('th').first()
    assert.equal(await th.evaluate((el) => getComputedStyle(el).backgroundColor), 'rgb(34, 68, 102)')
    assert.equal(await th.evaluate((el) => getComputedStyle(el).color), 'rgb(255, 238, 170)')
    const first = bodyRows(table).first()
    await page.waitForFunction(
      () => document.querySelector('[data-field=tabla] tbody tr td[data-column=doble]')?.textContent === '2'
    )
    assert.equal(await shown(first, 'falla'), 'Error')
    assert.equal(await shown(first, 'falta'), 'No se encontró la variable descuento')
    assert.equal(await cell(first, 'persona').evaluate((el) => getComputedStyle(el).fontWeight), '700')
    assert.equal(await shown(first, 'activo'), '✓Vigente')
    assert.equal(await cell(first, 'activo').evaluate((el) => getComputedStyle(el).color), 'rgb(0, 128, 0)')
    assert.equal(await shown(bodyRows(table).nth(1), 'activo'), 'Retirado')

    // Page sizes 10, 20, 30 and the pager's buttons.
    const size = table.getByLabel('Filas por página')
    await size.selectOption('20')
    assert.equal(await bodyRows(table).count(), 20)
    await size.selectOption('30')
    assert.equal(await bodyRows(table).count(), 30)
    await table.getByRole('button', { name: 'Página siguiente' }).click()
    await table.getByText('31–60 de 2000').waitFor()
    await table.getByRole('button', { name: 'Última página' }).click()
    await table.getByText('1981–2000 de 2000').waitFor()
    assert.equal(await bodyRows(table).count(), 20)
    await size.selectOption('10')
    await table.getByText('1–10 de 2000').waitFor()

    // Sorting from the keyboard: the header's button, aria-sort on the header cell.
    const idHeader = table.locator('th[data-type=number]').first()
    await idHeader.getByRole('button').focus()
    await page.keyboard.press('Enter')
    assert.equal(await idHeader.getAttribute('aria-sort'), 'ascending')
    await page.keyboard.press('Enter')
    assert.equal(await idHeader.getAttribute('aria-sort'), 'descending')
    assert.equal(await shown(bodyRows(table).first(), 'id'), '2000')
    await page.keyboard.press('Enter')
    assert.equal(await idHeader.getAttribute('aria-sort'), 'none')

    // The search looks in the shown texts.
    await table.getByPlaceholder('Buscar en la tabla').fill('persona 0007')
    await table.getByText('1–1 de 1').waitFor()
    const seven = bodyRows(table).first()

    // A text cell edited by keyboard: the edit button, Enter to confirm; Escape reverts.
    await seven.getByRole('button', { name: 'Editar Persona (7)' }).focus()
    await page.keyboard.press('Enter')
    const personaInput = seven.getByLabel('Persona, fila 7')
    assert.isTrue(await personaInput.evaluate((el) => el === document.activeElement), 'the editor has the focus')
    await personaInput.fill('Séptima')
    await page.keyboard.press('Escape')
    assert.equal(await shown(seven, 'persona'), 'Persona 0007')
    assert.isTrue(
      await seven.getByRole('button', { name: 'Editar Persona (7)' }).evaluate((el) => el === document.activeElement),
      'the focus goes back to the edit button'
    )
    await page.keyboard.press('Enter')
    await seven.getByLabel('Persona, fila 7').fill('Séptima')
    await page.keyboard.press('Enter')
    // The row now reads 'Séptima': the search no longer finds it.
    await table.getByText(/Ninguna fila coincide/).waitFor()
    await table.getByPlaceholder('Buscar en la tabla').fill('séptima')
    await table.getByText('1–1 de 1').waitFor()

    // A number cell: step 1 with the arrow key, confirmed with the check button; the formula follows.
    await seven.getByRole('button', { name: 'Editar Cantidad (7)' }).click()
    const cantidad = seven.getByLabel('Cantidad, fila 7')
    assert.equal(await cantidad.getAttribute('type'), 'number')
    assert.equal(await cantidad.getAttribute('step'), '1')
    assert.equal(await cantidad.inputValue(), '7')
    await cantidad.press('ArrowUp')
    await cantidad.press('ArrowUp')
    await seven.getByRole('button', { name: 'Confirmar' }).click()
    assert.equal(await shown(seven, 'cantidad'), '9')
    await page.waitForFunction(
      () => document.querySelector('[data-field=tabla] tbody tr td[data-column=doble]')?.textContent === '18'
    )

    // A date cell: datetime-local.
    await seven.getByRole('button', { name: 'Editar Fecha (7)' }).click()
    const fecha = seven.getByLabel('Fecha, fila 7')
    assert.equal(await fecha.getAttribute('type'), 'datetime-local')
    await fecha.fill('2026-05-06T07:08')
    await seven.getByRole('button', { name: 'Confirmar' }).click()
    assert.equal(await shown(seven, 'fecha'), '2026-05-06 07:08')

    // A boolean cell: a checkbox; close reverts, check keeps.
    await seven.getByRole('button', { name: 'Editar Activo (7)' }).click()
    await seven.getByLabel('Activo, fila 7').uncheck()
    await seven.getByRole('button', { name: 'Cancelar' }).click()
    assert.equal(await shown(seven, 'activo'), '✓Vigente')

    // Row buttons: usable only when the condition holds; the action gets the row (set_value from ${row.persona}).
    const elegir = seven.getByRole('button', { name: 'Elegir' })
    assert.isNull(await elegir.getAttribute('aria-disabled'))
    assert.equal(await elegir.evaluate((el) => getComputedStyle(el).backgroundColor), 'rgb(0, 85, 0)')
    const limpiar = table.getByRole('button', { name: 'Limpiar' })
    assert.equal(await limpiar.getAttribute('aria-disabled'), 'true', 'the head button waits for a chosen value')
    await table.getByText('Nada que limpiar').waitFor()
    await elegir.click()
    await waitUntil(async () => (await page.getByLabel('Elegido').inputValue()) === 'Séptima')
    await waitUntil(async () => (await limpiar.getAttribute('aria-disabled')) === null)
    await limpiar.click()
    await waitUntil(async () => (await page.getByLabel('Elegido').inputValue()) === '')
    await table.getByRole('button', { name: 'Todos' }).click()
    await waitUntil(async () => (await page.getByLabel('Elegido').inputValue()) === 'todos')

    // Now retire the row: its button greys with its error text, and a click does nothing.
    await seven.getByRole('button', { name: 'Editar Activo (7)' }).click()
    await seven.getByLabel('Activo, fila 7').uncheck()
    await seven.getByRole('button', { name: 'Confirmar' }).click()
    assert.equal(await shown(seven, 'activo'), 'Retirado')
    await waitUntil(
      async () => (await seven.getByRole('button', { name: 'Elegir' }).getAttribute('aria-disabled')) === 'true'
    )
    await seven.getByText('Solo vigentes').waitFor()
    // Forced: Playwright itself will not click an aria-disabled button; the page must ignore the click.
    // Nothing else sets Elegido from here on: the saved case, after all that follows, still has 'todos'.
    await seven.getByRole('button', { name: 'Elegir' }).click({ force: true })
    await table.getByPlaceholder('Buscar en la tabla').fill('')
    await table.getByText('1–10 de 2000').waitFor()

    // The grouped table: one group per area, open, rows virtualised (all 2,000 in one scroll, few in the DOM).
    const grupos = page.locator('[data-field=grupos]')
    const norte = grupos.getByRole('button', { name: 'Mostrar u ocultar el grupo Norte' })
    await norte.waitFor()
    assert.equal(await norte.getAttribute('aria-expanded'), 'true')
    assert.include(await grupos.locator('tr[data-group=Norte]').innerText(), 'Norte (500)')
    assert.equal(await grupos.locator('table').getAttribute('aria-rowcount'), '2005')
    const rendered = await bodyRows(grupos).count()
    assert.isBelow(rendered, 80, `only the rows in view are in the DOM (${rendered})`)
    const scroller = grupos.locator('.ftable__scroll')
    await scroller.evaluate((el) => el.scrollTo({ top: el.scrollHeight }))
    await grupos.locator('tr[data-group=Oeste]').or(grupos.getByText('Persona 2000')).first().waitFor()
    await grupos.getByText('Persona 2000').waitFor()
    await scroller.evaluate((el) => el.scrollTo({ top: 0 }))
    await norte.click()
    assert.equal(await norte.getAttribute('aria-expanded'), 'false')
    assert.equal(await grupos.locator('table').getAttribute('aria-rowcount'), '1505')

    // Child rows: the markdown of child_row with the row's cells, under the row.
    const firstSur = grupos.locator('tbody tr[data-row="1"]')
    const details = firstSur.getByRole('button', { name: 'Mostrar u ocultar el detalle de la fila 2' })
    await details.click()
    assert.equal(await details.getAttribute('aria-expanded'), 'true')
    const child = grupos.locator('tr.ftable__child')
    await child.locator('strong').getByText('Persona 0002').waitFor()
    assert.include(await child.innerText(), 'Persona 0002 trabaja en Sur')
    await details.click()
    assert.equal(await grupos.locator('tr.ftable__child').count(), 0)

    // The edits are the value the case saves.
    await page.getByTestId('form-send').click()
    await waitUntil(async () => (await db.from('tasks').where('case_id', caseId).where('status', 'done')).length === 1)
    const saved = await db.from('cases').where('id', caseId).firstOrFail()
    const values = JSON.parse(saved.values) as { tabla: Record<string, unknown>[]; elegido: string }
    assert.deepInclude(values.tabla[6]!, {
      id: 7,
      persona: 'Séptima',
      cantidad: 9,
      fecha: '2026-05-06T07:08',
      activo: false,
    })
    assert.deepEqual(values.tabla[7], ROWS[7])
    assert.lengthOf(values.tabla, 2000)
    assert.equal(values.elegido, 'todos', 'a greyed button runs nothing')
  }).timeout(120_000)
})
