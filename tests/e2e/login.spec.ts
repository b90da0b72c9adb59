import { test } from '@japa/runner'
import { type Browser, type Page } from 'playwright-core'
import { generate } from 'otplib'
import { launchChromium } from './chromium.ts'
import { waitUntil } from './session.ts'
import { PASSWORD, makeUser, resetAuthTables } from '../../core/server/tests/helpers/auth.ts'
import { waitForMail } from '../../core/server/tests/helpers/smtp_listener.ts'
import Institution from '../../core/server/app/models/institution.ts'

/** The login screen's four views, captcha, two-factor enrolment, recovery and 'Unauthorized' in Chromium. */
test.group('login in Chromium', (group) => {
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

  async function fill(user: string, password: string) {
    await page.goto(`${base}/`)
    await page.getByTestId('login-sign-in').waitFor()
    await page.locator('input[name=user]').fill(user)
    await page.locator('input[name=password]').fill(password)
  }

  const signInButton = () => page.getByTestId('login-sign-in').locator('button[type=submit]')

  test('sign-in: button inactive until valid, show/hide password, success goes to /document_management', async ({
    assert,
  }) => {
    await makeUser({ username: 'lucia', role: 'teacher' })
    await page.goto(`${base}/`)
    await page.getByTestId('login-sign-in').waitFor()
    assert.isTrue(await signInButton().isDisabled())
    assert.equal(await page.getByTestId('no-session-storage').count(), 0, 'storage works here')
    await page.locator('input[name=user]').fill('lucia')
    assert.isTrue(await signInButton().isDisabled())
    await page.locator('input[name=password]').fill(PASSWORD)
    assert.equal(await page.locator('input[name=password]').getAttribute('type'), 'password')
    await page.locator('.login__eye').click()
    assert.equal(await page.locator('input[name=password]').getAttribute('type'), 'text')
    assert.isFalse(await signInButton().isDisabled())
    await signInButton().click()
    await page.waitForURL(`${base}/document_management`)
    await page.getByTestId('session-bar').waitFor()
    assert.include(await page.getByTestId('session-bar').innerText(), 'lucia')
  })

  test('a browser that keeps no sessionStorage is told so on the sign-in view', async ({ assert }) => {
    // What a browser with storage blocked does: reading sessionStorage throws.
    await page.addInitScript(() => {
      Object.defineProperty(window, 'sessionStorage', {
        get() {
          throw new DOMException('blocked', 'SecurityError')
        },
      })
    })
    await page.goto(`${base}/`)
    const notice = page.getByTestId('no-session-storage')
    await notice.waitFor()
    assert.equal(await notice.innerText(), 'Tu Browser no soporta sessionStorage!')
  })

  test('captcha after three failures; solving it lets the right password in', async ({ assert }) => {
    await makeUser({ username: 'marcos' })
    for (let i = 0; i < 3; i++) {
      await fill('marcos', `Mala#Clave${i}x`)
      await signInButton().click()
      await page.locator('.toast').first().waitFor()
    }
    await page.getByTestId('captcha').waitFor()
    await page.locator('input[name=password]').fill(PASSWORD)
    assert.isTrue(await signInButton().isDisabled(), 'inactive until the captcha is solved')
    await page.getByTestId('captcha').locator('input[type=checkbox]').click()
    await page.waitForFunction(
      () => !(document.querySelector('[data-testid=login-sign-in] button[type=submit]') as HTMLButtonElement).disabled
    )
    await signInButton().click()
    await page.waitForURL(`${base}/document_management`)
  })

  test('two-factor enrolment with a code computed by the test, attempts counter, recovery codes', async ({
    assert,
  }) => {
    await makeUser({ username: 'nuria', requiredTfa: true })
    await fill('nuria', PASSWORD)
    await signInButton().click()
    await page.getByTestId('login-two-fa').waitFor()
    assert.include(await page.getByTestId('login-two-fa').innerText(), 'nuria')
    const secret = await page.getByTestId('enrol-secret').innerText()
    assert.isTrue(await page.getByTestId('enrol').locator('img').isVisible())
    await page.locator('input[name=code]').fill('000000')
    await page.getByTestId('login-two-fa').locator('button[type=submit]').click()
    await page.waitForFunction(() => document.querySelector('[data-testid=attempts]')?.textContent?.includes('1'))
    await page.locator('input[name=code]').fill(await generate({ secret }))
    await page.getByTestId('login-two-fa').locator('button[type=submit]').click()
    await page.getByTestId('recovery-codes').waitFor()
    assert.lengthOf(await page.getByTestId('recovery-codes').locator('li').all(), 10)
    await page.getByTestId('recovery-codes').locator('button').click()
    await page.waitForURL(`${base}/document_management`)
  })

  test('recovery: e-mail sent view, back clears the fields, the mailed link leads to the checklist', async ({
    assert,
  }) => {
    await makeUser({ username: 'olivia', email: 'olivia@example.test' })
    await fill('olivia', 'algo')
    await page.getByRole('button', { name: '¿Olvidaste tu contraseña?' }).click()
    await page.getByTestId('login-recover').waitFor()
    await page.locator('input[name=recover]').fill('olivia@example.test')
    await page.getByTestId('login-recover').locator('button[type=submit]').click()
    await page.getByTestId('login-sent').waitFor()
    await page.getByTestId('login-sent').locator('button').click()
    await page.getByTestId('login-sign-in').waitFor()
    assert.equal(await page.locator('input[name=user]').inputValue(), '')
    assert.equal(await page.locator('input[name=password]').inputValue(), '')

    const mail = await waitForMail('olivia@example.test')
    const link = /https?:\/\/\S+\/forgetpassword\/([A-Za-z0-9_-]+)/.exec(mail.text)!
    await page.goto(`${base}/forgetpassword/${link[1]}`)
    const checklist = page.getByTestId('password-checklist')
    await checklist.waitFor()
    const send = page.locator('.password-form button[type=submit]')
    await page.locator('input[name=password]').fill('abc')
    assert.equal(await checklist.locator('[data-rule=min_length]').getAttribute('data-ok'), 'false')
    assert.isTrue(await send.isDisabled())
    await page.locator('input[name=password]').fill('Nueva#Clave2027')
    assert.equal(await checklist.locator('[data-rule=confirmation]').getAttribute('data-ok'), 'false')
    await page.locator('input[name=confirmation]').fill('Nueva#Clave2027')
    assert.equal(await checklist.locator('[data-ok=false]').count(), 0)
    await send.click()
    await page.waitForURL(`${base}/`, { timeout: 10_000 })
    await fill('olivia', 'Nueva#Clave2027')
    await signInButton().click()
    await page.waitForURL(`${base}/document_management`)
  })

  test('background, panel and logo come from the institution settings, else the defaults', async ({ assert }) => {
    const institution = await Institution.query().orderBy('id').firstOrFail()
    const before = institution.serialize()
    const look = () =>
      page.evaluate(() => ({
        background: getComputedStyle(document.querySelector('.login')!).backgroundImage,
        panel: getComputedStyle(document.querySelector('.login__panel')!).backgroundImage,
        logo: document.querySelector<HTMLImageElement>('img.login__logo')?.getAttribute('src') ?? null,
      }))
    try {
      institution.merge({ logo: null, loginBackground: null, loginPanel: null })
      await institution.save()
      await page.goto(`${base}/`)
      await page.locator('.login__logo--text').waitFor()
      const plain = await look()
      assert.include(plain.background, 'linear-gradient')
      assert.equal(plain.panel, 'none')
      assert.isNull(plain.logo)

      institution.merge({ logo: '/img/escudo.png', loginBackground: '/img/fondo.jpg', loginPanel: '/img/panel.png' })
      await institution.save()
      await page.goto(`${base}/`)
      await page.locator('img.login__logo').waitFor()
      const custom = await look()
      assert.include(custom.background, '/img/fondo.jpg')
      assert.include(custom.panel, '/img/panel.png')
      assert.equal(custom.logo, '/img/escudo.png')
      assert.equal(await page.locator('img.login__logo').evaluate((img) => getComputedStyle(img).width), '220px')
    } finally {
      institution.merge({ logo: before.logo, loginBackground: null, loginPanel: null })
      await institution.save()
    }
  })

  test("'Unauthorized' destroys the session and reloads", async ({ assert }) => {
    await page.goto(`${base}/`)
    await page.getByTestId('login-sign-in').waitFor()
    await page.evaluate(() => {
      sessionStorage.setItem('tramita.token', 'not-a-session')
      sessionStorage.setItem('tramita.logged', 'true')
    })
    // The page reloads itself after the 401; reads during the reload are retried.
    await page.goto(`${base}/document_management`)
    let storage: (string | null)[] = ['pending']
    await waitUntil(async () => {
      storage = await page
        .evaluate(() => [sessionStorage.getItem('tramita.token'), sessionStorage.getItem('tramita.logged')])
        .catch(() => ['navigating'])
      return storage[0] === null
    })
    assert.deepEqual(storage, [null, null])
  })
})
