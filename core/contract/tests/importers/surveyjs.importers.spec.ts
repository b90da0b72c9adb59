import { test } from '@japa/runner'
import { asRunner, createSandbox, type ScriptRunner } from '@tramita/sandbox'
import {
  coreRegistry,
  declaredState,
  evaluateForm,
  initialValues,
  missingRequired,
  validateConfig,
  withDefaults,
} from '../../src/index.js'
import { importForm, importSurveyJs } from '../../src/importers/index.js'
import { surveyJsSurvey } from './fixtures/surveyjs-survey.js'
import { conditionOf, itemOf, layoutOf, reasonAt, unmappedPaths } from './helpers.js'

test.group('SurveyJS survey: pages, layout, questions', () => {
  const result = importForm(surveyJsSurvey)

  test('is detected as SurveyJS and passes validateConfig', ({ assert }) => {
    assert.equal(result.format, 'surveyjs')
    assert.equal(result.config.form!.display, 'wizard')
    assert.deepEqual(validateConfig(result.config), [])
  })

  test('pages keep their titles; startWithNewLine false joins the row; the send button closes the last page', ({
    assert,
  }) => {
    assert.deepEqual(layoutOf(result), [
      {
        name: 'Perfil',
        layout: [
          ['survey_title'],
          ['nombre', 'edad'],
          ['uso'],
          ['canales'],
          ['ciudad'],
          ['contacto'],
          ['correo', 'telefono'],
          ['acepta_contacto'],
        ],
      },
      {
        name: 'Opinión',
        layout: [
          ['satisfaccion'],
          ['motivo'],
          ['calidad_atencion'],
          ['calidad_precio'],
          ['compras'],
          ['recomendaria'],
          ['resumen'],
          ['send'],
        ],
      },
    ])
    assert.equal(itemOf(result, 'edad').data.width, 3)
    assert.equal(itemOf(result, 'nombre').data.width, 9)
    assert.equal(itemOf(result, 'correo').data.width, 6)
    assert.deepEqual(itemOf(result, 'send').data, { value: 'Enviar encuesta' })
    assert.deepEqual(itemOf(result, 'survey_title').data, {
      value: '## Satisfacción del cliente\n\nTres minutos, como mucho.',
    })
  })

  test('types, labels (Spanish first) and required flags', ({ assert }) => {
    const expected: [string, string, string, boolean][] = [
      ['nombre', 'text', 'Nombre', true],
      ['edad', 'number', 'Edad', false],
      ['uso', 'radios', '¿Con qué frecuencia usa el servicio?', true],
      ['canales', 'list', 'Canales que usa', false],
      ['ciudad', 'select', 'Ciudad', false],
      ['correo', 'email', 'Correo', false],
      ['telefono', 'celular', 'Teléfono', false],
      ['acepta_contacto', 'radios', '¿Podemos contactarle?', false],
      ['satisfaccion', 'level', 'Satisfacción general', true],
      ['motivo', 'textarea', '¿Qué podemos mejorar?', false],
      ['calidad_atencion', 'radios', 'Calidad: Atención', true],
      ['calidad_precio', 'radios', 'Calidad: Precio', true],
      ['compras', 'repeat', 'Compras recientes', false],
      ['resumen', 'text', 'Resumen', false],
    ]
    for (const [name, type, label, required] of expected) {
      const item = itemOf(result, name)
      assert.equal(item.type, type, name)
      assert.equal(item.data.label.value, label, name)
      assert.equal(item.data.validate?.required === true, required, name)
    }
  })

  test('choices, bounds, limits, rating levels and boolean texts', ({ assert }) => {
    assert.deepEqual(itemOf(result, 'uso').data.options, [
      { id: 'diario', label: 'A diario' },
      { id: 'semanal', label: 'Cada semana' },
      { id: 'nunca', label: 'nunca' },
    ])
    assert.isTrue(itemOf(result, 'canales').data.multiple)
    assert.deepEqual(itemOf(result, 'ciudad').data.options, [
      { id: 1, label: 'Bogotá' },
      { id: 2, label: 'Medellín' },
    ])
    assert.equal(itemOf(result, 'ciudad').data.placeholder, 'Elija una ciudad')
    assert.deepEqual(itemOf(result, 'edad').data.limit, { min: 18, max: 99 })
    assert.deepEqual(itemOf(result, 'nombre').data.ref, { limit: 60 })
    const rating = itemOf(result, 'satisfaccion').data
    assert.equal(rating.levels, 5)
    assert.deepEqual(
      rating.body.shape.map((s: { label: string }) => s.label),
      ['Nada', '', '', '', 'Mucho']
    )
    assert.deepEqual(itemOf(result, 'acepta_contacto').data.options, [
      { id: 'true', label: 'Sí' },
      { id: 'false', label: 'No' },
    ])
  })

  test('visibleIf becomes show_with_formule; page and panel conditions pass to their questions', ({ assert }) => {
    assert.equal(conditionOf(result, 'canales'), 'uso != "nunca"')
    assert.equal(conditionOf(result, 'correo'), 'acepta_contacto == "true"')
    assert.equal(conditionOf(result, 'contacto'), 'acepta_contacto == "true"')
    assert.equal(conditionOf(result, 'satisfaccion'), 'String(uso ?? "") != ""')
    assert.equal(
      conditionOf(result, 'motivo'),
      'String(uso ?? "") != "" && satisfaccion < 3 && canales.includes("app")'
    )
    assert.equal(conditionOf(result, 'recomendaria'), 'String(uso ?? "") != ""')
  })

  test('a matrix is one radios field per row; a dynamic matrix is a repeating group; an expression is a formula', ({
    assert,
  }) => {
    assert.deepEqual(itemOf(result, 'calidad_precio').data.options, [
      { id: 1, label: 'Mala' },
      { id: 2, label: 'Buena' },
    ])
    const compras = itemOf(result, 'compras').data
    assert.deepEqual(
      compras.cells.map((c: { field_name: string; type: string }) => [c.field_name, c.type]),
      [
        ['producto', 'text'],
        ['cantidad', 'number'],
        ['precio', 'number'],
        ['total', 'number'],
        ['tienda', 'select'],
      ]
    )
    // An expression column is a cell computed per row from its row.
    assert.equal(compras.cells[3].data.formule, 'row.cantidad * row.precio')
    assert.deepEqual(compras.cells[4].data.options, [
      { id: 'Centro', label: 'Centro' },
      { id: 'Norte', label: 'Norte' },
    ])
    const resumen = itemOf(result, 'resumen')
    assert.equal(resumen.data.formule, 'String((satisfaccion >= 4 ? "Satisfecho" : "Por mejorar") ?? "")')
    assert.deepEqual(resumen.state, { natural: 'readonly' })
  })

  test('unmapped lists what the jsonconfig cannot hold, untranslated expressions with their text', ({ assert }) => {
    assert.deepEqual(unmappedPaths(result), [
      '/pages/0/elements/3/showOtherItem',
      '/pages/1/elements/3/rowCount',
      '/pages/1/elements/6',
      '/triggers/0',
      '/pages/1/elements/4/visibleIf',
    ])
    assert.equal(
      reasonAt(result, '/pages/1/elements/4/visibleIf'),
      'not translated: the function age() has no translation ({calidad.precio} = 2 or age({nacimiento}) > 30)'
    )
    assert.equal(reasonAt(result, '/pages/1/elements/6'), 'no equivalent for the SurveyJS question "ranking"')
  })

  test('texts given in other languages become the items translations; the Spanish ones are the form texts', ({
    assert,
  }) => {
    const nombre = itemOf(result, 'nombre')
    assert.equal(nombre.data.label.value, 'Nombre')
    // The map's `default` is English (the survey sets no locale).
    assert.deepEqual(nombre.translations?.en, { 'label.value': 'Name' })
    const uso = itemOf(result, 'uso')
    assert.deepEqual(uso.translations?.en, { 'options.diario.label': 'Daily' })
    assert.isUndefined(itemOf(result, 'ciudad').translations?.en)
    // A survey written in another default locale: `default` is that language.
    const chinese = importSurveyJs({
      locale: 'zh',
      elements: [{ type: 'text', name: 'q', title: { default: '问题', en: 'Question', es: 'Pregunta' } }],
    })
    const q = itemOf(chinese, 'q')
    assert.equal(q.data.label.value, 'Pregunta')
    assert.deepEqual(q.translations, { en: { 'label.value': 'Question' }, zh: { 'label.value': '问题' } })
    assert.deepEqual(validateConfig(chinese.config), [])
  })
})

test.group('SurveyJS: translated conditions run in the sandbox', (group) => {
  let runner: ScriptRunner
  group.setup(async () => {
    runner = asRunner(await createSandbox())
    return () => runner.dispose()
  })

  test('conditions and formulas give what SurveyJS would show', async ({ assert }) => {
    const config = withDefaults(importSurveyJs(surveyJsSurvey).config)
    const values = {
      uso: 'semanal',
      canales: ['web', 'app'],
      acepta_contacto: 'false',
      satisfaccion: 2,
      calidad_precio: 2,
    }
    const { conditions, values: computed, failures } = await evaluateForm(config, values, { runner })
    assert.deepEqual(failures, [])
    assert.isTrue(conditions.get('canales'))
    assert.isFalse(conditions.get('correo'))
    assert.isTrue(conditions.get('motivo'))
    assert.equal(computed.resumen, 'Por mejorar')

    const never = await evaluateForm(config, { ...values, uso: '', canales: [], acepta_contacto: 'true' }, { runner })
    assert.isFalse(never.conditions.get('satisfaccion'))
    assert.isTrue(never.conditions.get('correo'))
    assert.isFalse(never.conditions.get('motivo'))
  })
})

test.group('SurveyJS: visible false beside a visibleIf', (group) => {
  let runner: ScriptRunner
  group.setup(async () => {
    runner = asRunner(await createSandbox())
    return () => runner.dispose()
  })

  test('the condition decides, as SurveyJS runs it at load (a question, a panel, a page)', async ({ assert }) => {
    const result = importSurveyJs({
      pages: [
        {
          name: 'uno',
          elements: [
            { type: 'text', name: 'clave' },
            { type: 'text', name: 'oculta', visible: false, visibleIf: "{clave} = 'ver'" },
            { type: 'text', name: 'siempre_oculta', visible: false },
            {
              type: 'panel',
              name: 'grupo',
              visible: false,
              visibleIf: "{clave} = 'ver'",
              elements: [{ type: 'text', name: 'dentro' }],
            },
          ],
        },
        { name: 'dos', visible: false, visibleIf: "{clave} = 'ver'", elements: [{ type: 'text', name: 'final' }] },
      ],
    })
    for (const name of ['oculta', 'dentro', 'final']) assert.isUndefined(itemOf(result, name).state?.show, name)
    assert.deepEqual(itemOf(result, 'siempre_oculta').state, { show: false })
    const config = withDefaults(result.config)
    const shown = await evaluateForm(config, { clave: 'ver' }, { runner })
    for (const name of ['oculta', 'dentro', 'final']) assert.isTrue(shown.conditions.get(name), name)
    const hidden = await evaluateForm(config, { clave: '' }, { runner })
    for (const name of ['oculta', 'dentro', 'final']) assert.isFalse(hidden.conditions.get(name), name)
  })
})

test.group('SurveyJS: a yes / no question starts unanswered', (group) => {
  let runner: ScriptRunner
  group.setup(async () => {
    runner = asRunner(await createSandbox())
    return () => runner.dispose()
  })

  test('= false holds only once answered no; a required one takes either answer', async ({ assert }) => {
    const result = importSurveyJs({
      elements: [
        { type: 'boolean', name: 'estudia', isRequired: true },
        { type: 'text', name: 'por_que', visibleIf: '{estudia} = false' },
        { type: 'text', name: 'donde', visibleIf: '{estudia} = true' },
        { type: 'text', name: 'falta', visibleIf: '{estudia} empty' },
      ],
    })
    const config = withDefaults(result.config)
    const registry = coreRegistry()
    const atLoad = await evaluateForm(config, initialValues(config, registry, {}), { runner })
    assert.deepEqual(
      [...atLoad.conditions],
      [
        ['por_que', false],
        ['donde', false],
        ['falta', true],
      ]
    )
    const no = await evaluateForm(config, initialValues(config, registry, { estudia: 'false' }), { runner })
    assert.deepEqual(
      [...no.conditions],
      [
        ['por_que', true],
        ['donde', false],
        ['falta', false],
      ]
    )
    const state = declaredState(config)
    assert.deepEqual(
      missingRequired(config, initialValues(config, registry, {}), state, registry).map((m) => m.field),
      ['estudia']
    )
    assert.deepEqual(missingRequired(config, { estudia: 'false' }, state, registry), [])
  })
})

test.group('SurveyJS: calculated values', (group) => {
  let runner: ScriptRunner
  group.setup(async () => {
    runner = asRunner(await createSandbox())
    return () => runner.dispose()
  })

  test('each is a var field with its expression as formula, read by conditions', async ({ assert }) => {
    const result = importSurveyJs({
      calculatedValues: [
        { name: 'total', expression: '{a} + {b}', includeIntoResult: true },
        { name: 'roto', expression: 'nohay({a})' },
      ],
      elements: [
        { type: 'text', name: 'a', inputType: 'number' },
        { type: 'text', name: 'b', inputType: 'number' },
        { type: 'text', name: 'c', visibleIf: '{total} > 5' },
      ],
    })
    assert.deepEqual(itemOf(result, 'total').data, { var_type: 'json', formule: 'a + b' })
    assert.isUndefined(itemOf(result, 'total').saveable)
    assert.isFalse(itemOf(result, 'roto').saveable)
    assert.deepEqual(unmappedPaths(result), ['/calculatedValues/1/expression'])
    assert.deepEqual(validateConfig(result.config), [])
    const config = withDefaults(result.config)
    const run = await evaluateForm(config, initialValues(config, coreRegistry(), { a: 3, b: 4 }), { runner })
    assert.equal(run.values.total, 7)
    assert.isTrue(run.conditions.get('c'))
  })
})

test.group('SurveyJS details', () => {
  test('top-level questions make one page in form display', ({ assert }) => {
    const result = importForm({
      questions: [
        { type: 'text', name: 'a', inputType: 'date' },
        { type: 'text', name: 'b', inputType: 'time', visibleIf: '{a} empty' },
        { type: 'tagbox', name: 'c', choices: ['x', 'y'] },
        { type: 'html', name: 'd', html: { default: '<b>Hi</b>', es: '<b>Hola</b>' } },
      ],
    })
    assert.equal(result.format, 'surveyjs')
    assert.equal(result.config.form!.display, 'form')
    assert.deepEqual(layoutOf(result), [{ name: 'Página 1', layout: [['a'], ['b'], ['c'], ['d'], ['send']] }])
    assert.equal(itemOf(result, 'a').type, 'date')
    assert.equal(itemOf(result, 'b').type, 'time')
    assert.deepEqual(itemOf(result, 'c').data.multiple, true)
    assert.equal(itemOf(result, 'c').type, 'select')
    assert.deepEqual(itemOf(result, 'd').data, { html: '<b>Hola</b>' })
    assert.equal(conditionOf(result, 'b'), 'String(a ?? "") == ""')
    assert.deepEqual(validateConfig(result.config), [])
  })

  test('readOnly and visible pass from pages and panels; old pages with questions still import', ({ assert }) => {
    const result = importSurveyJs({
      pages: [
        {
          name: 'p',
          readOnly: true,
          questions: [
            { type: 'panel', name: 'g', visible: false, elements: [{ type: 'text', name: 'a' }] },
            { type: 'text', name: 'b', title: { en: 'Only English' } },
          ],
        },
      ],
    })
    assert.deepEqual(itemOf(result, 'a').state, { show: false, natural: 'readonly' })
    assert.deepEqual(itemOf(result, 'b').state, { natural: 'readonly' })
    assert.equal(itemOf(result, 'b').data.label.value, 'Only English')
    assert.deepEqual(layoutOf(result), [{ name: 'p', layout: [['a'], ['b'], ['send']] }])
    assert.deepEqual(validateConfig(result.config), [])
  })

  test('names are sanitised, read case-insensitively and through matrix rows and multiple texts', ({ assert }) => {
    const result = importSurveyJs({
      elements: [
        { type: 'text', name: 'Nombre del niño' },
        { type: 'multipletext', name: 'contacto', items: [{ name: 'email', inputType: 'email' }, { name: 'tel' }] },
        { type: 'matrix', name: 'm', columns: ['si', 'no'], rows: ['r1'], isRequired: true },
        {
          type: 'text',
          name: 'x',
          visibleIf: "{nombre del niño} notempty and {CONTACTO.email} contains '@' or {m.r1} = 'si'",
        },
      ],
    })
    assert.deepEqual(
      result.config.fields!.map((f) => [f!.field_name, f!.type]),
      [
        ['Nombre_del_nino', 'text'],
        ['contacto_email', 'email'],
        ['contacto_tel', 'text'],
        ['m_r1', 'radios'],
        ['x', 'text'],
      ]
    )
    assert.equal(
      conditionOf(result, 'x'),
      'String(Nombre_del_nino ?? "") != "" && contacto_email.toLowerCase().includes("@") || m_r1 == "si"'
    )
    assert.deepEqual(unmappedPaths(result), ['/elements/2/isRequired'])
    assert.deepEqual(validateConfig(result.config), [])
  })

  test('rating with other values, paneldynamic, validators and lost settings are reported', ({ assert }) => {
    const result = importSurveyJs({
      pages: [
        {
          name: 'p',
          elements: [
            { type: 'rating', name: 'nps', rateMin: 0, rateMax: 10 },
            {
              type: 'paneldynamic',
              name: 'hijos',
              templateElements: [
                { type: 'text', name: 'nombre' },
                { type: 'boolean', name: 'estudia', isRequired: true },
                { type: 'file', name: 'foto' },
              ],
            },
            {
              type: 'text',
              name: 'codigo',
              defaultValue: 'A1',
              enableIf: '{nps} > 5',
              validators: [
                { type: 'regex', regex: '^[A-Z][0-9]$' },
                { type: 'expression', expression: '{nps} > 1' },
              ],
            },
          ],
        },
      ],
      completedHtml: '<h3>Gracias</h3>',
    })
    assert.equal(itemOf(result, 'nps').data.levels, 10)
    assert.deepEqual(
      itemOf(result, 'hijos').data.cells.map((c: { field_name: string; type: string; data: any }) => [
        c.field_name,
        c.type,
        c.data.validate?.required === true,
      ]),
      [
        ['nombre', 'text', false],
        ['estudia', 'radios', true],
      ]
    )
    assert.equal(itemOf(result, 'codigo').data.ref.pattern, '^[A-Z][0-9]$')
    assert.deepEqual(result.unmapped, [
      { path: '/pages/0/elements/0/rateMax', reason: 'at most 10 levels; 11 were asked' },
      { path: '/pages/0/elements/0/rateMin', reason: 'levels hold 1..10, not 0..10 by 1' },
      {
        path: '/pages/0/elements/1/templateElements/2',
        reason: 'a cell of a repeating group cannot be a file field',
      },
      { path: '/pages/0/elements/2/validators/1', reason: 'the "expression" validator has no equivalent here' },
      {
        path: '/pages/0/elements/2/defaultValue',
        reason: 'the jsonconfig has no default values (an autocomplete rule with action "value" can set one)',
      },
      { path: '/pages/0/elements/2/enableIf', reason: 'no conditional enabling (an action with set_state can do it)' },
      { path: '/completedHtml', reason: 'no page shown after sending' },
    ])
    assert.deepEqual(validateConfig(result.config), [])
  })
})

test.group('SurveyJS: triggers', () => {
  test('setvalue, copyvalue and runexpression become actions run on the change of what they read', ({ assert }) => {
    const result = importSurveyJs({
      elements: [
        { type: 'radiogroup', name: 'r', choices: ['x', 'y'] },
        { type: 'text', inputType: 'number', name: 'n' },
        { type: 'text', name: 'b' },
        { type: 'boolean', name: 'yn' },
        { type: 'text', inputType: 'number', name: 'copy' },
      ],
      triggers: [
        { type: 'setvalue', expression: "{r} = 'x'", setToName: 'b', setValue: 'chosen x' },
        { type: 'setvalue', expression: '{n} > 5', setToName: 'yn', setValue: true },
        { type: 'copyvalue', expression: "{n} notempty and {r} = 'y'", setToName: 'copy', fromName: 'n' },
        { type: 'runexpression', expression: '{n} > 0', setToName: 'copy', runExpression: 'iif({n} > 3, 10, 20)' },
        { type: 'setvalue', expression: '{n} > 1', setToName: 'n', setValue: 'text' },
        { type: 'complete', expression: '{n} > 9' },
        { type: 'setvalue', expression: '{n} > 1', setToName: 'nadie', setValue: 1 },
      ],
    })
    const actions = result.config.validations?.actions as {
      name: string
      conditions: { code: string }
      actions: unknown[]
    }[]
    assert.deepEqual(
      actions.map((a) => [a.name, a.actions]),
      [
        ['trigger_1', [{ type: 'set_value', config: { field: 'b', formula: '"chosen x"' } }]],
        ['trigger_2', [{ type: 'set_value', config: { field: 'yn', formula: '"true"' } }]],
        ['trigger_3', [{ type: 'set_value', config: { field: 'copy', formula: 'n' } }]],
        [
          'trigger_4',
          [
            {
              type: 'set_value',
              config: { field: 'copy', formula: '(String(n ?? "") == "" ? false : n > 3) ? 10 : 20' },
            },
          ],
        ],
      ]
    )
    assert.deepEqual((itemOf(result, 'n') as { events?: object }).events, {
      on_change: ['trigger_2', 'trigger_3', 'trigger_4'],
    })
    assert.deepEqual((itemOf(result, 'r') as { events?: object }).events, { on_change: ['trigger_1', 'trigger_3'] })
    assert.deepEqual(result.unmapped, [
      {
        path: '/triggers/5',
        reason: 'a trigger that completes the survey has no equivalent; send the form from an action instead',
      },
      { path: '/triggers/4', reason: 'the value "text" does not fit a number question' },
      { path: '/triggers/6/setToName', reason: '"nadie" is not a question of the survey' },
    ])
    assert.deepEqual(validateConfig(result.config), [])
  })
})
