import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import type { Browser, Page } from 'playwright-core'
import { launchChromium } from './chromium.ts'
import { BASE as base, people, waitUntil } from './session.ts'
import { createForm, recordOnlyProcess } from '../../core/server/app/services/process/forms.ts'
import { resetAuthTables } from '../../core/server/tests/helpers/auth.ts'
import { resetProcessTables } from '../../core/server/tests/helpers/process.ts'
import { DEFAULT_DEMO_PASSWORD, seedDemo } from '../../core/server/app/services/seed_service.ts'

/**
 * Pages and rows in the designer: the page drawn as the runtime draws it for the chosen device, its
 * settings in the side panel (generated from the contract), rows moved, added and deleted, pages
 * moved and deleted without losing their fields. Everything by keyboard; the draft follows.
 */
test.group('the designer: pages and rows in Chromium', (group) => {
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

  test('page style on the canvas, page settings, rows and pages by keyboard', async ({ assert }) => {
    const supervisor = await db.from('users').where('username', 'supervisor').firstOrFail()
    const text = (name: string) => ({ field_name: name, type: 'text', data: { label: { value: `Campo ${name}` } } })
    const { formId } = await createForm(
      {
        name: 'Páginas e2e',
        jsonconfig: {
          form: {
            pages: [
              {
                name: 'Uno',
                layout: [['a'], ['b']],
                style_from_body: false,
                style: {
                  maxwidth: 500,
                  type_page: 'left',
                  background: '#00ff00',
                  background_image: '/fondo.png',
                  pagebar: true,
                  page_style: { background: '#ffeeee' },
                },
              },
              { name: 'Dos', layout: [['d']] },
            ],
          },
          fields: [text('a'), text('b'), text('d')],
          elements: [],
        },
        process: recordOnlyProcess('Páginas e2e'),
      },
      Number(supervisor.id)
    )
    const draft = async () => {
      const row = await db.from('form_versions').where('form_id', formId).whereNull('published_at').firstOrFail()
      return JSON.parse(row.jsonconfig)
    }
    const until = (check: (config: any) => boolean) => waitUntil(async () => check(await draft()))

    const page = await session.signedIn('supervisor')
    await page.goto(`${base}/designer/forms/${formId}`)
    await page.getByTestId('palette').waitFor()
    const card = page.getByTestId('page-card')
    const css = (property: string) => card.evaluate((node, p) => getComputedStyle(node).getPropertyValue(p), property)

    // The page as the runtime draws it: its own style (style_from_body off), image on the left.
    assert.equal(await css('max-width'), '500px')
    assert.equal(await css('background-color'), 'rgb(255, 238, 238)')
    assert.equal(await css('margin-top'), '50px')
    assert.equal(await css('border-radius'), '10px')
    const wrap = page.getByTestId('page-wrap')
    assert.equal(await wrap.evaluate((node) => getComputedStyle(node).backgroundColor), 'rgb(0, 255, 0)')
    const image = page.getByTestId('page-image')
    assert.equal(await image.count(), 1)
    assert.equal(await image.evaluate((node) => node.style.flexBasis), '25%')
    assert.include(await image.evaluate((node) => node.style.backgroundImage), '/fondo.png')
    await page.getByTestId('page-pagebar').waitFor()
    // A tablet: the image takes half the proportion; a phone moves it to the top.
    await page.getByRole('radio', { name: 'Tableta' }).check()
    assert.equal(await image.evaluate((node) => node.style.flexBasis), '50%')
    await page.getByRole('radio', { name: 'Móvil' }).check()
    await page.locator('.dimage--top').waitFor()
    await page.getByRole('radio', { name: 'Computador' }).check()

    // Settings of the first page, opened from its tab by keyboard.
    await page.getByTestId('page-settings').first().focus()
    await page.keyboard.press('Enter')
    const panel = page.getByTestId('page-panel')
    await panel.waitFor()
    const maxwidth = panel.getByRole('spinbutton', { name: 'Ancho máximo (px)', exact: true })
    assert.equal(await maxwidth.inputValue(), '500')
    await maxwidth.fill('600')
    await page.waitForFunction(
      () => document.querySelector<HTMLElement>('[data-testid=page-card]')!.style.maxWidth === '600px'
    )
    // A default shows as a placeholder; a value out of the contract's range is flagged at its editor.
    const computer = panel.getByRole('spinbutton', { name: 'Computador', exact: true })
    assert.equal(await computer.getAttribute('placeholder'), '70')
    await computer.fill('150')
    await panel.locator('.panel-invalid [role=alert]').waitFor()
    assert.equal(await computer.getAttribute('aria-invalid'), 'true')
    await panel.getByRole('button', { name: /Computador/ }).click()
    await page.waitForFunction(() => !document.querySelector('[data-testid=page-panel] .panel-invalid'))
    // With the body's style the page loses its own image and max width.
    await panel.getByRole('switch', { name: 'Usar el estilo del cuerpo del formulario', exact: true }).check()
    await page.waitForFunction(() => !document.querySelector('[data-testid=page-image]'))
    assert.equal(await css('max-width'), '800px')
    await until((c) => c.form.pages[0].style_from_body === true && c.form.pages[0].style.maxwidth === 600)

    // Rows: the first moves down (focus follows it), a row is added below and, empty, deleted.
    const rowTools = (n: number) => page.getByRole('group', { name: `Fila ${n}` })
    await rowTools(1).getByRole('button', { name: 'Bajar la fila 1' }).focus()
    await page.keyboard.press('Enter')
    await until((c) => JSON.stringify(c.form.pages[0].layout) === '[["b"],["a"]]')
    assert.equal(
      await page.evaluate(() => document.activeElement?.getAttribute('aria-label')),
      'Subir la fila 2',
      'the last row cannot go down: the focus is on its other move'
    )
    await rowTools(1).getByRole('button', { name: 'Añadir una fila bajo la fila 1' }).press('Enter')
    await until((c) => JSON.stringify(c.form.pages[0].layout) === '[["b"],[],["a"]]')
    assert.equal(
      await rowTools(1)
        .getByRole('button', { name: /Eliminar/ })
        .count(),
      0,
      'a row with items stays'
    )
    await rowTools(2).getByRole('button', { name: 'Eliminar la fila vacía 2' }).press('Enter')
    await until((c) => JSON.stringify(c.form.pages[0].layout) === '[["b"],["a"]]')

    // Pages: the first moves right by keyboard on its tab, then "Uno" is deleted, keeping its fields.
    await page.getByRole('tab', { name: 'Uno' }).focus()
    await page.keyboard.press('Alt+ArrowRight')
    await until((c) => c.form.pages.map((p: { name: string }) => p.name).join() === 'Dos,Uno')
    assert.equal(await focusedTab(page), 'Uno')
    await page.getByTestId('page-delete').click()
    const confirm = page.getByRole('alertdialog')
    assert.include(await confirm.innerText(), 'Tiene 2 campos o elementos.')
    await page.keyboard.press('Escape')
    await confirm.waitFor({ state: 'detached' })
    await page.getByTestId('page-delete').click()
    await confirm.getByRole('button', { name: 'Eliminar la página y dejar sus campos sin página' }).press('Enter')
    await until((c) => c.form.pages.length === 1 && c.fields.length === 3)
    const unplaced = page.getByTestId('unplaced')
    await unplaced.locator('[data-name=a]').waitFor()
    await unplaced.locator('[data-name=b]').waitFor()
    assert.equal(await page.getByTestId('page-delete').isDisabled(), true, 'the last page stays')
  })

  test('on a phone: palette, canvas and panel one above the other, none wider than the screen', async ({ assert }) => {
    const supervisor = await db.from('users').where('username', 'supervisor').firstOrFail()
    const { formId } = await createForm(
      {
        name: 'Diseño en el móvil',
        jsonconfig: {
          form: { pages: [{ name: 'Uno', layout: [['a', 'b']] }] },
          fields: ['a', 'b'].map((name) => ({ field_name: name, type: 'text', data: { label: { value: name } } })),
          elements: [],
        },
        process: recordOnlyProcess('Diseño en el móvil'),
      },
      Number(supervisor.id)
    )
    const page = await session.signedIn('supervisor', { width: 390, height: 844 })
    await page.goto(`${base}/designer/forms/${formId}`)
    await page.getByTestId('palette').waitFor()
    // A field chosen: the panel shows its settings.
    await page.locator('[data-name=a]').first().click()
    await page.locator('.property-panel').getByRole('textbox', { name: 'Nombre', exact: true }).waitFor()
    const boxes = await page.evaluate(() =>
      Array.from(document.querySelector('.editor')!.children).map((child) => {
        const { left, right, top, bottom } = child.getBoundingClientRect()
        return { left, right, top, bottom }
      })
    )
    assert.lengthOf(boxes, 3)
    for (const box of boxes) assert.isAtMost(box.right, 390, 'within the screen')
    for (const box of boxes) assert.isAtLeast(box.right - box.left, 300, 'about the screen wide')
    assert.isAtMost(boxes[0]!.bottom, boxes[1]!.top, 'the palette above the canvas')
    assert.isAtMost(boxes[1]!.bottom, boxes[2]!.top, 'the canvas above the panel')
    const wide = await page.evaluate(() =>
      Array.from(document.querySelectorAll('body *'))
        .filter((e) => e.getBoundingClientRect().right > 391)
        .slice(0, 8)
        .map((e) => `${e.tagName}.${e.className} ${Math.round(e.getBoundingClientRect().right)}`)
    )
    assert.isAtMost(await page.evaluate(() => document.documentElement.scrollWidth), 390, `no sideways scroll: ${wide}`)
  })
})

const focusedTab = (page: Page) =>
  page.evaluate(() =>
    document.activeElement?.getAttribute('role') === 'tab' ? document.activeElement.textContent?.trim() : null
  )
