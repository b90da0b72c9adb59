import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import type { Browser, Page } from 'playwright-core'
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
import { versionById } from '../../core/server/app/services/process/definitions.ts'
import { caseKey, completeTask, taskToken } from '../../core/server/app/services/process/engine.ts'

/**
 * What a new user meets on the form screen (issue 18): on a phone (375×812) the missing-required
 * bullets, the page bar's padding and the country select; the done screen's case code, copy button
 * and consultation link; the title after a step is sent; read-only fields drawn as text.
 */
const PHONE = { width: 375, height: 812 }
const LONG_LABEL = 'Nombre completo del solicitante tal como aparece en su documento de identidad'
const CELULAR = { field_name: 'telefono', type: 'celular', data: { label: { value: 'Celular' } } }

test.group('form screen for a new user in Chromium', (group) => {
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

  async function people(areaId: number) {
    await makeUser({ username: 'solicitante', role: 'student' })
    const reviewer = await makeUser({ username: 'revisora', role: 'teacher' })
    await reviewer.related('areas').attach([areaId])
    await makeUser({ username: 'jefa', role: 'supervisor' })
  }

  async function onlyCase() {
    const rows = await db.from('cases')
    if (rows.length !== 1) throw new Error(`expected one case, found ${rows.length}`)
    return rows[0] as { id: number; code: string; form_version_id: number }
  }

  const pendingTask = (caseId: number) =>
    db.from('tasks').where('case_id', caseId).where('status', 'pending').firstOrFail()

  /** A new case of the permit form sent by the applicant, through the form screen. */
  async function sendPermit(page: Page, key: string) {
    await page.goto(`${base}/forms/new?data=${key}`)
    await page.getByLabel('Nombre').fill('Ana Ruiz')
    await page.getByRole('button', { name: 'Siguiente' }).click()
    await page.getByTestId('form-send').click()
    await page.getByTestId('form-done').waitFor()
  }

  /** A three-page form opened on a phone: a long-labelled required field and a celular on page 1. */
  async function phoneForm(): Promise<Page> {
    const { area, supervisor } = await publishPermit()
    const config = permitConfig()
    const form = await publishForm({
      name: 'Solicitud en tres páginas',
      jsonconfig: {
        form: {
          pages: [
            { name: 'Datos', layout: [['nombre'], ['telefono']] },
            { name: 'Motivo', layout: [['motivo']] },
            { name: 'Envío', layout: [['dias']] },
          ],
        },
        fields: [
          { field_name: 'nombre', type: 'text', data: { label: { value: LONG_LABEL }, validate: { required: true } } },
          { ...config.fields[2]!, data: { label: { value: 'Motivo' }, validate: { required: true } } },
          config.fields[1]!,
          CELULAR,
        ],
      },
      process: permitProcess(area.id, supervisor.id),
      userId: null,
    })
    await people(area.id)
    const page = await session.signedIn('solicitante', PHONE)
    await page.goto(`${base}/forms/new?data=${form.key}`)
    await page.locator('.fruntime[data-device=mobile]').waitFor()
    return page
  }

  const toLastPage = async (page: Page) => {
    for (let i = 0; i < 2; i++) await page.getByRole('button', { name: 'Siguiente' }).click()
    await page.getByTestId('form-send').waitFor()
  }

  test('on a phone the country select shows its whole name and code', async ({ assert }) => {
    const page = await phoneForm()
    const select = page.locator('[data-field=telefono] select')
    assert.equal(await select.locator('option:checked').innerText(), 'Colombia (+57)')
    // At least as wide as the same select sized to its text (a select's scrollWidth never exceeds its
    // clientWidth, so the clipped text is measured this way).
    const fit = await select.evaluate((el: HTMLSelectElement) => {
      // A select sized by its content is as wide as its longest option: the probe holds the chosen one only.
      const probe = el.cloneNode(false) as HTMLSelectElement
      probe.append(el.selectedOptions[0]!.cloneNode(true))
      probe.style.cssText = 'position:absolute;visibility:hidden;width:auto;min-width:0;max-width:none;flex:none'
      el.parentElement!.append(probe)
      const needed = probe.getBoundingClientRect().width
      probe.remove()
      return { needed, shown: el.getBoundingClientRect().width }
    })
    assert.isAtLeast(fit.shown, fit.needed - 0.5, `select ${fit.shown}px wide, its text needs ${fit.needed}px`)
  })

  test("on a phone the page bar keeps its page count and the send button off the screen's edges", async ({
    assert,
  }) => {
    const page = await phoneForm()
    await toLastPage(page)
    const bar = page.getByTestId('form-bar')
    assert.include(await bar.innerText(), 'Página 3 de 3')
    const pages = (await bar.locator('.fbar__pages').boundingBox())!
    const send = (await page.getByTestId('form-send').boundingBox())!
    assert.isAtLeast(pages.x, 8, `"Página 3 de 3" starts ${pages.x}px from the left edge`)
    assert.isAtMost(
      send.x + send.width,
      PHONE.width - 8,
      `"Enviar" ends ${PHONE.width - send.x - send.width}px from the right edge`
    )
  })

  test('on a phone a wrapped entry of the missing-required list has its bullet on its first line', async ({
    assert,
  }) => {
    const page = await phoneForm()
    await toLastPage(page)
    const entry = page.getByTestId('missing-required').locator('li').filter({ hasText: LONG_LABEL })
    const button = entry.getByRole('button')
    const box = (await button.boundingBox())!
    const lineHeight = await button.evaluate(
      (el) => parseFloat(getComputedStyle(el).lineHeight) || parseFloat(getComputedStyle(el).fontSize) * 1.2
    )
    assert.isAbove(box.height, lineHeight * 1.5, 'the long entry wraps on a phone')
    // A list marker cannot be measured: the bullet is an element of its own (aria-hidden).
    assert.equal(await entry.locator('.fmissing__dot').count(), 1, 'the entry has its own bullet')
    const dot = (await entry.locator('.fmissing__dot').boundingBox())!
    const dotMiddle = dot.y + dot.height / 2
    assert.isAtLeast(dotMiddle, box.y, 'the bullet is not above the entry')
    assert.isAtMost(dotMiddle, box.y + lineHeight, 'the bullet sits on the first line of the entry')
    assert.isBelow(dot.x + dot.width, box.x, 'the bullet is left of the entry')
    assert.equal(await entry.evaluate((el) => getComputedStyle(el).listStyleType), 'none', 'no second bullet')
  })

  test('the done screen shows the case code, copies it and links to the consultation', async ({ assert }) => {
    const form = await publishPermit({ extraField: CELULAR })
    await people(form.area.id)
    const context = await browser.newContext({
      locale: 'es-CO',
      viewport: PHONE,
      permissions: ['clipboard-read', 'clipboard-write'],
    })
    try {
      const page = await context.newPage()
      await signIn(page, 'solicitante', PASSWORD)
      await sendPermit(page, form.key)
      const { code } = await onlyCase()
      const done = page.getByTestId('form-done')
      assert.equal(await done.getByTestId('form-done-code').innerText(), code)

      // The copy button is named, reached by the keyboard, and says it copied.
      const copy = done.getByRole('button', { name: 'Copiar código' })
      await copy.focus()
      await page.keyboard.press('Enter')
      await done.getByTestId('form-done-copied').getByText('Copiado').waitFor()
      assert.equal(await page.evaluate(() => navigator.clipboard.readText()), code)

      // The link opens the public consultation of this form, where the copied code finds the case.
      const link = done.getByRole('link', { name: 'Consultar tu caso' })
      assert.equal(await link.getAttribute('href'), `/consult?data=${form.key}`)
      await link.click()
      const consult = page.getByTestId('consult-form')
      await consult.getByLabel('Código del proceso').fill(await page.evaluate(() => navigator.clipboard.readText()))
      await consult.getByRole('button', { name: 'Consultar' }).click()
      assert.equal(await page.getByTestId('consult-code').innerText(), code)
    } finally {
      await context.close()
    }
  })

  test('a process that cannot be consulted shows the code without a consultation link', async ({ assert }) => {
    const form = await publishPermit({ consult: { enable: false } })
    await people(form.area.id)
    const page = await session.signedIn('solicitante')
    await sendPermit(page, form.key)
    const done = page.getByTestId('form-done')
    assert.equal(await done.getByTestId('form-done-code').innerText(), (await onlyCase()).code)
    await done.getByRole('button', { name: 'Copiar código' }).waitFor()
    assert.equal(await done.getByRole('link').count(), 0)
    // Redo brings the form back, empty.
    await done.getByRole('button', { name: 'Diligenciar de nuevo' }).click()
    assert.equal(await page.getByLabel('Nombre').inputValue(), '')
  })

  test("the title stays the form's name after an enter step is sent and an approve step is done", async ({
    assert,
  }) => {
    const form = await publishPermit()
    await people(form.area.id)
    const applicant = await session.signedIn('solicitante')
    await sendPermit(applicant, form.key)
    const started = await onlyCase()
    const heading = (page: Page) => page.getByRole('heading', { level: 1 })

    const task1 = await pendingTask(started.id)
    const reviewer = await session.signedIn('revisora')
    await reviewer.goto(
      `${base}/forms/enter?data=${form.key}&key_process=${caseKey(started.id)}&token=${taskToken(task1.id)}`
    )
    await reviewer.getByRole('heading', { level: 1, name: 'Solicitud de permiso' }).waitFor()
    await reviewer.getByRole('button', { name: 'Siguiente' }).click()
    await reviewer.getByLabel('Observación').fill('Soportes completos')
    await reviewer.getByTestId('form-send').click()
    await reviewer.getByTestId('form-task-done').waitFor()
    assert.equal(await heading(reviewer).innerText(), 'Solicitud de permiso')
    assert.match(await reviewer.title(), /^Solicitud de permiso · /)

    // The approval, taken while the approver's page is open; the page reloaded says it is done.
    const task2 = await pendingTask(started.id)
    const approver = await session.signedIn('jefa')
    await approver.goto(
      `${base}/forms/approve?data=${form.key}&key_process=${caseKey(started.id)}&token=${taskToken(task2.id)}`
    )
    await approver.getByTestId('form-decide').waitFor()
    const row = await db.from('cases').where('id', started.id).firstOrFail()
    const jefa = await db.from('users').where('username', 'jefa').firstOrFail()
    await completeTask((await versionById(row.form_version_id))!, row, task2, jefa.id, {
      values: {},
      decision: 'aprobar',
    })
    await approver.reload()
    await approver.getByTestId('form-task-done').waitFor()
    assert.equal(await heading(approver).innerText(), 'Solicitud de permiso')
  })

  test('read-only fields in approve and see read as text, not as boxes to type in', async ({ assert }) => {
    await makeUser({ id: 1, username: 'admin', role: 'superuser' })
    const form = await publishPermit({ extraField: CELULAR })
    await people(form.area.id)
    const applicant = await session.signedIn('solicitante')
    await applicant.goto(`${base}/forms/new?data=${form.key}`)
    const box = (page: Page, label: string) =>
      page.getByLabel(label).evaluate((el) => {
        const style = getComputedStyle(el)
        return { border: style.borderTopColor, background: style.backgroundColor }
      })
    const transparent = 'rgba(0, 0, 0, 0)'
    // Where it can be typed in, the field is a box.
    assert.notEqual((await box(applicant, 'Nombre')).border, transparent)
    await sendPermit(applicant, form.key)
    const started = await onlyCase()

    const task1 = await pendingTask(started.id)
    const reviewer = await session.signedIn('revisora')
    await reviewer.goto(
      `${base}/forms/enter?data=${form.key}&key_process=${caseKey(started.id)}&token=${taskToken(task1.id)}`
    )
    await reviewer.getByRole('button', { name: 'Siguiente' }).click()
    await reviewer.getByLabel('Observación').fill('Soportes completos')
    await reviewer.getByTestId('form-send').click()
    await waitUntil(async () => (await pendingTask(started.id).catch(() => null))?.id !== task1.id)

    const task2 = await pendingTask(started.id)
    const approver = await session.signedIn('jefa')
    await approver.goto(
      `${base}/forms/approve?data=${form.key}&key_process=${caseKey(started.id)}&token=${taskToken(task2.id)}`
    )
    assert.isFalse(await approver.getByLabel('Nombre').isEditable())
    assert.deepEqual(await box(approver, 'Nombre'), { border: transparent, background: transparent })
    const country = approver.locator('[data-field=telefono] select')
    assert.isTrue(await country.isDisabled())
    assert.equal(await country.evaluate((el) => getComputedStyle(el).opacity), '1', 'a read-only select is not faded')
    // Edit values turns them back into boxes.
    await approver.getByTestId('form-edit-values').click()
    assert.isTrue(await approver.getByLabel('Nombre').isEditable())
    assert.notEqual((await box(approver, 'Nombre')).border, transparent)

    const admin = await session.signedIn('admin')
    await admin.goto(`${base}/forms/see?key_process=${caseKey(started.id)}`)
    assert.isFalse(await admin.getByLabel('Motivo').isEditable())
    assert.deepEqual(await box(admin, 'Motivo'), { border: transparent, background: transparent })
  })
})
