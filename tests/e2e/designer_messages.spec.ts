import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import type { Browser } from 'playwright-core'
import { launchChromium } from './chromium.ts'
import { checkA11y } from './a11y.ts'
import { BASE as base, people as browsers } from './session.ts'
import { PASSWORD, makeUser, resetAuthTables } from '../../core/server/tests/helpers/auth.ts'
import { resetProcessTables } from '../../core/server/tests/helpers/process.ts'
import { createForm, recordOnlyProcess } from '../../core/server/app/services/process/forms.ts'

const FORM = {
  form: { pages: [{ name: 'Datos', layout: [['codigo']] }] },
  fields: [{ field_name: 'codigo', type: 'text', data: { label: { value: 'Código' }, ref: { pattern: '[A-Z]+' } } }],
}

test.group('designer: minimum length and validation messages in Chromium', (group) => {
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

  test('the panel sets a minimum length and a pattern message, then its English words', async ({ assert }) => {
    const supervisor = await makeUser({ username: 'disenadora', role: 'supervisor' })
    const { formId } = await createForm(
      { name: 'Mensajes', jsonconfig: FORM, process: recordOnlyProcess('Mensajes') },
      Number(supervisor.id)
    )
    const page = await session.signedIn('disenadora')
    await page.goto(`${base}/designer/forms/${formId}`)
    const card = page.locator('[data-testid=item][data-name=codigo]')
    await card.click()
    const panel = page.getByRole('complementary', { name: 'Propiedades' })

    await panel.getByRole('spinbutton', { name: 'Longitud mínima (0: sin mínimo)' }).fill('4')
    const message = panel.getByRole('textbox', { name: 'Si no cumple el patrón', exact: true })
    await message.fill('Solo mayúsculas')
    // Its hint is the message's, not the pattern's.
    const hintId = (await message.getAttribute('aria-describedby')) ?? ''
    assert.equal(await page.locator(`[id="${hintId}"]`).innerText(), 'Vacío: se muestra el mensaje del producto.')
    assert.equal(await panel.getByRole('textbox', { name: 'Si falta el valor', exact: true }).inputValue(), '')
    await checkA11y(page)

    await page.getByTestId('texts-language').selectOption('en')
    const english = panel.getByRole('textbox', { name: 'Si no cumple el patrón (en)' })
    assert.equal(await english.getAttribute('placeholder'), 'Solo mayúsculas')
    await english.fill('Capitals only')

    await page.locator('[data-testid=save-status][data-state=saved]').waitFor()
    const draft = await db.from('form_versions').where('form_id', formId).whereNull('published_at').firstOrFail()
    const saved = JSON.parse(draft.jsonconfig).fields[0]
    assert.equal(saved.data.ref.min_length, 4)
    assert.deepEqual(saved.data.validate, { messages: { pattern: 'Solo mayúsculas' } })
    assert.deepEqual(saved.translations, { en: { 'validate.messages.pattern': 'Capitals only' } })
  })
})
