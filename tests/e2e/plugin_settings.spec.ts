import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { type Browser, type Page } from 'playwright-core'
import { launchChromium } from './chromium.ts'
import { PHONE, BASE as base, signIn } from './session.ts'
import { PASSWORD, makeUser, resetAuthTables } from '../../core/server/tests/helpers/auth.ts'
import AuditLog from '../../core/server/app/models/audit_log.ts'

/** What was saved for a plugin (plugin_settings), {} when nothing. */
async function saved(plugin: string): Promise<Record<string, unknown>> {
  const row = await db.from('plugin_settings').where('plugin', plugin).first()
  return row ? JSON.parse(row.value) : {}
}

/** The administrators' plugin settings screen, in Chromium, on a desktop and on a phone. */
test.group('plugin settings in Chromium', (group) => {
  let browser: Browser
  let page: Page

  group.setup(async () => {
    browser = await launchChromium()
    return () => browser.close()
  })
  group.each.setup(async () => {
    await db.from('plugin_settings').delete()
    await resetAuthTables()
    await makeUser({ username: 'directora', role: 'supervisor' })
    page = await browser.newPage({ locale: 'es-CO' })
    return () => page.close()
  })

  const documents = () => page.locator('section[data-plugin=documents]')

  test('a day count and a size saved, seen again after a reload; a bad value is refused beside the form', async ({
    assert,
  }) => {
    await signIn(page, 'directora', PASSWORD)
    await page.getByTestId('session-bar').getByRole('link', { name: 'Ajustes de complementos' }).click()
    await page.waitForURL(`${base}/plugin_settings`)
    const form = documents()
    await form.getByRole('heading', { name: 'Documentos' }).waitFor()
    const days = form.getByLabel('Días en la papelera')
    assert.equal(await days.inputValue(), '30')
    // The size in GB, its unit a choice of its own.
    assert.equal(await form.getByLabel('Espacio por usuario', { exact: true }).inputValue(), '10')
    assert.equal(await form.getByLabel('Unidad de «Espacio por usuario»').inputValue(), 'GB')

    // Out of range: the server's reason beside the form, the field marked, nothing saved.
    await days.fill('0')
    await form.getByRole('button', { name: 'Guardar ajustes' }).click()
    const outcome = form.getByTestId('plugin-settings-outcome')
    await outcome.and(page.getByRole('alert')).waitFor()
    assert.equal(await outcome.innerText(), '«Días en la papelera» debe estar entre 1 día y 3650 días.')
    assert.equal(await days.getAttribute('aria-invalid'), 'true')
    assert.deepEqual(await saved('documents'), {})

    await days.fill('45')
    await form.getByLabel('Espacio por usuario', { exact: true }).fill('500')
    await form.getByLabel('Unidad de «Espacio por usuario»').selectOption('MB')
    await form.getByRole('button', { name: 'Guardar ajustes' }).click()
    await form.getByRole('status').filter({ hasText: 'Ajustes guardados.' }).waitFor()
    // Only what changed was sent: the largest file keeps its default (not saved).
    assert.deepEqual(await saved('documents'), { trashDays: 45, quotaBytes: 500 * 1024 ** 2 })
    const entry = await AuditLog.query().where('action', 'plugin_settings.update').firstOrFail()
    assert.deepEqual(entry.data, {
      changes: [
        { key: 'trashDays', old: 30, new: 45 },
        { key: 'quotaBytes', old: 10 * 1024 ** 3, new: 500 * 1024 ** 2 },
      ],
    })

    await page.reload()
    await documents().getByLabel('Días en la papelera').waitFor()
    assert.equal(await documents().getByLabel('Días en la papelera').inputValue(), '45')
    assert.equal(await documents().getByLabel('Espacio por usuario', { exact: true }).inputValue(), '500')
    assert.equal(await documents().getByLabel('Unidad de «Espacio por usuario»').inputValue(), 'MB')
  })

  test('on a phone: one column, nothing wider than the screen; a choice and a switch saved and seen again', async ({
    assert,
  }) => {
    await page.setViewportSize(PHONE)
    await signIn(page, 'directora', PASSWORD)
    await page.goto(`${base}/plugin_settings`)
    const kit = page.locator('section[data-plugin=testkit]')
    await kit.getByLabel('Frecuencia').waitFor()
    assert.isTrue(
      await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
      'no sideways scrolling'
    )
    const fields = documents().locator('.plugin-settings__field')
    const [first, second] = [await fields.nth(0).boundingBox(), await fields.nth(1).boundingBox()]
    assert.isAbove(second!.y, first!.y + first!.height - 1, 'the fields stack')

    await kit.getByLabel('Frecuencia').selectOption({ label: 'Cada semana' })
    await kit.getByLabel('Avisar por correo').uncheck()
    await kit.getByRole('button', { name: 'Guardar ajustes' }).click()
    await kit.getByRole('status').filter({ hasText: 'Ajustes guardados.' }).waitFor()
    assert.deepEqual(await saved('testkit'), { notify: false, period: 'weekly' })

    await page.reload()
    await page.locator('section[data-plugin=testkit]').getByLabel('Frecuencia').waitFor()
    const again = page.locator('section[data-plugin=testkit]')
    assert.equal(await again.getByLabel('Frecuencia').inputValue(), 'weekly')
    assert.isFalse(await again.getByLabel('Avisar por correo').isChecked())
  })

  test('someone who is not an administrator is refused, and offered no link', async ({ assert }) => {
    await makeUser({ username: 'docente', role: 'teacher' })
    await signIn(page, 'docente', PASSWORD)
    await page.getByTestId('session-bar').waitFor()
    assert.equal(await page.getByRole('link', { name: 'Ajustes de complementos' }).count(), 0)
    await page.goto(`${base}/plugin_settings`)
    await page.getByRole('alert').filter({ hasText: 'No tienes permiso para esta acción' }).waitFor()
    assert.equal(await page.locator('section[data-plugin]').count(), 0)
  })
})
