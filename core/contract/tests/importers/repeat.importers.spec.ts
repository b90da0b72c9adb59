import { test } from '@japa/runner'
import { asRunner, createSandbox, type ScriptRunner } from '@tramita/sandbox'
import { evaluateForm, validateConfig, validateSubmission, withDefaults } from '../../src/index.js'
import { importFormio, importSurveyJs } from '../../src/importers/index.js'
import { itemOf, reasonAt, unmappedPaths } from './helpers.js'

type Cell = { field_name: string; type: string; data: Record<string, any>; state?: Record<string, any> }

const cellsOf = (data: Record<string, any>) => data.cells as Cell[]
const cell = (data: Record<string, any>, name: string) => cellsOf(data).find((c) => c.field_name === name)!

/** Children in a Form.io data grid: typed cells, a required one, choices, conditions on the row and on the form. */
const FORMIO = {
  components: [
    { type: 'textfield', key: 'pais', label: 'País' },
    {
      type: 'datagrid',
      key: 'hijos',
      label: 'Hijos',
      addAnother: 'Otro hijo',
      validate: { minLength: 1, maxLength: 3 },
      components: [
        { type: 'textfield', key: 'nombre', label: 'Nombre', validate: { required: true } },
        {
          type: 'select',
          key: 'doc',
          label: 'Documento',
          data: {
            values: [
              { label: 'Tarjeta', value: 'ti' },
              { label: 'Pasaporte', value: 'pp' },
            ],
          },
        },
        // A sibling's key in a simple conditional reads the same row.
        { type: 'textfield', key: 'numero', label: 'Número', conditional: { show: true, when: 'doc', eq: 'pp' } },
        // `row.x` in a custom one too; `data.x` is the form's field.
        {
          type: 'number',
          key: 'edad',
          label: 'Edad',
          customConditional: "show = row.nombre !== '' && data.pais !== 'CO';",
        },
        { type: 'checkbox', key: 'vive', label: 'Vive conmigo', hidden: true },
        { type: 'file', key: 'foto', label: 'Foto' },
        { type: 'number', key: 'doble', label: 'Doble', calculateValue: 'value = row.edad * 2;' },
      ],
    },
    {
      type: 'editgrid',
      key: 'turnos',
      label: 'Turnos',
      disableAddingRemovingRows: true,
      defaultValue: [{}, {}],
      templates: { header: '<div>Turno</div>', row: '<div>{{ row.dia }}</div>' },
      components: [{ type: 'day', key: 'dia', label: 'Día' }],
    },
  ],
}

test.group('importers: Form.io data and edit grids become repeating groups', (group) => {
  let runner: ScriptRunner
  group.setup(async () => {
    runner = asRunner(await createSandbox())
    return () => runner.dispose()
  })

  test('cells keep their type, required flag, choices and hidden state; rows their limits', ({ assert }) => {
    const result = importFormio(FORMIO)
    assert.deepEqual(validateConfig(result.config), [])
    const hijos = itemOf(result, 'hijos')
    assert.equal(hijos.type, 'repeat')
    assert.include(hijos.data, { min_rows: 1, max_rows: 3, add_text: 'Otro hijo' })
    assert.deepEqual(
      cellsOf(hijos.data).map((c) => [c.field_name, c.type]),
      [
        ['nombre', 'text'],
        ['doc', 'select'],
        ['numero', 'text'],
        ['edad', 'number'],
        ['vive', 'checkbox'],
        ['doble', 'number'],
      ]
    )
    assert.isTrue(cell(hijos.data, 'nombre').data.validate.required)
    assert.deepEqual(cell(hijos.data, 'doc').data.options, [
      { id: 'ti', label: 'Tarjeta' },
      { id: 'pp', label: 'Pasaporte' },
    ])
    assert.deepEqual(cell(hijos.data, 'vive').state, { show: false })
    assert.equal(cell(hijos.data, 'doble').data.formule, 'row.edad * 2', 'calculateValue is the cell’s formula')
    // Rows that cannot be added or removed: its starting rows, exactly.
    assert.include(itemOf(result, 'turnos').data, { min_rows: 2, max_rows: 2 })
  })

  test('conditions read the same row as row.x and the form’s fields by name', ({ assert }) => {
    const hijos = itemOf(importFormio(FORMIO), 'hijos')
    assert.equal(cell(hijos.data, 'numero').data.show_with_formule, 'row.doc == "pp"')
    assert.equal(cell(hijos.data, 'edad').data.show_with_formule, "row.nombre !== '' && pais !== 'CO'")
  })

  test('what a group cannot hold is reported at its path', ({ assert }) => {
    const result = importFormio(FORMIO)
    assert.deepEqual(unmappedPaths(result), [
      '/components/1/components/5',
      '/components/2/templates',
      '/components/2/defaultValue',
    ])
    assert.equal(
      reasonAt(result, '/components/1/components/5'),
      'a cell of a repeating group cannot be a Form.io "file"'
    )
  })

  test('the imported conditions run per row in the sandbox, and the server checks the rows', async ({ assert }) => {
    const form = withDefaults(importFormio(FORMIO).config)
    const rows = [
      { nombre: 'Ana', doc: 'pp' },
      { nombre: '', doc: 'ti' },
    ]
    const evaluation = await evaluateForm(form, { pais: 'AR', hijos: rows }, { runner })
    assert.deepEqual(evaluation.failures, [])
    assert.deepEqual(
      [...evaluation.conditions].filter(([key]) => key.startsWith('hijos.')),
      [
        ['hijos.0.numero', true],
        ['hijos.0.edad', true],
        ['hijos.1.numero', false],
        ['hijos.1.edad', false],
      ]
    )
    const result = await validateSubmission(form, { hijos: rows }, { case: 'new', runner })
    assert.deepEqual(
      result.missing.map((m) => m.field),
      ['hijos.1.nombre']
    )
  })
})

/** A dynamic matrix, a matrix of fixed rows and a dynamic panel. */
const SURVEY = {
  elements: [
    { type: 'text', name: 'pais' },
    {
      type: 'matrixdynamic',
      name: 'compras',
      title: 'Compras',
      minRowCount: 1,
      maxRowCount: 4,
      addRowText: 'Otra compra',
      choices: ['Centro', 'Norte'],
      columns: [
        { name: 'producto', title: 'Producto', cellType: 'text', isRequired: true },
        { name: 'tienda', title: 'Tienda' },
        { name: 'otra', title: '¿Cuál?', cellType: 'text', visibleIf: "{row.tienda} = 'Norte' and {pais} <> 'CO'" },
        { name: 'pagos', title: 'Pagos', cellType: 'checkbox', choices: ['efectivo', 'tarjeta'] },
        { name: 'cantidad', title: 'Cantidad', cellType: 'text', inputType: 'number', totalType: 'sum' },
        { name: 'precio', title: 'Precio', cellType: 'text', inputType: 'number' },
        { name: 'total', cellType: 'expression', expression: '{row.cantidad} * {row.precio}' },
      ],
    },
    {
      type: 'matrixdropdown',
      name: 'semana',
      rows: [
        { value: 'lu', text: 'Lunes' },
        { value: 'ma', text: 'Martes' },
      ],
      columns: [{ name: 'horas', cellType: 'text', inputType: 'number' }],
    },
    {
      type: 'paneldynamic',
      name: 'hijos',
      minPanelCount: 1,
      maxPanelCount: 2,
      templateTitle: 'Hijo #{panelIndex}',
      templateElements: [
        { type: 'text', name: 'nombre', isRequired: true },
        { type: 'boolean', name: 'estudia', visibleIf: '{panel.nombre} notempty' },
      ],
    },
  ],
}

test.group('importers: SurveyJS repeated questions become repeating groups', (group) => {
  let runner: ScriptRunner
  group.setup(async () => {
    runner = asRunner(await createSandbox())
    return () => runner.dispose()
  })

  test('matrixdynamic: typed cells from cellType, the matrix’s choices, required cells and row counts', ({
    assert,
  }) => {
    const result = importSurveyJs(SURVEY)
    assert.deepEqual(validateConfig(result.config), [])
    const compras = itemOf(result, 'compras')
    assert.equal(compras.type, 'repeat')
    assert.include(compras.data, { min_rows: 1, max_rows: 4, add_text: 'Otra compra' })
    assert.deepEqual(
      cellsOf(compras.data).map((c) => [c.field_name, c.type, c.data.validate?.required === true]),
      [
        ['producto', 'text', true],
        ['tienda', 'select', false],
        ['otra', 'text', false],
        ['pagos', 'list', false],
        ['cantidad', 'number', false],
        ['precio', 'number', false],
        ['total', 'number', false],
      ]
    )
    assert.equal(cell(compras.data, 'total').data.formule, 'row.cantidad * row.precio')
    assert.deepEqual(
      cell(compras.data, 'tienda').data.options.map((o: { id: string }) => o.id),
      ['Centro', 'Norte']
    )
    // The row's cell as row.x; the form's text compared as SurveyJS compares texts (case and spaces aside).
    assert.equal(
      cell(compras.data, 'otra').data.show_with_formule,
      'row.tienda == "Norte" && !(String(pais ?? "") == "" ? false : pais.trim().toLowerCase() == "co")'
    )
  })

  test('matrixdropdown: its fixed rows, captioned; paneldynamic: panel counts and {panel.x}', ({ assert }) => {
    const result = importSurveyJs(SURVEY)
    assert.include(itemOf(result, 'semana').data, { min_rows: 2, max_rows: 2 })
    assert.deepEqual(itemOf(result, 'semana').data.row_labels, ['Lunes', 'Martes'])
    const hijos = itemOf(result, 'hijos')
    assert.include(hijos.data, { min_rows: 1, max_rows: 2 })
    assert.equal(cell(hijos.data, 'estudia').data.show_with_formule, 'String(row.nombre ?? "") != ""')
  })

  test('what a group cannot hold is reported at its path', ({ assert }) => {
    const result = importSurveyJs(SURVEY)
    assert.deepEqual(unmappedPaths(result), ['/elements/1/columns/4/totalType', '/elements/3/templateTitle'])
    assert.equal(reasonAt(result, '/elements/3/templateTitle'), 'rows are captioned "Fila n"')
  })

  test('the imported conditions run per row in the sandbox', async ({ assert }) => {
    const form = withDefaults(importSurveyJs(SURVEY).config)
    const rows = [
      { tienda: 'Norte', cantidad: 2, precio: 3 },
      { tienda: 'Centro', cantidad: 1, precio: 5 },
    ]
    const evaluation = await evaluateForm(form, { pais: 'AR', compras: rows, hijos: [{ nombre: 'Eva' }] }, { runner })
    assert.deepEqual(evaluation.failures, [])
    // The expression column computed in each row.
    assert.deepEqual(
      (evaluation.values.compras as { total: unknown }[]).map((r) => r.total),
      [6, 5]
    )
    assert.isTrue(evaluation.conditions.get('compras.0.otra'))
    assert.isFalse(evaluation.conditions.get('compras.1.otra'))
    assert.isTrue(evaluation.conditions.get('hijos.0.estudia'))
  })
})
