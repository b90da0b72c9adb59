import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import type { Browser } from 'playwright-core'
import { launchChromium } from './chromium.ts'
import { BASE as base, people as browsers, signIn } from './session.ts'
import { PASSWORD, makeUser, resetAuthTables } from '../../core/server/tests/helpers/auth.ts'
import { resetProcessTables } from '../../core/server/tests/helpers/process.ts'
import { publishForm } from '../../core/server/app/services/process/forms.ts'
import Area from '../../core/server/app/models/area.ts'
import Role from '../../core/server/app/models/role.ts'

/** A process that ends as soon as the form is sent: only the stored values matter here. */
const PROCESS = {
  label: 'Campos',
  color: '#1C1066',
  states: [
    { id: 'init', label: 'Iniciado', color: '#7f82ff' },
    { id: 'end', label: 'Finalizado', color: '#1C1066' },
  ],
  start: { step: null, state: 'end' },
}

const field = (field_name: string, type: string, label: string, data: Record<string, unknown> = {}, extra = {}) => ({
  field_name,
  type,
  ...extra,
  data: { label: { value: label }, ...data },
})

/** One form with every input type these renderers draw (spec 000 §3), on one page. */
function fieldsForm(reduce: Record<string, unknown>) {
  const fields = [
    field('nombre', 'text', 'Nombre', { ref: { limit: 10 } }),
    field('placa', 'text', 'Placa', { ref: { mask: 'AAA-###', limit: 3 } }),
    field('codigo', 'text', 'Código', { ref: { pattern: '[0-9]{3}' } }),
    field('ciudad', 'text', 'Ciudad', { autocomplete: ['Bogotá', 'Barranquilla', 'Cali'] }),
    field('clave', 'text', 'Clave', { password: true }),
    field('correo', 'email', 'Correo'),
    field('dias', 'number', 'Días', { limit: { min: 1, max: 30 } }),
    field('peso', 'number', 'Peso', { decimals: { enabled: true, significant: 2 }, selector: true }),
    field('precio', 'money', 'Precio'),
    field('celular', 'celular', 'Celular'),
    field('color', 'select', 'Color', {
      placeholder: 'Elija un color',
      options: [
        { id: 'r', label: 'Rojo', bgcolor: '#cc0000' },
        { id: 'v', label: 'Verde', bgcolor: '#c8f7c5' },
      ],
    }),
    field('frutas', 'list', 'Frutas', {
      multiple: true,
      options: [
        { id: 1, label: 'Mango' },
        { id: 2, label: 'Pera' },
        { id: 3, label: 'Uva' },
      ],
    }),
    field('talla', 'radios', 'Talla', {
      order: true,
      asc: false,
      options: [
        { id: 'l', label: 'L' },
        { id: 's', label: 'S' },
        { id: 'm', label: 'M' },
      ],
    }),
    field('acepto', 'switch', 'Acepto las condiciones'),
    field('aviso', 'checkbox', 'Quiero avisos', { validate: { required: true } }),
    field('vacaciones', 'date', 'Vacaciones', { range: true }),
    field('hora', 'time', 'Hora de llegada', { useh: true }),
    field('satisfaccion', 'level', 'Satisfacción'),
    field('responsable', 'users', 'Responsable', { reduce }),
    field('interno', 'var', 'Variable interna'),
  ]
  return {
    form: { pages: [{ name: 'Campos', layout: fields.map((f) => [f.field_name]) }] },
    fields,
  }
}

/** The input renderers in Chromium: typing rules, choices, dates, level by keyboard, people with reduce. */
test.group('form field renderers in Chromium', (group) => {
  let browser: Browser
  const session = browsers(() => browser, PASSWORD)
  const signedIn = async (user: string) => {
    const page = await session.open()
    await signIn(page, user, PASSWORD)
    return page
  }

  group.setup(async () => {
    browser = await launchChromium()
    return () => browser.close()
  })
  group.each.setup(async () => {
    await resetProcessTables()
    await resetAuthTables()
    return () => session.closeAll()
  })

  /** Users for the picker: only 'ana' is a teacher in the Norte area. */
  async function people() {
    await Area.query().where('name', 'E2E Norte').delete()
    const norte = await Area.create({ name: 'E2E Norte', color: '#336699' })
    await makeUser({ username: 'llenadora', role: 'student' })
    const teacher = await Role.findByOrFail('name', 'teacher')
    const ana = await makeUser({ username: 'ana', role: 'teacher' })
    await ana.related('areas').attach([norte.id])
    await makeUser({ username: 'beto', role: 'teacher' })
    const caro = await makeUser({ username: 'caro', role: 'student' })
    await caro.related('areas').attach([norte.id])
    return { norte, teacher, ana }
  }

  test('typing rules, choices, dates, level and a reduced users picker reach the case as the contract says', async ({
    assert,
  }) => {
    const { norte, teacher, ana } = await people()
    const form = await publishForm({
      name: 'Campos',
      jsonconfig: fieldsForm({ areas: [norte.id], roles: [teacher.id] }),
      process: PROCESS,
      userId: null,
    })
    const page = await signedIn('llenadora')
    await page.goto(`${base}/forms/new?data=${form.key}`)
    await page.getByLabel('Nombre').waitFor()

    // Limit with its counter: typing past 10 characters is cut.
    await page.getByLabel('Nombre').fill('Ana María Ruiz')
    assert.equal(await page.getByLabel('Nombre').inputValue(), 'Ana María ')
    assert.equal(await page.locator('#ff-nombre-counter').innerText(), '10/10')

    // A mask formats as typed and removes the limit of 3.
    await page.getByLabel('Placa').pressSequentially('abc123')
    assert.equal(await page.getByLabel('Placa').inputValue(), 'ABC-123')
    assert.equal(await page.locator('#ff-placa-counter').count(), 0)

    // A broken pattern says so and stores '' on blur; a kept one shows the pattern as a hint.
    const codigo = page.getByLabel('Código')
    await codigo.fill('12a')
    await page.locator('#ff-codigo-error').getByText('La información ingresada no es válida').waitFor()
    assert.equal(await codigo.getAttribute('aria-invalid'), 'true')
    await codigo.fill('123')
    assert.include(await page.locator('#ff-codigo-hint').innerText(), '[0-9]{3}')
    assert.include((await codigo.getAttribute('aria-describedby')) ?? '', 'ff-codigo-hint')

    // Autocomplete: entries containing the text, not equal to it, case-insensitive; picked by keyboard.
    const ciudad = page.getByLabel('Ciudad')
    await ciudad.pressSequentially('ba')
    const list = page.getByRole('listbox', { name: 'Sugerencias' })
    assert.deepEqual(await list.getByRole('option').allInnerTexts(), ['Barranquilla'])
    await ciudad.fill('')
    await ciudad.pressSequentially('b')
    assert.deepEqual(await list.getByRole('option').allInnerTexts(), ['Bogotá', 'Barranquilla'])
    await ciudad.press('ArrowDown')
    await ciudad.press('ArrowDown')
    await ciudad.press('Enter')
    assert.equal(await ciudad.inputValue(), 'Barranquilla')

    // Password with show and hide.
    const clave = page.getByLabel('Clave', { exact: true })
    await clave.fill('secreta')
    assert.equal(await clave.getAttribute('type'), 'password')
    await page.getByRole('button', { name: 'Mostrar' }).click()
    assert.equal(await clave.getAttribute('type'), 'text')

    await page.getByLabel('Correo').fill('ana@example.test')

    // Number: bounds shown, clamped on leaving; decimals truncated; the stepper.
    assert.include(await page.locator('#ff-dias-range').innerText(), 'min: 1')
    assert.include(await page.locator('#ff-dias-range').innerText(), 'max: 30')
    await page.getByLabel('Días').fill('45')
    await page.getByLabel('Días').blur()
    assert.equal(await page.getByLabel('Días').inputValue(), '30')
    await page.getByLabel('Peso').fill('2,759')
    await page.getByLabel('Peso').blur()
    assert.equal(await page.getByLabel('Peso').inputValue(), '2.75')
    await page.getByRole('button', { name: 'Aumentar' }).click()
    assert.equal(await page.getByLabel('Peso').inputValue(), '3.75')

    // Money: the plain number while typing, Intl es-CO COP when not focused.
    const precio = page.getByLabel('Precio')
    await precio.fill('1500000')
    await precio.blur()
    const shown = await precio.inputValue()
    assert.match(shown, /^\$\s?1\.500\.000$/)
    await precio.focus()
    assert.equal(await precio.inputValue(), '1500000')

    // Celular: the country (CO by default) and the number.
    await page.getByLabel('Celular').fill('300 123 4567')
    assert.equal(await page.getByLabel('País').inputValue(), 'CO')

    // select with coloured options: the text colour follows the background's luminance.
    await page.getByLabel('Color').selectOption({ label: 'Rojo' })
    assert.equal(await page.getByLabel('Color').evaluate((el) => getComputedStyle(el).color), 'rgb(255, 255, 255)')
    await page.getByLabel('Color').selectOption({ label: 'Verde' })
    assert.equal(await page.getByLabel('Color').evaluate((el) => getComputedStyle(el).color), 'rgb(0, 0, 0)')

    // list, multiple; radios sorted descending.
    await page.getByLabel('Mango').check()
    await page.getByLabel('Uva').check()
    const tallas = page.getByRole('radiogroup', { name: 'Talla' }).getByRole('radio')
    assert.deepEqual(await page.getByRole('radiogroup', { name: 'Talla' }).locator('label').allInnerTexts(), [
      'S',
      'M',
      'L',
    ])
    assert.equal(await tallas.count(), 3)
    await page.getByLabel('M', { exact: true }).check()

    // switch and checkbox draw their own label.
    await page.getByRole('switch', { name: 'Acepto las condiciones' }).click()
    assert.include(await page.locator('[data-field=acepto]').innerText(), 'YES')
    assert.equal(await page.locator('[data-field=aviso] .ffield__star').count(), 1, 'a bare type draws its own star')
    await page.getByLabel('Quiero avisos').check()

    // A date range typed backwards is stored in order once both ends are given.
    await page.getByLabel('Desde').fill('2026-03-10')
    await page.getByLabel('Hasta').fill('2026-03-01')

    // 12-hour time through selects.
    await page.getByLabel('Hora', { exact: true }).selectOption('3')
    await page.getByLabel('Minutos').selectOption('30')
    await page.getByLabel('a. m. o p. m.').selectOption('pm')

    // Level by keyboard: one tab stop, arrows and End choose.
    const stars = page.getByRole('radiogroup', { name: 'Satisfacción' })
    await stars.getByRole('radio').first().focus()
    await page.keyboard.press('ArrowRight')
    await page.keyboard.press('ArrowRight')
    await page.keyboard.press('End')
    await page.keyboard.press('ArrowLeft')
    assert.equal(await stars.locator('[aria-checked=true]').getAttribute('aria-label'), '4 de 5')
    assert.equal(await stars.locator('[tabindex="0"]').getAttribute('aria-label'), '4 de 5')

    // The users picker offers only the teacher of the Norte area (reduce).
    const responsable = page.getByRole('combobox', { name: 'Responsable' })
    await responsable.click()
    const offered = page.getByRole('listbox', { name: 'Responsable' })
    assert.deepEqual(await offered.getByRole('option').allInnerTexts(), ['ana Test'])
    await responsable.press('ArrowDown')
    await responsable.press('Enter')
    await page.getByTestId('people-chosen').getByText('ana Test').waitFor()

    // The var field is nowhere on the page.
    assert.equal(await page.locator('[data-field=interno]').isVisible(), false)

    // The pattern field is broken again before sending: '' is what it stores.
    await codigo.fill('9x')
    await codigo.blur()
    assert.equal(await codigo.inputValue(), '9x')

    await page.getByTestId('form-send').click()
    await page.getByTestId('form-done').waitFor()
    const rows = await db.from('cases')
    assert.lengthOf(rows, 1)
    const values = JSON.parse(rows[0].values) as Record<string, unknown>
    assert.deepInclude(values, {
      nombre: 'Ana María ',
      placa: 'ABC-123',
      codigo: '',
      ciudad: 'Barranquilla',
      clave: 'secreta',
      correo: 'ana@example.test',
      dias: 30,
      peso: 3.75,
      precio: 1500000,
      celular: { code: 'CO', value: '3001234567', string: '+57 3001234567' },
      color: 'v',
      frutas: [1, 3],
      talla: 'm',
      acepto: true,
      aviso: true,
      vacaciones: ['2026-03-01', '2026-03-10'],
      hora: '15:30',
      satisfaccion: 4,
    })
    assert.deepEqual(values.responsable, [
      { code: ana.id, label: 'ana Test', allData: { areas: [norte.id], rol_user: [teacher.id] } },
    ])
  })

  test('conditions per keystroke, event scripts, set_options, states, radio families, multiple dates', async ({
    assert,
  }) => {
    await makeUser({ username: 'llenadora', role: 'student' })
    const fields = [
      field('clave', 'text', 'Palabra', { on_blur: "setValue('eco', value('clave') + '!')" }),
      field('secreto', 'text', 'Secreto', { show_with_formule: "clave == 'ver'" }),
      field('eco', 'text', 'Eco'),
      field('modo', 'select', 'Modo', {
        on_change: "setOptions('tamano', [{ id: 'g', label: 'Grande', bgcolor: '#000000' }])",
        options: [{ id: 'x', label: 'Cambiar' }],
      }),
      field('tamano', 'radios', 'Tamaño', { options: [{ id: 'p', label: 'Pequeño' }] }),
      field('fijo', 'text', 'Fijo', {}, { state: { natural: 'readonly' } }),
      field(
        'bloqueado',
        'list',
        'Bloqueado',
        { multiple: true, options: [{ id: 1, label: 'Uno' }] },
        {
          state: { natural: 'disabled' },
        }
      ),
      field('si', 'radio', 'Sí', { family: 'respuesta' }),
      field('no', 'radio', 'No', { family: 'respuesta' }),
      field('dias', 'date', 'Días libres', { multiple: true }),
      field('sabores', 'select', 'Sabores', {
        multiple: true,
        options: [
          { id: 'a', label: 'Arequipe' },
          { id: 'c', label: 'Chocolate' },
          { id: 'f', label: 'Fresa' },
        ],
      }),
      field('interno', 'var', 'Interno'),
    ]
    const form = await publishForm({
      name: 'Estados',
      jsonconfig: { form: { pages: [{ name: 'Estados', layout: fields.map((f) => [f.field_name]) }] }, fields },
      process: PROCESS,
      userId: null,
    })
    const page = await signedIn('llenadora')
    const presets = Buffer.from(JSON.stringify({ fijo: 'no editable', interno: 'oculto' })).toString('base64')
    await page.goto(`${base}/forms/new?data=${form.key}&values=${encodeURIComponent(presets)}`)

    // The condition reacts while typing, before any blur.
    const clave = page.getByLabel('Palabra')
    await clave.pressSequentially('ver')
    await page.getByLabel('Secreto').waitFor()
    await clave.pressSequentially('x')
    await page.getByLabel('Secreto').waitFor({ state: 'detached' })
    // on_blur runs its script.
    await clave.blur()
    await page.waitForFunction(() => (document.getElementById('ff-eco') as HTMLInputElement | null)?.value === 'verx!')

    // on_change of a select replaces another field's options (set_options), colours included.
    await page.getByLabel('Modo').selectOption({ label: 'Cambiar' })
    const grande = page.getByLabel('Grande')
    await grande.waitFor()
    assert.equal(await page.getByLabel('Pequeño').count(), 0)
    assert.equal(
      await page.locator('.fchoice__option', { hasText: 'Grande' }).evaluate((el) => getComputedStyle(el).color),
      'rgb(255, 255, 255)'
    )
    await grande.check()

    // readonly shows the value without edits; disabled greys and refuses.
    assert.equal(await page.getByLabel('Fijo').inputValue(), 'no editable')
    assert.isFalse(await page.getByLabel('Fijo').isEditable())
    assert.isTrue(await page.getByLabel('Uno').isDisabled())

    // Radios of one family exclude each other; a checked radio clicked again clears.
    const si = page.getByLabel('Sí', { exact: true })
    const no = page.getByLabel('No', { exact: true })
    await si.check()
    await no.check()
    assert.isFalse(await si.isChecked())
    await no.click()
    await page.waitForFunction(() => !(document.getElementById('ff-no') as HTMLInputElement).checked)
    await si.check()
    assert.isFalse(await no.isChecked())

    // Multiple dates: added as chips, removed by their button.
    const dia = page.getByLabel('Nueva fecha')
    for (const date of ['2026-05-04', '2026-05-01', '2026-05-08']) {
      await dia.fill(date)
      await page.locator('[data-field=dias]').getByRole('button', { name: 'Agregar' }).click()
    }
    const chips = page.locator('[data-field=dias] .fchip')
    assert.equal(await chips.count(), 3)
    await chips.nth(2).getByRole('button').click()
    assert.equal(await chips.count(), 2)

    // A multiple dropdown: a button opens the checkbox list; Escape closes it.
    const sabores = page.getByRole('button', { name: 'Sabores' })
    await sabores.click()
    await page.getByLabel('Arequipe').check()
    await page.getByLabel('Fresa').check()
    await page.keyboard.press('Escape')
    assert.equal(await page.getByLabel('Arequipe').count(), 0)
    assert.equal(await sabores.innerText(), 'Arequipe, Fresa')

    await page.getByTestId('form-send').click()
    await page.getByTestId('form-done').waitFor()
    const rows = await db.from('cases')
    const values = JSON.parse(rows[0].values) as Record<string, unknown>
    assert.deepInclude(values, {
      clave: 'verx',
      eco: 'verx!',
      modo: 'x',
      tamano: 'g',
      si: true,
      no: false,
      dias: ['2026-05-01', '2026-05-04'],
      sabores: ['a', 'f'],
      interno: 'oculto',
    })
  })

  // Issue 23: the form's info carries the server's first evaluation, so page 1 is right before the
  // page's own evaluation code has even arrived (held here until the page has been checked).
  test('a condition true at load and a formula show before the evaluation code arrives', async ({ assert }) => {
    await makeUser({ username: 'llenadora', role: 'student' })
    const form = await publishForm({
      name: 'Aviso al abrir',
      jsonconfig: {
        form: { pages: [{ name: 'Datos', layout: [['clave'], ['aviso'], ['largo']] }] },
        fields: [
          field('clave', 'text', 'Palabra', {}),
          field('aviso', 'text', 'Aviso', { show_with_formule: "clave == ''" }),
          field('largo', 'text', 'Largo', { formule: "'n' + clave.length" }),
        ],
      },
      process: PROCESS,
      userId: null,
    })
    const page = await signedIn('llenadora')
    const held: (() => Promise<void>)[] = []
    const evaluationCode = /\/assets\/(analyze|evaluate|expression)-[^/]+\.js$/
    await page.route(evaluationCode, (route) => void held.push(() => route.continue()))
    await page.goto(`${base}/forms/new?data=${form.key}`)
    await page.getByLabel('Aviso').waitFor()
    await page.waitForFunction(() => (document.getElementById('ff-largo') as HTMLInputElement | null)?.value === 'n0')
    assert.isAbove(held.length, 0, 'the evaluation code was asked for and is still held')
    for (const release of held.splice(0)) await release()
    await page.unroute(evaluationCode)
    await page.getByLabel('Palabra').pressSequentially('ab')
    await page.getByLabel('Aviso').waitFor({ state: 'detached' })
    await page.waitForFunction(() => (document.getElementById('ff-largo') as HTMLInputElement | null)?.value === 'n2')
  })

  // Issue 23: conditions and formulas that are expressions run on the page; QuickJS loads only for a
  // script that is not one (here an event handler with setValue).
  test('a form of expressions reacts without ever fetching QuickJS; a statement script fetches it', async ({
    assert,
  }) => {
    await makeUser({ username: 'llenadora', role: 'student' })
    const publish = (name: string, extra: Record<string, unknown>) =>
      publishForm({
        name,
        jsonconfig: {
          form: { pages: [{ name: 'Datos', layout: [['clave'], ['secreto'], ['doble']] }] },
          fields: [
            field('clave', 'text', 'Palabra', extra),
            field('secreto', 'text', 'Secreto', { show_with_formule: "clave.trim().toLowerCase() == 'ver'" }),
            field('doble', 'text', 'Doble', { formule: "clave + '-' + clave.length" }),
          ],
        },
        process: PROCESS,
        userId: null,
      })
    const pureForm = await publish('Solo expresiones', {})
    const scriptedForm = await publish('Con guion', { on_blur: "setValue('doble', 'listo')" })
    const page = await signedIn('llenadora')
    const fetched: string[] = []
    page.context().on('request', (request) => fetched.push(new URL(request.url()).pathname))
    const quickjs = () => fetched.filter((path) => /emscripten-module|quickjs/i.test(path))

    await page.goto(`${base}/forms/new?data=${pureForm.key}`)
    const clave = page.getByLabel('Palabra')
    await clave.pressSequentially(' VER')
    await page.getByLabel('Secreto').waitFor()
    await page.waitForFunction(
      () => (document.getElementById('ff-doble') as HTMLInputElement | null)?.value === ' VER-4'
    )
    await clave.pressSequentially('x')
    await page.getByLabel('Secreto').waitFor({ state: 'detached' })
    assert.deepEqual(quickjs(), [], 'no QuickJS for a form of expressions')

    await page.goto(`${base}/forms/new?data=${scriptedForm.key}`)
    await page.getByLabel('Palabra').fill('ver')
    await page.getByLabel('Secreto').waitFor()
    await page.getByLabel('Palabra').blur()
    await page.waitForFunction(
      () => (document.getElementById('ff-doble') as HTMLInputElement | null)?.value === 'listo'
    )
    assert.isAbove(quickjs().length, 0, 'QuickJS for the event script')
  })

  test('a set field repeats over a count and over chosen options; each repetition is stored by its id', async ({
    assert,
  }) => {
    await makeUser({ username: 'llenadora', role: 'student' })
    const fields = [
      field('hijos', 'number', 'Hijos'),
      field(
        'hijo',
        'text',
        'Nombre del hijo',
        { validate: { required: true } },
        { isSet: true, set: 'hijos', idset: 'Hijo' }
      ),
      field('docs', 'select', 'Documentos', {
        multiple: true,
        options: [
          { id: 'cc', label: 'Cédula' },
          { id: 'pp', label: 'Pasaporte' },
        ],
      }),
      field('numero', 'text', 'Número', {}, { isSet: true, set: 'docs' }),
    ]
    const form = await publishForm({
      name: 'Familia',
      jsonconfig: {
        form: {
          pages: [
            {
              name: 'P',
              layout: [
                ['hijos', 'hijo'],
                ['docs', 'numero'],
              ],
            },
          ],
        },
        fields,
      },
      process: PROCESS,
      userId: null,
    })
    const page = await signedIn('llenadora')
    await page.goto(`${base}/forms/new?data=${form.key}`)
    await page.getByLabel('Hijos').waitFor()
    assert.equal(await page.locator('[data-set-entry]').count(), 0, 'nothing to repeat yet')

    // A count of 3 draws three names, then 2 leaves two; the required one left empty is listed by its caption.
    await page.getByLabel('Hijos').fill('3')
    await page.getByLabel('Hijos').blur()
    await page.getByLabel('Hijo 3').waitFor()
    await page.getByLabel('Hijos').fill('2')
    await page.getByLabel('Hijos').blur()
    await page.locator('[data-set-entry="hijo[3]"]').waitFor({ state: 'detached' })
    await page.getByLabel('Hijo 1').fill('Ana')
    await page.getByLabel('Hijo 1').blur()
    const missing = page.getByRole('button', { name: 'Nombre del hijo (Hijo 2)' })
    await missing.waitFor()
    await missing.click()
    await page.waitForFunction(() => document.activeElement?.id === 'ff-hijo[2]')
    await page.getByLabel('Hijo 2').fill('Luis')
    await page.getByLabel('Hijo 2').blur()
    await missing.waitFor({ state: 'detached' })

    // One repetition per chosen option, captioned by the option's label.
    await page.getByRole('button', { name: 'Documentos' }).click()
    await page.getByRole('checkbox', { name: 'Pasaporte' }).check()
    await page.keyboard.press('Escape')
    await page.getByRole('textbox', { name: 'Pasaporte' }).fill('AB123')
    await page.getByRole('textbox', { name: 'Pasaporte' }).blur()

    await page.getByTestId('form-send').click()
    await page.getByTestId('form-done').waitFor()
    const rows = await db.from('cases')
    const values = JSON.parse(rows[0].values) as Record<string, unknown>
    assert.deepInclude(values, {
      hijos: 2,
      hijo: '',
      'hijo[1]': 'Ana',
      'hijo[2]': 'Luis',
      docs: ['pp'],
      numero: '',
      'numero[pp]': 'AB123',
    })
    assert.notProperty(values, 'hijo[3]')
  })
})
