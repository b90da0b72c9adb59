import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import type { Browser, Page } from 'playwright-core'
import { launchChromium } from './chromium.ts'
import { BASE as base, people, waitUntil } from './session.ts'
import { resetAuthTables } from '../../core/server/tests/helpers/auth.ts'
import { resetProcessTables } from '../../core/server/tests/helpers/process.ts'
import { DEFAULT_DEMO_PASSWORD, seedDemo } from '../../core/server/app/services/seed_service.ts'

/**
 * What a newcomer does right after `npm start`: the demo permit request walked through the screens
 * only — started by the teacher from her work list, reviewed by Secretaría (admin), approved by the
 * immediate superior she named (supervisor), then followed by its code on the public page.
 */
test.group('the demo process in Chromium', (group) => {
  let browser: Browser
  const session = people(() => browser, DEFAULT_DEMO_PASSWORD)
  const signedIn = (user: string) => session.signedIn(user)

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

  async function pick(page: Page, label: string, person: string) {
    const box = page.getByRole('combobox', { name: label })
    await box.fill(person.split(' ')[0]!)
    await page.getByRole('listbox', { name: label }).getByRole('option', { name: person }).click()
  }

  /** Opens the case's pending step from the work list. */
  async function openPending(page: Page, code: string) {
    await page.goto(`${base}/process`)
    const row = page.getByTestId('inbox-pending-table').locator(`tr[data-code="${code}"]`)
    await row.getByRole('link', { name: /^Abrir el paso/ }).click()
    await page.waitForURL(/\/forms\/(enter|approve)\?/)
  }

  test('started from the work list, reviewed, approved by the named superior, consulted by code', async ({
    assert,
  }) => {
    const teacher = await signedIn('teacher')
    await teacher.goto(`${base}/process`)
    await teacher.getByRole('tab', { name: 'Iniciar un proceso' }).click()
    await teacher
      .getByRole('link', { name: /Solicitud de permiso/ })
      .first()
      .click()
    await teacher.waitForURL(/\/forms\/new\?data=/)

    await pick(teacher, 'Funcionario solicitante', 'Teresa Docente')
    await teacher.getByLabel('Cargo').fill('Docente de matemáticas')
    await teacher.getByLabel('Dependencia').selectOption({ label: 'Gestión del Talento Humano' })
    await pick(teacher, 'Jefe inmediato', 'Sergio Supervisor')
    await teacher.getByLabel('Correo electrónico institucional').fill('teresa@colegio.edu.co')
    await teacher.getByRole('button', { name: 'Siguiente' }).click()

    await teacher
      .getByLabel('Tipo de permiso o licencia')
      .selectOption({ label: 'Permiso personal remunerado (hasta 3 días)' })
    await teacher.getByLabel('Día(s) completo(s)').check()
    await teacher.getByLabel('Desde').fill('2026-12-01')
    await teacher.getByLabel('Hasta').fill('2026-12-02')
    await teacher.getByLabel('Motivo de la solicitud').fill('Diligencias personales')
    await teacher.getByRole('button', { name: 'Siguiente' }).click()

    await teacher
      .locator('[data-field=soportes]')
      .getByTestId('file-input')
      .setInputFiles({ name: 'constancia.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4\n%%EOF\n') })
    await teacher.locator('[data-field=soportes] li[data-file="constancia.pdf"]').waitFor()
    await teacher.getByLabel(/^Declaro que la información/).check()
    assert.equal(await teacher.getByTestId('missing-required').count(), 0)
    await teacher.getByRole('button', { name: 'Enviar solicitud' }).click()
    await teacher.getByTestId('form-done').waitFor()

    const started = await db.from('cases').firstOrFail()
    assert.equal(started.state, 'revision')
    const upload = await db.from('uploads').firstOrFail()
    assert.equal(upload.status, 'promoted')

    // Secretaría (the admin is its member) reviews; the superior named in the form gets the approval.
    const admin = await signedIn('admin')
    await openPending(admin, started.code)
    await admin.getByLabel('Cargo').waitFor()
    await admin.getByRole('button', { name: 'Siguiente' }).click()
    await admin.getByRole('button', { name: 'Siguiente' }).click()
    await admin.getByTestId('form-send').click()
    await admin.getByTestId('forms-case').waitFor()
    await waitUntil(async () => (await db.from('cases').where('id', started.id).first()).state === 'por_aprobar')

    const supervisor = await signedIn('supervisor')
    await openPending(supervisor, started.code)
    await supervisor.getByTestId('form-decide').click()
    await supervisor.getByTestId('decision-prompt').getByRole('button', { name: 'Aprobar' }).click()
    // A decision is confirmed before it is sent (issue 18).
    await supervisor.getByTestId('decision-confirm').click()
    await waitUntil(async () => (await db.from('cases').where('id', started.id).first()).status === 'ended')

    // The applicant follows it with the code and her e-mail, without signing in.
    const form = await db.from('forms').firstOrFail()
    const visitor = await session.open()
    await visitor.goto(`${base}/consult?data=${form.key}`)
    const consult = visitor.getByTestId('consult-form')
    await consult.getByLabel('Código del proceso').fill(started.code)
    await consult.getByLabel('Correo electrónico institucional').fill('teresa@colegio.edu.co')
    await consult.getByRole('button', { name: 'Consultar' }).click()
    assert.equal(await visitor.getByTestId('consult-current-state').innerText(), 'Aprobado')
    assert.include(await visitor.getByTestId('consult-panel-information').innerText(), 'Diligencias personales')
  })
})
