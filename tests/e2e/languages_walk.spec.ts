import { test } from '@japa/runner'
import { readFile } from 'node:fs/promises'
import db from '@adonisjs/lucid/services/db'
import type { Browser, Page } from 'playwright-core'
import { launchChromium } from './chromium.ts'
import { BASE as base, people, signIn, waitUntil } from './session.ts'
import { englishWords } from './english_words.ts'
import { AUTONYMS, translate } from '../../core/i18n/src/index.ts'
import { resetAuthTables } from '../../core/server/tests/helpers/auth.ts'
import { resetProcessTables } from '../../core/server/tests/helpers/process.ts'
import { DEFAULT_DEMO_PASSWORD, seedDemo } from '../../core/server/app/services/seed_service.ts'
import { FORM_TEMPLATES } from '../../core/server/app/services/process/form_templates.ts'

/**
 * The main screens in Spanish and in Chinese, each read whole (document.body.innerText) for English
 * left behind (issue 18): sign-in, home, work list, a case started and sent, its review and approval,
 * the public consultation, users, status and the designer's list. Elements are found by the texts of
 * the language shown (the locale files), never by English.
 */

/** Demo people renamed so no user name reads as an English word (the demo's are admin, teacher…). */
const PEOPLE = { admin: 'ana', supervisor: 'sergio', teacher: 'teresa', student: 'esteban' } as const

/** What the walk types into the form. */
const TYPED = ['Docente de matemáticas', 'Diligencias personales', 'teresa@colegio.edu.co', 'constancia.pdf']

/** Every string a value of `tree` holds (the form's own texts, the process's labels). */
function strings(tree: unknown, out: string[] = []): string[] {
  if (typeof tree === 'string') out.push(tree)
  else if (Array.isArray(tree)) for (const v of tree) strings(v, out)
  else if (tree && typeof tree === 'object') for (const v of Object.values(tree)) strings(v, out)
  return out
}

/** The drivers /health names (better-sqlite3, fs…): the status page shows them as configured, untranslated. */
async function serviceDrivers(): Promise<string[]> {
  const body = (await (await fetch(`${base}/health`, { headers: { accept: 'application/json' } })).json()) as {
    checks?: Record<string, { driver?: unknown }>
  }
  return Object.values(body.checks ?? {}).flatMap((check) => (typeof check.driver === 'string' ? [check.driver] : []))
}

/**
 * The texts on screen that are data, not the product's words: people, areas, the demo form and process
 * (texts that are not identifiers: an identifier such as `date` is no one's label), case codes, what
 * was typed, the names a language list shows each language by, the services' drivers.
 */
async function userTexts(): Promise<string[]> {
  const users = await db.from('users').select('username', 'first_name', 'last_name', 'email')
  const areas = await db.from('areas').select('name')
  const institution = await db.from('institution').select('name')
  const forms = await db.from('forms').select('name', 'key')
  const versions = await db.from('form_versions').select('jsonconfig', 'process')
  const cases = await db.from('cases').select('code')
  const definitions = versions.flatMap((v) =>
    strings([JSON.parse(v.jsonconfig), v.process ? JSON.parse(v.process) : null])
  )
  return [
    ...users.flatMap((u) => [u.username, u.first_name, u.last_name, u.email, `${u.first_name} ${u.last_name}`]),
    ...areas.map((a) => a.name),
    ...institution.map((i) => i.name),
    ...forms.flatMap((f) => [f.name, f.key]),
    ...cases.map((c) => c.code),
    ...definitions.filter((text) => !/^[a-z0-9_]+$/.test(text)),
    ...FORM_TEMPLATES.map((t) => t.name),
    ...TYPED,
    ...Object.values(AUTONYMS),
    ...(await serviceDrivers()),
  ].filter((text): text is string => typeof text === 'string' && text !== '')
}

test.group('the main screens in Spanish and Chinese have no English', (group) => {
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
    for (const [was, now] of Object.entries(PEOPLE)) {
      await db
        .from('users')
        .where('username', was)
        .update({ username: now, email: `${now}@colegio.edu.co` })
    }
  })

  test('{$self}: sign-in, home, work list, a case sent, reviewed and approved, consultation, users, status, designer')
    .with(['es', 'zh'] as const)
    .run(async ({ assert }, lang) => {
      const session = people(() => browser, DEFAULT_DEMO_PASSWORD, lang === 'zh' ? 'zh-CN' : 'es-CO')
      try {
        const T = (key: string, vars?: Record<string, unknown>) => translate(lang, key, vars)
        const designerTexts = JSON.parse(
          await readFile(new URL(`../../core/i18n/locales/designer/${lang}.json`, import.meta.url), 'utf8')
        ) as Record<string, unknown>
        /** A designer text by its dotted key. */
        const D = (key: string) =>
          String(key.split('.').reduce<unknown>((node, part) => (node as never)[part], designerTexts))
        const busyTexts = [
          T('app.loading'),
          T('form_runtime.loading'),
          T('health.loading'),
          T('field_ui.loading'),
          T('consultation.consulting'),
          D('loading'),
        ]

        /** Waits until nothing on the page is loading, then fails on any English word on it. */
        const noEnglish = async (page: Page, screen: string) => {
          await page.waitForFunction(
            (busy) =>
              document.querySelector('[aria-busy="true"]') === null &&
              !busy.some((text) => document.body.innerText.includes(text)),
            busyTexts
          )
          const text = await page.evaluate(() => document.body.innerText)
          assert.deepEqual(englishWords(text, lang, await userTexts()), [], `${lang}, ${screen}:\n${text}`)
        }

        // Sign-in, then home.
        const teacher = await session.open()
        await teacher.goto(`${base}/`)
        await teacher.locator('input[name=user]').waitFor()
        assert.equal(await teacher.evaluate(() => document.documentElement.lang), lang)
        await noEnglish(teacher, 'sign-in')
        await teacher.getByRole('button', { name: T('login.forgot_password') }).click()
        await teacher.getByRole('button', { name: T('login.recover') }).waitFor()
        await noEnglish(teacher, 'password recovery')
        await teacher.getByRole('button', { name: T('login.back_to_sign_in') }).click()
        await signIn(teacher, PEOPLE.teacher, DEFAULT_DEMO_PASSWORD)
        await noEnglish(teacher, 'home')

        // The work list's three tabs; the demo process started from the last one.
        await teacher.goto(`${base}/process`)
        await teacher.getByRole('tab', { name: T('inbox.tab_pending') }).waitFor()
        await noEnglish(teacher, 'work list, pending')
        await teacher.getByRole('tab', { name: T('inbox.tab_started') }).click()
        await noEnglish(teacher, 'work list, started')
        await teacher.getByRole('tab', { name: T('inbox.tab_start') }).click()
        await noEnglish(teacher, 'work list, start')
        await teacher.getByRole('link', { name: T('inbox.start_label', { name: 'Solicitud de permiso' }) }).click()
        await teacher.waitForURL(/\/forms\/new\?data=/)

        // The form, page by page, with the runtime's own words (buttons, pickers, date ends, files).
        const pick = async (label: string, person: string) => {
          const box = teacher.getByRole('combobox', { name: label })
          await box.fill(person.split(' ')[0]!)
          await teacher.getByRole('listbox', { name: label }).getByRole('option', { name: person }).click()
        }
        await pick('Funcionario solicitante', 'Teresa Docente')
        await teacher.getByLabel('Cargo').fill('Docente de matemáticas')
        await teacher.getByLabel('Dependencia').selectOption({ label: 'Gestión del Talento Humano' })
        await pick('Jefe inmediato', 'Sergio Supervisor')
        await teacher.getByLabel('Correo electrónico institucional').fill('teresa@colegio.edu.co')
        await noEnglish(teacher, 'form, page 1')
        await teacher.getByRole('button', { name: T('form_runtime.next') }).click()
        await teacher
          .getByLabel('Tipo de permiso o licencia')
          .selectOption({ label: 'Permiso personal remunerado (hasta 3 días)' })
        await teacher.getByLabel('Día(s) completo(s)').check()
        await teacher.getByLabel(T('field_ui.from'), { exact: true }).fill('2026-12-01')
        await teacher.getByLabel(T('field_ui.to'), { exact: true }).fill('2026-12-02')
        await teacher.getByLabel('Motivo de la solicitud').fill('Diligencias personales')
        await noEnglish(teacher, 'form, page 2')
        await teacher.getByRole('button', { name: T('form_runtime.next') }).click()
        await teacher
          .locator('[data-field=soportes]')
          .getByTestId('file-input')
          .setInputFiles({
            name: 'constancia.pdf',
            mimeType: 'application/pdf',
            buffer: Buffer.from('%PDF-1.4\n%%EOF\n'),
          })
        await teacher.locator('[data-field=soportes] li[data-file="constancia.pdf"]').waitFor()
        await teacher.getByLabel(/^Declaro que la información/).check()
        // The summary names the dates in the language shown (the contract's date_range text).
        const range = T('contract.date_range', { from: '2026-12-01', to: '2026-12-02' })
        await teacher.getByText(range).waitFor()
        await noEnglish(teacher, 'form, page 3 with its summary')
        await teacher.getByRole('button', { name: 'Enviar solicitud' }).click()
        await teacher.getByTestId('form-done').waitFor()
        await noEnglish(teacher, 'form sent')
        const started = await db.from('cases').firstOrFail()

        // Secretaría (the admin) reviews; the superior named in the form approves.
        const openPending = async (page: Page, step: string) => {
          await page.goto(`${base}/process`)
          await page.getByRole('link', { name: T('inbox.open_label', { step, code: started.code }) }).click()
          await page.waitForURL(/\/forms\/(enter|approve)\?/)
        }
        const admin = await session.open()
        await signIn(admin, PEOPLE.admin, DEFAULT_DEMO_PASSWORD)
        await admin.goto(`${base}/process`)
        await admin
          .getByRole('link', { name: T('inbox.open_label', { step: 'Revisión de soportes', code: started.code }) })
          .waitFor()
        await noEnglish(admin, 'work list with a pending step')
        await openPending(admin, 'Revisión de soportes')
        await admin.getByLabel('Cargo').waitFor()
        await noEnglish(admin, 'review')
        await admin.getByRole('button', { name: T('form_runtime.next') }).click()
        await admin.getByRole('button', { name: T('form_runtime.next') }).click()
        await admin.getByTestId('form-send').click()
        await waitUntil(async () => (await db.from('cases').where('id', started.id).first()).state === 'por_aprobar')

        const supervisor = await session.open()
        await signIn(supervisor, PEOPLE.supervisor, DEFAULT_DEMO_PASSWORD)
        await openPending(supervisor, 'Aprobación del jefe inmediato')
        await supervisor.getByLabel('Cargo').waitFor()
        await noEnglish(supervisor, 'approval')
        await supervisor.getByRole('button', { name: T('form_runtime.take_decision') }).click()
        const decision = supervisor.getByRole('dialog')
        await decision.getByRole('button', { name: 'Aprobar' }).waitFor()
        await noEnglish(supervisor, 'decision')
        await decision.getByRole('button', { name: 'Aprobar' }).click()
        const ended = async () => (await db.from('cases').where('id', started.id).first()).status === 'ended'
        // The prompt may ask to confirm the decision chosen (with a comment box) before it is sent.
        const confirm = decision.getByTestId('decision-confirm')
        await waitUntil(async () => (await confirm.isVisible()) || (await ended()))
        if (await confirm.isVisible()) {
          await noEnglish(supervisor, 'decision, confirmation')
          await confirm.click()
        }
        await waitUntil(ended)

        // The public consultation, by code and e-mail, both tabs.
        const form = await db.from('forms').firstOrFail()
        const visitor = await session.open()
        await visitor.goto(`${base}/consult?data=${form.key}`)
        await visitor.getByLabel(T('consultation.process_code')).waitFor()
        await noEnglish(visitor, 'consultation')
        await visitor.getByLabel(T('consultation.process_code')).fill(started.code)
        await visitor.getByLabel('Correo electrónico institucional').fill('teresa@colegio.edu.co')
        await visitor.getByRole('button', { name: T('consultation.consult') }).click()
        await visitor.getByRole('tab', { name: T('consultation.tab_information') }).waitFor()
        await visitor.getByText('Diligencias personales').first().waitFor()
        await noEnglish(visitor, 'consultation result, information')
        await visitor.getByRole('tab', { name: T('consultation.tab_documents') }).click()
        await noEnglish(visitor, 'consultation result, documents')

        // Users: list, tree, areas and roles, a profile.
        await admin.goto(`${base}/users`)
        await admin.getByRole('link', { name: PEOPLE.teacher, exact: true }).waitFor()
        await noEnglish(admin, 'users, list')
        await admin.getByRole('tab', { name: T('users.view_tree') }).click()
        await admin.getByRole('link', { name: 'Teresa Docente' }).waitFor()
        await noEnglish(admin, 'users, tree')
        await admin.getByRole('tab', { name: T('users.view_areas') }).click()
        await admin.locator('[data-testid=roles] li').first().waitFor()
        await noEnglish(admin, 'users, areas and roles')
        const teresa = await db.from('users').where('username', PEOPLE.teacher).firstOrFail()
        await admin.goto(`${base}/users/${teresa.id}`)
        await admin.getByText('teresa@colegio.edu.co').first().waitFor()
        await noEnglish(admin, 'a user profile')

        // Status, and an address that is no page.
        await admin.goto(`${base}/status`)
        await admin.getByTestId('health-overall').waitFor()
        await noEnglish(admin, 'status')
        await admin.goto(`${base}/no-such-page`)
        await admin.getByText(T('page.not_found.title')).first().waitFor()
        await noEnglish(admin, 'page not found')

        // The designer's list of forms.
        await supervisor.goto(`${base}/designer`)
        await supervisor.getByRole('link', { name: 'Solicitud de permiso' }).first().waitFor()
        await noEnglish(supervisor, "designer's list")
        // A step given to a role: the designer names the spec's four roles in the language too.
        await supervisor.getByRole('link', { name: 'Solicitud de permiso' }).first().click()
        await supervisor.getByRole('tab', { name: D('view.process') }).click()
        const step = supervisor.getByTestId('step-revision')
        await step.getByLabel(D('process.assignee_type')).selectOption('rol')
        const who = step.getByLabel(D('process.assignee'))
        // Nobody, then the four roles once the directory is in.
        await waitUntil(async () => (await who.locator('option').count()) > 4)
        const roles = await who.locator('option').allTextContents()
        assert.includeMembers(
          roles,
          ['superuser', 'supervisor', 'teacher', 'student'].map((r) => D(`role_names.${r}`))
        )
        assert.notInclude(roles, 'teacher')
      } finally {
        await session.closeAll()
      }
    })

  test('the check finds English: the same screens in English fail it', async ({ assert }) => {
    const session = people(() => browser, DEFAULT_DEMO_PASSWORD, 'en-US')
    try {
      const page = await session.open()
      await page.goto(`${base}/`)
      await page.locator('input[name=user]').waitFor()
      await signIn(page, PEOPLE.teacher, DEFAULT_DEMO_PASSWORD)
      await page.goto(`${base}/process`)
      await page.getByRole('tab', { name: translate('en', 'inbox.tab_pending') }).waitFor()
      const text = await page.evaluate(() => document.body.innerText)
      const users = await userTexts()
      assert.isAbove(englishWords(text, 'es', users).length, 3)
      assert.isAbove(englishWords(text, 'zh', users).length, 3)
    } finally {
      await session.closeAll()
    }
  })
})
