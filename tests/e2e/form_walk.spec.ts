import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import type { Browser } from 'playwright-core'
import { launchChromium } from './chromium.ts'
import { BASE as base, people as browsers, signIn, waitUntil } from './session.ts'
import { PASSWORD, makeUser, resetAuthTables } from '../../core/server/tests/helpers/auth.ts'
import {
  permitConfig,
  permitProcess,
  publishPermit,
  resetProcessTables,
} from '../../core/server/tests/helpers/process.ts'
import { publishForm } from '../../core/server/app/services/process/forms.ts'
import Role from '../../core/server/app/models/role.ts'
import { caseKey, taskToken } from '../../core/server/app/services/process/engine.ts'

/**
 * The form screen in Chromium (spec 000 §2): a case walked by three people from new to its end, the
 * missing-required jump, invisible mode with preset values, a phone-sized viewport, and edit values
 * in see as user 1 with the local edits kept until saved.
 */
test.group('form runtime in Chromium', (group) => {
  let browser: Browser
  const session = browsers(() => browser, PASSWORD)
  const signedIn = (user: string, viewport?: { width: number; height: number }) => session.signedIn(user, viewport)

  group.setup(async () => {
    browser = await launchChromium()
    return () => browser.close()
  })
  group.each.setup(async () => {
    await resetProcessTables()
    await resetAuthTables()
    return () => session.closeAll()
  })

  async function people(areaId: number) {
    await makeUser({ username: 'solicitante', role: 'student' })
    const reviewer = await makeUser({ username: 'revisora', role: 'teacher' })
    await reviewer.related('areas').attach([areaId])
    await makeUser({ username: 'jefa', role: 'supervisor' })
  }

  async function pendingTask(caseId: number) {
    return db.from('tasks').where('case_id', caseId).where('status', 'pending').firstOrFail()
  }

  async function onlyCase() {
    const rows = await db.from('cases')
    if (rows.length !== 1) throw new Error(`expected one case, found ${rows.length}`)
    return { ...rows[0], values: JSON.parse(rows[0].values) as Record<string, unknown> }
  }

  test('a case walks from new through enter and approve to its end, by three people', async ({ assert }) => {
    const form = await publishPermit()
    await people(form.area.id)

    const applicant = await signedIn('solicitante')
    await applicant.goto(`${base}/forms/new?data=${form.key}`)
    await applicant.getByLabel('Nombre').fill('Ana Ruiz')
    await applicant.getByLabel('Días').fill('3')
    await applicant.getByLabel('Motivo').fill('Cita médica')
    await applicant.getByRole('button', { name: 'Siguiente' }).click()
    await applicant.getByTestId('form-send').click()
    await applicant.getByTestId('form-done').waitFor()
    const started = await onlyCase()
    assert.equal(started.state, 'revision')
    assert.include(started.values, { nombre: 'Ana Ruiz', dias: 3, motivo: 'Cita médica' })

    // The reviewer opens the link the mail carries; the review field shows only on this step.
    const task1 = await pendingTask(started.id)
    const reviewer = await signedIn('revisora')
    await reviewer.goto(
      `${base}/forms/enter?data=${form.key}&key_process=${caseKey(started.id)}&token=${taskToken(task1.id)}`
    )
    assert.equal(await reviewer.getByLabel('Nombre').inputValue(), 'Ana Ruiz')
    await reviewer.getByRole('button', { name: 'Siguiente' }).click()
    await reviewer.getByLabel('Observación').fill('Soportes completos')
    await reviewer.getByTestId('form-send').click()
    await waitUntil(async () => (await pendingTask(started.id).catch(() => null))?.id !== task1.id)

    // The supervisor sees everything read-only and decides.
    const task2 = await pendingTask(started.id)
    const approver = await signedIn('jefa')
    await approver.goto(
      `${base}/forms/approve?data=${form.key}&key_process=${caseKey(started.id)}&token=${taskToken(task2.id)}`
    )
    assert.isFalse(await approver.getByLabel('Nombre').isEditable())
    await approver.getByTestId('form-decide').click()
    await approver.getByTestId('decision-prompt').getByRole('button', { name: 'Aprobar' }).click()
    // A decision is confirmed before it is sent (issue 18).
    await approver.getByTestId('decision-confirm').click()
    await waitUntil(async () => (await db.from('cases').where('id', started.id).first()).status === 'ended')
    const ended = await onlyCase()
    assert.equal(ended.state, 'aprobado')
    assert.equal(ended.values.observacion, 'Soportes completos')

    // The finished task now only says so.
    await approver.goto(
      `${base}/forms/approve?data=${form.key}&key_process=${caseKey(started.id)}&token=${taskToken(task2.id)}`
    )
    await approver.getByTestId('form-task-done').waitFor()
  })

  test('a save action naming a state moves the case there and says the state was updated', async ({ assert }) => {
    const { area } = await publishPermit()
    const config = permitConfig()
    const form = await publishForm({
      name: 'Solicitud con rechazo',
      jsonconfig: {
        ...config,
        form: { pages: [config.form.pages[0], { name: 'Revisión', layout: [['observacion'], ['rechazar']] }] },
        elements: [
          { field_name: 'rechazar', type: 'button', data: { value: 'Rechazar' }, events: { on_click: ['rechazo'] } },
        ],
        validations: {
          actions: [{ name: 'rechazo', actions: [{ type: 'save', config: { go_to_state: 'rechazado' } }] }],
        },
      },
      process: permitProcess(area.id, (await Role.findByOrFail('name', 'supervisor')).id),
      userId: null,
    })
    await people(area.id)
    const applicant = await signedIn('solicitante')
    await applicant.goto(`${base}/forms/new?data=${form.key}`)
    await applicant.getByLabel('Nombre').fill('Ana Ruiz')
    await applicant.getByRole('button', { name: 'Siguiente' }).click()
    await applicant.getByTestId('form-send').click()
    await applicant.getByTestId('form-done').waitFor()
    assert.equal(
      await applicant.getByText('El estado se actualizó con éxito').count(),
      0,
      'a plain send moves no state'
    )

    const started = await onlyCase()
    const task = await pendingTask(started.id)
    const reviewer = await signedIn('revisora')
    await reviewer.goto(
      `${base}/forms/enter?data=${form.key}&key_process=${caseKey(started.id)}&token=${taskToken(task.id)}`
    )
    await reviewer.getByRole('button', { name: 'Siguiente' }).click()
    await reviewer.getByLabel('Observación').fill('Faltan soportes')
    await reviewer.getByRole('button', { name: 'Rechazar' }).click()
    await reviewer.getByText('Información enviada con exito').waitFor()
    await reviewer.getByText('El estado se actualizó con éxito').waitFor()
    assert.equal((await onlyCase()).state, 'rechazado')
  })

  test('the missing-required list jumps to the page and focuses the field', async ({ assert }) => {
    const form = await publishPermit()
    await people(form.area.id)
    const page = await signedIn('solicitante')
    await page.goto(`${base}/forms/new?data=${form.key}`)
    await page.getByLabel('Motivo').fill('Sin nombre')
    await page.getByRole('button', { name: 'Siguiente' }).click()
    const list = page.getByTestId('missing-required')
    assert.include(await list.innerText(), 'No se han diligenciado lo siguientes campos obligatorios:')
    await list.getByRole('button', { name: 'Nombre' }).click()
    await page.waitForFunction(() => document.activeElement?.id === 'ff-nombre')
    assert.include(await page.getByTestId('form-bar').innerText(), 'Página 1 de 2')
    await page.getByLabel('Nombre').fill('Ana')
    await page.getByRole('button', { name: 'Siguiente' }).click()
    assert.equal(await page.getByTestId('missing-required').count(), 0)
  })

  test('switching the language keeps what was typed', async ({ assert }) => {
    const form = await publishPermit()
    await people(form.area.id)
    const page = await signedIn('solicitante')
    await page.goto(`${base}/forms/new?data=${form.key}`)
    await page.getByLabel('Nombre').fill('Ana')
    await page.getByRole('combobox', { name: 'Idioma' }).selectOption('en')
    await page.getByRole('button', { name: 'Next' }).waitFor()
    assert.equal(await page.getByLabel('Nombre').inputValue(), 'Ana')
  })

  test('invisible mode saves by itself with the preset values of the link', async ({ assert }) => {
    const form = await publishPermit()
    await people(form.area.id)
    const page = await signedIn('solicitante')
    const values = Buffer.from(JSON.stringify({ nombre: 'Luis Pérez', dias: '2,0', motivo: 'Trámite' })).toString(
      'base64'
    )
    await page.goto(`${base}/forms/new?data=${form.key}&invisible=1&values=${encodeURIComponent(values)}&origen=kiosco`)
    await waitUntil(async () => (await db.from('cases')).length === 1)
    const saved = await onlyCase()
    assert.include(saved.values, { nombre: 'Luis Pérez', dias: 2, motivo: 'Trámite' })
    // Any other query parameter travels as a process variable.
    assert.deepEqual(JSON.parse(saved.params), { origen: 'kiosco' })
    assert.equal(await page.locator('.fpage').count(), 0)
  })

  test('on a phone-sized screen the grid stacks and the form still sends', async ({ assert }) => {
    const form = await publishPermit()
    await people(form.area.id)
    const page = await signedIn('solicitante', { width: 375, height: 740 })
    await page.goto(`${base}/forms/new?data=${form.key}`)
    await page.locator('.fruntime[data-device=mobile]').waitFor()
    const name = (await page.getByLabel('Nombre').boundingBox())!
    const days = (await page.getByLabel('Días').boundingBox())!
    assert.isAbove(days.y, name.y + name.height - 1, 'Días sits under Nombre on a phone')
    assert.isAtMost(name.x + name.width, 375)
    await page.getByLabel('Nombre').fill('Ana')
    await page.getByRole('button', { name: 'Siguiente' }).click()
    await page.getByTestId('form-send').click()
    await page.getByTestId('form-done').waitFor()
    assert.equal((await onlyCase()).values.nombre, 'Ana')
  })

  test('user 1 edits values in see; edits survive a reload until saved', async ({ assert }) => {
    await makeUser({ id: 1, username: 'admin', role: 'superuser' })
    const form = await publishPermit()
    await people(form.area.id)
    const applicant = await signedIn('solicitante')
    await applicant.goto(`${base}/forms/new?data=${form.key}`)
    await applicant.getByLabel('Nombre').fill('Ana')
    await applicant.getByLabel('Motivo').fill('Primera versión')
    await applicant.getByRole('button', { name: 'Siguiente' }).click()
    await applicant.getByTestId('form-send').click()
    await applicant.getByTestId('form-done').waitFor()
    const started = await onlyCase()

    const page = await signedIn('admin')
    const url = `${base}/forms/see?key_process=${caseKey(started.id)}`
    await page.goto(url)
    assert.isFalse(await page.getByLabel('Motivo').isEditable())
    await page.getByTestId('form-edit-values').click()
    await page.getByLabel('Motivo').fill('Corregido por el administrador')
    await page.getByLabel('Motivo').blur()
    await page.reload()
    assert.equal(await page.getByLabel('Motivo').inputValue(), 'Corregido por el administrador')
    const stored = await page.evaluate(() => localStorage.getItem('vfields_edit'))
    assert.include(stored ?? '', 'Corregido por el administrador')
    await page.getByTestId('form-save').click()
    await waitUntil(async () => (await onlyCase()).values.motivo === 'Corregido por el administrador')
    await waitUntil(async () => (await page.evaluate(() => localStorage.getItem('vfields_edit'))) === null)

    // Anyone else sees the case without the edit-values button.
    const other = await signedIn('solicitante')
    await other.goto(url)
    await other.getByLabel('Motivo').waitFor()
    assert.equal(await other.getByTestId('form-edit-values').count(), 0)
  })
})

test.group('form runtime files in Chromium', (group) => {
  let browser: Browser
  group.setup(async () => {
    browser = await launchChromium()
    return () => browser.close()
  })
  group.each.setup(async () => {
    await resetProcessTables()
    await resetAuthTables()
  })

  test('an uploaded picture shows through the session and opens in the draggable preview', async ({ assert }) => {
    const form = await publishPermit({
      extraField: {
        field_name: 'foto',
        type: 'file',
        data: { label: { value: 'Foto' }, ext: ['png'], ref: { limit: 1 } },
      },
    })
    await makeUser({ username: 'solicitante', role: 'student' })
    const context = await browser.newContext({ locale: 'es-CO' })
    const page = await context.newPage()
    await signIn(page, 'solicitante', PASSWORD)
    await page.goto(`${base}/forms/new?data=${form.key}`)
    // A 1×1 PNG: the server sniffs the content, so it must really be one.
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
      'base64'
    )
    await page
      .locator('[data-field=foto]')
      .getByTestId('file-input')
      .setInputFiles({ name: 'punto.png', mimeType: 'image/png', buffer: png })
    const thumb = page.locator('[data-field=foto] li[data-file="punto.png"] img')
    // The <img> cannot send the token header: it shows an object URL of the fetched file.
    await page.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>('[data-field=foto] li img')
      return !!img && img.src.startsWith('blob:') && img.complete && img.naturalWidth === 1
    })
    assert.match((await thumb.getAttribute('data-path'))!, /^\/data\/files\//)
    await page.getByRole('button', { name: 'Abrir punto.png' }).click()
    const preview = page.getByTestId('file-preview')
    await preview.waitFor()
    assert.include(await preview.innerText(), 'punto.png')
    await page.keyboard.press('Escape')
    await preview.waitFor({ state: 'detached' })
    await context.close()
  })
})
