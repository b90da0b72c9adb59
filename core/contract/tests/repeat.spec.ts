import { test } from '@japa/runner'
import { asRunner, createSandbox, type ScriptRunner } from '@tramita/sandbox'
import {
  canAddRow,
  canRemoveRow,
  configJsonSchema,
  coreRegistry,
  declaredState,
  emptyRow,
  evaluateChange,
  evaluateForm,
  localizeConfig,
  missingRequired,
  validateConfig,
  validateSubmission,
  withDefaults,
  type RepeatItem,
} from '../src/index.js'
import { scriptTypings } from '../src/typings.js'

/** Children: a required name, an age, a document type (choices) and its number shown only for a passport. */
const config = {
  form: { pages: [{ name: 'P', layout: [['pais'], ['hijos']] }] },
  fields: [
    { field_name: 'pais', type: 'text', data: { label: { value: 'País' } } },
    {
      field_name: 'hijos',
      type: 'repeat',
      data: {
        label: { value: 'Hijos' },
        min_rows: 1,
        max_rows: 3,
        cells: [
          {
            field_name: 'nombre',
            type: 'text',
            data: { label: { value: 'Nombre' }, validate: { required: true }, ref: { limit: 10 } },
          },
          { field_name: 'edad', type: 'number', data: { label: { value: 'Edad' }, limit: { min: 0, max: 30 } } },
          {
            field_name: 'doc',
            type: 'select',
            data: {
              label: { value: 'Documento' },
              options: [
                { id: 'ti', label: 'Tarjeta' },
                { id: 'pp', label: 'Pasaporte' },
              ],
            },
          },
          {
            field_name: 'pasaporte',
            type: 'text',
            data: {
              label: { value: 'Pasaporte' },
              validate: { required: true },
              // Reads its own row and a field of the form.
              show_with_formule: "row.doc === 'pp' && pais !== 'CO'",
            },
          },
          { field_name: 'vive', type: 'switch', data: { label: { value: 'Vive conmigo' } } },
        ],
      },
    },
  ],
}

test.group('repeat: the contract of a repeating group', () => {
  test('validateConfig accepts it; its cells take their own types’ defaults', ({ assert }) => {
    assert.deepEqual(validateConfig(config), [])
    const group = withDefaults(config).fields[1]! as unknown as RepeatItem
    const [nombre, edad, doc] = group.data.cells
    assert.equal(group.data.max_rows, 3)
    assert.equal(nombre!.data.ref.limit, 10)
    assert.equal(edad!.data.decimals.enabled, false, 'a number cell has the number type’s keys')
    assert.equal(doc!.data.mode, 'dropdown')
    assert.deepEqual(emptyRow(group), { nombre: '', edad: '', doc: '', pasaporte: '', vive: false })
    // The group starts with min_rows empty rows; the limits bound adding and removing.
    assert.deepEqual(coreRegistry().require('field', 'repeat').defaultValue(group), [emptyRow(group)])
    assert.isTrue(canAddRow(group, 2))
    assert.isFalse(canAddRow(group, 3))
    assert.isTrue(canRemoveRow(group, 2))
    assert.isFalse(canRemoveRow(group, 1))
    assert.isTrue(canAddRow({ ...group, data: { ...group.data, max_rows: -1 } }, 500))
  })

  test('a cell’s texts are read in the form’s language: its own translations, or the group’s by path', ({ assert }) => {
    const group = config.fields[1]!
    const [nombre, ...rest] = group.data.cells!
    const translated = {
      ...config,
      fields: [
        config.fields[0],
        {
          ...group,
          translations: { en: { 'cells.1.data.label.value': 'Age' } },
          data: { ...group.data, cells: [{ ...nombre, translations: { en: { 'label.value': 'Name' } } }, ...rest] },
        },
      ],
    }
    const english = localizeConfig(withDefaults(translated), 'en').fields[1]!.data.cells
    assert.deepEqual(
      english.slice(0, 2).map((c: { data: { label: { value: string } } }) => c.data.label.value),
      ['Name', 'Age']
    )
    const spanish = localizeConfig(withDefaults(translated), 'es').fields[1]!.data.cells
    assert.equal(spanish[0].data.label.value, 'Nombre')
  })

  test('a cell’s script sees `row` typed from the group’s cells, beside the form’s fields', ({ assert }) => {
    const cells = withDefaults(config).fields[1]!.data.cells
    const typings = scriptTypings(config, undefined, cells)
    assert.include(typings, 'declare const row: { nombre: string; edad: number | ""; doc: ')
    assert.include(typings, 'vive: boolean }')
    assert.include(typings, 'declare const pais: string')
    assert.notInclude(scriptTypings(config), 'declare const row')
  })

  test('the JSON schema of the config documents the group and its cell types', ({ assert }) => {
    const schema = JSON.stringify(configJsonSchema())
    assert.include(schema, '"field:repeat"')
    assert.include(schema, '"min_rows"')
  })

  test('validateConfig reports a bad cell at its path, and rows that cannot fit', ({ assert }) => {
    const group = config.fields[1]!
    const bad = {
      ...config,
      fields: [
        config.fields[0],
        {
          ...group,
          data: {
            ...group.data,
            min_rows: 4,
            max_rows: 2,
            cells: [
              { field_name: 'a', type: 'number', data: { limit: 'x' } },
              { field_name: 'b', type: 'file' },
              { field_name: 'c', type: 'text', data: { on_change: 'x()', show_with_formule: 'row.(' } },
              { field_name: 'c', type: 'text' },
              { field_name: 'd', type: 'text', isSet: true, set: 'pais' },
            ],
          },
        },
      ],
    }
    const problems = validateConfig(bad)
    const paths = problems.map((p) => p.path)
    assert.include(paths, '/fields/1/data/max_rows')
    assert.include(paths, '/fields/1/data/cells/1/type', 'a file is not a cell type')
    assert.isTrue(
      paths.some((p) => p.startsWith('/fields/1/data/cells/0/data/limit')),
      'a number cell is checked against the number type’s schema'
    )
    assert.include(paths, '/fields/1/data/cells/2/data/on_change')
    assert.include(paths, '/fields/1/data/cells/3/field_name')
    assert.include(paths, '/fields/1/data/cells/4/isSet')
    // An entry that is not a cell is named at its own index, and nothing else breaks on it.
    const junk = {
      ...config,
      fields: [config.fields[0], { ...group, data: { ...group.data, cells: ['x', ...group.data.cells!] } }],
    }
    assert.deepInclude(
      validateConfig(junk).map((p) => p.path),
      '/fields/1/data/cells/0'
    )
    assert.deepEqual(emptyRow(withDefaults(junk).fields[1] as unknown as RepeatItem), {
      nombre: '',
      edad: '',
      doc: '',
      pasaporte: '',
      vive: false,
    })
    // The script check comes once the schema holds: the broken condition is then named at its path.
    const scripts = validateConfig({
      ...config,
      fields: [
        config.fields[0],
        {
          ...group,
          data: { ...group.data, cells: [{ field_name: 'c', type: 'text', data: { show_with_formule: 'row.(' } }] },
        },
      ],
    })
    assert.deepEqual(
      scripts.map((p) => p.path),
      ['/fields/1/data/cells/0/data/show_with_formule']
    )
  })

  test('a required cell is missing per row; one its condition hides is not', ({ assert }) => {
    const form = withDefaults(config)
    const state = declaredState(form)
    const rows = [{ nombre: 'Ana', doc: 'pp' }, { nombre: '  ' }]
    // Without conditions run, the conditioned cell counts as hidden (as a conditioned field does).
    assert.deepEqual(
      missingRequired(form, { hijos: rows }, state).map((m) => [m.field, m.label]),
      [['hijos.1.nombre', 'Hijos (Fila 2): Nombre']]
    )
    const conditions = new Map([
      ['hijos.0.pasaporte', true],
      ['hijos.1.pasaporte', false],
    ])
    assert.deepEqual(
      missingRequired(form, { hijos: rows }, state, undefined, { conditions, lang: 'en' }).map((m) => [
        m.field,
        m.label,
      ]),
      [
        ['hijos.0.pasaporte', 'Hijos (Row 1): Pasaporte'],
        ['hijos.1.nombre', 'Hijos (Row 2): Nombre'],
      ]
    )
    // A hidden group asks for nothing.
    const hidden = { ...state, hijos: { ...state.hijos!, show: false } }
    assert.deepEqual(missingRequired(form, { hijos: rows }, hidden, undefined, { conditions }), [])
  })
})

test.group('repeat: cell conditions and the server', (group) => {
  let runner: ScriptRunner
  group.setup(async () => {
    runner = asRunner(await createSandbox())
    return () => runner.dispose()
  })

  test('a cell’s condition runs once per row, reading its row and the form’s fields', async ({ assert }) => {
    const form = withDefaults(config)
    const rows = [{ nombre: 'Ana', doc: 'pp' }, { nombre: 'Luis', doc: 'ti' }, {}]
    const first = await evaluateForm(form, { pais: 'AR', hijos: rows }, { runner })
    assert.deepEqual(first.failures, [])
    assert.isTrue(first.conditions.get('hijos.0.pasaporte'))
    assert.isFalse(first.conditions.get('hijos.1.pasaporte'))
    assert.isFalse(first.conditions.get('hijos.2.pasaporte'), 'a left-out cell reads its default')
    // A change to the form field the conditions read re-runs them, as a change to the rows does.
    const changed = await evaluateChange(form, 'pais', { pais: 'CO', hijos: rows }, { runner })
    assert.isFalse(changed.conditions.get('hijos.0.pasaporte'))
    const added = await evaluateChange(form, 'hijos', { pais: 'AR', hijos: [...rows, { doc: 'pp' }] }, { runner })
    assert.isTrue(added.conditions.get('hijos.3.pasaporte'))
  })

  test('validateSubmission stores good rows', async ({ assert }) => {
    const hijos = [
      { nombre: 'Ana', edad: 7, doc: 'pp', pasaporte: 'X1', vive: true },
      { nombre: 'Luis', edad: '', doc: 'ti' },
    ]
    const result = await validateSubmission(config, { pais: 'AR', hijos }, { case: 'new', runner })
    assert.deepEqual(result.errors, [])
    assert.deepEqual(result.missing, [])
    assert.isTrue(result.ok)
    assert.deepEqual(result.values.hijos, hijos)
  })

  test('validateSubmission refuses too few or too many rows, in the language asked', async ({ assert }) => {
    const none = await validateSubmission(config, { hijos: [] }, { case: 'new', runner })
    assert.isFalse(none.ok)
    assert.deepEqual(none.errors, [{ field: 'hijos', message: 'Se necesitan al menos 1 filas' }])
    const many = Array.from({ length: 4 }, (_, i) => ({ nombre: `N${i}` }))
    const over = await validateSubmission(config, { hijos: many }, { case: 'new', runner, lang: 'en' })
    assert.deepEqual(over.errors, [{ field: 'hijos', message: 'At most 3 rows are allowed' }])
    const zh = await validateSubmission(config, { hijos: many }, { case: 'new', runner, lang: 'zh' })
    assert.deepEqual(zh.errors, [{ field: 'hijos', message: '最多允许 3 行' }])
  })

  test('validateSubmission refuses a wrong cell value, an unknown cell and a choice the cell lacks', async ({
    assert,
  }) => {
    const hijos = [
      { nombre: 'A very long name', edad: 40 },
      { nombre: 'Ana', edad: 'seven', doc: 'dni', otro: 1 },
    ]
    const result = await validateSubmission(config, { hijos }, { case: 'new', runner, lang: 'en' })
    assert.isFalse(result.ok)
    assert.deepEqual(
      result.errors.map((e) => e.message),
      [
        'Row 1, Nombre: The text is longer than 10 characters',
        'Row 1, Edad: The number is above the maximum (30)',
        'Row 2, Edad: The information is not valid',
        'Row 2, Documento: The option "dni" does not exist',
        'Row 2: the cell "otro" does not exist in this group',
      ]
    )
  })

  test('validateSubmission reports an empty required cell, shown by its condition, as missing', async ({ assert }) => {
    const hijos = [
      { nombre: 'Ana', doc: 'pp' },
      { nombre: '', doc: 'ti' },
    ]
    const result = await validateSubmission(config, { pais: 'AR', hijos }, { case: 'new', runner })
    assert.isFalse(result.ok)
    assert.deepEqual(
      result.missing.map((m) => m.field),
      ['hijos.0.pasaporte', 'hijos.1.nombre']
    )
    // The same rows where the condition hides the passport: only the name is missing.
    const co = await validateSubmission(config, { pais: 'CO', hijos }, { case: 'new', runner })
    assert.deepEqual(
      co.missing.map((m) => m.field),
      ['hijos.1.nombre']
    )
    // A row that is not an object is refused by the group's value schema.
    const shape = await validateSubmission(config, { hijos: ['Ana'] }, { case: 'new', runner })
    assert.equal(shape.errors[0]?.field, 'hijos')
  })
})

/** Purchases: each row's total is computed from its own cells and a rate of the form. */
const priced = {
  form: { pages: [{ name: 'P', layout: [['iva'], ['compras']] }] },
  fields: [
    { field_name: 'iva', type: 'number', data: {} },
    {
      field_name: 'compras',
      type: 'repeat',
      data: {
        cells: [
          { field_name: 'cantidad', type: 'number', data: {} },
          { field_name: 'precio', type: 'number', data: { decimals: { enabled: true, significant: 2 } } },
          {
            field_name: 'total',
            type: 'number',
            data: {
              decimals: { enabled: true, significant: 2 },
              limit: { max: 1000 },
              formule: "row.cantidad === '' || row.precio === '' ? '' : row.cantidad * row.precio * (1 + iva / 100)",
            },
          },
        ],
      },
    },
  ],
}

test.group('repeat: cell formulas', (group) => {
  let runner: ScriptRunner
  group.setup(async () => {
    runner = asRunner(await createSandbox())
    return () => runner.dispose()
  })

  test('a cell’s formula runs once per row over its row and the form; a change to either re-runs it', async ({
    assert,
  }) => {
    assert.deepEqual(validateConfig(priced), [])
    const form = withDefaults(priced)
    const rows = [{ cantidad: 2, precio: 10 }, { cantidad: 1 }]
    const first = await evaluateForm(form, { iva: 10, compras: rows }, { runner })
    assert.deepEqual(first.failures, [])
    assert.deepEqual(first.values.compras, [
      { cantidad: 2, precio: 10, total: 22 },
      { cantidad: 1, total: '' },
    ])
    const changed = await evaluateChange(form, 'iva', { iva: 0, compras: rows }, { runner })
    assert.equal((changed.values.compras as { total: number }[])[0]!.total, 20)
  })

  test('a cell reading another computed cell of its row sees that cell’s new value', async ({ assert }) => {
    // Written before the cells it reads, to show the order comes from what it reads.
    const withTax = {
      ...priced,
      fields: [
        priced.fields[0],
        {
          ...priced.fields[1],
          data: {
            cells: [
              { field_name: 'conIva', type: 'number', data: { formule: "row.neto === '' ? '' : row.neto * 1.5" } },
              { field_name: 'cantidad', type: 'number', data: {} },
              { field_name: 'neto', type: 'number', data: { formule: "row['doble'] === '' ? '' : row.doble / 2" } },
              { field_name: 'doble', type: 'number', data: { formule: 'row.cantidad * 20' } },
            ],
          },
        },
      ],
    }
    assert.deepEqual(validateConfig(withTax), [])
    const run = await evaluateForm(withDefaults(withTax), { compras: [{ cantidad: 2 }, { cantidad: 5 }] }, { runner })
    assert.deepEqual(run.failures, [])
    assert.deepEqual(run.values.compras, [
      { cantidad: 2, doble: 40, neto: 20, conIva: 30 },
      { cantidad: 5, doble: 100, neto: 50, conIva: 75 },
    ])
  })

  test('validateSubmission stores the computed cells, not what was sent for them', async ({ assert }) => {
    const sent = [{ cantidad: 3, precio: 5, total: 1 }]
    const result = await validateSubmission(priced, { iva: 0, compras: sent }, { case: 'new', runner })
    assert.isTrue(result.ok)
    assert.deepEqual(result.values.compras, [{ cantidad: 3, precio: 5, total: 15 }])
    // A result its cell refuses (over the limit) is reported, and what was sent stays.
    const over = await validateSubmission(
      priced,
      { iva: 0, compras: [{ cantidad: 100, precio: 100 }] },
      {
        case: 'new',
        runner,
      }
    )
    assert.deepEqual(over.values.compras, [{ cantidad: 100, precio: 100 }])
    assert.equal(
      over.scriptErrors[0]!.message,
      'El valor de «compras» no es válido: Fila 1, total: El número es mayor que el máximo (1000)'
    )
  })

  test('a group with cell formulas cannot have a formula of its own', ({ assert }) => {
    const both = {
      ...priced,
      fields: [priced.fields[0], { ...priced.fields[1], data: { ...priced.fields[1]!.data, formule: '[]' } }],
    }
    assert.deepInclude(
      validateConfig(both).map((p) => p.path),
      '/fields/1/data/formule'
    )
  })
})
