import { test } from '@japa/runner'
import { type Browser, type Page } from 'playwright-core'
import { launchChromium } from './chromium.ts'
import { BASE as base, signIn } from './session.ts'
import { PASSWORD, makeUser, resetAuthTables } from '../../core/server/tests/helpers/auth.ts'

/**
 * What a new user meets (issue 18): every link the home page and the header offer opens a page of
 * its own, "/" is not the sign-in form once signed in, and unbuilt routes are not reachable.
 */
test.group('home and navigation in Chromium', (group) => {
  let browser: Browser
  let page: Page

  group.setup(async () => {
    browser = await launchChromium()
    return () => browser.close()
  })
  group.each.setup(async () => {
    await resetAuthTables()
    page = await browser.newPage({ locale: 'es-CO' })
    return () => page.close()
  })

  /** The hrefs of the links in a navigation, once it has some. */
  async function hrefs(nav: ReturnType<Page['getByTestId']>): Promise<string[]> {
    await nav.locator('a').first().waitFor()
    return nav.locator('a').evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''))
  }

  /** Opens a path and waits for its page's heading; returns it, failing on the 404 page. */
  async function opens(path: string, assert: { equal: (a: unknown, b: unknown, m?: string) => void }) {
    await page.goto(`${base}${path}`)
    const heading = page.locator('main h1').first()
    await heading.waitFor()
    assert.equal(await page.getByTestId('not-found').count(), 0, `${path} opens "page not found"`)
    return heading.innerText()
  }

  for (const [role, expected] of [
    ['student', ['/process', '/status', '/documents', '/documents/indexes']],
    ['teacher', ['/process', '/status', '/documents', '/documents/indexes']],
    [
      'supervisor',
      ['/process', '/users', '/plugin_settings', '/status', '/documents', '/documents/indexes', '/documents/retention'],
    ],
    [
      'superuser',
      [
        '/process',
        '/users',
        '/plugin_settings',
        '/status',
        '/documents',
        '/documents/indexes',
        '/documents/retention',
        '/devices/agents',
        '/devices/machines',
      ],
    ],
  ] as const) {
    test(`a ${role}: the home offers only screens that exist, and each opens its page`, async ({ assert }) => {
      await makeUser({ username: `u_${role}`, role })
      await signIn(page, `u_${role}`, PASSWORD)
      const nav = page.getByTestId('home-nav')
      const offered = await hrefs(nav)
      assert.deepEqual(offered, [...expected])
      // The documents plugin ships its screens, named by its own texts, and devices its superusers' two;
      // the other plugins have none yet.
      assert.equal(await nav.getByRole('link', { name: 'Mis documentos', exact: true }).count(), 1)
      const devices = role === 'superuser' ? 1 : 0
      assert.equal(await nav.getByRole('link', { name: 'Agentes', exact: true }).count(), devices)
      assert.equal(await nav.getByRole('link', { name: 'Máquinas', exact: true }).count(), devices)
      for (const label of ['Máquinas y agentes', 'Evaluación', 'Censos', 'Fichas']) {
        assert.equal(await nav.getByRole('link', { name: label }).count(), 0, `${label} has no screen yet`)
      }
      const header = await hrefs(page.getByRole('navigation', { name: 'Navegación principal' }))
      // The designer is another app (a page load, not a route of this one): its own tests cover it.
      const routes = header.filter((h) => h.startsWith('/') && !h.startsWith('/designer'))
      for (const path of [...offered, ...routes]) await opens(path, assert)
    })
  }

  test('signed in, "/" is the home, not the sign-in form; the home carries its tab’s title', async ({ assert }) => {
    await makeUser({ username: 'gabriela', role: 'teacher' })
    await signIn(page, 'gabriela', PASSWORD)
    await page.goto(`${base}/`)
    await page.waitForURL(`${base}/document_management`)
    await page.getByTestId('page-document-management').waitFor()
    assert.equal(await page.getByTestId('page-login').count(), 0)

    // The header's tab and the page it opens say the same thing, and no other tab is the same page.
    const header = page.getByRole('navigation', { name: 'Navegación principal' })
    await page.goto(`${base}/status`)
    await header.getByRole('link', { name: 'Gestión documental' }).click()
    await page.waitForURL(`${base}/document_management`)
    await page.locator('main h1', { hasText: 'Gestión documental' }).waitFor()
    assert.match(await page.title(), /^Gestión documental · /)
    assert.equal(await header.getByRole('link', { name: 'Inicio' }).count(), 0)

    // The brand leads home too.
    await page.goto(`${base}/status`)
    await page.locator('header a.brand').click()
    await page.waitForURL(`${base}/document_management`)
  })

  test('signed out, "/" is the sign-in form', async ({ assert }) => {
    await page.goto(`${base}/`)
    await page.getByTestId('login-sign-in').waitFor()
    assert.equal(page.url(), `${base}/`)
  })

  test('a route that does not exist is the 404 page, not a placeholder', async ({ assert }) => {
    // The spec's last placeholders are screens now: /static/public/:token (public links) and
    // /confirmretention (retention), both the documents plugin's (plugins/documents/tests).
    for (const path of ['/no-existe', '/no-existe/tampoco']) {
      await page.goto(`${base}${path}`)
      await page.getByTestId('not-found').waitFor()
      assert.notInclude(await page.locator('main').innerText(), 'Aquí ', path)
    }
  })
})
