import { randomUUID } from 'node:crypto'
import { test } from '@japa/runner'
import drive from '@adonisjs/drive/services/main'
import db from '@adonisjs/lucid/services/db'
import { checkA11y } from '../../../../tests/e2e/a11y.ts'
import { BASE as base, PHONE, waitUntil } from '../../../../tests/e2e/session.ts'
import { makeUser } from '../../../../core/server/tests/helpers/auth.ts'
import { waitForMail } from '../../../../core/server/tests/helpers/smtp_listener.ts'
import { linkOf, resetRetentionTables, runRetentionJob } from '../functional/retention_fixtures.ts'
import { libraryBrowser, row } from './library_page.ts'

/**
 * The retention confirmation screen in Chromium (spec 000 §2, 001 §2, §4): the daily job mails a link,
 * and the person opens it in a fresh browser (no session): the conservation card, then archive on one
 * document and delete on another (each after a confirmation), a success and the redirect home after
 * 2 s; a phone's screen; and the administrators' schedules screen. axe on each step.
 */

/** A 2×2 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEElEQVR4nGOQ8Z8DRAwQCgAa0gQd1yLyZQAAAABJRU5ErkJggg==',
  'base64'
)

/** A file of `owner` in `folderId`, created `years` ago, its bytes stored as an upload's are. */
async function oldFile(ownerId: number, folderId: number, name: string, bytes: Buffer, mime: string, years = 11) {
  const now = new Date()
  const created = new Date(now)
  created.setUTCFullYear(created.getUTCFullYear() - years)
  const extension = name.split('.').pop()!
  const key = `plugins/documents/${now.getUTCFullYear()}/${String(now.getUTCMonth() + 1).padStart(2, '0')}/${randomUUID()}.${extension}`
  await drive.use().put(key, bytes)
  const row = {
    name,
    mime,
    size: bytes.length,
    storage_key: key,
    sha256: '0'.repeat(64),
  }
  const [id] = await db.table('documents_files').insert({
    ...row,
    folder_id: folderId,
    owner_id: ownerId,
    extension,
    current_version: 1,
    created_at: created,
    updated_at: created,
  })
  await db
    .table('documents_versions')
    .insert({ ...row, file_id: Number(id), number: 1, created_by: ownerId, created_at: created })
  return Number(id)
}

/** A 2 + 8 year schedule on a folder of ana's, with one label. */
async function schedule(ownerId: number): Promise<number> {
  const now = new Date()
  const [scheduleId] = await db.table('documents_retention_schedules').insert({
    code: '100-12.3',
    serie: 'Contratos',
    subserie: 'Prestación de servicios',
    doc_type: 'Contrato',
    active_years: 2,
    central_years: 8,
    disposition: 'archive',
    created_at: now,
    updated_at: now,
  })
  await db
    .table('documents_retention_labels')
    .insert({ schedule_id: Number(scheduleId), name: 'Vital', color: '#aa0000' })
  const [folderId] = await db.table('documents_folders').insert({
    type: 'normal',
    name: 'Contratos',
    creator_id: ownerId,
    retention_schedule_id: Number(scheduleId),
    created_at: now,
    updated_at: now,
  })
  return Number(folderId)
}

test.group('documents retention confirmation in Chromium', (group) => {
  const crowd = libraryBrowser(group)
  // After the library's reset: its schedules and codes too.
  group.each.setup(() => resetRetentionTables())

  test('the card in a fresh browser, then archive after a confirmation and home after 2 s', async ({ assert }) => {
    const ana = await makeUser({ username: 'ana_ret', role: 'teacher' })
    const folderId = await schedule(ana.id)
    const docId = await oldFile(ana.id, folderId, 'plano.png', PNG, 'image/png')
    await runRetentionJob()
    const { code, user } = linkOf(await waitForMail(ana.email!, (m) => m.text.includes('plano.png')))

    const page = await crowd.open()
    await page.goto(`${base}/confirmretention?code=${encodeURIComponent(code)}&user=${user}`)
    const cardView = page.getByTestId('retention-card')
    await cardView.getByRole('heading', { name: 'plano.png' }).waitFor()
    assert.include(await page.getByTestId('retention-badge').textContent(), 'Otro')
    const data = await page.getByTestId('retention-data').innerText()
    for (const value of ['100-12.3', 'Contratos', 'Prestación de servicios', 'Contrato', 'Archivar']) {
      assert.include(data, value)
    }
    await cardView.getByText('Vital').waitFor()
    await cardView.getByText('Páginas con OCR').waitFor()
    // The preview loads without a session.
    const preview = page.getByRole('img', { name: 'Vista previa de plano.png' })
    await waitUntil(() => preview.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth === 2))
    await checkA11y(page, 'retention confirmation, card')

    await page.getByRole('button', { name: 'Archivar', exact: true }).click()
    const ask = page.getByTestId('retention-ask')
    await ask.getByText('¿Archivar «plano.png»?', { exact: false }).waitFor()
    await checkA11y(page, 'retention confirmation, asking')
    const started = Date.now()
    await ask.getByRole('button', { name: 'Sí, archivarlo' }).click()
    await page.getByRole('status').getByText('El documento se archivó.', { exact: false }).waitFor()
    await page.waitForURL(`${base}/`)
    assert.isAtLeast(Date.now() - started, 1900)
    const archived = await db.from('documents_files').where('id', docId).first()
    assert.isNotNull(archived.archived_at)
    // Its owner still finds it in the library, marked archived.
    const owner = await crowd.signedIn('ana_ret')
    await owner.goto(`${base}/documents?folder=${folderId}`)
    await row(owner, 'file', 'plano.png').getByTestId('docs-archived').getByText('Archivado').waitFor()

    // The same link again: the code was used, and the screen says so.
    await page.goto(`${base}/confirmretention?code=${encodeURIComponent(code)}&user=${user}`)
    await page.getByTestId('retention-failed').getByText('Esta confirmación ya se hizo.').waitFor()
  })

  test('on a phone: delete after a confirmation (cancelled once), the document and its bytes gone', async ({
    assert,
  }) => {
    const ana = await makeUser({ username: 'ana_fon', role: 'teacher' })
    const folderId = await schedule(ana.id)
    const docId = await oldFile(ana.id, folderId, 'acta.txt', Buffer.from('Acta de entrega'), 'text/plain')
    const key = (await db.from('documents_files').where('id', docId).first()).storage_key as string
    await runRetentionJob()
    const { code, user } = linkOf(await waitForMail(ana.email!, (m) => m.text.includes('acta.txt')))

    const page = await crowd.open(PHONE)
    await page.goto(`${base}/confirmretention?code=${encodeURIComponent(code)}&user=${user}`)
    await page.getByRole('heading', { name: 'acta.txt' }).waitFor()
    // No inline preview for a text: the file opens on its own.
    await page.getByRole('link', { name: 'Abrir el archivo acta.txt' }).waitFor()
    // Nothing is wider than the phone.
    assert.isAtMost(await page.evaluate(() => document.documentElement.scrollWidth), PHONE.width)
    await checkA11y(page, 'retention confirmation, phone')

    await page.getByRole('button', { name: 'Eliminar', exact: true }).click()
    await page.getByRole('button', { name: 'Cancelar' }).click()
    await page.getByRole('button', { name: 'Eliminar', exact: true }).click()
    await page.getByText('¿Eliminar «acta.txt» para siempre', { exact: false }).waitFor()
    await page.getByRole('button', { name: 'Sí, eliminarlo' }).click()
    await page.getByRole('status').getByText('El documento se eliminó.', { exact: false }).waitFor()
    await page.waitForURL(`${base}/`)
    assert.isNull(await db.from('documents_files').where('id', docId).first())
    await waitUntil(async () => !(await drive.use().exists(key)))
    const audit = await db.from('audit_logs').where('action', 'documents.retention_delete').first()
    assert.equal(Number(audit.actor_id), ana.id)
  })

  test("an administrator sees and sets a folder's and a document's schedule from the library", async ({ assert }) => {
    const admin = await makeUser({ username: 'admin_lib_ret', role: 'supervisor' })
    const teacher = await makeUser({ username: 'ana_lib_ret', role: 'teacher' })
    const folderId = await schedule(admin.id)
    const docId = await oldFile(admin.id, folderId, 'acta.png', PNG, 'image/png', 0)
    const page = await crowd.signedIn('admin_lib_ret')
    await page.goto(`${base}/documents?folder=${folderId}`)
    const dialog = page.getByTestId('docs-retention-dialog')

    // The document has none of its own: the folder's applies, and the dialog says from where.
    await row(page, 'file', 'acta.png').getByRole('button', { name: 'Retención acta.png' }).click()
    await dialog.getByText('Se aplica la tabla 100-12.3, heredada de: Carpeta «Contratos».').waitFor()
    await checkA11y(page, 'library retention dialog, inherited')
    await dialog.getByLabel('Tabla propia').selectOption({ label: '100-12.3 · Contratos' })
    await dialog.getByRole('button', { name: 'Guardar' }).click()
    await dialog.waitFor({ state: 'detached' })
    await page.getByText('Tabla asignada.').waitFor()
    assert.isNotNull((await db.from('documents_files').where('id', docId).first()).retention_schedule_id)

    // The folder's own, taken off: the document keeps its own.
    await page.goto(`${base}/documents`)
    await row(page, 'folder', 'Contratos').getByRole('button', { name: 'Retención Contratos' }).click()
    await dialog.getByText('Se aplica la tabla 100-12.3, propia.').waitFor()
    await dialog.getByLabel('Tabla propia').selectOption({ label: 'Ninguna propia' })
    await dialog.getByRole('button', { name: 'Guardar' }).click()
    await page.getByText('Tabla quitada.').waitFor()
    assert.isNull((await db.from('documents_folders').where('id', folderId).first()).retention_schedule_id)
    await row(page, 'folder', 'Contratos').getByRole('button', { name: 'Retención Contratos' }).click()
    await dialog.getByText('No se le aplica ninguna tabla.').waitFor()

    // A teacher's rows offer nothing of the kind.
    const now = new Date()
    await db
      .table('documents_folders')
      .insert({ type: 'normal', name: 'Mías', creator_id: teacher.id, created_at: now, updated_at: now })
    const ana = await crowd.signedIn('ana_lib_ret')
    await ana.goto(`${base}/documents`)
    await row(ana, 'folder', 'Mías').getByRole('button', { name: 'Cambiar nombre Mías' }).waitFor()
    assert.equal(await ana.getByRole('button', { name: /^Retención/ }).count(), 0)
  })

  test('an administrator makes a schedule on the retention screen', async () => {
    await makeUser({ username: 'admin_ret', role: 'superuser' })
    const page = await crowd.signedIn('admin_ret')
    await page.goto(`${base}/documents/retention`)
    await page.getByText('Aún no hay tablas de retención.').waitFor()
    await checkA11y(page, 'retention schedules, empty')
    await page.getByRole('button', { name: 'Nueva tabla' }).click()
    const dialog = page.getByTestId('retention-schedule-dialog')
    await dialog.getByLabel('Código').fill('200-05')
    await dialog.getByLabel('Serie', { exact: true }).fill('Actas')
    await dialog.getByLabel('Años en el archivo central').fill('-1')
    await dialog.getByRole('button', { name: 'Añadir etiqueta' }).click()
    await dialog.getByLabel('Nombre de la etiqueta').fill('Histórico')
    await checkA11y(page, 'retention schedules, new')
    // The browser's own check stops a negative number; the server's would too.
    await dialog.getByLabel('Años en el archivo central').fill('5')
    await dialog.getByRole('button', { name: 'Crear' }).click()
    await page.locator('[data-testid=retention-schedule][data-code="200-05"]').getByText('Histórico').waitFor()
    await checkA11y(page, 'retention schedules, one')
  })
})
