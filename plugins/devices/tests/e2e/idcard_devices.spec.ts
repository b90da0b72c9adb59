import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import drive from '@adonisjs/drive/services/main'
import { PDFDocument } from 'pdf-lib'
import type { Browser, Page } from 'playwright-core'
import { launchChromium } from '../../../../tests/e2e/chromium.ts'
import { checkA11y } from '../../../../tests/e2e/a11y.ts'
import { BASE as base, PHONE, people as browsers } from '../../../../tests/e2e/session.ts'
import { PASSWORD, makeUser } from '../../../../core/server/tests/helpers/auth.ts'
import { publishForm } from '../../../../core/server/app/services/process/forms.ts'
import { hashToken, newToken } from '../../../../core/server/app/lib/tokens.ts'
import { saneTestEnv } from '../helpers/services.ts'
import {
  attachSockets,
  savedOnSubmit,
  resetDevices,
  startAgent,
  waitUntil,
  type AgentProcess,
} from '../functional/devices_fixtures.ts'

const PROCESS = savedOnSubmit('Cédulas')

/** A request with an ID card field (a file field the dialog fills with one 2-page PDF). */
const ID_CARD_FORM = {
  form: { pages: [{ name: 'Datos', layout: [['cedula']] }] },
  fields: [
    {
      field_name: 'cedula',
      type: 'file',
      data: { label: { value: 'Cédula' }, ext: ['pdf'], idcard: true, ref: { limit: 1 } },
    },
  ],
}

/** A kiosk's form: on opening it scans into its file field on `machine`, with nobody to press a button. */
const kioskForm = (machine: string) => ({
  form: { pages: [{ name: 'Documento', layout: [['soporte']] }] },
  fields: [{ field_name: 'soporte', type: 'file', data: { label: { value: 'Soporte' } } }],
  validations: {
    actions: [
      {
        name: 'al_abrir',
        onevent: true,
        actions: [{ type: 'scan_document', config: { field: 'soporte', machine, dpi: 75, color: false } }],
      },
    ],
  },
})

async function storedPdf(path: string): Promise<PDFDocument> {
  const row = await db.from('uploads').where('path', path).first()
  return PDFDocument.load(await drive.use().getBytes(row.storage_key))
}

/** How far the page is wider than the viewport (0: nothing sticks out sideways). */
const overflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)

/**
 * Issue 21 items 2 and 3 in Chromium with a real agent process and SANE's test scanner: the ID card
 * dialog scans both faces on a machine the person picks (virtual:tramita-form-devices, the devices
 * plugin's ./form-devices), Save joins them with cardim_full, and the case keeps the 2-page PDF; and
 * invisible mode (spec 000 §2) saves only once its onevent scan has brought the file.
 */
test.group('devices: the ID card dialog and invisible mode scan through a real agent', (group) => {
  let browser: Browser
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
      await sane?.remove()
    }
  })
  group.each.timeout(180_000)

  /** An agent with SANE's test scanner, its machine assigned to a new person; the machine's row. */
  async function scannerFor(username: string) {
    sane = await saneTestEnv()
    const person = await makeUser({ username, role: 'student' })
    const token = newToken()
    const now = new Date()
    await db
      .table('devices_agents')
      .insert({ name: 'Ventanilla', status: 'WAITING', token_hash: hashToken(token), created_at: now, updated_at: now })
    agent = startAgent(token, { scanners: ['test:0'] }, sane.env)
    await waitUntil(
      async () => (await db.from('devices_machines').where('availability', 'scan only')).length === 1,
      60_000,
      () => `the agent's scanner:\n${agent!.output()}`
    )
    const machine = await db.from('devices_machines').first()
    await db.table('devices_machine_people').insert({ machine_id: machine.id, user_id: person.id })
    return { person, machine: machine as { id: number; name: string; token: string } }
  }

  test('both faces from the scanner, saved as one 2-page PDF the case keeps; axe and a phone', async ({ assert }) => {
    const { person, machine } = await scannerFor('ana_idcard')
    const form = await publishForm({ name: 'Cédulas', jsonconfig: ID_CARD_FORM, process: PROCESS, userId: null })

    const page = await session.signedIn('ana_idcard')
    page.on('pageerror', (error) => console.error('page error:', error))
    await page.goto(`${base}/forms/new?data=${form.key}`)
    await page.getByTestId('idcard-open').click()
    const dialog = page.getByTestId('idcard-dialog')
    const front = dialog.getByTestId('idcard-front')
    const back = dialog.getByTestId('idcard-back')
    // The person's scanner is offered on each face, chosen already.
    const picker = front.getByLabel('Escáner')
    await picker.waitFor()
    assert.equal(await picker.inputValue(), machine.token)
    assert.deepEqual(await picker.locator('option').allTextContents(), [machine.name])
    await checkA11y(page, 'ID card dialog with its scanners')

    await front.getByTestId('idcard-front-scan').click()
    await front.getByRole('status').getByText('Escaneando…', { exact: false }).waitFor()
    // The scanned page arrives through the socket, goes through cardim_preview as an upload would.
    await front.getByText(/^Cara en PDF: scan-.*\.pdf$/).waitFor({ timeout: 60_000 })
    assert.isTrue(await dialog.getByTestId('idcard-save').isDisabled(), 'one face is not enough')
    // The other face offers the same machine (the choice is kept).
    assert.equal(await back.getByLabel('Escáner').inputValue(), machine.token)
    await back.getByTestId('idcard-back-scan').click()
    await back.getByText(/^Cara en PDF: scan-.*\.pdf$/).waitFor({ timeout: 60_000 })

    await dialog.getByTestId('idcard-save').click()
    await page.getByText('La tarjeta o cédula se escaneó correctamente').waitFor()
    await page.locator('[data-field=cedula] li[data-file="cedula.pdf"]').waitFor()
    await page.getByTestId('form-send').click()
    await page.getByTestId('form-done').waitFor()

    const kase = await db.from('cases').first()
    const value = JSON.parse(kase.values).cedula as { path: string; ext: string }[]
    assert.lengthOf(value, 1)
    const row = await db.from('uploads').where('path', value[0]!.path).first()
    assert.include(row, { status: 'promoted', field: 'cedula', mime: 'application/pdf' })
    assert.equal(Number(row.case_id), Number(kase.id))
    assert.equal(Number(row.owner_user_id), Number(person.id))
    assert.equal((await storedPdf(row.path)).getPageCount(), 2, 'one PDF, one scanned face per page')
    // Both faces were the scanner's: two scan jobs of this person, done.
    const jobs = await db.from('devices_jobs').where('kind', 'scan').where('user_id', person.id)
    assert.deepEqual(
      jobs.map((job) => [job.status, job.field]),
      [
        ['done', 'cedula'],
        ['done', 'cedula'],
      ]
    )
    assert.sameMembers(
      jobs.map((job) => String(job.token_form).split('$$$')[2]),
      ['front', 'back']
    )

    // On a phone: the dialog with its scanner fits the screen and passes axe.
    const phone = await session.signedIn('ana_idcard', PHONE)
    await phone.goto(`${base}/forms/new?data=${form.key}`)
    await phone.getByTestId('idcard-open').click()
    const small = phone.getByTestId('idcard-dialog')
    await small.getByTestId('idcard-back-scan').waitFor()
    const box = (await small.boundingBox())!
    assert.isAtMost(box.x + box.width, PHONE.width, 'the dialog fits the phone')
    for (const control of [small.getByTestId('idcard-front-machine'), small.getByTestId('idcard-back-scan')]) {
      const at = (await control.boundingBox())!
      assert.isAtMost(at.x + at.width, PHONE.width, 'its scanner controls too')
    }
    assert.isAtMost(await overflow(phone), 0, 'nothing sticks out sideways')
    await checkA11y(phone, 'ID card dialog with its scanners, phone')
  })

  test('a scan cancelled, then one refused: the server’s message shows, the face can still be scanned or uploaded', async ({
    assert,
  }) => {
    await scannerFor('luis_idcard')
    const form = await publishForm({ name: 'Cédulas', jsonconfig: ID_CARD_FORM, process: PROCESS, userId: null })
    const page = await session.signedIn('luis_idcard')
    await page.goto(`${base}/forms/new?data=${form.key}`)
    await page.getByTestId('idcard-open').click()
    const front = page.getByTestId('idcard-dialog').getByTestId('idcard-front')
    await front.getByTestId('idcard-front-scan').waitFor()
    // A paused agent takes the order and never answers: the person stops waiting, nothing is kept.
    agent!.child.kill('SIGSTOP')
    await front.getByTestId('idcard-front-scan').click()
    await front.getByTestId('idcard-front-cancel').click()
    await front.getByTestId('idcard-front-scan').waitFor()
    await front.getByText('Sin escanear').waitFor()
    assert.lengthOf(await db.from('devices_jobs').where('kind', 'scan'), 1, 'the scan had been asked')
    // The agent goes away: the scan is refused with the spec's message (001 §8).
    await agent!.stop('SIGKILL')
    // Its lease over at once, rather than after the server's stale time.
    await db.from('devices_agents').update({ session_seen_at: new Date(Date.now() - 3_600_000) })
    await front.getByTestId('idcard-front-scan').click()
    await page.getByText('El agente está apagado o desconectado.').waitFor({ timeout: 30_000 })
    assert.isFalse(await front.getByTestId('idcard-front-scan').isDisabled(), 'the face may be scanned again')
    assert.isFalse(await front.getByRole('button', { name: 'Subir archivo' }).isDisabled())
  })

  test('invisible mode saves once its onevent scan has brought the file, with the file in the case', async ({
    assert,
  }) => {
    const { person, machine } = await scannerFor('kiosco_idcard')
    const form = await publishForm({
      name: 'Kiosco',
      jsonconfig: kioskForm(machine.token),
      process: PROCESS,
      userId: null,
    })
    const page = await session.signedIn('kiosco_idcard')
    page.on('pageerror', (error) => console.error('page error:', error))
    // No wait on the page's own status card: on a busy machine the save may come before it is looked at.
    await page.goto(`${base}/forms/new?data=${form.key}&invisible=1`)
    await waitUntil(async () => (await db.from('cases')).length === 1, 90_000, 'the invisible form saved')

    const job = await db.from('devices_jobs').where('kind', 'scan').where('user_id', person.id).first()
    assert.equal(job.status, 'done', 'the scan had arrived when the case was saved')
    const kase = await db.from('cases').first()
    const soporte = (JSON.parse(kase.values) as { soporte?: { path: string; real_name: string }[] }).soporte
    assert.lengthOf(soporte ?? [], 1, 'the scanned file is in the saved values')
    assert.match(soporte![0]!.real_name, /^scan-.*\.pdf$/)
    const upload = await db.from('uploads').where('path', soporte![0]!.path).first()
    assert.include(upload, { status: 'promoted', field: 'soporte' })
    assert.equal(Number(upload.case_id), Number(kase.id))
    assert.equal(await page.locator('.fpage').count(), 0, 'nothing of the form was shown')
  })
})
