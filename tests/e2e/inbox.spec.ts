import { test } from '@japa/runner'
import { type Browser, type Page } from 'playwright-core'
import db from '@adonisjs/lucid/services/db'
import { launchChromium } from './chromium.ts'
import { BASE as base, signIn as signInAs } from './session.ts'
import { PASSWORD, makeUser, resetAuthTables } from '../../core/server/tests/helpers/auth.ts'
import { publishPermit, resetProcessTables } from '../../core/server/tests/helpers/process.ts'
import { latestVersionByKey } from '../../core/server/app/services/process/definitions.ts'
import { startCase, taskToken } from '../../core/server/app/services/process/engine.ts'

/** The work list and the home page in Chromium: a reviewer sees a step, claims it and opens it. */
test.group('inbox in Chromium', (group) => {
  let browser: Browser
  let page: Page

  group.setup(async () => {
    browser = await launchChromium()
    return () => browser.close()
  })
  group.each.setup(async () => {
    await resetProcessTables()
    await resetAuthTables()
    page = await browser.newPage({ locale: 'es-CO' })
    return () => page.close()
  })

  const signIn = (user: string) => signInAs(page, user, PASSWORD)

  test('home summary, a pending step on /process, claim it, open it', async ({ assert }) => {
    const form = await publishPermit()
    const applicant = await makeUser({ username: 'solicitante', role: 'student' })
    const reviewer = await makeUser({ username: 'revisora', role: 'teacher' })
    await reviewer.related('areas').attach([form.area.id])
    const version = (await latestVersionByKey(form.key))!
    const started = await startCase(version, applicant.id, { values: { nombre: 'Ana Ruiz', dias: 2 } })
    const task = await db.from('tasks').where('case_id', started.caseId).where('status', 'pending').first()

    // Sign-in lands on the home: navigation for the role, the counts, the first pending step.
    await signIn('revisora')
    const summary = page.getByTestId('home-summary')
    await summary.locator('[data-testid=home-count-pending] .home__count-value', { hasText: '1' }).waitFor()
    assert.equal(await summary.getByTestId('home-count-started_open').locator('.home__count-value').innerText(), '0')
    const nav = page.getByTestId('home-nav')
    await nav.getByRole('link', { name: 'Procesos' }).waitFor()
    assert.equal(await nav.getByRole('link', { name: 'Usuarios' }).count(), 0, 'not for a teacher')
    await page.getByTestId('home-pending').locator(`tr[data-code="${started.code}"]`).waitFor()
    assert.isTrue(await page.getByRole('combobox', { name: 'Idioma' }).isVisible(), 'the Shell’s language switch')
    assert.isTrue(await page.getByTestId('session-bar').getByRole('button', { name: 'Cerrar sesión' }).isVisible())

    // The work list: the step, with a claim button; claiming marks it as the reviewer's.
    await page.getByTestId('home-pending').getByRole('link', { name: 'Ver toda la bandeja de trabajo' }).click()
    await page.waitForURL(`${base}/process`)
    const row = page.getByTestId('inbox-pending-table').locator(`tr[data-code="${started.code}"]`)
    await row.waitFor()
    assert.include(await row.innerText(), 'Revisión')
    assert.include(await row.innerText(), 'En revisión')
    await row.getByRole('button', { name: `Tomar el paso Revisión del caso ${started.code}` }).click()
    await page.locator('.toast', { hasText: 'Paso tomado' }).waitFor()
    await row.getByTestId('inbox-claimed').waitFor()
    assert.equal(await row.getAttribute('data-claimed'), 'true')
    await row.getByRole('button', { name: /^Liberar/ }).waitFor()
    assert.equal((await db.from('tasks').where('id', task.id).first()).claimed_by, reviewer.id)

    // Filters reach the server: a state with nothing in it empties the list.
    await page.getByTestId('inbox-filters').getByLabel('Estado').selectOption('aprobado')
    await page.getByTestId('inbox-pending-empty').waitFor()
    await page.getByTestId('inbox-filters').getByRole('button', { name: 'Limpiar filtros' }).click()
    await row.waitFor()

    // Open goes to the form screen with the case key and the task token.
    const open = row.getByRole('link', { name: `Abrir el paso Revisión del caso ${started.code}` })
    const href = new URL((await open.getAttribute('href'))!, base)
    assert.equal(href.pathname, '/forms/enter')
    assert.equal(href.searchParams.get('key_process'), started.key)
    assert.equal(href.searchParams.get('token'), taskToken(task.id))
    assert.equal(href.searchParams.get('data'), form.key)
    await open.click()
    await page.waitForURL(
      (url) => url.pathname === '/forms/enter' && url.searchParams.get('token') === taskToken(task.id)
    )

    // Back home, the claim is counted.
    await page.goto(`${base}/document_management`)
    await page.getByTestId('home-count-claimed_by_me').locator('.home__count-value', { hasText: '1' }).waitFor()
  })
})
