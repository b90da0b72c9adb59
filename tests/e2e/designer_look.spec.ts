import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import type { Browser, Page } from 'playwright-core'
import { launchChromium } from './chromium.ts'
import { BASE as base, people } from './session.ts'
import { createForm, recordOnlyProcess } from '../../core/server/app/services/process/forms.ts'
import { resetAuthTables } from '../../core/server/tests/helpers/auth.ts'
import { resetProcessTables } from '../../core/server/tests/helpers/process.ts'
import { DEFAULT_DEMO_PASSWORD, seedDemo } from '../../core/server/app/services/seed_service.ts'

/**
 * What a new user meets in the designer (issue 18 item 9), in Chromium: the runtime's header and
 * language switch, types by name and icon, the way between the two apps, view tabs that stand apart,
 * property inputs that show what they hold.
 */
test.group('the designer looks like the runtime, in Chromium', (group) => {
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

  /** A one-page form with one text field whose label is `label`, opened in the designer. */
  async function openForm(page: Page, label = 'Nombre') {
    const supervisor = await db.from('users').where('username', 'supervisor').firstOrFail()
    const { formId } = await createForm(
      {
        name: 'Aspecto e2e',
        jsonconfig: {
          form: { pages: [{ name: 'Uno', layout: [['acepto']] }] },
          fields: [{ field_name: 'acepto', type: 'text', data: { label: { value: label } } }],
          elements: [],
        },
        process: recordOnlyProcess('Aspecto e2e'),
      },
      Number(supervisor.id)
    )
    await page.goto(`${base}/designer/forms/${formId}`)
    await page.getByTestId('palette').waitFor()
  }

  test('the palette names every type in words, with an icon: no raw ids', async ({ assert }) => {
    const page = await session.signedIn('supervisor')
    await openForm(page)
    const entries = page.getByTestId('palette-entry')
    const shown = await entries.evaluateAll((all) =>
      all.map((entry) => ({
        kind: entry.getAttribute('data-kind'),
        type: entry.getAttribute('data-type'),
        text: (entry as HTMLElement).innerText.trim(),
        icon: entry.querySelector('svg.type-icon') !== null,
      }))
    )
    assert.isAtLeast(shown.length, 30)
    for (const entry of shown) {
      assert.notEqual(entry.text, entry.type, `${entry.kind} ${entry.type} is shown by its id`)
      assert.isAbove(entry.text.length, 0)
      assert.isTrue(entry.icon, `${entry.kind} ${entry.type} has no icon`)
    }
    const named = (kind: string, type: string) => shown.find((e) => e.kind === kind && e.type === type)?.text
    assert.equal(named('field', 'celular'), 'Teléfono móvil')
    assert.equal(named('field', 'tramita'), 'Caso de Tramita')
    assert.equal(named('field', 'var'), 'Valor oculto')
    assert.equal(named('element', 'separate'), 'Espacio')
  })

  test("the header's language switch changes the designer's texts, and the choice stays", async ({ assert }) => {
    const page = await session.signedIn('supervisor')
    await openForm(page)
    const header = page.locator('header.header')
    await header.getByRole('link', { name: 'Volver a la aplicación' }).waitFor()
    await page.getByTestId('lang-switch').selectOption('en')
    await header.getByRole('link', { name: 'Back to the app' }).waitFor()
    await page.getByRole('tab', { name: 'Logic' }).waitFor()
    const celular = page.locator('[data-testid=palette-entry][data-kind=field][data-type=celular]')
    await celular.filter({ hasText: 'Mobile phone' }).waitFor()
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'en')
    await page.reload()
    await celular.filter({ hasText: 'Mobile phone' }).waitFor()
    await page.getByTestId('lang-switch').selectOption('zh')
    await celular.filter({ hasText: '手机号码' }).waitFor()
    await header.getByRole('link', { name: '返回应用' }).waitFor()
  })

  test("the designer links back to the app, and the app's header offers the designer to the roles that design", async ({
    assert,
  }) => {
    const page = await session.signedIn('supervisor')
    const nav = page.getByRole('navigation', { name: 'Navegación principal' })
    await nav.getByRole('link', { name: 'Diseñador' }).click()
    await page.waitForURL(`${base}/designer/`)
    await page.getByTestId('forms').waitFor()
    await page
      .getByRole('navigation', { name: 'Navegación principal' })
      .getByRole('link', { name: 'Volver a la aplicación' })
      .click()
    await page.waitForURL(`${base}/document_management`)
    await page.getByTestId('page-document-management').waitFor()

    // A teacher may not design: the header, once the session is known, has no such link.
    const teacher = await session.signedIn('teacher')
    await teacher.getByTestId('session-bar').waitFor()
    const teacherNav = teacher.getByRole('navigation', { name: 'Navegación principal' })
    assert.equal(await teacherNav.getByRole('link', { name: 'Diseñador' }).count(), 0)
  })

  test('the view tabs stand apart from each other', async ({ assert }) => {
    const page = await session.signedIn('supervisor')
    await openForm(page)
    const boxes = await page
      .getByRole('tablist', { name: 'Vista' })
      .getByRole('tab')
      .evaluateAll((tabs) => tabs.map((tab) => tab.getBoundingClientRect().toJSON() as DOMRect))
    assert.isAtLeast(boxes.length, 6)
    for (let i = 1; i < boxes.length; i++) {
      const [before, after] = [boxes[i - 1]!, boxes[i]!]
      if (after.top !== before.top) continue // wrapped to the next line
      assert.isAtLeast(after.left - before.right, 4, `tab ${i} touches tab ${i - 1}`)
    }
  })

  test('a long text in the property panel is shown whole, not clipped', async ({ assert }) => {
    const long = 'Acepto los términos y condiciones del servicio y la política de tratamiento de datos personales'
    const page = await session.signedIn('supervisor')
    await openForm(page, long)
    await page.locator('[data-testid=item][data-name=acepto]').click()
    const label = page
      .getByRole('complementary', { name: 'Propiedades' })
      .getByRole('textbox', { name: 'Etiqueta', exact: true })
      .first()
    assert.equal(await label.inputValue(), long)
    const fits = await label.evaluate((box) => ({
      tag: box.tagName,
      wide: box.scrollWidth <= box.clientWidth,
      tall: box.scrollHeight <= box.clientHeight + 1,
    }))
    assert.deepEqual(fits, { tag: 'TEXTAREA', wide: true, tall: true })
  })
})
