import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import type { Browser } from 'playwright-core'
import { launchChromium } from './chromium.ts'
import { BASE as base, people as browsers, waitUntil } from './session.ts'
import { PASSWORD, makeUser, resetAuthTables } from '../../core/server/tests/helpers/auth.ts'
import { publishPermit, resetProcessTables } from '../../core/server/tests/helpers/process.ts'
import { caseKey } from '../../core/server/app/services/process/engine.ts'

/**
 * Issue 17: two people editing one case's values in see. The second save was based on values that
 * changed since: the runtime says so and offers a reload, and nothing of the first save is lost.
 */
test.group('a case changed while it was being edited, in Chromium', (group) => {
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

  const valuesOf = async (id: number) =>
    JSON.parse((await db.from('cases').where('id', id).firstOrFail()).values) as Record<string, unknown>

  test('the later save is refused with "the case changed", and the reload shows the other edit', async ({ assert }) => {
    await makeUser({ id: 1, username: 'admin', role: 'superuser' })
    await makeUser({ username: 'jefa', role: 'supervisor' })
    await makeUser({ username: 'solicitante', role: 'student' })
    const form = await publishPermit()
    const applicant = await session.signedIn('solicitante')
    await applicant.goto(`${base}/forms/new?data=${form.key}`)
    await applicant.getByLabel('Nombre').fill('Ana')
    await applicant.getByLabel('Motivo').fill('Primera versión')
    await applicant.getByRole('button', { name: 'Siguiente' }).click()
    await applicant.getByTestId('form-send').click()
    await applicant.getByTestId('form-done').waitFor()
    const started = await db.from('cases').firstOrFail()
    const url = `${base}/forms/see?key_process=${caseKey(started.id)}`

    // Both open the case before either saves.
    const admin = await session.signedIn('admin')
    const chief = await session.signedIn('jefa')
    for (const page of [admin, chief]) {
      await page.goto(url)
      await page.getByTestId('form-edit-values').click()
    }
    await chief.getByLabel('Motivo').fill('Corregido por la jefa')
    await chief.getByTestId('form-save').click()
    await waitUntil(async () => (await valuesOf(started.id)).motivo === 'Corregido por la jefa')

    await admin.getByLabel('Nombre').fill('Ana María')
    await admin.getByTestId('form-save').click()
    const notice = admin.getByTestId('form-case-changed')
    await notice.waitFor()
    assert.include(await notice.innerText(), 'Otra persona guardó este caso')
    assert.deepInclude(await valuesOf(started.id), { nombre: 'Ana', motivo: 'Corregido por la jefa' })

    await notice.getByRole('button', { name: 'Recargar' }).click()
    await waitUntil(async () => (await admin.getByLabel('Motivo').inputValue()) === 'Corregido por la jefa')
    assert.equal(await admin.getByLabel('Nombre').inputValue(), 'Ana')
    assert.equal(await admin.getByTestId('form-case-changed').count(), 0)
    assert.isNull(await admin.evaluate(() => localStorage.getItem('vfields_edit')))
  })
})
