import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import type { Browser } from 'playwright-core'
import { launchChromium } from './chromium.ts'
import { BASE as base, people } from './session.ts'
import { resetAuthTables } from '../../core/server/tests/helpers/auth.ts'
import { resetProcessTables } from '../../core/server/tests/helpers/process.ts'
import { DEFAULT_DEMO_PASSWORD, seedDemo } from '../../core/server/app/services/seed_service.ts'

/**
 * The designer's shell as the core serves it under /designer: the built page and its assets, the
 * session shared with the runtime, the forms listed and one read through the model.
 */
test.group('the form designer shell in Chromium', (group) => {
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

  test('served under /designer with cached assets; without a session it links to sign-in', async ({ assert }) => {
    const page = await session.open()
    const response = await page.goto(`${base}/designer`)
    assert.equal(response?.status(), 200)
    assert.equal(response?.headers()['cache-control'], 'no-cache')
    const link = page.getByTestId('sign-in-needed').getByRole('link')
    await link.waitFor()
    assert.equal(await link.getAttribute('href'), '/')
    const script = await page.locator('script[type=module]').getAttribute('src')
    assert.match(script!, /^\/designer\/assets\/index-.+\.js$/)
    const asset = await page.request.get(`${base}${script}`)
    assert.equal(asset.status(), 200)
    assert.equal(asset.headers()['cache-control'], 'public, max-age=31536000, immutable')
    // A deep link is the designer's page too, and the runtime keeps everything else.
    const deep = await page.request.get(`${base}/designer/forms/1`)
    assert.include(await deep.text(), '/designer/assets/')
    const runtime = await page.request.get(`${base}/designerx`)
    assert.notInclude(await runtime.text(), '/designer/assets/')
  })

  test('a supervisor signed in to the runtime lists the forms and opens one through the model', async ({ assert }) => {
    const page = await session.signedIn('supervisor')
    await page.goto(`${base}/designer`)
    const link = page.getByTestId('forms').getByRole('link', { name: /Solicitud de permiso/ })
    await link.click()
    await page.waitForURL(/\/designer\/forms\/\d+$/)
    await page.getByTestId('form-view').waitFor()
    assert.isAtLeast(await page.getByTestId('page').count(), 1)
    assert.isAtLeast(await page.getByTestId('item').count(), 3)
    assert.equal(await page.getByTestId('problems').innerText(), 'Sin problemas: se puede publicar')
  })

  test('a user without a designing role sees the refusal', async ({ assert }) => {
    const page = await session.signedIn('teacher')
    await page.goto(`${base}/designer`)
    const failure = page.getByTestId('failure')
    await failure.waitFor()
    assert.notEqual((await failure.innerText()).trim(), '')
  })
})
