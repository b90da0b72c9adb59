import { test } from '@japa/runner'
import type { Browser } from 'playwright-core'
import { launchChromium } from './chromium.ts'
import { BASE as base, people as browsers, signIn } from './session.ts'
import { PASSWORD, makeUser, resetAuthTables } from '../../core/server/tests/helpers/auth.ts'
import { resetProcessTables } from '../../core/server/tests/helpers/process.ts'
import { publishForm } from '../../core/server/app/services/process/forms.ts'
import { latestVersionByKey } from '../../core/server/app/services/process/definitions.ts'
import { startCase } from '../../core/server/app/services/process/engine.ts'

const PROCESS = {
  label: 'Autocompletar',
  color: '#1C1066',
  states: [
    { id: 'init', label: 'Iniciado', color: '#7f82ff' },
    { id: 'end', label: 'Finalizado', color: '#1C1066' },
  ],
  start: { step: null, state: 'end' },
}

const text = (field_name: string, label: string) => ({ field_name, type: 'text', data: { label: { value: label } } })
const page = (layout: string[][]) => ({ form: { pages: [{ name: 'Datos', layout }] } })

/** Process A: the cases process B looks up. */
const FORM_A = { ...page([['clave', 'nombre']]), fields: [text('clave', 'Clave'), text('nombre', 'Nombre')] }

/** Process B: autocomplete rules only (no actions), one from A's cases, one from a form that does not exist. */
const formB = (keyA: string) => ({
  ...page([['clave', 'nombre', 'ciudad', 'contacto']]),
  fields: [text('clave', 'Clave'), text('nombre', 'Nombre'), text('ciudad', 'Ciudad'), text('contacto', 'Contacto')],
  validations: {
    autocomplete: [
      {
        id_field: 'nombre',
        action: 'value',
        origin: 'process',
        refers: 'nombre',
        query: { id: keyA, condition: 'clave ? { clave: clave } : false', get_columns: ['nombre'] },
      },
      {
        id_field: 'ciudad',
        action: 'value',
        origin: 'process',
        refers: 'ciudad',
        query: { id: 'no-such-form', condition: 'clave ? { clave: clave } : false' },
      },
      { id_field: 'contacto', action: 'autocomplete', origin: 'process', refers: 'nombre', query: { id: keyA } },
    ],
  },
})

test.group('autocomplete rules in Chromium', (group) => {
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

  test('a value rule fills a field from another process; a failing lookup leaves its field; suggestions', async ({
    assert,
  }) => {
    const user = await makeUser({ username: 'rellena', role: 'student' })
    const a = await publishForm({ name: 'Personas', jsonconfig: FORM_A, process: PROCESS, userId: null })
    await startCase((await latestVersionByKey(a.key))!, user.id, { values: { clave: 'K-100', nombre: 'Ana Ruiz' } })
    const b = await publishForm({ name: 'Pedidos', jsonconfig: formB(a.key), process: PROCESS, userId: null })

    const tab = await session.open()
    await signIn(tab, 'rellena', PASSWORD)
    const lookups: string[] = []
    tab.on('request', (request) => {
      if (request.url().endsWith('/inside/forms/links_modules')) lookups.push(request.postData() ?? '')
    })
    await tab.goto(`${base}/forms/new?data=${b.key}`)
    const ciudad = tab.getByLabel('Ciudad')
    await ciudad.fill('Quito')

    // A key no case has: nothing to fill (A's lookup for K-10 answers no case); the whole key: A's case
    // fills the name.
    const partial = tab.waitForResponse((response) => {
      const body = decodeURIComponent(response.request().postData() ?? '')
      return response.url().endsWith('/inside/forms/links_modules') && body.includes(a.key) && /K-10(?!\d)/.test(body)
    })
    await tab.getByLabel('Clave').pressSequentially('K-10', { delay: 30 })
    assert.notInclude(await (await partial).text(), 'Ana Ruiz')
    assert.equal(await tab.getByLabel('Nombre').inputValue(), '')
    await tab.getByLabel('Clave').pressSequentially('0')
    await tab.waitForFunction(
      () => (document.querySelector('#ff-nombre') as HTMLInputElement | null)?.value === 'Ana Ruiz'
    )
    // The other rule's lookups failed (unknown form): the city is still what the user typed.
    assert.isTrue(lookups.some((body) => body.includes('no-such-form')))
    assert.equal(await ciudad.inputValue(), 'Quito')

    // The autocomplete rule offers A's names as suggestions.
    await tab.getByLabel('Contacto').pressSequentially('ruiz')
    await tab.getByRole('option', { name: 'Ana Ruiz' }).click()
    assert.equal(await tab.getByLabel('Contacto').inputValue(), 'Ana Ruiz')
  })
})
