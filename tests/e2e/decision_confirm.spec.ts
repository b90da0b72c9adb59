import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import type { Browser, Page } from 'playwright-core'
import { launchChromium } from './chromium.ts'
import { BASE as base, people as browsers, waitUntil } from './session.ts'
import { PASSWORD, makeUser, resetAuthTables, tokenFor } from '../../core/server/tests/helpers/auth.ts'
import { permitConfig, permitProcess, resetProcessTables } from '../../core/server/tests/helpers/process.ts'
import { publishForm } from '../../core/server/app/services/process/forms.ts'
import { caseKey, taskToken } from '../../core/server/app/services/process/engine.ts'
import { seedBase } from '../../core/server/app/services/seed_service.ts'
import Area from '../../core/server/app/models/area.ts'
import Role from '../../core/server/app/models/role.ts'

type Client = Parameters<typeof tokenFor>[0]

const DECISION_ROUTE = '/data/form/decision/process/info'

/**
 * A decision is not one click (issue 18): the prompt asks to confirm the decision chosen, with a comment
 * box when the decision takes one (Rechazar requires it here, Aprobar leaves it optional). The prompt is
 * a modal dialog: focus stays inside, Escape cancels, focus goes back to "Tomar decisión".
 */
test.group('decision prompt in Chromium', (group) => {
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

  const post = (client: Client, path: string, token: string, fields: Record<string, string>) =>
    client
      .post(path)
      .header('token', token)
      .form({ case: 'POST', ...fields })

  const pending = (caseId: number) => db.from('tasks').where('case_id', caseId).where('status', 'pending').firstOrFail()

  /** The permit process (Rechazar requiring a comment), a case reviewed and waiting on the supervisor. */
  async function awaitingDecision(client: Client) {
    await seedBase()
    const area =
      (await Area.findBy('name', 'Talento humano')) ?? (await Area.create({ name: 'Talento humano', color: '#336699' }))
    const process = permitProcess(area.id, (await Role.findByOrFail('name', 'supervisor')).id)
    const approval = process.steps[1] as unknown as { decisions: Record<string, unknown>[] }
    approval.decisions[1] = { ...approval.decisions[1], comment: 'required' }
    const form = await publishForm({ name: 'Solicitud de permiso', jsonconfig: permitConfig(), process, userId: null })
    await makeUser({ username: 'solicitante', role: 'student' })
    const reviewer = await makeUser({ username: 'revisora', role: 'teacher' })
    await reviewer.related('areas').attach([area.id])
    await makeUser({ username: 'jefa', role: 'supervisor' })
    const started = await post(client, '/data/form/flows/process', await tokenFor(client, 'solicitante'), {
      data: form.key,
      flow_values: JSON.stringify({ nombre: 'Ana Ruiz', dias: 2 }),
    })
    started.assertStatus(200)
    const id = started.body().data.id as number
    const entered = await post(client, '/data/form/asignar/process/info', await tokenFor(client, 'revisora'), {
      key_process: caseKey(id),
      token: taskToken((await pending(id)).id),
      flow_values: JSON.stringify({ observacion: 'Soportes completos' }),
    })
    entered.assertStatus(200)
    const task = await pending(id)
    return { id, url: `${base}/forms/approve?data=${form.key}&key_process=${caseKey(id)}&token=${taskToken(task.id)}` }
  }

  const focusedTestId = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))
  const focusInside = (page: Page) =>
    page.evaluate(() => Boolean(document.activeElement?.closest('[data-testid=decision-prompt]')))

  test('choose, confirm with the required comment; Escape cancels; focus stays inside and comes back', async ({
    client,
    assert,
  }) => {
    const c = await awaitingDecision(client)
    const approver = await session.signedIn('jefa')
    const sent: string[] = []
    approver.on('request', (request) => {
      if (request.url().endsWith(DECISION_ROUTE)) sent.push(request.postData() ?? '')
    })
    await approver.goto(c.url)
    await approver.getByTestId('form-decide').click()

    // The choices: nothing is sent by choosing.
    const dialog = approver.getByRole('dialog', { name: 'Tomar decisión' })
    await dialog.waitFor()
    await dialog.getByRole('button', { name: 'Aprobar' }).click()
    const prompt = approver.getByTestId('decision-prompt')
    await approver.getByRole('dialog', { name: '¿Confirmas la decisión «Aprobar»?' }).waitFor()
    assert.equal(await prompt.getAttribute('data-step'), 'confirm')
    // Aprobar's comment is optional; going back offers the choices again.
    assert.isTrue(await prompt.getByLabel('Comentario (opcional)').isVisible())
    await prompt.getByRole('button', { name: 'Elegir otra decisión' }).click()
    await prompt.getByRole('button', { name: 'Rechazar' }).click()
    const comment = prompt.getByLabel('Comentario (obligatorio)')
    await comment.waitFor()
    assert.equal(await focusedTestId(approver), 'decision-comment', 'focus starts in the comment')

    // Tab and Shift+Tab go round inside the dialog.
    const stops = await prompt.locator('button:not([disabled]), textarea').count()
    for (let i = 0; i < stops + 1; i++) {
      await approver.keyboard.press('Tab')
      assert.isTrue(await focusInside(approver), `Tab ${i + 1} stays in the dialog`)
    }
    for (let i = 0; i < stops + 1; i++) {
      await approver.keyboard.press('Shift+Tab')
      assert.isTrue(await focusInside(approver), `Shift+Tab ${i + 1} stays in the dialog`)
    }

    // Confirming without the required comment says so and sends nothing.
    await prompt.getByRole('button', { name: 'Confirmar: Rechazar' }).click()
    await prompt.getByRole('alert').filter({ hasText: 'Escribe un comentario para tomar esta decisión.' }).waitFor()
    assert.equal(await comment.getAttribute('aria-invalid'), 'true')
    assert.equal(await focusedTestId(approver), 'decision-comment')
    assert.deepEqual(sent, [])

    // Escape cancels: the dialog goes, focus is back on the button that opened it, nothing was sent.
    await approver.keyboard.press('Escape')
    await prompt.waitFor({ state: 'detached' })
    assert.equal(await focusedTestId(approver), 'form-decide')
    assert.deepEqual(sent, [])
    assert.equal((await pending(c.id)).step_id, 'aprobacion')

    // Again, with the comment: it is sent with the decision and kept in the log.
    await approver.getByTestId('form-decide').click()
    await prompt.getByRole('button', { name: 'Rechazar' }).click()
    await comment.fill('Falta la incapacidad firmada')
    assert.equal(await prompt.getByText('28 de 1000 caracteres').count(), 1)
    const answered = approver.waitForResponse((res) => res.url().endsWith(DECISION_ROUTE))
    await prompt.getByRole('button', { name: 'Confirmar: Rechazar' }).click()
    assert.equal((await answered).status(), 200)
    assert.lengthOf(sent, 1)
    assert.include(decodeURIComponent(sent[0]!.replace(/\+/g, ' ')), 'Falta la incapacidad firmada')
    await waitUntil(async () => (await db.from('cases').where('id', c.id).first()).state === 'revision')
    const entry = await db.from('activities').where('case_id', c.id).where('event', 'option_selected').first()
    assert.include(entry, { label: 'Rechazar', comment: 'Falta la incapacidad firmada' })
  })

  test('an optional comment may stay empty: confirm sends the decision', async ({ client, assert }) => {
    const c = await awaitingDecision(client)
    const approver = await session.signedIn('jefa')
    await approver.goto(c.url)
    await approver.getByTestId('form-decide').click()
    const prompt = approver.getByTestId('decision-prompt')
    await prompt.getByRole('button', { name: 'Aprobar' }).click()
    const answered = approver.waitForResponse((res) => res.url().endsWith(DECISION_ROUTE))
    await prompt.getByRole('button', { name: 'Confirmar: Aprobar' }).click()
    assert.equal((await answered).status(), 200)
    await waitUntil(async () => (await db.from('cases').where('id', c.id).first()).status === 'ended')
    const entry = await db.from('activities').where('case_id', c.id).where('event', 'option_selected').first()
    assert.include(entry, { label: 'Aprobar', comment: null })
  })

  test('a decision the server never got keeps the prompt open with its comment; sending again takes it', async ({
    client,
    assert,
  }) => {
    const c = await awaitingDecision(client)
    const approver = await session.signedIn('jefa')
    await approver.goto(c.url)
    await approver.getByTestId('form-decide').click()
    const prompt = approver.getByTestId('decision-prompt')
    await prompt.getByRole('button', { name: 'Rechazar' }).click()
    const comment = prompt.getByLabel('Comentario (obligatorio)')
    await comment.fill('Falta la incapacidad firmada')
    // The connection drops as the approver confirms: the call fails, nothing is stored.
    await approver.context().setOffline(true)
    await prompt.getByRole('button', { name: 'Confirmar: Rechazar' }).click()
    await approver.locator('.toast--error').first().waitFor()
    assert.equal(await prompt.getAttribute('data-step'), 'confirm')
    assert.equal(await comment.inputValue(), 'Falta la incapacidad firmada')
    assert.equal((await pending(c.id)).step_id, 'aprobacion')
    // Back online, the same prompt sends it.
    await approver.context().setOffline(false)
    const answered = approver.waitForResponse((res) => res.url().endsWith(DECISION_ROUTE))
    await prompt.getByRole('button', { name: 'Confirmar: Rechazar' }).click()
    assert.equal((await answered).status(), 200)
    await prompt.waitFor({ state: 'detached' })
    const entry = await db.from('activities').where('case_id', c.id).where('event', 'option_selected').first()
    assert.include(entry, { label: 'Rechazar', comment: 'Falta la incapacidad firmada' })
  })
})
