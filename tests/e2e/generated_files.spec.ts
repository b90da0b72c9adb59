import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import drive from '@adonisjs/drive/services/main'
import { PDFDocument } from 'pdf-lib'
import type { Browser, Page } from 'playwright-core'
import { launchChromium } from './chromium.ts'
import { BASE as base, people, waitUntil } from './session.ts'
import { PASSWORD, makeUser, resetAuthTables } from '../../core/server/tests/helpers/auth.ts'
import { areaReviewProcess, resetProcessTables } from '../../core/server/tests/helpers/process.ts'
import Area from '../../core/server/app/models/area.ts'
import { publishForm } from '../../core/server/app/services/process/forms.ts'
import { caseKey, taskToken } from '../../core/server/app/services/process/engine.ts'
import { seedBase } from '../../core/server/app/services/seed_service.ts'

/** A request with an ID card field and a certificate template; an area reviews it. */
async function publishRequest() {
  await seedBase()
  const area = (await Area.findBy('name', 'Registro')) ?? (await Area.create({ name: 'Registro', color: '#336699' }))
  const form = await publishForm({
    name: 'Solicitud con cédula',
    userId: null,
    jsonconfig: {
      form: { pages: [{ name: 'Datos', layout: [['nombre'], ['cedula'], ['certificar']] }] },
      fields: [
        { field_name: 'nombre', type: 'text', data: { label: { value: 'Nombre' } } },
        {
          field_name: 'cedula',
          type: 'file',
          data: { label: { value: 'Cédula' }, ext: ['pdf'], idcard: true, ref: { limit: 1 } },
        },
      ],
      // A button whose click runs the create_doc action.
      elements: [
        {
          field_name: 'certificar',
          type: 'button',
          data: { value: 'Generar certificado' },
          events: { on_click: ['certificado'] },
        },
      ],
      validations: {
        actions: [
          {
            name: 'certificado',
            actions: [{ type: 'create_doc', config: { template: 'certificado', file_name: 'Certificado' } }],
          },
        ],
      },
      documents: {
        certificado: {
          info: { title: 'Certificado de ${nombre}' },
          content: [{ text: 'Certificado', fontSize: 18 }, { text: '${nombre} presentó su cédula.' }],
        },
      },
    },
    process: areaReviewProcess('Solicitud con cédula', area.id),
  })
  return { ...form, area }
}

/** A card face drawn in the page (a JPEG from the camera's encoder, or a PNG), as bytes. */
async function faceImage(page: Page, type: 'image/jpeg' | 'image/png', colour: string): Promise<Buffer> {
  const base64 = await page.evaluate(
    ({ type, colour }) => {
      const canvas = document.createElement('canvas')
      canvas.width = 856
      canvas.height = 540
      const g = canvas.getContext('2d')!
      g.fillStyle = colour
      g.fillRect(0, 0, canvas.width, canvas.height)
      g.fillStyle = '#ffffff'
      g.font = '48px sans-serif'
      g.fillText('CÉDULA', 60, 120)
      return canvas.toDataURL(type, 0.9).split(',')[1]!
    },
    { type, colour }
  )
  return Buffer.from(base64, 'base64')
}

async function storedPdf(path: string): Promise<PDFDocument> {
  const row = await db.from('uploads').where('path', path).first()
  return PDFDocument.load(await drive.use().getBytes(row.storage_key))
}

test.group('generated documents and the ID card in Chromium', (group) => {
  let browser: Browser
  const session = people(() => browser, PASSWORD)

  group.setup(async () => {
    // A fake camera (a test pattern, no permission prompt) for a face taken with the camera.
    browser = await launchChromium(['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream'])
    return () => browser.close()
  })
  group.each.setup(async () => {
    await db.from('uploads').delete()
    await resetProcessTables()
    await resetAuthTables()
    return () => session.closeAll()
  })

  test('the ID card: a face uploaded, one from the camera, enlarged once, saved into one 2-page PDF the case keeps', async ({
    assert,
  }) => {
    const form = await publishRequest()
    await makeUser({ username: 'solicitante', role: 'student' })
    const page = await session.signedIn('solicitante')
    page.on('pageerror', (error) => console.error('page error:', error))
    await page.goto(`${base}/forms/new?data=${form.key}`)
    await page.getByLabel('Nombre').fill('Ana Ruiz')

    await page.getByTestId('idcard-open').click()
    const dialog = page.getByTestId('idcard-dialog')
    await dialog.getByText('Primera cara').waitFor()
    const save = dialog.getByTestId('idcard-save')
    assert.isTrue(await save.isDisabled(), 'nothing scanned yet')

    // The first face from a JPEG; with one face only, still no save.
    await dialog.getByTestId('idcard-front-input').setInputFiles({
      name: 'frente.jpg',
      mimeType: 'image/jpeg',
      buffer: await faceImage(page, 'image/jpeg', '#1c1066'),
    })
    await dialog.getByTestId('idcard-front').locator('img[alt^="Primera cara"]').waitFor()
    assert.isTrue(await save.isDisabled(), 'one face is not enough')

    // Enlarged 150 %: the card's box grows with it.
    const card = dialog.getByTestId('idcard-front').locator('.idcard-face__card')
    const normal = (await card.boundingBox())!.width
    await dialog.getByTestId('idcard-enlarged').check()
    await page.waitForFunction(
      (before) => document.querySelector('.idcard-face__card')!.getBoundingClientRect().width > before * 1.4,
      normal
    )

    // The second face from the camera.
    await dialog.getByTestId('idcard-back').getByRole('button', { name: 'Tomar foto' }).click()
    const camera = page.getByTestId('camera-dialog')
    await camera.getByRole('button', { name: 'Abrir cámara' }).click()
    await page.waitForFunction(
      () => (document.querySelector('[data-testid=camera-dialog] video') as HTMLVideoElement)?.videoWidth > 0
    )
    await camera.getByRole('button', { name: 'Tomar foto' }).click()
    await camera.getByRole('button', { name: 'Guardar foto' }).click()
    await camera.waitFor({ state: 'detached' })
    await page.getByTestId('idcard-dialog').getByTestId('idcard-back').locator('img').waitFor()
    await page.waitForFunction(
      () => !(document.querySelector('[data-testid=idcard-save]') as HTMLButtonElement).disabled
    )
    await save.click()
    await page.getByText('La tarjeta o cédula se escaneó correctamente').waitFor()
    assert.equal(await dialog.count(), 0, 'the dialog closed')

    // The joined PDF is the field's file; the send attaches it to the new case.
    const listed = page.locator('[data-field=cedula] li[data-file="cedula.pdf"]')
    await listed.waitFor()
    await page.getByTestId('form-send').click()
    await page.getByTestId('form-done').waitFor()
    const kase = await db.from('cases').first()
    const value = JSON.parse(kase.values).cedula as { path: string; ext: string }[]
    assert.lengthOf(value, 1)
    assert.equal(value[0]!.ext, 'pdf')
    const row = await db.from('uploads').where('path', value[0]!.path).first()
    assert.include(row, { status: 'promoted', field: 'cedula', mime: 'application/pdf' })
    assert.equal(Number(row.case_id), Number(kase.id))
    const pdf = await storedPdf(row.path)
    assert.equal(pdf.getPageCount(), 2, 'one PDF, one face per page')
  })

  test('a button runs create_doc: the PDF is stored with the case and shows in its document view', async ({
    assert,
  }) => {
    const form = await publishRequest()
    await makeUser({ username: 'solicitante', role: 'student' })
    const reviewer = await makeUser({ username: 'registradora', role: 'teacher' })
    await reviewer.related('areas').attach([form.area.id])

    const applicant = await session.signedIn('solicitante')
    await applicant.goto(`${base}/forms/new?data=${form.key}`)
    await applicant.getByLabel('Nombre').fill('Luis Peña')
    await applicant.getByTestId('form-send').click()
    await applicant.getByTestId('form-done').waitFor()
    const kase = await db.from('cases').first()
    const task = await db.from('tasks').where('case_id', kase.id).where('status', 'pending').first()

    const page = await session.signedIn('registradora')
    const url = `${base}/forms/enter?data=${form.key}&key_process=${caseKey(kase.id)}&token=${taskToken(task.id)}`
    await page.goto(url)
    await page.getByLabel('Nombre').waitFor()
    assert.equal(await page.getByTestId('view-doc').count(), 0, 'no document yet')

    // The button runs the action; its create_doc call stores the PDF with the case.
    await page.getByRole('button', { name: 'Generar certificado' }).click()
    await page.getByText('Documento subido correctamente').waitFor()
    // The download-progress panel lists it as finished, then drops it 2 s later (spec 001 §2, §9).
    await page.locator('[data-testid="form-downloads"] li[data-status="done"]').waitFor()
    await page.getByTestId('form-downloads').waitFor({ state: 'detached' })
    let row: { path: string } | null = null
    await waitUntil(async () => {
      row = await db.from('uploads').where('real_name', 'like', 'Certificado%').first()
      return row !== null
    })
    const path = row!.path
    assert.equal((await storedPdf(path)).getTitle(), 'Certificado de Luis Peña')

    // The document view shows it at once, without reloading the case.
    await page.getByTestId('view-doc').click()
    const frame = page.getByTestId('form-doc')
    await frame.waitFor()
    assert.equal(await frame.getAttribute('data-path'), path)
    await waitUntil(async () => ((await frame.getAttribute('src')) ?? '').startsWith('blob:'))
    // And after a reload, from the case.
    await page.goto(url)
    await page.getByTestId('view-doc').click()
    await waitUntil(async () => (await page.getByTestId('form-doc').getAttribute('data-path')) === path)
  })
})
