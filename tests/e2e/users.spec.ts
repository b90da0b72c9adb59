import { test } from '@japa/runner'
import { type Browser, type Page } from 'playwright-core'
import { launchChromium } from './chromium.ts'
import { PASSWORD, makeUser, resetAuthTables } from '../../core/server/tests/helpers/auth.ts'
import AuditLog from '../../core/server/app/models/audit_log.ts'

/** The users administration screen and impersonation with its banner and way back, in Chromium. */
test.group('users administration in Chromium', (group) => {
  let browser: Browser
  let page: Page
  const base = `http://${process.env.HOST}:${process.env.PORT}`

  group.setup(async () => {
    browser = await launchChromium()
    return () => browser.close()
  })
  group.each.setup(async () => {
    await resetAuthTables()
    page = await browser.newPage({ locale: 'es-CO' })
    return () => page.close()
  })

  async function signIn(user: string) {
    await page.goto(`${base}/`)
    await page.locator('input[name=user]').fill(user)
    await page.locator('input[name=password]').fill(PASSWORD)
    await page.getByTestId('login-sign-in').locator('button[type=submit]').click()
    await page.waitForURL(`${base}/document_management`)
  }

  test('search, block and unblock, then impersonate with a reason and come back', async ({ assert }) => {
    await makeUser({ username: 'directora', role: 'supervisor' })
    await makeUser({ username: 'estudiante1', role: 'student' })
    await makeUser({ username: 'estudiante2', role: 'student' })
    await signIn('directora')
    await page.getByTestId('session-bar').getByRole('link', { name: 'Usuarios' }).click()
    const table = page.getByTestId('users-table')
    await table.locator('tr[data-username=estudiante2]').waitFor()
    await page.getByRole('searchbox').fill('estudiante1')
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=users-table] tbody tr').length === 1)
    const row = table.locator('tr[data-username=estudiante1]')
    await row.getByRole('button', { name: 'Bloquear' }).click()
    await row.getByText('Bloqueado').waitFor()
    await row.getByRole('button', { name: 'Desbloquear' }).click()
    await row.getByText('Activo').waitFor()

    await row.getByRole('button', { name: 'Suplantar' }).click()
    await page.getByTestId('users-action').locator('input').fill('Revisar su bandeja')
    await page.getByTestId('users-action').locator('button[type=submit]').click()
    await page.waitForURL(`${base}/document_management`)
    const banner = page.getByTestId('impersonation-banner')
    await banner.waitFor()
    assert.include(await banner.innerText(), 'estudiante1')
    assert.include(await banner.innerText(), 'directora')
    const entry = await AuditLog.query().where('action', 'impersonate.start').firstOrFail()
    assert.equal(entry.data!.reason, 'Revisar su bandeja')

    await banner.getByRole('button').click()
    await page.getByTestId('session-bar').getByRole('link', { name: 'Usuarios' }).waitFor()
    assert.equal(await page.getByTestId('impersonation-banner').count(), 0)
    assert.include(await page.getByTestId('session-bar').innerText(), 'directora')
  })
})
