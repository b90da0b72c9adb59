import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import type { Browser, Page } from 'playwright-core'
import { launchChromium } from './chromium.ts'
import { press, tabTo, type Focused } from './a11y.ts'
import { BASE as base, people } from './session.ts'
import { resetAuthTables } from '../../core/server/tests/helpers/auth.ts'
import { resetProcessTables } from '../../core/server/tests/helpers/process.ts'
import { DEFAULT_DEMO_PASSWORD, seedDemo } from '../../core/server/app/services/seed_service.ts'

const field =
  (name: string, tag = 'input') =>
  (f: Focused) =>
    f.tag === tag && f.within.includes(name)

/**
 * Issue 18: the form runtime, the work list and the consultation page used with the keyboard alone
 * (Tab, Shift+Tab, Enter, Space, arrows, typing), every element the focus lands on showing it.
 */
test.group('keyboard only, with visible focus', (group) => {
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

  /** Types into the focused people picker and takes the first suggestion with the arrows and Enter. */
  async function choosePerson(page: Page, name: string, person: string) {
    await page.keyboard.type(person.split(' ')[0]!)
    await page.locator(`[data-field=${name}] [role=option]`, { hasText: person }).waitFor()
    await press(page, 'ArrowDown')
    await press(page, 'Enter')
    await page.locator(`[data-field=${name}] li`, { hasText: person }).waitFor()
  }

  test('a permit filled and sent, its task opened from the work list, the case consulted', async ({ assert }) => {
    // The teacher starts the permit from her work list's "start" tab and fills it in.
    const teacher = await session.signedIn('teacher')
    await teacher.goto(`${base}/process`)
    await teacher.getByTestId('inbox-tabs').waitFor()
    await tabTo(teacher, (f) => f.id === 'inbox-tab-start')
    await press(teacher, 'Enter')
    await teacher.getByTestId('inbox-startable').waitFor()
    await tabTo(teacher, (f) => f.tag === 'a' && f.within.includes('inbox-startable'))
    await teacher.keyboard.press('Enter')
    await teacher.waitForURL(/\/forms\/new\?data=/)
    await teacher.locator('[data-field=cargo] input').waitFor()

    await tabTo(teacher, field('solicitante'))
    await choosePerson(teacher, 'solicitante', 'Teresa Docente')
    await tabTo(teacher, field('cargo'))
    await teacher.keyboard.type('Docente')
    await tabTo(teacher, field('dependencia', 'select'))
    await teacher.keyboard.type('Gest')
    await tabTo(teacher, field('jefe_inmediato'))
    await choosePerson(teacher, 'jefe_inmediato', 'Sergio Supervisor')
    await tabTo(teacher, field('correo_contacto'))
    await teacher.keyboard.type('teresa@colegio.edu.co')
    await tabTo(teacher, (f) => f.within.includes('form-bar') && f.text === 'Siguiente')
    await press(teacher, 'Enter')
    await teacher.locator('[data-field=motivo] textarea').waitFor()

    await tabTo(teacher, field('tipo_permiso', 'select'))
    await teacher.keyboard.type('Permiso personal')
    await tabTo(teacher, field('jornada'))
    await press(teacher, 'Space')
    await tabTo(teacher, field('fechas_permiso'))
    // Chromium's date input takes month, day and year here, Tab moving from one part to the next.
    await teacher.keyboard.type('12012026')
    await tabTo(
      teacher,
      (f) => f.tag === 'input' && f.within.includes('fechas_permiso') && f.id !== 'ff-fechas_permiso'
    )
    await teacher.keyboard.type('12022026')
    await tabTo(teacher, field('motivo', 'textarea'))
    await teacher.keyboard.type('Diligencias personales')
    await tabTo(teacher, (f) => f.within.includes('form-bar') && f.text === 'Siguiente')
    await press(teacher, 'Enter')
    await teacher.locator('[data-field=declaracion] input').waitFor()

    await tabTo(teacher, field('declaracion'))
    await press(teacher, 'Space')
    await tabTo(teacher, (f) => f.within.includes('form-send'))
    await teacher.keyboard.press('Enter')
    await teacher.getByTestId('form-done').waitFor()
    const started = await db.from('cases').firstOrFail()
    const values = JSON.parse(started.values)
    assert.equal(values.cargo, 'Docente')
    assert.equal(values.dependencia, 'talento_humano')
    assert.isOk(values.jornada)
    assert.include(JSON.stringify(values.fechas_permiso), '2026-12-01')
    assert.include(JSON.stringify(values.fechas_permiso), '2026-12-02')
    assert.equal(values.motivo, 'Diligencias personales')

    // The admin (Secretaría) opens the review task from the work list.
    const admin = await session.signedIn('admin')
    await admin.goto(`${base}/process`)
    await admin.getByTestId('inbox-pending-table').waitFor()
    await tabTo(admin, (f) => f.tag === 'a' && f.within.includes('inbox-pending-table'))
    await admin.keyboard.press('Enter')
    await admin.waitForURL(/\/forms\/enter\?/)
    await admin.locator('[data-field=cargo] input').waitFor()
    assert.equal(await admin.locator('[data-field=cargo] input').inputValue(), 'Docente')

    // A visitor consults the case on the public page and moves through its tabs with the arrows.
    const form = await db.from('forms').firstOrFail()
    const visitor = await session.open()
    await visitor.goto(`${base}/consult?data=${form.key}`)
    await visitor.getByTestId('consult-form').waitFor()
    await tabTo(visitor, (f) => f.name === 'code_process')
    await visitor.keyboard.type(started.code)
    await press(visitor, 'Tab')
    await visitor.keyboard.type('teresa@colegio.edu.co')
    await press(visitor, 'Enter')
    await visitor.getByTestId('consult-result').waitFor()
    assert.include(await visitor.getByTestId('consult-panel-information').innerText(), 'Diligencias personales')
    await tabTo(visitor, (f) => f.id.endsWith('-tab-information'))
    const documents = await press(visitor, 'ArrowRight')
    assert.match(documents.id, /-tab-documents$/, 'the arrow moves to the next tab')
    await visitor.getByTestId('consult-panel-documents').waitFor()
    await press(visitor, 'Tab')
    assert.deepEqual((await press(visitor, 'Shift+Tab')).id, documents.id)
  })
})
