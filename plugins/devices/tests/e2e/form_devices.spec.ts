import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import type { Browser } from 'playwright-core'
import { launchChromium } from '../../../../tests/e2e/chromium.ts'
import { BASE as base, people as browsers, signIn } from '../../../../tests/e2e/session.ts'
import { PASSWORD, makeUser } from '../../../../core/server/tests/helpers/auth.ts'
import { publishForm } from '../../../../core/server/app/services/process/forms.ts'
import { hashToken, newToken } from '../../../../core/server/app/lib/tokens.ts'
import { receivedFiles, saneTestEnv, startPrinter, type TestPrinter } from '../helpers/services.ts'
import {
  attachSockets,
  savedOnSubmit,
  resetDevices,
  startAgent,
  waitUntil,
  type AgentProcess,
} from '../functional/devices_fixtures.ts'

const PROCESS = savedOnSubmit('Digitalización')

const step = (type: string, config: Record<string, unknown>) => ({ type, config })
const button = (field_name: string, value: string, action: string) => ({
  field_name,
  type: 'button',
  data: { value },
  events: { on_click: [action] },
})

/** A form that scans into its file field through a picked scanner, then prints that file on a picked printer. */
const FORM = {
  form: { pages: [{ name: 'Documento', layout: [['escaner', 'impresora'], ['soporte'], ['b_scan', 'b_print']] }] },
  fields: [
    { field_name: 'escaner', type: 'machines', data: { label: { value: 'Escáner' } } },
    { field_name: 'impresora', type: 'machines', data: { label: { value: 'Impresora' } } },
    { field_name: 'soporte', type: 'file', data: { label: { value: 'Soporte' } } },
  ],
  elements: [button('b_scan', 'Escanear', 'escanear'), button('b_print', 'Imprimir', 'imprimir')],
  validations: {
    actions: [
      {
        name: 'escanear',
        actions: [step('scan_document', { field: 'soporte', machine: '${escaner}', dpi: 75, color: false })],
      },
      { name: 'imprimir', actions: [step('print_document', { machine: '${impresora}', files: ['soporte'] })] },
    ],
  },
}

/**
 * Issue 21 items 2 and 3 in Chromium with a real agent process: the machines pickers list the person's
 * machines (all_machines), scan_document brings SANE's test page into the file field through the socket,
 * print_document prints it on CUPS's ippeveprinter, and the form saves with the scanned file.
 */
test.group('devices: a form scans and prints through a real agent', (group) => {
  let browser: Browser
  let printer: TestPrinter | undefined
  let agent: AgentProcess | undefined
  let sane: Awaited<ReturnType<typeof saneTestEnv>> | undefined
  const session = browsers(() => browser, PASSWORD)

  group.setup(async () => {
    browser = await launchChromium()
    await attachSockets()
    return () => browser.close()
  })
  group.each.setup(async () => {
    await resetDevices()
    return async () => {
      await session.closeAll()
      await agent?.stop('SIGKILL')
      await printer?.stop()
      await sane?.remove()
    }
  })
  group.each.timeout(150_000)

  test('pick a scanner and a printer, scan into the file field, print it, save the case', async ({ assert }) => {
    printer = await startPrinter({ name: 'Tramita Ventanilla' })
    sane = await saneTestEnv()
    const ana = await makeUser({ username: 'ana_form_dev', role: 'student' })
    const token = newToken()
    const now = new Date()
    await db
      .table('devices_agents')
      .insert({ name: 'Ventanilla', status: 'WAITING', token_hash: hashToken(token), created_at: now, updated_at: now })
    agent = startAgent(token, { printers: [printer.uri], scanners: ['test:0'] }, sane.env)
    await waitUntil(
      async () => (await db.from('devices_machines').whereNot('availability', 'not available')).length === 2,
      60_000,
      () => `the agent's two machines:\n${agent!.output()}`
    )
    for (const machine of await db.from('devices_machines')) {
      await db.table('devices_machine_people').insert({ machine_id: machine.id, user_id: ana.id })
    }
    const form = await publishForm({ name: 'Digitalización', jsonconfig: FORM, process: PROCESS, userId: null })

    const page = await session.open()
    await signIn(page, 'ana_form_dev', PASSWORD)
    await page.goto(`${base}/forms/new?data=${form.key}`)
    const pick = async (label: string, name: string) => {
      const box = page.getByRole('combobox', { name: label })
      await box.click()
      await box.fill(name.slice(0, 4))
      await page
        .getByRole('listbox', { name: label })
        .getByRole('option', { name: new RegExp(name) })
        .click()
    }
    const scannerName = String((await db.from('devices_machines').where('can_scan', true).first()).name)
    const printerName = String((await db.from('devices_machines').where('can_print', true).first()).name)
    await pick('Escáner', scannerName)
    await pick('Impresora', printerName)

    await page.getByRole('button', { name: 'Escanear' }).click()
    // The scanned page arrives through the socket into the field: its file shows there.
    const field = page.locator('[data-field=soporte]')
    await field.getByText(/^scan-.*\.pdf$/).waitFor({ timeout: 60_000 })

    await page.getByRole('button', { name: 'Imprimir' }).click()
    await page.getByText('Impresión terminada correctamente.').waitFor({ timeout: 60_000 })
    const printed = await receivedFiles(printer)
    assert.lengthOf(printed, 1)
    assert.match(printed[0]!.name, /^tramita-[0-9a-f-]{36}-0$/)

    // Saved with the form, the scan is the case's file.
    await page
      .getByRole('button', { name: /^(Enviar|Guardar)$/ })
      .first()
      .click()
    await waitUntil(async () => (await db.from('cases')).length === 1, 30_000, 'the case saved')
    const kase = await db.from('cases').first()
    const soporte = (JSON.parse(kase.values) as { soporte: { path: string }[] }).soporte
    assert.lengthOf(soporte, 1)
    const upload = await db.from('uploads').where('path', soporte[0]!.path).first()
    assert.include(upload, { status: 'promoted', case_id: kase.id, field: 'soporte', owner_user_id: ana.id })
  })
})
