import { test } from '@japa/runner'
import { asRunner, createSandbox, type ScriptRunner } from '@tramita/sandbox'
import { evaluateForm, validateConfig, withDefaults } from '../../src/index.js'
import { importForm, importFormio } from '../../src/importers/index.js'
import { formioWizard } from './fixtures/formio-wizard.js'
import { conditionOf, itemOf, layoutOf, reasonAt, unmappedPaths } from './helpers.js'

test.group('Form.io wizard: pages, layout, fields', () => {
  const result = importForm(formioWizard)

  test('is detected as Form.io and passes validateConfig', ({ assert }) => {
    assert.equal(result.format, 'formio')
    assert.equal(result.config.form!.display, 'wizard')
    assert.deepEqual(validateConfig(result.config), [])
  })

  test('each top-level panel is a page; columns share a row, one entry of each column per row', ({ assert }) => {
    assert.deepEqual(layoutOf(result), [
      {
        name: 'Datos del solicitante',
        layout: [['nombreCompleto', 'documento'], ['email'], ['tipo'], ['cual'], ['dias'], ['nota'], ['codigo']],
      },
      { name: 'Soportes', layout: [['acompanantes'], ['adjuntos'], ['firma'], ['acepto'], ['submit']] },
    ])
    assert.equal(itemOf(result, 'nombreCompleto').data.width, 6)
    assert.equal(itemOf(result, 'documento').data.width, 6)
    assert.isUndefined(itemOf(result, 'tipo').data.width)
  })

  test('types, labels and required flags', ({ assert }) => {
    const expected: [string, string, string, boolean][] = [
      ['nombreCompleto', 'text', 'Nombre completo', true],
      ['email', 'email', 'Correo', false],
      ['documento', 'text', 'Documento', false],
      ['tipo', 'select', 'Tipo de permiso', true],
      ['cual', 'textarea', '¿Cuál?', false],
      ['dias', 'number', 'Días', false],
      ['acompanantes', 'repeat', 'Acompañantes', false],
      ['adjuntos', 'file', 'Adjuntos', false],
      ['firma', 'signature', 'Firma', true],
      ['acepto', 'checkbox', 'Acepto', false],
    ]
    for (const [name, type, label, required] of expected) {
      const item = itemOf(result, name)
      assert.equal(item.type, type, name)
      assert.equal(item.data.label.value, label, name)
      assert.equal(item.data.validate?.required === true, required, name)
    }
  })

  test('settings: placeholder, limit, mask, pattern, tooltip, options, bounds, rows', ({ assert }) => {
    assert.deepEqual(itemOf(result, 'nombreCompleto').data.ref, {
      limit: 80,
      placeholder: 'Como aparece en el documento',
    })
    assert.deepEqual(itemOf(result, 'documento').data.ref, {
      pattern: '[0-9.]+',
      mask: '###.###.###',
      min_length: 6,
      tooltip: 'Sin puntos ni espacios',
    })
    assert.deepEqual(itemOf(result, 'tipo').data.options, [
      { id: 'vacaciones', label: 'Vacaciones' },
      { id: 'licencia', label: 'Licencia' },
      { id: 'otro', label: 'Otro' },
    ])
    assert.deepEqual(itemOf(result, 'dias').data.limit, { min: 1, max: 30 })
    assert.deepEqual(itemOf(result, 'dias').data.decimals, { enabled: false, significant: 0 })
    assert.equal(itemOf(result, 'cual').data.rows, 3)
  })

  test('a data grid is a repeating group whose components are its typed cells', ({ assert }) => {
    assert.deepEqual(
      itemOf(result, 'acompanantes').data.cells.map((c: { field_name: string; type: string }) => [
        c.field_name,
        c.type,
      ]),
      [
        ['nombre', 'text'],
        ['edad', 'number'],
        ['menor', 'checkbox'],
      ]
    )
  })

  test('file and signature keep their limits, extensions and height; the submit button is a send element', ({
    assert,
  }) => {
    const file = itemOf(result, 'adjuntos')
    assert.equal(file.data.ref.limit, -1)
    assert.deepEqual(file.data.ext, ['pdf', 'jpg'])
    assert.equal(itemOf(result, 'firma').data.height, 150)
    assert.deepEqual(itemOf(result, 'submit'), {
      field_name: 'submit',
      type: 'send',
      data: { value: 'Enviar solicitud' },
    })
  })

  test('conditions: simple, negated and custom ones translate to JavaScript', ({ assert }) => {
    assert.equal(conditionOf(result, 'cual'), 'tipo == "otro"')
    assert.equal(conditionOf(result, 'firma'), 'tipo != "vacaciones"')
    assert.equal(conditionOf(result, 'nota'), "dias > 10 && tipo !== 'licencia'")
    assert.isUndefined(conditionOf(result, 'codigo'))
  })

  test('unmapped lists what the jsonconfig cannot hold, with its source path', ({ assert }) => {
    assert.deepEqual(unmappedPaths(result), [
      '/title',
      '/components/1/components/1/filePattern',
      '/components/1/components/1/fileMaxSize',
      '/components/1/components/3',
      '/components/0/components/5/customConditional',
    ])
    assert.equal(reasonAt(result, '/components/1/components/3'), 'no equivalent for the Form.io component "address"')
    assert.equal(
      reasonAt(result, '/components/0/components/5/customConditional'),
      'not translated: it reads `row`, which only Form.io provides'
    )
    assert.equal(
      reasonAt(result, '/components/1/components/1/filePattern'),
      'only extensions can be allowed, not image/png'
    )
  })
})

test.group('Form.io form: containers and their conditions', () => {
  const form = {
    display: 'form',
    components: [
      { type: 'checkbox', key: 'extra', label: 'Datos extra' },
      {
        type: 'selectboxes',
        key: 'temas',
        label: 'Temas',
        values: [
          { label: 'Arte', value: 'arte' },
          { label: 'Ciencia', value: 'ciencia' },
        ],
      },
      {
        type: 'panel',
        key: 'detalle',
        title: 'Detalle',
        conditional: { show: 'true', when: 'extra', eq: 'true' },
        components: [
          { type: 'textfield', key: 'obra', label: 'Obra', conditional: { show: true, when: 'temas', eq: 'arte' } },
          {
            type: 'fieldset',
            key: 'lugar',
            legend: 'Lugar',
            hidden: true,
            components: [{ type: 'textfield', key: 'sitio', label: 'Sitio' }],
          },
        ],
      },
      {
        type: 'columns',
        key: 'cols',
        columns: [
          { width: 4, components: [{ type: 'textfield', key: 'a', label: 'A' }] },
          {
            width: 8,
            components: [
              { type: 'textfield', key: 'b', label: 'B' },
              { type: 'textfield', key: 'c', label: 'C', disabled: true },
            ],
          },
        ],
      },
      {
        type: 'columns',
        key: 'cols2',
        columns: [
          { width: 6, components: [] },
          { width: 6, components: [{ type: 'day', key: 'dia', label: 'Día' }] },
        ],
      },
      {
        type: 'table',
        key: 'grilla',
        numCols: 2,
        rows: [
          [
            { components: [{ type: 'time', key: 'desde', label: 'Desde' }] },
            { components: [{ type: 'time', key: 'hasta', label: 'Hasta' }] },
          ],
        ],
      },
      {
        type: 'tabs',
        key: 'pestanas',
        components: [
          { label: 'Uno', key: 'uno', components: [{ type: 'phoneNumber', key: 'tel', label: 'Teléfono' }] },
          {
            label: 'Dos',
            key: 'dos',
            components: [{ type: 'currency', key: 'monto', label: 'Monto', currency: 'COP' }],
          },
        ],
      },
      { type: 'well', key: 'w', components: [{ type: 'content', key: 'aviso', html: '<p>Aviso</p>' }] },
      { type: 'hidden', key: 'origen', label: 'Origen' },
      { type: 'button', key: 'limpiar', label: 'Limpiar', action: 'reset' },
    ],
  }
  const result = importFormio(form)

  test('one page in form display; no send button is added to a form that has none', ({ assert }) => {
    assert.equal(result.config.form!.display, 'form')
    assert.deepEqual(layoutOf(result), [
      {
        name: 'Página 1',
        layout: [
          ['extra'],
          ['temas'],
          ['detalle'],
          ['obra'],
          ['lugar'],
          ['sitio'],
          ['a', 'b'],
          ['spacer', 'c'],
          ['spacer_2', 'dia'],
          ['desde', 'hasta'],
          ['uno'],
          ['tel'],
          ['dos'],
          ['monto'],
          ['aviso'],
        ],
      },
    ])
    assert.deepEqual(validateConfig(result.config), [])
  })

  test('widths come from the columns; spacers keep a later column in its place', ({ assert }) => {
    assert.equal(itemOf(result, 'a').data.width, 4)
    assert.equal(itemOf(result, 'b').data.width, 8)
    assert.deepEqual(itemOf(result, 'spacer'), { field_name: 'spacer', type: 'separate', data: { width: 4 } })
    assert.equal(itemOf(result, 'desde').data.width, 6)
  })

  test('container titles become headings; conditions and hidden pass to what is inside', ({ assert }) => {
    assert.deepEqual(itemOf(result, 'detalle').data, { value: '### Detalle', show_with_formule: 'extra' })
    assert.equal(conditionOf(result, 'obra'), 'extra && temas.includes("arte")')
    assert.equal(conditionOf(result, 'sitio'), 'extra')
    assert.deepEqual(itemOf(result, 'sitio').state, { show: false })
    assert.deepEqual(itemOf(result, 'lugar').state, { show: false })
    assert.deepEqual(itemOf(result, 'c').state, { natural: 'disabled' })
  })

  test('other types: list, date, time, celular, money, content as text, var', ({ assert }) => {
    assert.deepEqual(itemOf(result, 'temas').data.multiple, true)
    assert.equal(itemOf(result, 'temas').type, 'list')
    assert.equal(itemOf(result, 'dia').type, 'date')
    assert.equal(itemOf(result, 'desde').type, 'time')
    assert.equal(itemOf(result, 'tel').type, 'celular')
    assert.equal(itemOf(result, 'monto').type, 'money')
    assert.deepEqual(itemOf(result, 'monto').data.money, { currency: 'COP' })
    assert.deepEqual(itemOf(result, 'aviso').data, { value: 'Aviso' })
    assert.equal(itemOf(result, 'aviso').type, 'text')
    assert.deepEqual(itemOf(result, 'origen').data, { var_type: 'text', label: { value: 'Origen' } })
  })

  test('a reset button is unmapped', ({ assert }) => {
    assert.deepEqual(result.unmapped, [
      { path: '/components/9', reason: 'a button with action "reset" has no equivalent' },
    ])
  })
})

test.group('Form.io details', () => {
  test('keys become unique identifiers and conditions follow the renamed fields', ({ assert }) => {
    const result = importFormio({
      components: [
        { type: 'textfield', key: 'tipo de cliente', label: 'Tipo' },
        { type: 'textfield', key: 'class', label: 'Clase' },
        { type: 'textfield', key: '1er nombre', label: 'Nombre' },
        { type: 'textfield', key: 'class', label: 'Otra clase' },
        { type: 'textfield', key: 'x', conditional: { show: true, when: 'tipo de cliente', eq: 'vip' } },
        { type: 'textfield', key: 'y', customConditional: "show = data['1er nombre'] != '' && data.class == 'a'" },
      ],
    })
    assert.deepEqual(
      result.config.fields!.map((f) => f!.field_name),
      ['tipo_de_cliente', 'class_', '_1er_nombre', 'class__2', 'x', 'y']
    )
    assert.equal(conditionOf(result, 'x'), 'tipo_de_cliente == "vip"')
    assert.equal(conditionOf(result, 'y'), "_1er_nombre != '' && class_ == 'a'")
    assert.deepEqual(validateConfig(result.config), [])
  })

  test('the newer conditional format with "any" and "all"', ({ assert }) => {
    const result = importFormio({
      components: [
        { type: 'number', key: 'edad' },
        { type: 'textfield', key: 'pais' },
        {
          type: 'textfield',
          key: 'any',
          conditional: {
            show: true,
            conjunction: 'any',
            conditions: [
              { component: 'edad', operator: 'greaterThanOrEqual', value: 18 },
              { component: 'pais', operator: 'isEmpty' },
            ],
          },
        },
        {
          type: 'textfield',
          key: 'none',
          conditional: {
            show: false,
            conjunction: 'all',
            conditions: [
              { component: 'pais', operator: 'isEqual', value: 'CO' },
              { component: 'edad', operator: 'lessThan', value: 5 },
            ],
          },
        },
        {
          type: 'textfield',
          key: 'odd',
          conditional: { show: true, conditions: [{ component: 'edad', operator: 'isDateBetween', value: 1 }] },
        },
      ],
    })
    assert.equal(conditionOf(result, 'any'), 'String(edad ?? "") != "" && edad >= 18 || pais == ""')
    assert.equal(conditionOf(result, 'none'), '!(pais == "CO" && String(edad ?? "") != "" && edad < 5)')
    assert.isUndefined(conditionOf(result, 'odd'))
    assert.deepEqual(result.unmapped, [
      { path: '/components/4/conditional/conditions/0', reason: 'the operator "isDateBetween" has no translation' },
    ])
    assert.deepEqual(validateConfig(result.config), [])
  })

  test('calculateValue becomes a formula, a JSON Logic condition an expression; unknown keys are unmapped', ({
    assert,
  }) => {
    const result = importFormio({
      components: [
        { type: 'number', key: 'precio' },
        { type: 'number', key: 'cantidad' },
        { type: 'number', key: 'total', calculateValue: 'value = data.precio * data.cantidad;' },
        { type: 'number', key: 'iva', calculateValue: 'value = data.total * tasa;' },
        { type: 'textfield', key: 'j', conditional: { json: { '==': [{ var: 'data.precio' }, 1] } } },
        { type: 'textfield', key: 'k', conditional: { show: true, when: 'nadie', eq: '1' } },
      ],
    })
    assert.equal(itemOf(result, 'total').data.formule, 'precio * cantidad')
    assert.isUndefined(itemOf(result, 'iva').data.formule)
    // An empty number is null to JSON Logic's `var`.
    assert.equal(conditionOf(result, 'j'), '(String(precio ?? "") == "" ? null : precio) == 1')
    assert.deepEqual(result.unmapped, [
      { path: '/components/3/calculateValue', reason: 'not translated: it reads `tasa`, which only Form.io provides' },
      { path: '/components/5/conditional/when', reason: '"nadie" is not a field of the form' },
    ])
    assert.deepEqual(validateConfig(result.config), [])
  })

  test('a script with statements is carried whole unless it needs what only Form.io has', ({ assert }) => {
    const script = (code: string) => ({ type: 'textfield', key: 'k', customConditional: code })
    const result = importFormio({
      components: [
        { type: 'number', key: 'n' },
        { type: 'textfield', key: 'ok', customConditional: 'var a = data.n * 2; if (a > 3) { show = false; }' },
        { ...script('show = _.isEmpty(data.n); var x = 1;'), key: 'lodash' },
        { ...script('data.n = 3; show = true;'), key: 'writes' },
        { ...script('var k = "n"; show = data[k] > 1;'), key: 'dynamic' },
        { ...script('show = row.n > 1; var x = 1;'), key: 'row' },
        { type: 'number', key: 'calc', calculateValue: 'if (!value) { value = data.n; }' },
      ],
    })
    assert.match(
      String(conditionOf(result, 'ok')),
      /^\(function \(\) \{\nvar data = \{ "n": String\(n \?\? ""\) == "" \? null : n \};/
    )
    // Formulas resolve before conditions.
    assert.deepEqual(result.unmapped, [
      {
        path: '/components/6/calculateValue',
        reason: "not translated: it reads the field's own value before setting it",
      },
      { path: '/components/2/customConditional', reason: 'not translated: it reads `_`, which only Form.io provides' },
      { path: '/components/3/customConditional', reason: 'not translated: it writes into `data`' },
      { path: '/components/4/customConditional', reason: 'not translated: it reads `data` other than as data.key' },
      {
        path: '/components/5/customConditional',
        reason: 'not translated: it reads `row`, which only Form.io provides',
      },
    ])
    assert.deepEqual(validateConfig(result.config), [])
  })

  test('logic: what has an equivalent becomes actions, the rest is reported', ({ assert }) => {
    const prop = (value: string, state: unknown) => ({ type: 'property', property: { value, type: 'boolean' }, state })
    const simple = { type: 'simple', simple: { show: true, when: 'n', eq: '1' } }
    const result = importFormio({
      components: [
        { type: 'number', key: 'n' },
        {
          type: 'textfield',
          key: 'x',
          logic: [
            {
              trigger: simple,
              actions: [prop('disabled', true), prop('hidden', true), { type: 'mergeComponentSchema' }],
            },
            { trigger: { type: 'event', event: 'go' }, actions: [prop('validate.required', true)] },
            { trigger: simple, actions: [prop('validate.required', true)] },
          ],
        },
      ],
    })
    const actions = result.config.validations?.actions as { name: string; onevent: boolean; actions: unknown[] }[]
    assert.deepEqual(
      actions.map((a) => [a.name, a.onevent, a.actions]),
      [
        ['x_logic_1', true, [{ type: 'set_state', config: { fields: ['x'], natural: 'disabled' } }]],
        ['x_logic_1_off', true, [{ type: 'set_state', config: { fields: ['x'], natural: 'enabled' } }]],
      ]
    )
    assert.deepEqual((itemOf(result, 'n') as { events?: object }).events, { on_change: ['x_logic_1', 'x_logic_1_off'] })
    assert.deepEqual(result.unmapped, [
      { path: '/components/1/logic/0/actions/1', reason: 'the property "hidden" has no equivalent' },
      { path: '/components/1/logic/0/actions/2', reason: 'the action "mergeComponentSchema" has no equivalent' },
      { path: '/components/1/logic/1/trigger', reason: 'the trigger "event" has no equivalent' },
      {
        path: '/components/1/logic/2/actions/0',
        reason: 'the property "validate.required" is set by more than one logic entry; their order decides',
      },
    ])
    assert.deepEqual(validateConfig(result.config), [])
  })

  test('a conditional field another condition reads is reported: Form.io empties it while hidden', ({ assert }) => {
    const chain = (clearOnHide?: boolean) =>
      importFormio({
        components: [
          { type: 'textfield', key: 't' },
          { type: 'textfield', key: 'b', clearOnHide, conditional: { show: true, when: 't', eq: 'x' } },
          { type: 'textfield', key: 'c', conditional: { show: true, when: 'b', eq: 'y' } },
        ],
      })
    assert.deepEqual(unmappedPaths(chain()), ['/components/1/clearOnHide'])
    assert.deepEqual(unmappedPaths(chain(false)), [])
  })

  test('a disabled or hidden container disables or hides everything inside it', ({ assert }) => {
    const result = importFormio({
      display: 'wizard',
      components: [
        {
          type: 'panel',
          key: 'p1',
          title: 'Uno',
          disabled: true,
          components: [{ type: 'well', key: 'w', hidden: true, components: [{ type: 'textfield', key: 'a' }] }],
        },
        { type: 'panel', key: 'p2', components: [{ type: 'textfield', key: 'b' }] },
      ],
    })
    assert.deepEqual(itemOf(result, 'a').state, { show: false, natural: 'disabled' })
    assert.isUndefined(itemOf(result, 'b').state)
    assert.deepEqual(layoutOf(result), [
      { name: 'Uno', layout: [['a']] },
      { name: 'p2', layout: [['b'], ['send']] },
    ])
    assert.deepEqual(validateConfig(result.config), [])
  })

  test('a survey is one radios field per question; a select from a URL keeps no options', ({ assert }) => {
    const result = importFormio({
      components: [
        {
          type: 'survey',
          key: 'servicio',
          label: 'Servicio',
          validate: { required: true },
          questions: [
            { label: 'Rapidez', value: 'rapidez' },
            { label: 'Amabilidad', value: 'amabilidad' },
          ],
          values: [
            { label: 'Malo', value: 'malo' },
            { label: 'Bueno', value: 'bueno' },
          ],
        },
        { type: 'select', key: 'pais', dataSrc: 'url', data: { url: 'https://example.com/paises' } },
        { type: 'textfield', key: 'nota', conditional: { show: true, when: 'servicio.rapidez', eq: 'malo' } },
      ],
    })
    const rapidez = itemOf(result, 'servicio_rapidez')
    assert.equal(rapidez.type, 'radios')
    assert.equal(rapidez.data.label.value, 'Servicio: Rapidez')
    assert.deepEqual(rapidez.data.validate, { required: true })
    assert.deepEqual(rapidez.data.options, [
      { id: 'malo', label: 'Malo' },
      { id: 'bueno', label: 'Bueno' },
    ])
    assert.deepEqual(itemOf(result, 'pais').data.options, [])
    assert.equal(conditionOf(result, 'nota'), 'servicio_rapidez == "malo"')
    assert.deepEqual(unmappedPaths(result), ['/components/1/dataSrc', '/components/1/valueProperty'])
    assert.deepEqual(validateConfig(result.config), [])
  })
})

test.group('Form.io: translated conditions run in the sandbox', (group) => {
  let runner: ScriptRunner
  group.setup(async () => {
    runner = asRunner(await createSandbox())
    return () => runner.dispose()
  })

  test('the wizard shows what Form.io would show', async ({ assert }) => {
    const config = withDefaults(importFormio(formioWizard).config)
    const other = await evaluateForm(config, { tipo: 'otro', dias: 12 }, { runner })
    assert.deepEqual(other.failures, [])
    assert.isTrue(other.conditions.get('cual'))
    assert.isTrue(other.conditions.get('nota'))
    assert.isTrue(other.conditions.get('firma'))
    const holidays = await evaluateForm(config, { tipo: 'vacaciones', dias: 3 }, { runner })
    assert.isFalse(holidays.conditions.get('cual'))
    assert.isFalse(holidays.conditions.get('nota'))
    assert.isFalse(holidays.conditions.get('firma'))
  })

  test('a simple conditional without `show` shows the field when the value differs, as Form.io does', async ({
    assert,
  }) => {
    const result = importFormio({
      components: [
        { type: 'textfield', key: 'tipo' },
        { type: 'textfield', key: 'otro', conditional: { when: 'tipo', eq: 'a' } },
        // The simple format wins over JSON Logic beside it, as in Form.io.
        { type: 'textfield', key: 'mixto', conditional: { show: true, when: 'tipo', eq: 'a', json: { '==': [1, 1] } } },
      ],
    })
    assert.deepEqual(result.unmapped, [])
    const config = withDefaults(result.config)
    const equal = await evaluateForm(config, { tipo: 'a' }, { runner })
    assert.isFalse(equal.conditions.get('otro'))
    assert.isTrue(equal.conditions.get('mixto'))
    const other = await evaluateForm(config, { tipo: 'b' }, { runner })
    assert.isTrue(other.conditions.get('otro'))
    assert.isFalse(other.conditions.get('mixto'))
  })

  test('select boxes and checkboxes read as Form.io stores them here', async ({ assert }) => {
    const result = importFormio({
      components: [
        { type: 'checkbox', key: 'extra' },
        { type: 'selectboxes', key: 'temas', values: [{ label: 'Arte', value: 'arte' }] },
        { type: 'textfield', key: 'obra', conditional: { show: true, when: 'temas', eq: 'arte' } },
        { type: 'textfield', key: 'sin', conditional: { show: false, when: 'extra', eq: 'true' } },
      ],
    })
    const config = withDefaults(result.config)
    const run = await evaluateForm(config, { extra: true, temas: ['arte'] }, { runner })
    assert.isTrue(run.conditions.get('obra'))
    assert.isFalse(run.conditions.get('sin'))
    const empty = await evaluateForm(config, { extra: false, temas: [] }, { runner })
    assert.isFalse(empty.conditions.get('obra'))
    assert.isTrue(empty.conditions.get('sin'))
  })

  test("a container's fields read through its key; a select from a URL read as Form.io's item", async ({ assert }) => {
    const pais = { type: 'select', key: 'pais', dataSrc: 'url', data: { url: 'https://example.com/paises' } }
    const result = importFormio({
      components: [
        { type: 'container', key: 'banco', components: [pais, { type: 'number', key: 'cuotas' }] },
        // An expression and a script with statements, each through the container.
        { type: 'textfield', key: 'iban', customConditional: 'show = ["ES", "FR"].includes(data.banco.pais.value);' },
        {
          type: 'textfield',
          key: 'swift',
          customConditional:
            'var fuera = data.banco.pais.value !== undefined && data.banco.pais.value !== "ES"; show = fuera;',
        },
        { type: 'number', key: 'doble', calculateValue: 'value = data.banco.cuotas * 2;' },
        // Not translated: the item's label is not in the form. The item as a whole is an object ({} when empty).
        { type: 'textfield', key: 'nombre', customConditional: 'show = data.banco.pais.label === "España";' },
        { type: 'textfield', key: 'entero', customConditional: 'show = !!data.banco.pais;' },
        { type: 'textfield', key: 'igual', conditional: { show: true, when: 'banco.pais', eq: 'ES' } },
      ],
    })
    const reasons = Object.fromEntries(result.unmapped.map((u) => [u.path, u.reason]))
    assert.match(reasons['/components/4/customConditional']!, /holds the chosen item, read other than as \.value/)
    assert.notProperty(reasons, '/components/5/customConditional')
    assert.match(reasons['/components/6/conditional/when']!, /holds the chosen item as an object/)
    assert.match(reasons['/components/0/components/0/valueProperty']!, /whole chosen item/)
    const config = withDefaults(result.config)
    const spain = await evaluateForm(config, { pais: 'ES', cuotas: 4 }, { runner })
    assert.deepEqual(spain.failures, [])
    assert.isTrue(spain.conditions.get('iban'))
    assert.isFalse(spain.conditions.get('swift'))
    assert.equal(spain.values.doble, 8)
    const none = await evaluateForm(config, { pais: '' }, { runner })
    assert.isTrue(none.conditions.get('entero'))
    assert.isFalse(none.conditions.get('iban'))
    assert.isFalse(none.conditions.get('swift'))
    const peru = await evaluateForm(config, { pais: 'PE' }, { runner })
    assert.isFalse(peru.conditions.get('iban'))
    assert.isTrue(peru.conditions.get('swift'))
  })
})
