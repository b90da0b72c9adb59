import { test } from '@japa/runner'
import { type Browser, type Page } from 'playwright-core'
import db from '@adonisjs/lucid/services/db'
import { launchChromium } from './chromium.ts'
import { makeUser, resetAuthTables, tokenFor } from '../../core/server/tests/helpers/auth.ts'
import { permitConfig, permitProcess, resetProcessTables } from '../../core/server/tests/helpers/process.ts'
import { publishForm } from '../../core/server/app/services/process/forms.ts'
import { taskToken } from '../../core/server/app/services/process/engine.ts'
import { seedBase } from '../../core/server/app/services/seed_service.ts'
import Area from '../../core/server/app/models/area.ts'
import Role from '../../core/server/app/models/role.ts'

type Client = Parameters<typeof tokenFor>[0]

const DOCUMENT = '1020304050'
/** A real 1×1 PNG and a one-page PDF: uploads are sniffed, so the bytes must be what the names say. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64'
)
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n' +
    '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n'
)

/** The public consultation page (/consult?data=KEY) against a real case, in Chromium. */
test.group('public consultation in Chromium', (group) => {
  let browser: Browser
  let page: Page
  const base = `http://${process.env.HOST}:${process.env.PORT}`

  group.setup(async () => {
    browser = await launchChromium()
    return () => browser.close()
  })
  group.each.setup(async () => {
    await resetProcessTables()
    await resetAuthTables()
    // A new context per test: the visitor is anonymous.
    page = await browser.newPage({ locale: 'es-CO' })
    return () => page.close()
  })

  /** The permit form with a verification field and a file field, published with these consult settings. */
  async function publish(consult: Record<string, unknown>) {
    await seedBase()
    const area =
      (await Area.findBy('name', 'Talento humano')) ?? (await Area.create({ name: 'Talento humano', color: '#336699' }))
    const supervisor = await Role.findByOrFail('name', 'supervisor')
    const config = permitConfig({
      field_name: 'documento',
      type: 'text',
      data: { label: { value: 'Documento' }, validate: { required: true } },
    })
    config.fields.push({ field_name: 'soportes', type: 'file', data: { label: { value: 'Soportes' } } })
    config.form.pages[0].layout.push(['soportes'])
    const form = await publishForm({
      name: 'Solicitud de permiso',
      jsonconfig: config,
      process: permitProcess(area.id, supervisor.id, consult),
      userId: null,
    })
    return { ...form, area }
  }

  const post = (client: Client, path: string, token: string, fields: Record<string, string>) =>
    client
      .post(path)
      .header('token', token)
      .form({ case: 'POST', ...fields })

  /** Uploads one file to the soportes field of a new case (staged until the start saves it). */
  async function upload(client: Client, token: string, formKey: string, name: string, bytes: Buffer) {
    const res = await client
      .post('/data/form/upload/files')
      .header('token', token)
      .fields({ case: 'POST', foldertype: 'files', field: 'soportes', data: formKey })
      .file('file', bytes, { filename: name })
    if (res.status() !== 200) throw new Error(`upload refused: ${JSON.stringify(res.body())}`)
    return res.body().data[0] as Record<string, string>
  }

  async function pendingToken(caseId: number) {
    const task = await db.from('tasks').where('case_id', caseId).where('status', 'pending').firstOrFail()
    return taskToken(task.id)
  }

  /** Starts a case, has the area review it and the supervisor approve it: it ends in 'aprobado'. */
  async function approvedCase(client: Client, consult: Record<string, unknown>) {
    const form = await publish(consult)
    await makeUser({ username: 'solicitante', role: 'student' })
    const reviewer = await makeUser({ username: 'revisora', role: 'teacher' })
    await reviewer.related('areas').attach([form.area.id])
    await makeUser({ username: 'jefa', role: 'supervisor' })
    const applicant = await tokenFor(client, 'solicitante')
    const soportes = [
      await upload(client, applicant, form.key, 'incapacidad.pdf', PDF),
      await upload(client, applicant, form.key, 'foto-soporte.png', PNG),
    ]
    const started = await post(client, '/data/form/flows/process', applicant, {
      data: form.key,
      flow_values: JSON.stringify({ nombre: 'Ana Ruiz', dias: 2, motivo: '', documento: DOCUMENT, soportes }),
    })
    if (started.status() !== 200) throw new Error(`start refused: ${JSON.stringify(started.body())}`)
    const { id, key_process: key, code_process: code } = started.body().data
    const entered = await post(client, '/data/form/asignar/process/info', await tokenFor(client, 'revisora'), {
      key_process: key,
      token: await pendingToken(id),
      flow_values: JSON.stringify({ observacion: 'Soportes completos' }),
    })
    entered.assertStatus(200)
    const decided = await post(client, '/data/form/decision/process/info', await tokenFor(client, 'jefa'), {
      key_process: key,
      token: await pendingToken(id),
      decision: JSON.stringify({ id: 'aprobar' }),
    })
    decided.assertStatus(200)
    return { form, code: code as string }
  }

  const CONSULT = {
    enable: true,
    select_restrinct_consult: 'documento',
    label_restrinct_consult: 'Número de documento',
    select_show_info: ['nombre', 'dias', 'motivo', 'observacion', 'soportes'],
    activity_register: true,
  }

  /** Opens the page and consults the code typed loosely (lower case, no hyphen). */
  async function consult(formKey: string, code: string, verification: string) {
    await page.goto(`${base}/consult?data=${formKey}`)
    const form = page.getByTestId('consult-form')
    await form.waitFor()
    const button = form.getByRole('button', { name: 'Consultar' })
    await form.getByLabel('Código del proceso').fill(code.toLowerCase().replace('-', ''))
    if (!(await button.isDisabled())) throw new Error('the button is active before the verification value is typed')
    await form.getByLabel('Número de documento').fill(verification)
    await button.click()
  }

  test('code and verification value show the progress, the tabs and the activity register', async ({
    client,
    assert,
  }) => {
    const { form, code } = await approvedCase(client, CONSULT)
    await consult(form.key, code, DOCUMENT)
    await page.locator('.toast', { hasText: 'Consulta realizada correctamente' }).waitFor()
    const result = page.getByTestId('consult-result')
    await result.waitFor()

    assert.include(await page.getByTestId('consult-header').innerText(), 'Solicitud de permiso')
    assert.equal(await page.getByTestId('consult-code').innerText(), code)

    // Progress bar: the path the case took (issue 18), init by its name, where it ended marked; Rechazado
    // and Finalizado, which it never entered, are not drawn as if they followed.
    const steps = page.getByTestId('consult-progress').locator('li')
    assert.deepEqual(await steps.locator('.consult-progress__label').allInnerTexts(), [
      'Iniciado',
      'En revisión',
      'Aprobado',
    ])
    assert.equal(await page.locator('[aria-current="step"] .consult-progress__label').innerText(), 'Aprobado')
    assert.equal(await page.locator('[aria-current="step"]').getAttribute('data-state'), 'aprobado')
    assert.equal(await page.locator('.consult-progress__arrow').count(), 2)
    assert.equal(await steps.last().locator('.consult-progress__arrow').count(), 0)
    assert.equal(await page.locator('.consult-progress__more').count(), 0, 'an ended case goes nowhere further')
    assert.equal(await page.getByTestId('consult-case-status').innerText(), 'Terminado')
    assert.match(await steps.nth(1).locator('.consult-progress__date').innerText(), /^\d{4}\/\d{2}\/\d{2} /)
    assert.equal(await page.getByTestId('consult-current-state').innerText(), 'Aprobado')
    assert.match(await page.getByTestId('consult-last-update').innerText(), /^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2}$/)

    // Information tab: shown fields only, a dash for an empty one; the verification value is not shown.
    const info = page.getByTestId('consult-panel-information')
    const value = (name: string) => info.locator(`[data-field=${name}] dd`).innerText()
    assert.equal(await value('nombre'), 'Ana Ruiz')
    assert.equal(await value('dias'), '2')
    assert.equal(await value('observacion'), 'Soportes completos')
    assert.equal(await value('motivo'), '—')
    assert.equal(await info.locator('[data-field=documento]').count(), 0)
    assert.notInclude(await result.innerText(), DOCUMENT)

    const search = page.getByTestId('consult-search')
    await search.fill('ANA')
    await page.waitForFunction(
      () => document.querySelectorAll('[data-testid=consult-panel-information] [data-field]').length === 1
    )
    assert.equal(await info.locator('[data-field]').getAttribute('data-field'), 'nombre')
    await search.fill('')

    // Documents tab by keyboard (arrow keys move between the tabs).
    await page.getByRole('tab', { name: 'Información' }).focus()
    await page.keyboard.press('ArrowRight')
    const docsTab = page.getByRole('tab', { name: 'Documentos' })
    assert.equal(await docsTab.getAttribute('aria-selected'), 'true')
    assert.isTrue(await docsTab.evaluate((el) => el === document.activeElement))
    const docs = page.getByTestId('consult-panel-documents')
    await docs.waitFor()
    assert.isFalse(await info.isVisible())
    assert.deepEqual(await docs.locator('[data-field=soportes] .consult-file > a').allInnerTexts(), [
      'incapacidad.pdf',
      'foto-soporte.png',
    ])
    // The visitor has no session: the links carry the consultation's id_flow, and the server lets it read.
    const href = (await docs.getByRole('link', { name: 'incapacidad.pdf' }).getAttribute('href'))!
    assert.match(href, /^\/data\/files\/[0-9a-f-]{36}\.pdf\?id_flow=/)
    const fetched = await page.evaluate(async (url) => {
      const res = await fetch(url)
      return { status: res.status, type: res.headers.get('content-type') }
    }, href)
    assert.deepEqual(fetched, { status: 200, type: 'application/pdf' })
    await search.fill('foto')
    await page.waitForFunction(
      () => document.querySelectorAll('[data-testid=consult-panel-documents] .consult-file').length === 1
    )
    await search.fill('')

    // The draggable preview: pointer drag on the header, arrow keys on the grip, Escape closes.
    await docs.getByRole('button', { name: 'Vista previa de foto-soporte.png' }).click()
    const preview = page.getByTestId('file-preview')
    await preview.waitFor()
    assert.include(await preview.innerText(), 'foto-soporte.png')
    assert.equal(await preview.getByRole('link', { name: 'Descargar' }).getAttribute('download'), 'foto-soporte.png')
    await page.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>('[data-testid=file-preview] img')
      return img !== null && img.complete && img.naturalWidth === 1
    })
    await preview.locator('.file-preview__loader').waitFor({ state: 'detached' })
    const before = (await preview.boundingBox())!
    const header = preview.locator('.file-preview__header .file-preview__name')
    const grab = (await header.boundingBox())!
    await page.mouse.move(grab.x + 10, grab.y + 5)
    await page.mouse.down()
    await page.mouse.move(grab.x - 90, grab.y + 65, { steps: 5 })
    await page.mouse.up()
    const dragged = (await preview.boundingBox())!
    assert.closeTo(dragged.x, before.x - 100, 2)
    assert.closeTo(dragged.y, before.y + 60, 2)
    await preview.getByRole('button', { name: /Mover la vista previa/ }).focus()
    await page.keyboard.press('ArrowLeft')
    await page.keyboard.press('ArrowUp')
    const moved = (await preview.boundingBox())!
    assert.closeTo(moved.x, dragged.x - 16, 1)
    assert.closeTo(moved.y, dragged.y - 16, 1)
    await page.keyboard.press('Escape')
    await preview.waitFor({ state: 'detached' })

    // Activity register: entries with their labels on their colours, searchable by assignee or label.
    const activity = page.getByTestId('consult-activity')
    const entries = activity.locator('li')
    assert.isAtLeast(await entries.count(), 8)
    const chosen = activity.locator('li[data-event=option_selected] .consult-chip')
    assert.equal(await chosen.innerText(), 'Aprobar')
    assert.equal(await chosen.evaluate((el) => getComputedStyle(el).color), 'rgb(0, 0, 0)', 'black on light green')
    const started = activity.locator('li[data-event=started]')
    assert.include(await started.innerText(), 'Proceso iniciado')
    assert.match(
      await started.locator('time').innerText(),
      /^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2}$/,
      'each entry has its date'
    )
    await page.getByTestId('consult-activity-search').fill('talento')
    await page.waitForFunction(
      () =>
        Array.from(document.querySelectorAll('[data-testid=consult-activity] li')).every((li) =>
          li.textContent!.includes('Talento humano')
        ) && document.querySelectorAll('[data-testid=consult-activity] li').length > 0
    )
    await page.getByTestId('consult-activity-search').fill('aprobado')
    await page.waitForFunction(
      () => document.querySelectorAll('[data-testid=consult-activity] li[data-event=state_changed]').length === 1
    )

    // Back reloads the page: the empty form again.
    await result.getByRole('link', { name: /Volver/ }).click()
    await page.getByTestId('consult-form').waitFor()
    assert.equal(await page.getByTestId('consult-result').count(), 0)
  })

  test('a rejected case: the path back to review, still open, and the rejection’s comment', async ({
    client,
    assert,
  }) => {
    const form = await publish(CONSULT)
    await makeUser({ username: 'solicitante', role: 'student' })
    const reviewer = await makeUser({ username: 'revisora', role: 'teacher' })
    await reviewer.related('areas').attach([form.area.id])
    await makeUser({ username: 'jefa', role: 'supervisor' })
    const started = await post(client, '/data/form/flows/process', await tokenFor(client, 'solicitante'), {
      data: form.key,
      flow_values: JSON.stringify({ nombre: 'Ana Ruiz', dias: 2, documento: DOCUMENT }),
    })
    started.assertStatus(200)
    const { id, key_process: key, code_process: code } = started.body().data
    const entered = await post(client, '/data/form/asignar/process/info', await tokenFor(client, 'revisora'), {
      key_process: key,
      token: await pendingToken(id),
      flow_values: JSON.stringify({ observacion: 'Soportes completos' }),
    })
    entered.assertStatus(200)
    const rejected = await post(client, '/data/form/decision/process/info', await tokenFor(client, 'jefa'), {
      key_process: key,
      token: await pendingToken(id),
      decision: JSON.stringify({ id: 'rechazar' }),
      comment: 'Falta la incapacidad firmada',
    })
    rejected.assertStatus(200)

    await consult(form.key, code, DOCUMENT)
    await page.getByTestId('consult-result').waitFor()
    // Rechazar sent it back to review: the path says so in order, and Aprobado (never entered) is absent.
    const steps = page.getByTestId('consult-progress').locator('li')
    assert.deepEqual(await steps.locator('.consult-progress__label').allInnerTexts(), [
      'Iniciado',
      'En revisión',
      'Rechazado',
      'En revisión',
    ])
    assert.deepEqual(
      await steps.evaluateAll((items) => items.map((li) => li.getAttribute('aria-current'))),
      [null, null, null, 'step'],
      'the current state is the last one the case entered'
    )
    assert.equal(await page.locator('[data-state=aprobado]').count(), 0)
    assert.equal(await page.getByTestId('consult-case-status').innerText(), 'En curso')
    assert.equal(await steps.last().locator('.consult-progress__more').count(), 1, 'an open case goes on')
    assert.equal(await page.getByTestId('consult-current-state').innerText(), 'En revisión')

    // The decision's comment is under the decision in the activity register.
    const decision = page.getByTestId('consult-activity').locator('li[data-event=option_selected]')
    assert.equal(await decision.locator('.consult-chip').innerText(), 'Rechazar')
    assert.equal(
      await decision.getByTestId('consult-activity-comment').textContent(),
      'Comentario: Falta la incapacidad firmada',
      'read out with its name'
    )
    assert.isTrue(await decision.getByText('Falta la incapacidad firmada').isVisible())
  })

  test('a wrong verification value says consulta_incorrecta and shows no panel', async ({ client, assert }) => {
    const { form, code } = await approvedCase(client, CONSULT)
    await consult(form.key, code, '999')
    await page
      .locator('.toast', { hasText: 'No se encontró el proceso o los datos de consulta son incorrectos' })
      .waitFor()
    const button = page.getByTestId('consult-form').getByRole('button', { name: 'Consultar' })
    await button.waitFor()
    assert.isFalse(await button.isDisabled(), 'the loader stopped')
    assert.equal(await page.getByTestId('consult-result').count(), 0)
  })

  test('a form without external consultation says so and asks nothing', async ({ assert }) => {
    const form = await publish({ enable: false })
    await page.goto(`${base}/consult?data=${form.key}`)
    const closed = page.getByTestId('consult-closed')
    await closed.waitFor()
    assert.equal(await closed.innerText(), 'Este formulario no tiene vista externa')
    assert.equal(await page.getByTestId('consult-form').count(), 0)

    await page.goto(`${base}/consult`)
    await closed.waitFor()
    assert.equal(await closed.innerText(), 'Este formulario no tiene vista externa')
  })

  test('at 360 px wide the consultation still fits and works', async ({ client, assert }) => {
    const { form, code } = await approvedCase(client, CONSULT)
    await page.setViewportSize({ width: 360, height: 740 })
    await consult(form.key, code, DOCUMENT)
    const result = page.getByTestId('consult-result')
    await result.waitFor()
    // The progress bar becomes a column; nothing on the page is wider than the screen.
    assert.equal(
      await page.getByTestId('consult-progress').evaluate((el) => getComputedStyle(el).flexDirection),
      'column'
    )
    assert.equal(await page.locator('[aria-current="step"] .consult-progress__label').innerText(), 'Aprobado')
    assert.isAtMost(await page.evaluate(() => document.documentElement.scrollWidth), 360)
    for (const id of ['consult-result', 'consult-activity']) {
      const box = (await page.getByTestId(id).boundingBox())!
      assert.isAtMost(box.x + box.width, 360, id)
    }
    await page.getByRole('tab', { name: 'Documentos' }).click()
    await page.getByTestId('consult-panel-documents').getByRole('link', { name: 'foto-soporte.png' }).waitFor()
    await page.getByRole('button', { name: 'Vista previa de foto-soporte.png' }).click()
    const preview = (await page.getByTestId('file-preview').boundingBox())!
    assert.isAtMost(preview.x + preview.width, 360)
    assert.isAtLeast(preview.x, 0)
  })
})
