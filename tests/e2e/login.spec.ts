import { test } from '@japa/runner'
import { type Browser, type Page } from 'playwright-core'
import { generate } from 'otplib'
import { launchChromium } from './chromium.ts'
import { waitUntil } from './session.ts'
import { PASSWORD, makeUser, resetAuthTables } from '../../core/server/tests/helpers/auth.ts'
import { waitForMail } from '../../core/server/tests/helpers/smtp_listener.ts'
import Institution from '../../core/server/app/models/institution.ts'
import PasswordReset from '../../core/server/app/models/password_reset.ts'
import { hashToken, newToken } from '../../core/server/app/lib/tokens.ts'
import { DateTime } from 'luxon'

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

  test('wrong second-factor codes go on counting on the next sign-in, as the server counts them', async ({
    assert,
  }) => {
    await makeUser({ username: 'pilar', requiredTfa: true })
    const attempts = page.getByTestId('attempts')
    const twoFa = page.getByTestId('login-two-fa')
    await fill('pilar', PASSWORD)
    await signInButton().click()
    await twoFa.waitFor()
    assert.equal(await attempts.innerText(), 'Intentos: 0 de 3')
    await page.locator('input[name=code]').fill('000000')
    await twoFa.locator('button[type=submit]').click()
    await page.getByTestId('attempts').filter({ hasText: 'Intentos: 1 de 3' }).waitFor()

    // Back to sign-in and in again: the count goes on from the server's, it does not start over.
    await twoFa.getByRole('button', { name: 'Volver a iniciar sesión' }).click()
    await page.locator('input[name=password]').fill(PASSWORD)
    await signInButton().click()
    await twoFa.waitFor()
    assert.equal(await attempts.innerText(), 'Intentos: 1 de 3')
    await page.locator('input[name=code]').fill('000000')
    await twoFa.locator('button[type=submit]').click()
    await page.getByTestId('attempts').filter({ hasText: 'Intentos: 2 de 3' }).waitFor()
  })

  test('the password checklist says the passwords match when they do', async ({ assert }) => {
    const user = await makeUser({ username: 'rebeca' })
    const token = newToken()
    await PasswordReset.create({
      tokenHash: hashToken(token),
      userId: user.id,
      expiresAt: DateTime.now().plus({ minutes: 30 }),
      usedAt: null,
    })
    await page.goto(`${base}/forgetpassword/${token}`)
    const confirmation = page.getByTestId('password-checklist').locator('[data-rule=confirmation]')
    await page.locator('input[name=password]').fill('Nueva#Clave2027')
    await page.locator('input[name=confirmation]').fill('Nueva#Clave2028')
    assert.equal(await confirmation.getAttribute('data-ok'), 'false')
    assert.equal(await confirmation.innerText(), '✗ Las contraseñas no coinciden')
    await page.locator('input[name=confirmation]').fill('Nueva#Clave2027')
    assert.equal(await confirmation.getAttribute('data-ok'), 'true')
    assert.equal(await confirmation.innerText(), '✓ Las contraseñas coinciden')
    assert.equal(await page.getByTestId('password-checklist').locator('[data-ok=false]').count(), 0)
  })

  test('a bogus or spent recovery link says so on load, before any password is typed', async ({ assert }) => {
    const user = await makeUser({ username: 'sara' })
    const spent = newToken()
    await PasswordReset.create({
      tokenHash: hashToken(spent),
      userId: user.id,
      expiresAt: DateTime.now().plus({ minutes: 30 }),
      usedAt: DateTime.now(),
    })
    for (const token of ['bogus-token', spent]) {
      await page.goto(`${base}/forgetpassword/${token}`)
      await page.getByTestId('reset-link-invalid').waitFor()
      assert.equal(await page.locator('input[name=password]').count(), 0, token)
      assert.include(await page.getByTestId('reset-link-invalid').innerText(), 'no es válido')
    }
    // "Ask for a new link" opens the recovery view.
    await page.getByRole('link', { name: 'Pedir un enlace nuevo' }).click()
    await page.getByTestId('login-recover').waitFor()
    assert.equal(page.url(), `${base}/`)
  })

  test('with no background image, the wide layout’s left half shows the product, not nothing', async ({ assert }) => {
    const institution = await Institution.query().orderBy('id').firstOrFail()
    const before = institution.serialize()
    try {
      institution.merge({ logo: null, loginBackground: null, loginPanel: null })
      await institution.save()
      await page.setViewportSize({ width: 1280, height: 800 })
      await page.goto(`${base}/`)
      const aside = page.getByTestId('login-aside')
      // The institution's name replaces the product's once its settings arrive: wait for it, then look.
      await aside.filter({ hasText: institution.name || 'Tramita' }).waitFor()
      assert.include(await aside.innerText(), institution.name || 'Tramita')
      const box = (await aside.boundingBox())!
      const panel = (await page.locator('.login__panel').boundingBox())!
      assert.isBelow(box.x + box.width, panel.x, 'left of the panel')
      assert.isAbove(box.width, 100)

      // A background image from the settings fills that half instead.
      institution.merge({ loginBackground: '/img/fondo.jpg' })
      await institution.save()
      await page.goto(`${base}/`)
      await page.locator('.login__logo--text').waitFor()
      await page.waitForFunction(() =>
        getComputedStyle(document.querySelector('.login')!).backgroundImage.includes('/img/fondo.jpg')
      )
      assert.equal(await aside.count(), 0)
    } finally {
      institution.merge({ logo: before.logo, loginBackground: null, loginPanel: null })
      await institution.save()
    }
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
