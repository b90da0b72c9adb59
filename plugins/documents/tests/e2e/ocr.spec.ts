import { readFile } from 'node:fs/promises'
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { checkA11y } from '../../../../tests/e2e/a11y.ts'
import { BASE as base, PHONE } from '../../../../tests/e2e/session.ts'
import { makeUser } from '../../../../core/server/tests/helpers/auth.ts'
import { scannedPdf, textOf } from '../functional/ocr_fixtures.ts'
import { dropFiles, libraryBrowser, row } from './library_page.ts'

/**
 * OCR from a file's details in Chromium (issue 20): a scan dropped in, OCR asked for, its progress
 * followed to the end, the badge and pages by result shown, the searchable PDF downloaded; a phone too.
 */
test.group('documents OCR in Chromium', (group) => {
  const crowd = libraryBrowser(group)
  group.each.timeout(180_000)

  test('a scan OCR’d from its details; the searchable PDF downloaded; on a phone too', async ({ assert }) => {
    await makeUser({ username: 'ana', role: 'teacher' })
    const page = await crowd.signedIn('ana')
    await page.goto(`${base}/documents`)
    await page.getByTestId('docs-empty').waitFor()
    const scan = Buffer.from(await scannedPdf([['Informe de auditoria', 'Cuentas del ejercicio']]))
    await dropFiles(page, page.getByTestId('docs-list'), [
      { name: 'auditoria.pdf', base64: scan.toString('base64'), type: 'application/pdf' },
    ])
    const file = row(page, 'file', 'auditoria.pdf')
    await file.getByRole('button', { name: 'Versiones y comentarios auditoria.pdf' }).click()
    const ocr = page.getByTestId('docs-details-dialog').getByTestId('docs-ocr')
    await ocr.getByText('Aún no se le ha aplicado OCR.').waitFor()
    assert.equal(await ocr.getByTestId('docs-ocr-badge').textContent(), 'Otro')

    await ocr.getByLabel('Modo').selectOption('skip')
    await ocr.getByRole('button', { name: 'Aplicar OCR' }).click()
    await ocr.locator('[data-testid=docs-ocr-run][data-state=done]').waitFor({ timeout: 120_000 })
    await ocr.getByText('Páginas con OCR: 1').waitFor()
    await ocr.getByTestId('docs-ocr-badge').getByText('OCR').waitFor()
    const stored = await db.from('documents_files').where('name', 'auditoria.pdf').firstOrFail()
    assert.include(stored, { ocr_state: 'done', sub_type: 'ocr' })

    const download = page.waitForEvent('download')
    await ocr.getByRole('button', { name: 'Descargar el PDF con búsqueda' }).click()
    const saved = await (await download).path()
    assert.match(await textOf(await readFile(saved)), /Cuentas del ejercicio/)
    await checkA11y(page, 'OCR in the details')
    // The list's facts follow: the page count and the badge beside the size.
    await page.getByTestId('docs-details-dialog').getByRole('button', { name: 'Cerrar' }).first().click()
    await file.getByText('1 pág.').waitFor()
    assert.equal(await file.getByTestId('docs-ocr-state').textContent(), 'OCR')

    const phone = await crowd.signedIn('ana', PHONE)
    await phone.goto(`${base}/documents`)
    await row(phone, 'file', 'auditoria.pdf')
      .getByRole('button', { name: 'Versiones y comentarios auditoria.pdf' })
      .click()
    await phone.getByTestId('docs-ocr').getByText('Páginas con OCR: 1').waitFor()
    await checkA11y(phone, 'OCR in the details, phone')
  })
})
