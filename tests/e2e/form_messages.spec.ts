import { test } from '@japa/runner'
import type { Browser, Page } from 'playwright-core'
import { translate } from '@tramita/i18n'
import { launchChromium } from './chromium.ts'
import { checkA11y } from './a11y.ts'
import { BASE as base, PHONE, people as browsers } from './session.ts'
import { PASSWORD, makeUser, resetAuthTables } from '../../core/server/tests/helpers/auth.ts'
import { resetProcessTables } from '../../core/server/tests/helpers/process.ts'
import { publishForm } from '../../core/server/app/services/process/forms.ts'

const PROCESS = {
  label: 'Mensajes',
  color: '#1C1066',
  states: [
    { id: 'init', label: 'Iniciado', color: '#7f82ff' },
    { id: 'end', label: 'Finalizado', color: '#1C1066' },
  ],
  start: { step: null, state: 'end' },
}

/** Fields whose designer worded their rules' messages in Spanish and English; `nota` keeps the product's. */
const FORM = {
  form: { pages: [{ name: 'Datos', layout: [['nombre'], ['codigo'], ['nota'], ['dias'], ['enviar']] }] },
  fields: [
    {
      field_name: 'nombre',
      type: 'text',
      data: {
        label: { value: 'Nombre' },
        validate: { required: true, messages: { required: 'Escriba su nombre como en el documento' } },
      },
      translations: {
        en: { 'label.value': 'Name', 'validate.messages.required': 'Type your name as on your ID' },
      },
    },
    {
      field_name: 'codigo',
      type: 'text',
      data: {
        label: { value: 'Código' },
        ref: { pattern: '[A-Z0-9]+', min_length: 4 },
        validate: { messages: { pattern: 'Solo mayúsculas y cifras', min_length: 'Al menos cuatro caracteres' } },
      },
      translations: {
        en: {
          'label.value': 'Code',
          'validate.messages.pattern': 'Capitals and digits only',
          'validate.messages.min_length': 'At least four characters',
        },
      },
    },
    {
      field_name: 'nota',
      type: 'textarea',
      data: { label: { value: 'Nota' }, ref: { min_length: 3 } },
      translations: { en: { 'label.value': 'Note' } },
    },
    {
      field_name: 'dias',
      type: 'number',
      data: { label: { value: 'Días' }, limit: { min: 1, max: 30 }, validate: { messages: { max: 'Máximo un mes' } } },
      translations: { en: { 'label.value': 'Days', 'validate.messages.max': 'One month at most' } },
    },
  ],
  elements: [{ field_name: 'enviar', type: 'send', data: {} }],
}

const errorOf = (page: Page, name: string) => page.locator(`#ff-${name}-error`)

test.group('custom validation messages in Chromium', (group) => {
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

  test('a field tells its broken rule in the designer words, in Spanish and then in English, on a phone', async ({
    assert,
  }) => {
    await makeUser({ username: 'lectora', role: 'student' })
    const form = await publishForm({ name: 'Mensajes', jsonconfig: FORM, process: PROCESS, userId: null })
    const page = await session.signedIn('lectora', PHONE)
    await page.goto(`${base}/forms/new?data=${form.key}`)

    // Spanish, the form's own words.
    const codigo = page.getByLabel('Código')
    await codigo.fill('ab-1')
    await errorOf(page, 'codigo').getByText('Solo mayúsculas y cifras').waitFor()
    assert.equal(await codigo.getAttribute('aria-invalid'), 'true')
    assert.include((await codigo.getAttribute('aria-describedby')) ?? '', 'ff-codigo-error')
    await codigo.fill('AB1')
    await errorOf(page, 'codigo').getByText('Al menos cuatro caracteres').waitFor()
    // Without custom words, the product's message in the reader's language.
    await page.getByLabel('Nota').fill('ab')
    await errorOf(page, 'nota')
      .getByText(translate('es', 'contract.errors.text_min', { min: 3 }))
      .waitFor()
    // A number typed beyond its bound says why it will change, then is clamped on leaving.
    const dias = page.getByLabel('Días')
    await dias.fill('45')
    await errorOf(page, 'dias').getByText('Máximo un mes').waitFor()
    await dias.press('Tab')
    assert.equal(await dias.inputValue(), '30')
    assert.equal(await errorOf(page, 'dias').count(), 0)
    const missing = page.getByTestId('missing-required')
    await missing.getByText('Escriba su nombre como en el documento').waitFor()
    await checkA11y(page)

    // English: the translated words. Leaving a field with a broken value stored '' (spec 000 §5), so
    // the remounted fields are empty and are typed again.
    await page.getByTestId('lang-switch').selectOption('en')
    await page.getByLabel('Code').fill('AB1')
    await errorOf(page, 'codigo').getByText('At least four characters').waitFor()
    await page.getByLabel('Code').fill('ab')
    await errorOf(page, 'codigo').getByText('Capitals and digits only').waitFor()
    await page.getByLabel('Note').fill('ab')
    await errorOf(page, 'nota')
      .getByText(translate('en', 'contract.errors.text_min', { min: 3 }))
      .waitFor()
    await page.getByLabel('Days').fill('0')
    await errorOf(page, 'dias')
      .getByText(translate('en', 'contract.errors.number_min', { min: 1 }))
      .waitFor()
    await page.getByLabel('Days').fill('45')
    await errorOf(page, 'dias').getByText('One month at most').waitFor()
    await missing.getByText('Type your name as on your ID').waitFor()
    assert.equal(await missing.getByText('Escriba su nombre').count(), 0)
    await checkA11y(page)

    await page.getByLabel('Code').fill('AB12')
    await page.getByLabel('Note').fill('abc')
    await page.getByLabel('Name').fill('Ana')
    assert.equal(await errorOf(page, 'codigo').count(), 0)
    assert.equal(await errorOf(page, 'nota').count(), 0)
    await missing.waitFor({ state: 'detached' })
    // The page fits the phone: no sideways scroll.
    assert.isAtMost(
      await page.evaluate(() => document.documentElement.scrollWidth),
      PHONE.width,
      'no sideways scroll on a phone'
    )
  })
})
