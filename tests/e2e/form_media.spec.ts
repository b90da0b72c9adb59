import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import type { Browser } from 'playwright-core'
import { launchChromium } from './chromium.ts'
import { BASE as base, people, signIn, waitUntil } from './session.ts'
import { PASSWORD, makeUser, resetAuthTables } from '../../core/server/tests/helpers/auth.ts'
import { permitProcess, resetProcessTables } from '../../core/server/tests/helpers/process.ts'
import Area from '../../core/server/app/models/area.ts'
import Role from '../../core/server/app/models/role.ts'
import { publishForm } from '../../core/server/app/services/process/forms.ts'
import { seedBase } from '../../core/server/app/services/seed_service.ts'

/** Rows enough for three pages of ten. */
const ROWS = Array.from({ length: 23 }, (_, i) => ({
  n: i + 1,
  persona: `Persona ${String(i + 1).padStart(2, '0')}`,
  activo: i % 2 === 0,
  fecha: `2026-01-${String((i % 28) + 1).padStart(2, '0')}`,
}))

/** One page with a text field, a text block naming it, a divider, a file field, a signature and a table. */
const mediaConfig = {
  form: {
    pages: [{ name: 'Soportes', layout: [['nombre'], ['saludo'], ['linea'], ['adjuntos'], ['firma'], ['tabla']] }],
  },
  fields: [
    { field_name: 'nombre', type: 'text', data: { label: { value: 'Nombre' } } },
    {
      field_name: 'adjuntos',
      type: 'file',
      data: { label: { value: 'Adjuntos' }, ref: { limit: 2 }, ext: ['pdf', 'txt'] },
    },
    { field_name: 'firma', type: 'signature', data: { label: { value: 'Firma' }, validate: { required: true } } },
    {
      field_name: 'tabla',
      type: 'table',
      data: {
        label: { value: 'Personas' },
        ref: {
          table: {
            columns: [
              { name: 'n', label: 'N.º', type: 'number' },
              { name: 'persona', label: 'Persona' },
              { name: 'activo', label: 'Activo', type: 'boolean' },
              { name: 'fecha', label: 'Fecha', type: 'date' },
              { name: 'doble', label: 'Doble', type: 'formule', formule: 'n * 2' },
            ],
            search_show: true,
            header_background: '#224466',
            header_color: '#ffffff',
          },
        },
      },
    },
  ],
  elements: [
    { field_name: 'saludo', type: 'text', data: { value: 'Hola **${nombre}**, bienvenida.' } },
    { field_name: 'linea', type: 'divider', data: { orientation: 'h', color: '#ff0000' } },
  ],
}

const LOGO =
  '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><rect width="40" height="20" fill="#1c1066"/></svg>'

/** An image field with the camera and a QR code of the name; an html element, a button, spacing, an image element. */
const cameraConfig = {
  form: {
    pages: [{ name: 'Foto', layout: [['nombre'], ['foto'], ['codigo'], ['aviso'], ['espacio'], ['logo'], ['boton']] }],
  },
  fields: [
    { field_name: 'nombre', type: 'text', data: { label: { value: 'Nombre' } } },
    {
      field_name: 'foto',
      type: 'image',
      data: { label: { value: 'Foto' }, source: 'both', configControl: { rotate: true } },
    },
    {
      field_name: 'codigo',
      type: 'image',
      data: { label: { value: 'Código' }, code: { enabled: true, kind: 'qr', source: 'ID-${nombre}' } },
    },
  ],
  elements: [
    {
      field_name: 'aviso',
      type: 'html',
      data: {
        html: '<p id="aviso">Aviso <b>legal</b></p><script>parent.document.title = "hacked"</script>',
        css: 'p { color: rgb(0, 128, 0) }',
        js: 'parent.document.title = "hacked"',
        height: 80,
      },
    },
    { field_name: 'espacio', type: 'separate', data: { height: 30 } },
    {
      field_name: 'logo',
      type: 'image',
      data: { src: `data:image/svg+xml,${encodeURIComponent(LOGO)}`, height: 60, label: { value: 'Logo' } },
    },
    {
      field_name: 'boton',
      type: 'button',
      data: { value: 'Marcar', style: { background: '#ffee00' }, on_click: "setValue('nombre', 'Pulsado')" },
    },
  ],
}

test.group('form media renderers in Chromium', (group) => {
  let browser: Browser
  const session = people(() => browser, PASSWORD)
  const signedIn = async (user: string) => {
    const page = await session.open({ width: 1280, height: 1000 })
    page.on('pageerror', (error) => console.error('page error:', error))
    await signIn(page, user, PASSWORD)
    return page
  }

  group.setup(async () => {
    // A fake camera (a test pattern) that needs no permission prompt.
    browser = await launchChromium(['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream'])
    return () => browser.close()
  })
  group.each.setup(async () => {
    await db.from('uploads').delete()
    await resetProcessTables()
    await resetAuthTables()
    return async () => {
      await session.closeAll()
      await db.from('uploads').delete()
    }
  })

  async function publish(jsonconfig: object = mediaConfig) {
    await seedBase()
    const area =
      (await Area.findBy('name', 'Talento humano')) ?? (await Area.create({ name: 'Talento humano', color: '#336699' }))
    const supervisor = await Role.findByOrFail('name', 'supervisor')
    return publishForm({
      name: 'Soportes',
      jsonconfig,
      process: permitProcess(area.id, supervisor.id),
      userId: null,
    })
  }

  const presets = (values: Record<string, unknown>) => Buffer.from(JSON.stringify(values)).toString('base64url')

  test('sign, attach, refuse, fill the text block, page the table, send', async ({ assert }) => {
    const form = await publish()
    await makeUser({ username: 'solicitante', role: 'student' })
    const page = await signedIn('solicitante')
    await page.goto(`${base}/forms/new?data=${form.key}&values=${presets({ tabla: ROWS })}`)

    // The text block follows the field it names, keystroke by keystroke, and shows values as typed.
    const block = page.getByTestId('text-element')
    await block.waitFor()
    assert.notInclude(await block.innerText(), '${nombre}', 'the placeholder is replaced, even while empty')
    await page.getByLabel('Nombre').pressSequentially('Ana *Ruiz*')
    await page.waitForFunction(
      () => document.querySelector('[data-testid=text-element] strong')?.textContent === 'Ana *Ruiz*'
    )
    assert.equal(await block.locator('em').count(), 0, 'a value is not read as markdown')

    // The divider: a horizontal rule in its colour.
    const rule = page.locator('[data-element=linea] hr')
    assert.equal(await rule.evaluate((el) => getComputedStyle(el).borderTopColor), 'rgb(255, 0, 0)')

    // A blocked extension is refused in the browser, before any upload.
    const files = page.locator('[data-field=adjuntos]')
    const input = files.getByTestId('file-input')
    await input.setInputFiles({ name: 'setup.exe', mimeType: 'application/octet-stream', buffer: Buffer.from('MZ') })
    await files.getByTestId('upload-errors').getByText('setup.exe: este tipo de archivo no está permitido').waitFor()
    assert.equal((await db.from('uploads')).length, 0, 'nothing reached the server')

    // An allowed file is uploaded and listed, then removed (and unlinked); a second one stays.
    await input.setInputFiles({
      name: 'carta.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from('%PDF-1.4\n%%EOF\n'),
    })
    await files.locator('li[data-file="carta.pdf"]').waitFor()
    assert.equal((await db.from('uploads')).length, 1)
    await files.getByRole('button', { name: 'Quitar carta.pdf' }).click()
    await page.waitForFunction(() => !document.querySelector('[data-field=adjuntos] li[data-file="carta.pdf"]'))
    await input.setInputFiles({ name: 'notas.txt', mimeType: 'text/plain', buffer: Buffer.from('hola') })
    await files.locator('li[data-file="notas.txt"]').waitFor()
    // Two is the limit: the input took several files, and at the limit the drop zone (the add button) goes.
    assert.isNotNull(await input.getAttribute('multiple'))
    await input.setInputFiles({
      name: 'anexo.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from('%PDF-1.4\n%%EOF\n'),
    })
    await files.locator('li[data-file="anexo.pdf"]').waitFor()
    await page.waitForFunction(() => !document.querySelector('[data-field=adjuntos] .media-drop'))

    // Sign with the mouse; save is active only once something is drawn.
    await page.locator('[data-field=firma]').getByRole('button', { name: 'Firmar' }).click()
    const dialog = page.getByTestId('signature-dialog')
    await dialog.waitFor()
    const save = dialog.getByTestId('signature-save')
    assert.isTrue(await save.isDisabled())
    const box = (await dialog.getByTestId('signature-canvas').boundingBox())!
    await page.mouse.move(box.x + 40, box.y + box.height / 2)
    await page.mouse.down()
    for (let i = 1; i <= 12; i++)
      await page.mouse.move(box.x + 40 + i * 25, box.y + box.height / 2 + (i % 2 ? -30 : 30))
    await page.mouse.up()
    await page.waitForFunction(
      () => !(document.querySelector('[data-testid=signature-save]') as HTMLButtonElement).disabled
    )
    await save.click()
    const signed = page.locator('[data-field=firma] [data-testid=signature-field][data-signed=true]')
    await signed.waitFor()
    assert.match(
      await signed.getByTestId('signature-text').innerText(),
      /^firmado el \d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2} desde /
    )
    assert.equal(await dialog.count(), 0, 'the dialog closed')

    // The table: pages of ten, the size selector, the search; header colours; formulas computed per row.
    const table = page.locator('[data-field=tabla]')
    assert.equal(await table.locator('tbody tr').count(), 10)
    assert.equal(await table.getByTestId('table-range').innerText(), '1–10 de 23')
    assert.equal(
      await table
        .locator('th')
        .first()
        .evaluate((el) => getComputedStyle(el).backgroundColor),
      'rgb(34, 68, 102)'
    )
    await page.waitForFunction(
      () => document.querySelector('[data-field=tabla] tbody tr td[data-column=doble]')?.textContent === '2'
    )
    await table.getByRole('button', { name: 'Página siguiente' }).click()
    await table.getByText('11–20 de 23').waitFor()
    await table.getByRole('button', { name: 'Página siguiente' }).click()
    assert.equal(await table.locator('tbody tr').count(), 3)
    await table.getByLabel('Filas por página').selectOption('30')
    assert.equal(await table.locator('tbody tr').count(), 23)
    await table.getByPlaceholder('Buscar en la tabla').fill('persona 07')
    assert.equal(await table.locator('tbody tr').count(), 1)

    await page.getByTestId('form-send').click()
    await page.getByTestId('form-done').waitFor()
    const [row] = await db.from('cases')
    const values = JSON.parse(row.values) as Record<string, any>
    assert.equal(values.nombre, 'Ana *Ruiz*')
    assert.deepEqual(
      values.adjuntos.map((f: { real_name: string }) => f.real_name),
      ['notas.txt', 'anexo.pdf']
    )
    assert.include(values.adjuntos[0], { ext: 'txt', status: 'good' })
    assert.match(values.firma.path, /\.png$/)
    assert.match(values.firma.date, /^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2}$/)
    assert.isString(values.firma.ip)
    assert.include(values.firma.device, 'computer')
    assert.lengthOf(values.tabla, 23)
    const uploads = await db.from('uploads').orderBy('id')
    assert.deepEqual(
      uploads.filter((u) => u.status !== 'deleted').map((u) => u.real_name),
      ['notas.txt', 'anexo.pdf', 'firma.png'],
      'the removed file was unlinked'
    )
  })

  test('a failed POST clears the pending uploads: the queued files and one in flight', async ({ assert }) => {
    const form = await publish({
      form: { pages: [{ name: 'Soportes', layout: [['adjuntos']] }] },
      fields: [{ field_name: 'adjuntos', type: 'file', data: { label: { value: 'Adjuntos' }, ref: { limit: -1 } } }],
      elements: [],
    })
    await makeUser({ username: 'solicitante', role: 'student' })
    const page = await signedIn('solicitante')
    const uploads: string[] = []
    // The first upload fails; the one after the failures is held, still in flight.
    await page.route('**/data/form/upload/files', async (route) => {
      uploads.push(route.request().url())
      if (uploads.length === 1) await route.fulfill({ json: { status: 'fail', message: 'Disco lleno' } })
    })
    await page.goto(`${base}/forms/new?data=${form.key}`)
    const field = page.locator('[data-field=adjuntos]')
    const pdf = (name: string) => ({ name, mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4\n%%EOF\n') })
    await field.getByTestId('file-input').setInputFiles([pdf('a.pdf'), pdf('b.pdf'), pdf('c.pdf')])
    const errors = field.getByTestId('upload-errors')
    await errors.getByText('c.pdf no se subió: un envío falló y se cancelaron las cargas pendientes').waitFor()
    await errors.getByText('No se pudo subir a.pdf: Disco lleno').waitFor()
    await errors.getByText('b.pdf no se subió: un envío falló y se cancelaron las cargas pendientes').waitFor()
    assert.lengthOf(uploads, 1, 'the queued files were never sent')
    assert.equal(await field.getByTestId('upload-pending').count(), 0)

    // A file in flight when the save's POST fails is aborted and listed as cleared.
    await field.getByTestId('file-input').setInputFiles([pdf('d.pdf')])
    await field.getByTestId('upload-pending').getByText('d.pdf').waitFor()
    await waitUntil(async () => uploads.length === 2)
    await page.route('**/data/form/flows/process', (route) =>
      route.fulfill({ json: { status: 'fail', message: 'Sin conexión' } })
    )
    await page.getByTestId('form-send').click()
    await errors.getByText('d.pdf no se subió: un envío falló y se cancelaron las cargas pendientes').waitFor()
    await page.getByText('Sin conexión').waitFor()
    assert.equal(await field.getByTestId('upload-pending').count(), 0)
    assert.equal(await field.locator('li[data-file]').count(), 0, 'no file was attached')
  })

  test('camera photo into an image field, a live QR code, a sandboxed html element, a button', async ({ assert }) => {
    const form = await publish(cameraConfig)
    await makeUser({ username: 'solicitante', role: 'student' })
    const page = await signedIn('solicitante')
    await page.goto(`${base}/forms/new?data=${form.key}`)
    await page.getByLabel('Nombre').waitFor()

    // The html element: shown in an inert iframe; neither its <script> nor its js ran in the page.
    const frame = page.getByTestId('html-element')
    assert.equal(await frame.getAttribute('sandbox'), '')
    const inner = page.frameLocator('[data-testid=html-element]').locator('#aviso')
    assert.equal(await inner.innerText(), 'Aviso legal')
    assert.equal(await inner.evaluate((el) => getComputedStyle(el).color), 'rgb(0, 128, 0)')
    assert.notEqual(await page.title(), 'hacked')

    // The button: dark text on a light background (the spec's colour rule); its click runs on_click.
    const button = page.getByTestId('button-element')
    assert.equal(await button.evaluate((el) => getComputedStyle(el).color), 'rgb(0, 0, 0)')
    await button.click()
    await page.waitForFunction(
      () => (document.getElementById('ff-nombre') as HTMLInputElement | null)?.value === 'Pulsado'
    )
    assert.equal(await page.locator('[data-element=espacio] .media-separate').evaluate((el) => el.clientHeight), 30)
    const logo = page.locator('[data-element=logo] img')
    await page.waitForFunction(
      () => (document.querySelector('[data-element=logo] img') as HTMLImageElement)?.naturalWidth > 0
    )
    assert.equal(await logo.getAttribute('alt'), 'Logo')

    // The QR code follows the name and its picture becomes the field's value.
    await page.getByLabel('Nombre').fill('Ana')
    await page.locator('[data-field=codigo] [data-testid=code-canvas]').waitFor()

    // Camera: closed → open → photo taken → saved and closed; save works only with a photo.
    const foto = page.locator('[data-field=foto]')
    await foto.getByRole('button', { name: 'Tomar foto' }).click()
    const camera = page.getByTestId('camera-dialog')
    await camera.waitFor()
    const save = camera.getByRole('button', { name: 'Guardar foto' })
    assert.isTrue(await save.isDisabled())
    await camera.getByRole('button', { name: 'Abrir cámara' }).click()
    await page.waitForFunction(
      () => (document.querySelector('[data-testid=camera-dialog] video') as HTMLVideoElement)?.videoWidth > 0
    )
    const chosen = await camera.getByTestId('camera-source').inputValue()
    assert.equal(await page.evaluate(() => localStorage.getItem('tramita.camera') ?? ''), '')
    await camera.getByTestId('camera-source').selectOption(chosen)
    assert.equal(await page.evaluate(() => localStorage.getItem('tramita.camera')), chosen, 'the camera is remembered')
    await camera.getByRole('button', { name: 'Tomar foto' }).click()
    await camera.getByRole('button', { name: 'Tomar de nuevo' }).waitFor()
    await save.click()
    await camera.waitFor({ state: 'detached' })
    await foto.locator('img').waitFor()

    await waitUntil(async () => (await db.from('uploads').where('field', 'codigo')).length > 0)
    await page.getByTestId('form-send').click()
    await page.getByTestId('form-done').waitFor()
    const [row] = await db.from('cases')
    const values = JSON.parse(row.values) as Record<string, any>
    assert.match(values.foto.real_name, /^foto_\d{8}_\d{6}\.jpg$/)
    assert.equal(values.foto.status, 'good')
    assert.match(values.codigo.path, /\.png$/)
  })
})

/** Polls until `check` holds (10 s at most). */
