import { test } from '@japa/runner'
import { readFileSync } from 'node:fs'
import db from '@adonisjs/lucid/services/db'
import type { Browser, Page } from 'playwright-core'
import { launchChromium } from './chromium.ts'
import { a11yViolations, WORDING_RULES } from './a11y.ts'
import { BASE as base, PHONE, people, waitUntil } from './session.ts'
import { makeUser, PASSWORD, resetAuthTables } from '../../core/server/tests/helpers/auth.ts'
import { resetProcessTables } from '../../core/server/tests/helpers/process.ts'
import { DEFAULT_DEMO_PASSWORD, seedDemo } from '../../core/server/app/services/seed_service.ts'

export type Lang = 'es' | 'en' | 'zh'
const LOCALES: Record<Lang, string> = { es: 'es-CO', en: 'en-US', zh: 'zh-CN' }

/** A page text in a language, from core/i18n's resources (`form_runtime.next`). */
function say(lang: Lang, key: string): string {
  const texts = JSON.parse(readFileSync(new URL(`../../core/i18n/locales/${lang}.json`, import.meta.url), 'utf8'))
  const found = key.split('.').reduce((node, part) => node?.[part], texts)
  if (typeof found !== 'string') throw new Error(`no text ${key} in ${lang}`)
  return found
}

/** Each screen's serious and critical violations, all listed when the test fails. */
const found: string[] = []
/**
 * Spanish, the default, gets every axe rule; English and Chinese get the rules a translation can change
 * (WORDING_RULES: names, labels, title, language). The others read structure, roles and colours, which
 * a language does not change: in en and zh they would repeat es's findings at twice its cost.
 */
let rules: string[] | undefined
/**
 * Waits for the screen's mark and for nothing on it still loading, then checks it with axe as it is
 * drawn on a desktop and, the same page resized, on a phone (375×812): one walk gives both, at half
 * the time of walking each size apart.
 */
async function check(page: Page, where: string, mark: string) {
  await page.locator(mark).first().waitFor()
  await page.waitForFunction(() => !document.querySelector('[aria-busy="true"]'))
  const desktop = page.viewportSize() ?? DESKTOP
  for (const [size, label] of [
    [desktop, ''],
    [PHONE, ', phone'],
  ] as const) {
    await page.setViewportSize(size)
    await page.waitForFunction(({ width }) => window.innerWidth === width, size)
    for (const violation of await a11yViolations(page, { rules, legacy: true }))
      found.push(`${where}${label}: ${violation}`)
  }
  await page.setViewportSize(desktop)
}

/** The harness's desktop size (session.ts), should a page not report its own. */
const DESKTOP = { width: 1280, height: 900 }

/**
 * One language's walk, a file of its own per language (a11y_es/en/zh.spec.ts) so that the sharded
 * browser suite can run the three in different processes.
 *
 * Issue 18: every screen a new user meets, in each language and on a desktop and a phone, has no
 * serious or critical axe violation: sign-in, recovery, the second factor, home, work list, the demo
 * permit form page by page and its done screen, an approval and its decision prompt, the public
 * consultation with the case, users, a profile, the plugin settings, status, 404, the designer's list
 * and a form in it.
 */
export function a11yWalk(lang: Lang): void {
  test.group(`accessibility of every screen (axe), ${lang}`, (group) => {
    let browser: Browser

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
      await makeUser({ username: 'dora', requiredTfa: true })
    })

    test(`${lang}: every screen on a desktop and on a phone`)
      // Some 20 screens at two sizes, each checked by axe: beside other browser processes (the sharded
      // suite) this took over the suite's two minutes.
      .timeout(300_000)
      .run(async ({ assert }) => {
        const session = people(() => browser, DEFAULT_DEMO_PASSWORD, LOCALES[lang])
        found.length = 0
        rules = lang === 'es' ? undefined : WORDING_RULES
        const where = (screen: string) => `${screen} (${lang})`
        try {
          // Signed out: sign-in, recovery, the second factor's prompt, the reset link's page, 404.
          const visitor = await session.open()
          await visitor.goto(`${base}/`)
          await check(visitor, where('sign-in'), '[data-testid=login-sign-in]')
          assert.equal(await visitor.getAttribute('html', 'lang'), lang)
          await visitor.getByRole('button', { name: say(lang, 'login.forgot_password') }).click()
          await check(visitor, where('recovery'), '[data-testid=login-recover]')
          await visitor.goto(`${base}/forgetpassword/abc`)
          await check(visitor, where('reset link'), '[data-testid=page-forget-password]')
          await visitor.goto(`${base}/static/code2FA`)
          await check(visitor, where('2FA page'), 'main h1')
          await visitor.goto(`${base}/no/such/page`)
          await check(visitor, where('404'), '[data-testid=not-found]')
          await visitor.goto(`${base}/`)
          await visitor.locator('input[name=user]').fill('dora')
          await visitor.locator('input[name=password]').fill(PASSWORD)
          await visitor.getByTestId('login-sign-in').locator('button[type=submit]').click()
          await check(visitor, where('2FA prompt'), '[data-testid=login-two-fa]')

          // The teacher: home, work list, the permit form page by page, the done screen.
          const teacher = await session.signedIn('teacher')
          await check(teacher, where('home'), '[data-testid=page-document-management]')
          await teacher.goto(`${base}/process`)
          await check(teacher, where('work list'), '[data-testid=page-process]')
          await teacher.locator('#inbox-tab-start').click()
          await check(teacher, where('work list: start'), '[data-testid=inbox-startable]')
          await teacher.getByTestId('inbox-startable').getByRole('link').first().click()
          await teacher.waitForURL(/\/forms\/new\?data=/)
          await check(teacher, where('form page 1'), '[data-field=cargo]')
          await pick(teacher, 'Funcionario solicitante', 'Teresa Docente')
          await teacher.getByLabel('Cargo').fill('Docente')
          await teacher.getByLabel('Dependencia').selectOption({ label: 'Gestión del Talento Humano' })
          await pick(teacher, 'Jefe inmediato', 'Sergio Supervisor')
          await teacher.getByLabel('Correo electrónico institucional').fill('teresa@colegio.edu.co')
          const next = teacher.getByTestId('form-bar').getByRole('button', { name: say(lang, 'form_runtime.next') })
          await next.click()
          await check(teacher, where('form page 2'), '[data-field=motivo]')
          await teacher
            .getByLabel('Tipo de permiso o licencia')
            .selectOption({ label: 'Permiso personal remunerado (hasta 3 días)' })
          await teacher.getByLabel('Día(s) completo(s)').check()
          // The range's ends are labelled in the page's language.
          const dates = teacher.locator('[data-field=fechas_permiso] input')
          await dates.nth(0).fill('2026-12-01')
          await dates.nth(1).fill('2026-12-02')
          await teacher.getByLabel('Motivo de la solicitud').fill('Diligencias')
          await next.click()
          await check(teacher, where('form page 3'), '[data-field=soportes]')
          await teacher.getByLabel(/^Declaro que la información/).check()
          await teacher.getByTestId('form-send').click()
          await check(teacher, where('done'), '[data-testid=form-done]')
          const started = await db.from('cases').firstOrFail()

          // Secretaría's review (the admin), then the superior's approval and its prompt.
          const admin = await session.signedIn('admin')
          await openPending(admin, started.code)
          await check(admin, where('review step'), '[data-field=cargo]')
          await admin
            .getByTestId('form-bar')
            .getByRole('button', { name: say(lang, 'form_runtime.next') })
            .click()
          await admin
            .getByTestId('form-bar')
            .getByRole('button', { name: say(lang, 'form_runtime.next') })
            .click()
          await admin.getByTestId('form-send').click()
          await admin.getByTestId('forms-case').waitFor()
          await waitUntil(async () => (await db.from('cases').where('id', started.id).first()).state === 'por_aprobar')
          const supervisor = await session.signedIn('supervisor')
          await openPending(supervisor, started.code)
          await check(supervisor, where('approval'), '[data-testid=form-decide]')
          await supervisor.getByTestId('form-decide').click()
          await check(supervisor, where('decision prompt'), '[data-testid=decision-prompt]')
          await supervisor.keyboard.press('Escape')

          // The public consultation with the case.
          const form = await db.from('forms').firstOrFail()
          await visitor.goto(`${base}/consult?data=${form.key}`)
          await check(visitor, where('consultation'), '[data-testid=consult-form]')
          await visitor.locator('input[name=code_process]').fill(started.code)
          await visitor.locator('input[name=dynamic]').fill('teresa@colegio.edu.co')
          await visitor.locator('.consult-form__submit').click()
          await check(visitor, where('consultation result'), '[data-testid=consult-result]')

          // Administration: users, a profile, status; the designer's list and a form in it.
          await admin.goto(`${base}/users`)
          await check(admin, where('users'), '[data-testid=page-users]')
          await admin.goto(`${base}/users/1`)
          await check(admin, where('profile'), '[data-testid=profile-view]')
          await admin.goto(`${base}/plugin_settings`)
          await check(admin, where('plugin settings'), '[data-testid=page-plugin-settings] section[data-plugin]')
          await admin.goto(`${base}/status`)
          await check(admin, where('status'), '[data-testid="health-overall"][data-ok="true"]')
          await admin.goto(`${base}/designer`)
          await check(admin, where('designer list'), '[data-testid=forms]')
          await admin.goto(`${base}/designer/forms/${form.id}`)
          await check(admin, where('designer form'), '[data-testid=form-view]')
          assert.deepEqual(found, [], 'no serious or critical violations')
        } finally {
          await session.closeAll()
        }
      })

    async function pick(page: Page, label: string, person: string) {
      const box = page.getByRole('combobox', { name: label })
      await box.fill(person.split(' ')[0]!)
      await page.getByRole('listbox', { name: label }).getByRole('option', { name: person }).click()
    }

    /** Opens the case's pending step from the work list. */
    async function openPending(page: Page, code: string) {
      await page.goto(`${base}/process`)
      await page.getByTestId('inbox-pending-table').locator(`tr[data-code="${code}"]`).getByRole('link').first().click()
      await page.waitForURL(/\/forms\/(enter|approve)\?/)
    }
  })
}
