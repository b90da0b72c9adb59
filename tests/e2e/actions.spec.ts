import { test } from '@japa/runner'
import type { Browser } from 'playwright-core'
import { launchChromium } from './chromium.ts'
import { BASE as base, people as browsers, signIn } from './session.ts'
import { MONACO_REQUEST } from '../bench/budgets.ts'
import { PASSWORD, makeUser, resetAuthTables } from '../../core/server/tests/helpers/auth.ts'
import { resetProcessTables } from '../../core/server/tests/helpers/process.ts'
import { publishForm } from '../../core/server/app/services/process/forms.ts'

const PROCESS = {
  label: 'Acciones',
  color: '#1C1066',
  states: [
    { id: 'init', label: 'Iniciado', color: '#7f82ff' },
    { id: 'end', label: 'Finalizado', color: '#1C1066' },
  ],
  start: { step: null, state: 'end' },
}

const text = (field_name: string, label: string) => ({ field_name, type: 'text', data: { label: { value: label } } })
const button = (field_name: string, value: string, action: string) => ({
  field_name,
  type: 'button',
  data: { value },
  events: { on_click: [action] },
})
const step = (type: string, config: Record<string, unknown> = {}) => ({ type, config })

/** A form driven by its actions: each button runs one (spec 000 §4, 001 §4). */
const FORM = {
  form: {
    pages: [
      {
        name: 'Datos',
        layout: [['nombre', 'ciudad', 'edad'], ['codigo'], ['b_fill', 'b_blocked', 'b_modal'], ['b_scan', 'b_chain']],
      },
      { name: 'Final', layout: [['resumen']] },
      { name: 'Detalle', section: true, section_id: 'detalle', layout: [['nota'], ['b_close']] },
    ],
  },
  fields: [
    text('nombre', 'Nombre'),
    {
      field_name: 'ciudad',
      type: 'select',
      data: { label: { value: 'Ciudad' }, options: [{ id: 'a', label: 'Arica' }] },
    },
    { field_name: 'edad', type: 'number', data: { label: { value: 'Edad' } } },
    text('codigo', 'Código'),
    text('resumen', 'Resumen'),
    text('nota', 'Nota'),
  ],
  elements: [
    button('b_fill', 'Llenar', 'fill'),
    button('b_blocked', 'Bloqueada', 'blocked'),
    button('b_modal', 'Abrir detalle', 'modal'),
    button('b_close', 'Cerrar detalle', 'close'),
    button('b_scan', 'Leer código', 'scan'),
    button('b_chain', 'Cadena', 'chain'),
  ],
  validations: {
    actions: [
      { name: 'init', onevent: true, actions: [step('set_value', { field: 'nombre', value: 'Inicial' })] },
      {
        name: 'fill',
        conditions: { active: true, code: "nombre !== ''" },
        actions: [
          step('set_options', {
            field: 'ciudad',
            options: [
              { id: 'x', label: 'Xalapa' },
              { id: 'y', label: 'York' },
            ],
          }),
          step('set_state', { fields: ['edad'], natural: 'disabled' }),
          step('set_value', { field: 'resumen', value: '${nombre} listo' }),
        ],
      },
      {
        name: 'blocked',
        conditions: { active: true, code: 'edad > 1000' },
        actions: [step('set_value', { field: 'nombre', value: 'NO' })],
      },
      { name: 'modal', actions: [step('open_modal', { title: 'Detalle', page: 'Detalle' })] },
      { name: 'close', actions: [step('close_modal')] },
      { name: 'scan', actions: [step('get_barcode_reader_or_rfid', { field: 'codigo', seconds: 8 })] },
      {
        name: 'chain',
        actions: [
          step('show_progress_bar', { message: 'Procesando' }),
          step('delay', { seconds: 0.6 }),
          step('start_action', { action: 'finish' }),
          step('hide_progress_bar'),
        ],
      },
      {
        name: 'finish',
        actions: [step('set_value', { field: 'resumen', value: 'fin' }), step('go_to_page', { page: 1 })],
      },
    ],
  },
}

test.group('form actions in Chromium', (group) => {
  let browser: Browser
  const session = browsers(() => browser, PASSWORD)

  group.setup(async () => {
    browser = await launchChromium()
    return () => browser.close()
  })
  group.each.setup(async () => {
    await resetProcessTables()
    await resetAuthTables()
    return () => session.closeAll()
  })

  test('actions set values, options and states, open a modal, read a barcode and chain with a progress bar', async ({
    assert,
  }) => {
    const form = await publishForm({ name: 'Acciones', jsonconfig: FORM, process: PROCESS, userId: null })
    await makeUser({ username: 'llenadora', role: 'student' })
    const page = await session.open()
    await signIn(page, 'llenadora', PASSWORD)
    const loaded: string[] = []
    page.on('request', (request) => loaded.push(request.url()))
    await page.goto(`${base}/forms/new?data=${form.key}`)
    const nombre = page.getByLabel('Nombre')

    // The onevent action ran at start (the engine loaded with it).
    await page.waitForFunction(
      () => (document.querySelector('#ff-nombre') as HTMLInputElement | null)?.value === 'Inicial'
    )
    assert.isTrue(
      loaded.some((url) => /\/assets\/load-[\w-]+\.js$/.test(url)),
      'the engine is a chunk of its own'
    )

    assert.isFalse(
      loaded.some((url) => MONACO_REQUEST.test(url)),
      'the form route never asks for Monaco'
    )

    // A false condition runs nothing: Llenar, clicked next, has its condition answered by the same
    // sandbox worker after Bloqueada's, so once Llenar's options show, Bloqueada's answer was handled.
    await page.getByRole('button', { name: 'Bloqueada' }).click()
    // Options, a state and a value with a placeholder.
    await page.getByRole('button', { name: 'Llenar' }).click()
    await page.getByLabel('Ciudad').locator('option', { hasText: 'York' }).waitFor({ state: 'attached' })
    assert.equal(await nombre.inputValue(), 'Inicial')
    assert.deepEqual(
      (await page.getByLabel('Ciudad').locator('option').allInnerTexts()).filter((t) => t.trim() !== '').slice(-2),
      ['Xalapa', 'York']
    )
    assert.isTrue(await page.getByLabel('Edad').isDisabled())

    // A modal showing the section page, closed by an action inside it.
    await page.getByRole('button', { name: 'Abrir detalle' }).click()
    const modal = page.getByTestId('form-modal')
    await modal.getByLabel('Nota').waitFor()
    await modal.getByRole('button', { name: 'Cerrar detalle' }).click()
    await modal.waitFor({ state: 'detached' })

    // A barcode reader types the code and Enter: it goes to the field, not to the focused control.
    await page.getByRole('button', { name: 'Leer código' }).click()
    await page.getByTestId('action-capture').waitFor()
    // A reader's keys arrive in a burst, so they are sent in one task here: Chromium's own key input,
    // one command per key, lagged past the 200 ms idle cut once while two other browsers were busy.
    await page.evaluate((code) => {
      const target = document.activeElement ?? document.body
      for (const key of [...code, 'Enter']) {
        target.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }))
      }
    }, '7701234')
    await page.getByTestId('action-capture').waitFor({ state: 'detached' })
    assert.equal(await page.getByLabel('Código').inputValue(), '7701234')

    // The chain: progress bar (#7f82ff), a delay, an awaited start_action that jumps pages, bar hidden.
    await page.getByRole('button', { name: 'Cadena' }).click()
    const bar = page.getByTestId('action-progress')
    await bar.waitFor()
    assert.equal(
      await bar.getByRole('progressbar').evaluate((node) => getComputedStyle(node).backgroundColor),
      'rgb(127, 130, 255)'
    )
    assert.include(await bar.innerText(), 'Procesando')
    await bar.waitFor({ state: 'detached' })
    assert.equal(await page.getByLabel('Resumen').inputValue(), 'fin')
    assert.isFalse(await nombre.isVisible(), 'the Final page is shown')
  })
})
