import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import drive from '@adonisjs/drive/services/main'
import { PDFDocument, rgb } from 'pdf-lib'
import type { Browser, Page } from 'playwright-core'
import { launchChromium } from '../../../../tests/e2e/chromium.ts'
import { checkA11y } from '../../../../tests/e2e/a11y.ts'
import { BASE as base, PHONE, people as browsers } from '../../../../tests/e2e/session.ts'
import { PASSWORD, makeUser } from '../../../../core/server/tests/helpers/auth.ts'
import { publishForm } from '../../../../core/server/app/services/process/forms.ts'
import { hashToken, newToken } from '../../../../core/server/app/lib/tokens.ts'
import { SIGNATURE_BOX } from '../../server/signatures/template.ts'
import { saneTestEnv } from '../helpers/services.ts'
import {
  attachSockets,
  savedOnSubmit,
  REPO,
  resetDevices,
  startAgent,
  waitUntil,
  type AgentProcess,
} from '../functional/devices_fixtures.ts'

const PROCESS = savedOnSubmit('Firmas')

const SIGNATURE_FORM = {
  form: { pages: [{ name: 'Conformidad', layout: [['firma']] }] },
  fields: [{ field_name: 'firma', type: 'signature', data: { label: { value: 'Firma del solicitante' } } }],
}

/** The template with a stroke across its box: what a signing app sends back. */
async function signedPdf(template: Uint8Array): Promise<Uint8Array> {
  const pdf = await PDFDocument.load(template)
  const box = SIGNATURE_BOX
  pdf.getPage(0).drawLine({
    start: { x: box.x + 30, y: box.y + 40 },
    end: { x: box.x + box.width - 30, y: box.y + box.height - 40 },
    thickness: 8,
    color: rgb(0, 0, 0.6),
  })
  return pdf.save()
}

/** How far the page is wider than the viewport (0: nothing sticks out sideways). */
const overflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)

async function openDeviceMode(page: Page, formKey: string) {
  await page.goto(`${base}/forms/new?data=${formKey}`)
  await page.getByRole('button', { name: /Firmar/ }).click()
  const dialog = page.getByTestId('signature-dialog')
  await dialog.getByRole('button', { name: 'Cargar desde un dispositivo' }).click()
  await dialog.getByTestId('signature-device-start').waitFor()
  return dialog
}

/** Saves the dialog's signature, then the case; answers the case's stored signature and its upload row. */
async function saveCase(page: Page) {
  const dialog = page.getByTestId('signature-dialog')
  await dialog.getByTestId('signature-save').click()
  await dialog.waitFor({ state: 'detached' })
  await page.locator('[data-testid=signature-field][data-signed=true]').waitFor()
  await page
    .getByRole('button', { name: /^(Enviar|Guardar)$/ })
    .first()
    .click()
  await waitUntil(async () => (await db.from('cases')).length === 1, 30_000, 'the case saved')
  const kase = await db.from('cases').first()
  const firma = (JSON.parse(kase.values) as { firma: { path: string; ip: string } }).firma
  const upload = await db.from('uploads').where('path', firma.path).first()
  return { kase, firma, upload }
}

/**
 * Issue 21 item 4 in Chromium: the signature dialog's "Load from a device" mode (spec 000 §2 signpro,
 * §7 signing flow) through the devices plugin's ./form-devices. A signing app given the dialog's
 * addresses sends the signed PDF, or a real agent's signing pad signs; either way the picture arrives
 * through the socket into the pad, and Save keeps it as the case's signature.
 */
test.group('devices: the signature dialog loads a signature from a signing app or pad', (group) => {
  let browser: Browser
  let agent: AgentProcess | undefined
  let sane: Awaited<ReturnType<typeof saneTestEnv>> | undefined
  let dir: string | undefined
  const session = browsers(() => browser, PASSWORD)

  group.setup(async () => {
    browser = await launchChromium()
    await attachSockets()
    return () => browser.close()
  })
  group.each.setup(async () => {
    await db.from('devices_signatures').delete()
    await resetDevices()
    return async () => {
      await session.closeAll()
      await agent?.stop('SIGKILL')
      await sane?.remove()
      if (dir) await rm(dir, { recursive: true, force: true })
      agent = sane = dir = undefined
    }
  })
  group.each.timeout(150_000)

  test('signpro: the app gets the addresses, its signed PDF lands in the pad and is saved; axe and a phone', async ({
    assert,
  }) => {
    await makeUser({ username: 'ana_signpro', role: 'student' })
    const form = await publishForm({ name: 'Firmas', jsonconfig: SIGNATURE_FORM, process: PROCESS, userId: null })
    const page = await session.signedIn('ana_signpro')
    const dialog = await openDeviceMode(page, form.key)
    assert.equal(
      await dialog.getByTestId('signature-device-source').inputValue(),
      '',
      'the signing app is the first choice'
    )
    assert.isTrue(await dialog.getByTestId('signature-save').isDisabled(), 'nothing to save yet')

    // A request opened, then cancelled: the dialog is back at its start and nothing waits.
    await dialog.getByTestId('signature-device-start').click()
    await dialog.getByTestId('signature-upload-address').waitFor()
    await dialog.getByTestId('signature-device-cancel').click()
    await dialog.getByTestId('signature-device-start').waitFor()

    await dialog.getByTestId('signature-device-start').click()
    const address = dialog.getByTestId('signature-upload-address')
    await address.waitFor()
    const upload = await address.inputValue()
    assert.match(upload, /\/inside\/forms\/create\/document\/external\/upload_signature\/[A-Za-z0-9_-]{40,}\.pdf$/)
    const template = await dialog.getByTestId('signature-template').getAttribute('href')
    assert.equal(template, '/static/plantillas/plantilla_firma.pdf')
    await page.getByText('Esperando la firma de la aplicación…').waitFor()
    await checkA11y(page, 'signature dialog, signing app mode')

    // The signing app: fetches the template, signs it, sends it to the address, no session.
    const templateBytes = new Uint8Array(await (await fetch(new URL(template!, base))).arrayBuffer())
    const body = new FormData()
    body.append(
      'file',
      new Blob([new Uint8Array(await signedPdf(templateBytes))], { type: 'application/pdf' }),
      'firma.pdf'
    )
    const sent = await fetch(upload, { method: 'POST', body })
    assert.equal(sent.status, 200, await sent.clone().text())

    await waitUntil(() => dialog.getByTestId('signature-save').isEnabled(), 20_000, 'the picture in the pad')
    assert.isFalse(await dialog.getByTestId('signature-upload-address').isVisible(), 'the wait is over')
    const { kase, firma, upload: row } = await saveCase(page)
    assert.match(firma.path, /^\/data\/files\/[0-9a-f-]{36}\.png$/)
    assert.include(row, { status: 'promoted', case_id: kase.id, field: 'firma', mime: 'image/png' })
    const saved = Buffer.from(await drive.use().getBytes(row.storage_key))
    assert.equal(saved.readUInt32BE(0), 0x89504e47, 'a PNG')

    // On a phone: the device mode fits and its addresses wrap.
    const phone = await session.signedIn('ana_signpro', PHONE)
    const small = await openDeviceMode(phone, form.key)
    await small.getByTestId('signature-device-start').click()
    await small.getByTestId('signature-upload-address').waitFor()
    const box = (await small.boundingBox())!
    assert.isAtMost(box.x + box.width, PHONE.width, 'the dialog fits the phone')
    for (const control of [
      small.getByRole('button', { name: 'Cargar desde un dispositivo' }),
      small.getByTestId('signature-upload-address'),
      small.getByTestId('signature-device-cancel'),
    ]) {
      const at = (await control.boundingBox())!
      assert.isAtMost(at.x + at.width, box.x + box.width, 'its controls too')
    }
    assert.isAtMost(await overflow(phone), 0, 'nothing sticks out sideways')
    await checkA11y(phone, 'signature dialog, signing app mode, phone')
  })

  test('a machine’s signing pad signs through its agent and the signature is saved in the case', async ({ assert }) => {
    sane = await saneTestEnv()
    dir = await mkdtemp(join(tmpdir(), 'tramita-pad-'))
    // The pad's program: the first time it fails (unplugged); then it signs the template it is given (a
    // stroke in its box) into the output path.
    const pad = join(dir, 'pad.mjs')
    await writeFile(
      pad,
      `#!${process.execPath}
import { createRequire } from 'node:module'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
const marker = process.argv[1] + '.tried'
if (!existsSync(marker)) {
  writeFileSync(marker, '')
  console.error('pad unplugged')
  process.exit(1)
}
const { PDFDocument, rgb } = createRequire(${JSON.stringify(join(REPO, 'package.json'))})('pdf-lib')
const pdf = await PDFDocument.load(readFileSync(process.argv[2]))
const box = ${JSON.stringify(SIGNATURE_BOX)}
pdf.getPage(0).drawLine({ start: { x: box.x + 20, y: box.y + 30 }, end: { x: box.x + box.width - 20, y: box.y + 60 }, thickness: 6, color: rgb(0, 0, 0) })
writeFileSync(process.argv[3], await pdf.save())
`
    )
    await chmod(pad, 0o755)
    const ana = await makeUser({ username: 'ana_pad_e2e', role: 'student' })
    const token = newToken()
    const now = new Date()
    await db
      .table('devices_agents')
      .insert({ name: 'Ventanilla', status: 'WAITING', token_hash: hashToken(token), created_at: now, updated_at: now })
    agent = startAgent(token, { scanners: ['test:0'] }, { ...sane.env, TRAMITA_AGENT_SIGN_COMMAND: pad })
    await waitUntil(
      async () => (await db.from('devices_agents').where('can_sign', true)).length === 1,
      60_000,
      () => `the agent with its pad:\n${agent!.output()}`
    )
    const machine = await db.from('devices_machines').first()
    await db.table('devices_machine_people').insert({ machine_id: machine.id, user_id: ana.id })
    const form = await publishForm({ name: 'Firmas', jsonconfig: SIGNATURE_FORM, process: PROCESS, userId: null })

    const page = await session.signedIn('ana_pad_e2e')
    const dialog = await openDeviceMode(page, form.key)
    const source = dialog.getByTestId('signature-device-source')
    await source.selectOption({ label: `Pad de firma de ${machine.name}` })
    await dialog.getByTestId('signature-device-start').click()
    // The pad fails: the dialog says why and may ask again.
    await dialog
      .getByRole('alert')
      .getByText(/^El pad de firma no devolvió la firma: .*pad unplugged/)
      .waitFor()
    assert.isTrue(await dialog.getByTestId('signature-save').isDisabled())
    await dialog.getByTestId('signature-device-start').click()
    await waitUntil(
      () => dialog.getByTestId('signature-save').isEnabled(),
      60_000,
      () => agent!.output()
    )
    const { kase, upload } = await saveCase(page)
    assert.include(upload, { status: 'promoted', case_id: kase.id, field: 'firma', owner_user_id: ana.id })
    assert.include(agent.output(), 'signature sent')
  })
})
