import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import type { Browser } from 'playwright-core'
import { launchChromium } from './chromium.ts'
import { BASE as base, people as browsers } from './session.ts'
import { PASSWORD, makeUser, resetAuthTables } from '../../core/server/tests/helpers/auth.ts'
import { resetProcessTables } from '../../core/server/tests/helpers/process.ts'
import { createForm, publishForm, recordOnlyProcess } from '../../core/server/app/services/process/forms.ts'

const PROCESS = {
  label: 'Idiomas',
  color: '#1C1066',
  states: [
    { id: 'init', label: 'Iniciado', color: '#7f82ff' },
    { id: 'end', label: 'Finalizado', color: '#1C1066' },
  ],
  start: { step: null, state: 'end' },
}

/** A form whose texts are given in English and Chinese; Spanish shows the form's own texts. */
const FORM = {
  form: { pages: [{ name: 'Datos', layout: [['nombre'], ['color'], ['enviar']] }] },
  fields: [
    {
      field_name: 'nombre',
      type: 'text',
      data: { label: { value: 'Nombre completo' }, ref: { placeholder: 'Como en su documento' } },
      translations: {
        en: { 'label.value': 'Full name', 'ref.placeholder': 'As on your ID' },
        zh: { 'label.value': '全名' },
      },
    },
    {
      field_name: 'color',
      type: 'radios',
      data: {
        label: { value: 'Color' },
        options: [
          { id: 'r', label: 'Rojo' },
          { id: 'v', label: 'Verde' },
        ],
      },
      translations: { en: { 'label.value': 'Colour', 'options.r.label': 'Red', 'options.v.label': 'Green' } },
    },
  ],
  elements: [{ field_name: 'enviar', type: 'send', data: {}, translations: { en: { value: 'Send my request' } } }],
}

test.group('form texts per language in Chromium', (group) => {
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

  test('the designer gives the texts of a field in English: the canvas shows them and the draft keeps them', async ({
    assert,
  }) => {
    const supervisor = await makeUser({ username: 'disenadora', role: 'supervisor' })
    const { formId } = await createForm(
      { name: 'Idiomas', jsonconfig: FORM, process: recordOnlyProcess('Idiomas') },
      Number(supervisor.id)
    )
    const page = await session.signedIn('disenadora')
    await page.goto(`${base}/designer/forms/${formId}`)
    const card = page.locator('[data-testid=item][data-name=nombre]')
    await card.click()
    const panel = page.getByRole('complementary', { name: 'Propiedades' })
    assert.equal(await panel.getByRole('textbox', { name: 'Etiqueta', exact: true }).inputValue(), 'Nombre completo')

    await page.getByTestId('texts-language').selectOption('en')
    await card.getByText('Full name').waitFor()
    const label = panel.getByRole('textbox', { name: 'Etiqueta (en)' })
    assert.equal(await label.inputValue(), 'Full name')
    assert.equal(await label.getAttribute('placeholder'), 'Nombre completo')
    await label.fill('Name and surname')
    await card.getByText('Name and surname').waitFor()
    // A text with no translation yet: typed into the empty box.
    await panel.getByRole('textbox', { name: 'Descripción (en)' }).fill('Both of them')

    await page.locator('[data-testid=save-status][data-state=saved]').waitFor()
    const draft = await db.from('form_versions').where('form_id', formId).whereNull('published_at').firstOrFail()
    const saved = JSON.parse(draft.jsonconfig).fields[0]
    assert.deepEqual(saved.translations.en, {
      'label.value': 'Name and surname',
      'ref.placeholder': 'As on your ID',
      'label.description': 'Both of them',
    })
    assert.equal(saved.data.label.value, 'Nombre completo')

    // Back to the form's own texts: the canvas and the panel show them again.
    await page.getByTestId('texts-language').selectOption('')
    await card.getByText('Nombre completo').waitFor()
    assert.equal(await panel.getByRole('textbox', { name: 'Etiqueta', exact: true }).inputValue(), 'Nombre completo')
  })

  test('a language switch mid-case shows the form in that language and keeps what was typed', async ({ assert }) => {
    await makeUser({ username: 'lectora', role: 'student' })
    const form = await publishForm({ name: 'Idiomas', jsonconfig: FORM, process: PROCESS, userId: null })
    const page = await session.signedIn('lectora')
    await page.goto(`${base}/forms/new?data=${form.key}`)

    // Spanish (the browser's language): the form's own texts.
    const nombre = page.getByLabel('Nombre completo')
    await nombre.fill('Ana Ruiz')
    assert.equal(await nombre.getAttribute('placeholder'), 'Como en su documento')
    await page.getByRole('radio', { name: 'Verde' }).check()

    await page.getByTestId('lang-switch').selectOption('en')
    const fullName = page.getByLabel('Full name')
    await fullName.waitFor()
    assert.equal(await fullName.inputValue(), 'Ana Ruiz')
    assert.equal(await fullName.getAttribute('placeholder'), 'As on your ID')
    assert.isTrue(await page.getByRole('radio', { name: 'Green' }).isChecked())
    assert.equal(await page.getByRole('radio', { name: 'Rojo' }).count(), 0)

    // Chinese has only the name: the rest stays as the form wrote it.
    await page.getByTestId('lang-switch').selectOption('zh')
    await page.getByLabel('全名').waitFor()
    assert.equal(await page.getByLabel('全名').inputValue(), 'Ana Ruiz')
    await page.getByRole('radio', { name: 'Verde' }).waitFor()

    await page.getByTestId('lang-switch').selectOption('en')
    // The form's own send button shows its translated text.
    await page.getByRole('button', { name: 'Send my request' }).waitFor()
    await page.getByTestId('form-send').click()
    await page.getByTestId('form-done').waitFor()
    // What is stored does not depend on the language the form was filled in.
    const rows = await db.from('cases')
    assert.lengthOf(rows, 1)
    assert.deepInclude(JSON.parse(rows[0].values) as Record<string, unknown>, { nombre: 'Ana Ruiz', color: 'v' })
  })
})
