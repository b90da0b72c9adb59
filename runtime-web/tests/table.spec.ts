import { test } from '@japa/runner'
import { constructTable, tableFeatures, type PaginationState } from '@tanstack/react-table'
// Outside React the table needs a reactivity binding; useTable brings React's own.
import { storeReactivityBindings } from '@tanstack/table-core/store-reactivity-bindings'
import { coreRegistry, withDefaults } from '@tramita/contract'
import { asRunner, createSandbox, type ScriptRunner } from '@tramita/sandbox'
import { FormStore, type ActionContext } from '../src/form/store.js'
import {
  editorValue,
  iconGlyph,
  pageSizes,
  parseEditor,
  readTableConfig,
  rowIds,
  showCell,
  withCell,
  type Row,
  type TableColumnConfig,
} from '../src/form/renderers/fields/table/cells.js'
import {
  conditionHolds,
  evaluateTable,
  runButtonAction,
  buttonKey,
  runPerRow,
} from '../src/form/renderers/fields/table/formulas.js'
import {
  buildColumnDefs,
  buildRecords,
  leafCount,
  searchable,
  searchFilter,
  shownFormula,
  TABLE_FEATURES,
} from '../src/form/renderers/fields/table/model.js'

const column = (over: Partial<Record<string, unknown>>): TableColumnConfig =>
  readTableConfig({ columns: [{ name: 'c', ...over }] }).columns[0]!

const NODE_FEATURES = tableFeatures({ ...TABLE_FEATURES, coreReactivityFeature: storeReactivityBindings() })

const TEXTS = {
  yes: 'Sí',
  no: 'No',
  invalidDate: 'Fecha inválida',
  invalidNumber: 'Número inválido',
  missing: (name: string) => `No se encontró la variable ${name}`,
  computing: '…',
}

test.group('table cells: what they show', () => {
  test('numbers follow their format; what is not a number reads Número inválido', ({ assert }) => {
    assert.equal(showCell(column({ type: 'number' }), 1234.5, 'en').text, '1,234.5')
    assert.equal(showCell(column({ type: 'number' }), '12,5', 'es').text, '12,5')
    assert.equal(showCell(column({ type: 'number', format: '0.00' }), 3, 'en').text, '3.00')
    assert.equal(showCell(column({ type: 'number', format: '#,##0.0' }), 12345.67, 'en').text, '12,345.7')
    assert.equal(showCell(column({ type: 'number', format: 'percent' }), 0.25, 'en').text, '25%')
    assert.match(showCell(column({ type: 'number', format: 'money' }), 1500, 'en').text, /^\$\s?1\.500$/)
    assert.deepEqual(showCell(column({ type: 'number' }), 'doce', 'es'), { text: 'Número inválido', invalid: true })
    assert.equal(showCell(column({ type: 'number' }), '', 'es').text, '')
  })

  test('dates show as written or by their format; what is not a date reads Fecha inválida', ({ assert }) => {
    assert.equal(showCell(column({ type: 'date' }), '2026-03-04', 'es').text, '2026-03-04')
    assert.equal(showCell(column({ type: 'date' }), '2026-03-04T08:30', 'es').text, '2026-03-04 08:30')
    assert.equal(
      showCell(column({ type: 'date', format: 'DD/MM/YYYY HH:mm' }), '2026-03-04T08:30', 'es').text,
      '04/03/2026 08:30'
    )
    assert.deepEqual(showCell(column({ type: 'date' }), '2026-02-30', 'es'), { text: 'Fecha inválida', invalid: true })
    assert.deepEqual(showCell(column({ type: 'date' }), 'ayer', 'es'), { text: 'Fecha inválida', invalid: true })
  })

  test('booleans show their display rule (text, colour, icon) or yes/no', ({ assert }) => {
    const rule = column({
      type: 'boolean',
      display: {
        true: { text: 'Activo', color: '#00aa00', icon: 'check' },
        false: { text: 'Inactivo', color: '#aa0000' },
      },
    })
    assert.deepEqual(showCell(rule, true, 'es'), { text: 'Activo', color: '#00aa00', icon: 'check' })
    assert.deepEqual(showCell(rule, 'false', 'es'), { text: 'Inactivo', color: '#aa0000', icon: undefined })
    assert.equal(showCell(column({ type: 'boolean' }), 1, 'es', TEXTS).text, 'Sí')
    assert.equal(showCell(column({ type: 'boolean' }), null, 'es', TEXTS).text, 'No')
    assert.equal(iconGlyph('mdi-check'), '✓')
    assert.equal(iconGlyph('★'), '★')
    assert.equal(iconGlyph('unknown-icon-name'), '')
  })

  test('text goes through its mask', ({ assert }) => {
    assert.equal(showCell(column({ mask: '###-####' }), '5551234', 'es').text, '555-1234')
    assert.equal(showCell(column({}), { a: 1 }, 'es').text, '{"a":1}')
  })
})

test.group('table cells: editing', () => {
  test('an edited number steps as a number; bad input reads invalid_number', ({ assert }) => {
    const n = column({ type: 'number', editable: true })
    assert.deepEqual(parseEditor(n, '7'), { ok: true, value: 7 })
    assert.deepEqual(parseEditor(n, '7,5'), { ok: true, value: 7.5 })
    assert.deepEqual(parseEditor(n, ''), { ok: true, value: '' })
    assert.deepEqual(parseEditor(n, 'x'), { ok: false, message: 'invalid_number' })
    assert.deepEqual(parseEditor(n, '', true), { ok: false, message: 'invalid_number' })
    assert.equal(editorValue(n, '12,5'), '12.5')
    assert.equal(editorValue(n, 'nada'), '')
  })

  test('an edited date is a datetime-local value; a bad one reads invalid_date', ({ assert }) => {
    const d = column({ type: 'date', editable: true })
    assert.deepEqual(parseEditor(d, '2026-05-06T07:08'), { ok: true, value: '2026-05-06T07:08' })
    assert.deepEqual(parseEditor(d, '2026-13-01T00:00'), { ok: false, message: 'invalid_date' })
    assert.deepEqual(parseEditor(d, '', true), { ok: false, message: 'invalid_date' })
    assert.equal(editorValue(d, '2026-05-06'), '2026-05-06T00:00')
  })

  test('booleans, masked text, and the row list with one cell changed', ({ assert }) => {
    assert.deepEqual(parseEditor(column({ type: 'boolean' }), true), { ok: true, value: true })
    assert.deepEqual(parseEditor(column({ mask: '##/##' }), '1234'), { ok: true, value: '12/34' })
    const rows: Row[] = [{ a: 1 }, { a: 2 }]
    const next = withCell(rows, 1, 'a', 3)
    assert.deepEqual(next, [{ a: 1 }, { a: 3 }])
    assert.strictEqual(next[0], rows[0], 'untouched rows are shared')
    assert.deepEqual(rows[1], { a: 2 }, 'the old value is not changed')
  })

  test('row ids come from uniqueKey, falling back to the position when missing or repeated', ({ assert }) => {
    assert.deepEqual(rowIds([{ id: 7 }, { id: 7 }, {}, { id: 'x' }], 'id'), ['k:7', 'i:1', 'i:2', 'k:x'])
  })

  test('pagination starts at 10 and offers 10, 20, 30; an odd start is offered too', ({ assert }) => {
    const defaults = readTableConfig({})
    assert.deepEqual(pageSizes(defaults.pagination), { initial: 10, offered: [10, 20, 30] })
    const odd = readTableConfig({ pagination: { start: 25, selectOptions: '10, x, 20,20' } })
    assert.deepEqual(pageSizes(odd.pagination), { initial: 25, offered: [10, 20, 25] })
    assert.equal(defaults.header_background, '#1C1066')
    assert.equal(defaults.uniqueKey, 'id')
  })
})

test.group('table formulas in the sandbox', (group) => {
  let runner: ScriptRunner
  group.setup(async () => {
    runner = asRunner(await createSandbox())
    return () => runner.dispose()
  })

  const config = readTableConfig({
    columns: [
      { name: 'precio', type: 'number' },
      { name: 'cantidad', type: 'number' },
      { name: 'total', type: 'formule', output: 'number', formule: 'precio * cantidad' },
      { name: 'iva', type: 'formule', output: 'number', formule: 'total * 0.19' },
      { name: 'mal', type: 'formule', output: 'number', formule: 'precio.no.existe' },
      { name: 'texto', type: 'formule', formule: 'throw new Error("x")' },
      { name: 'falta', type: 'formule', formule: 'descuento + 1' },
      {
        name: 'acciones',
        type: 'buttons',
        buttons: [
          { action: 'aprobar', text: 'Aprobar', formule: 'cantidad > 1', text_error: 'Solo con más de una' },
          { action: 'borrar', text: 'Borrar' },
        ],
      },
    ],
  })
  const rows: Row[] = [
    { precio: 10, cantidad: 2 },
    { precio: 5, cantidad: 1 },
  ]

  test('each row computes with its own cells; a formula reads an earlier formula column', async ({ assert }) => {
    const scripts = await evaluateTable(runner, config.columns, rows)
    assert.deepEqual(scripts.formulas.get('total'), [
      { ok: true, value: 20 },
      { ok: true, value: 5 },
    ])
    const iva = scripts.formulas.get('iva')!.map((o) => (o.ok ? o.value : null))
    assert.deepEqual(iva, [3.8, 0.95])
  })

  test("a failing formula shows '0' in a number column and 'Error' in others; a missing variable is named", async ({
    assert,
  }) => {
    const scripts = await evaluateTable(runner, config.columns, rows)
    const records = buildRecords(rows, config.columns, scripts, 'id', 'es', TEXTS)
    assert.equal(records[0]!.shown.mal!.text, '0')
    assert.equal(records[0]!.shown.texto!.text, 'Error')
    assert.equal(records[0]!.shown.falta!.text, 'No se encontró la variable descuento')
    assert.equal(records[0]!.shown.total!.text, '20')
    assert.equal(records[1]!.values.total, 5, 'what sorting reads is the result')
    // Before the sandbox answers, formula cells say so.
    assert.equal(buildRecords(rows, config.columns, undefined, 'id', 'es', TEXTS)[0]!.shown.total!.text, '…')
  })

  test('a number formula that gives no number shows 0; a runaway formula fails instead of hanging', async ({
    assert,
  }) => {
    const total = config.columns.find((c) => c.name === 'total')!
    assert.equal(shownFormula(total, { ok: true, value: 'abc' }, 'es', TEXTS).text, '0')
    const [loop] = await runPerRow(runner, 'while (true) {}', [{}], new Set())
    // The sandbox's time limit ends it (the suite's own timeout would catch a hang).
    assert.deepEqual(loop, { ok: false, reason: 'failed', message: 'the script ran past its deadline' })
  })

  test('a button is usable only when its condition holds; a failed condition counts as false', async ({ assert }) => {
    const scripts = await evaluateTable(runner, config.columns, rows)
    const [aprobar, borrar] = config.columns.find((c) => c.name === 'acciones')!.buttons
    const outcomes = scripts.buttons.get(buttonKey('acciones', 0))!
    assert.isTrue(conditionHolds(aprobar!, outcomes[0]))
    assert.isFalse(conditionHolds(aprobar!, outcomes[1]))
    assert.isFalse(conditionHolds(aprobar!, { ok: false, reason: 'failed', message: 'x' }))
    assert.isFalse(conditionHolds(aprobar!, { ok: true, value: 'true' }), 'only a boolean true unlocks')
    assert.isUndefined(conditionHolds(borrar!, undefined), 'no condition: nothing to hold')
    assert.isFalse(scripts.buttons.has(buttonKey('acciones', 1)))
  })
})

test.group('table model: search, sorting, grouping, pages', () => {
  const config = readTableConfig({
    columns: [
      { name: 'n', type: 'number' },
      { name: 'persona', label: 'Persona' },
      { name: 'area' },
      { name: 'activo', type: 'boolean' },
      { name: 'secreto', show: false },
    ],
    groupBy: 'area',
  })
  const rows: Row[] = Array.from({ length: 45 }, (_, i) => ({
    n: 45 - i,
    persona: i === 3 ? 'Revisión López' : `Persona ${i + 1}`,
    area: ['Norte', 'Sur', 'Este'][i % 3],
    activo: i % 2 === 0,
    secreto: 'clave',
  }))
  const records = buildRecords(rows, config.columns, undefined, 'id', 'es', TEXTS)

  function build(state: {
    globalFilter?: string
    grouping?: string[]
    pagination?: PaginationState
    sorting?: { id: string; desc: boolean }[]
  }) {
    return constructTable({
      features: NODE_FEATURES,
      columns: buildColumnDefs(config.columns, config.groupBy, 'es'),
      data: records,
      getRowId: (r) => r.id,
      globalFilterFn: searchFilter,
      getColumnCanGlobalFilter: (c) => searchable(config.columns).has(c.id),
      groupedColumnMode: false,
      state: {
        globalFilter: state.globalFilter ?? '',
        grouping: state.grouping ?? [],
        pagination: state.pagination ?? { pageIndex: 0, pageSize: 10 },
        sorting: state.sorting ?? [],
        expanded: true,
      },
    })
  }

  test('the search finds shown text, ignoring case and accents, never hidden columns', ({ assert }) => {
    const found = build({ globalFilter: 'revision', pagination: { pageIndex: 0, pageSize: 30 } })
    assert.deepEqual(
      found.getRowModel().rows.map((r) => r.original.row.persona),
      ['Revisión López']
    )
    assert.equal(build({ globalFilter: 'clave' }).getPrePaginatedRowModel().rows.length, 0)
    // 23 active rows show 'Sí'; 'Revisión' holds 'si' once the accent is ignored.
    assert.equal(build({ globalFilter: 'sí' }).getPrePaginatedRowModel().rows.length, 24, 'booleans by their text')
  })

  test('pages of 10, 20 and 30 rows', ({ assert }) => {
    for (const size of [10, 20, 30]) {
      const table = build({ pagination: { pageIndex: 0, pageSize: size } })
      assert.equal(table.getRowModel().rows.length, size)
      assert.equal(table.getPageCount(), Math.ceil(45 / size))
    }
    assert.equal(build({ pagination: { pageIndex: 4, pageSize: 10 } }).getRowModel().rows.length, 5)
  })

  test('sorting numbers as numbers', ({ assert }) => {
    const asc = build({ sorting: [{ id: 'n', desc: false }], pagination: { pageIndex: 0, pageSize: 3 } })
    assert.deepEqual(
      asc.getRowModel().rows.map((r) => r.original.row.n),
      [1, 2, 3]
    )
  })

  test('grouping by a column gives one group row per value with its rows under it', ({ assert }) => {
    const table = build({ grouping: ['area'], pagination: { pageIndex: 0, pageSize: 100 } })
    const groups = table.getRowModel().rows.filter((r) => r.getIsGrouped())
    assert.deepEqual(
      groups.map((g) => [g.getGroupingValue('area'), leafCount(g)]),
      [
        ['Norte', 15],
        ['Sur', 15],
        ['Este', 15],
      ]
    )
    assert.equal(table.getRowModel().rows.length, 48, 'groups expanded: 3 group rows and 45 rows')
  })
})

test.group('table buttons run the form actions', () => {
  test('a pressed button reaches the store with its row; one without an action does nothing', async ({ assert }) => {
    const calls: [string, ActionContext | undefined][] = []
    const store = new FormStore({
      config: withDefaults({
        form: { pages: [{ name: 'P', layout: [['t']] }] },
        fields: [{ field_name: 't', type: 'table' }],
      }),
      registry: coreRegistry(),
      mode: 'new',
      values: {},
      scripting: async () => {
        throw new Error('no scripts in this test')
      },
      actions: async () => ({
        run: async (name, context) => void calls.push([name, context]),
        started: async () => {},
        valuesChanged: () => {},
      }),
    })
    const button = readTableConfig({ headButtons: [{ action: 'aprobar' }, {}] }).headButtons
    await runButtonAction(store, button[0]!, { id: 3 })
    await runButtonAction(store, button[0]!)
    await runButtonAction(store, button[1]!, { id: 4 })
    assert.deepEqual(calls, [
      ['aprobar', { row: { id: 3 } }],
      ['aprobar', {}],
    ])
  })
})
