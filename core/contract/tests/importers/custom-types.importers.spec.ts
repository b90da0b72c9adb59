import { test } from '@japa/runner'
import { Utils } from '@formio/js/utils'
import { asRunner, createSandbox, type ScriptRunner } from '@tramita/sandbox'
import {
  coreRegistry,
  definitionFromFile,
  evaluateForm,
  initialValues,
  validateConfig,
  withDefaults,
} from '../../src/index.js'
import {
  importForm,
  importFormio,
  importSurveyJs,
  parseTypeMap,
  TypeMapError,
  type ImportResult,
} from '../../src/importers/index.js'
import { conditionOf, itemOf, reasonAt } from './helpers.js'

/** The notes of what was mapped: path → the type it was read as. */
const mappedOf = (result: ImportResult) =>
  Object.fromEntries(result.unmapped.filter((u) => u.mapped).map((u) => [u.path, u.mapped]))

test.group('Custom types: Form.io by shape', (group) => {
  let runner: ScriptRunner
  group.setup(async () => {
    runner = asRunner(await createSandbox())
    return () => runner.dispose()
  })

  const result = importFormio({
    components: [
      { type: 'yesNo', key: 'acepta', label: 'Acepta', input: true },
      {
        type: 'pregunta',
        key: 'sigue',
        values: [
          { value: 'yes', label: 'Yes' },
          { value: 'no', label: 'No' },
        ],
      },
      {
        type: 'flag',
        key: 'marca',
        values: [
          { value: false, label: 'Nunca' },
          { value: true, label: 'Claro' },
        ],
      },
      { type: 'infoText', key: 'info', html: '<p>Hola <b>mundo</b></p>' },
      { type: 'attachment', key: 'soporte', storage: 'base64', filePattern: '.pdf' },
      {
        type: 'fullName',
        key: 'nombre',
        label: 'Nombre completo',
        components: [
          { type: 'textfield', key: 'primero', label: 'Nombre' },
          { type: 'textfield', key: 'apellido', label: 'Apellido' },
        ],
      },
      { type: 'myInput', key: 'codigo', label: 'Código', input: true },
      { type: 'weird', key: 'raro' },
      { type: 'address', key: 'ciudad', input: true },
      { type: 'textfield', key: 'si_acepta', conditional: { show: true, when: 'acepta', eq: 'true' } },
      { type: 'textfield', key: 'si_sigue', conditional: { show: true, when: 'sigue', eq: 'yes' } },
      {
        type: 'textfield',
        key: 'si_marca',
        conditional: {
          show: true,
          conjunction: 'all',
          conditions: [{ component: 'marca', operator: 'isEqual', value: 'true' }],
        },
      },
      { type: 'textfield', key: 'si_ana', conditional: { show: true, when: 'nombre.primero', eq: 'Ana' } },
      { type: 'textfield', key: 'si_nombre', conditional: { show: true, when: 'nombre', eq: 'Ana' } },
    ],
  })

  test('each clear shape becomes its field or element, and the form is valid', ({ assert }) => {
    assert.deepEqual(validateConfig(result.config), [])
    assert.equal(itemOf(result, 'acepta').type, 'radios')
    assert.deepEqual(itemOf(result, 'acepta').data.options, [
      { id: 'true', label: 'Sí' },
      { id: 'false', label: 'No' },
    ])
    // Text options are kept as the source gives them; true / false become the yes/no ids, yes first.
    assert.deepEqual(
      itemOf(result, 'sigue').data.options.map((o: { id: string }) => o.id),
      ['yes', 'no']
    )
    assert.deepEqual(itemOf(result, 'marca').data.options, [
      { id: 'true', label: 'Claro' },
      { id: 'false', label: 'Nunca' },
    ])
    assert.deepEqual(itemOf(result, 'info'), { field_name: 'info', type: 'text', data: { value: 'Hola **mundo**' } })
    assert.equal(itemOf(result, 'soporte').type, 'file')
    assert.deepEqual(itemOf(result, 'soporte').data.ext, ['pdf'])
    assert.equal(itemOf(result, 'nombre_primero').data.label.value, 'Nombre')
    assert.equal(itemOf(result, 'nombre_apellido').type, 'text')
    assert.equal(itemOf(result, 'nombre').data.value, '### Nombre completo')
    assert.equal(itemOf(result, 'codigo').type, 'text')
  })

  test('every mapping is listed with what it became; no clue, or a Form.io value that is no text, is skipped', ({
    assert,
  }) => {
    assert.deepEqual(mappedOf(result), {
      '/components/0': 'radio',
      '/components/1': 'radio',
      '/components/2': 'radio',
      '/components/3': 'content',
      '/components/4': 'file',
      '/components/5': 'composite',
      '/components/6': 'textfield',
    })
    assert.match(reasonAt(result, '/components/6')!, /mapped by shape to a text field .*no other clue/)
    assert.match(reasonAt(result, '/components/5')!, /condition on "nombre" as a whole is not carried/)
    assert.equal(reasonAt(result, '/components/7'), 'no equivalent for the Form.io component "weird"')
    assert.equal(reasonAt(result, '/components/8'), 'no equivalent for the Form.io component "address"')
    // A condition on the composite as a whole finds no field: reported at its path.
    assert.equal(reasonAt(result, '/components/13/conditional/when'), '"nombre" is not a field of the form')
    assert.isUndefined(conditionOf(result, 'si_nombre'))
  })

  test('conditions on a mapped yes/no and on a composite part keep their meaning', async ({ assert }) => {
    const config = withDefaults(result.config)
    const yes = await evaluateForm(
      config,
      { acepta: 'true', sigue: 'yes', marca: 'true', nombre_primero: 'Ana' },
      { runner }
    )
    assert.deepEqual(yes.failures, [])
    for (const name of ['si_acepta', 'si_sigue', 'si_marca', 'si_ana']) assert.isTrue(yes.conditions.get(name), name)
    const no = await evaluateForm(
      config,
      { acepta: 'false', sigue: 'no', marca: 'false', nombre_primero: 'Eva' },
      { runner }
    )
    for (const name of ['si_acepta', 'si_sigue', 'si_marca', 'si_ana']) assert.isFalse(no.conditions.get(name), name)
    const unanswered = await evaluateForm(config, { acepta: '', sigue: '', marca: '' }, { runner })
    for (const name of ['si_acepta', 'si_sigue', 'si_marca']) assert.isFalse(unanswered.conditions.get(name), name)
  })
  test('names are judged by whole words; a composite inside a composite names its own parts', ({ assert }) => {
    const named = importFormio({
      components: [
        { type: 'profile', key: 'perfil', input: true },
        { type: 'casino', key: 'juego', input: true },
        { type: 'siNoPregunta', key: 'sn' },
        { type: 'fileUpload', key: 'doc' },
        {
          type: 'applicant',
          key: 'solicitante',
          components: [
            { type: 'panel', key: 'p', components: [{ type: 'textfield', key: 'correo' }] },
            { type: 'fullName', key: 'nombre', components: [{ type: 'textfield', key: 'primero' }] },
          ],
        },
        { type: 'textfield', key: 'x', conditional: { show: true, when: 'solicitante.nombre.primero', eq: 'Ana' } },
      ],
    })
    assert.deepEqual(mappedOf(named), {
      '/components/0': 'textfield',
      '/components/1': 'textfield',
      '/components/2': 'radio',
      '/components/3': 'file',
      '/components/4': 'composite',
      '/components/4/components/1': 'composite',
    })
    assert.isOk(itemOf(named, 'solicitante_correo'))
    assert.equal(conditionOf(named, 'x'), 'solicitante_nombre_primero == "Ana"')
    assert.deepEqual(validateConfig(named.config), [])
  })

  test('a condition on a named yes/no means what it means in @formio/js on the radio it became', async ({ assert }) => {
    // In Form.io the radio holds its 'true' / 'false' values as booleans (Radio.normalizeValue).
    const source = {
      type: 'radio',
      key: 'yn',
      input: true,
      values: [
        { value: 'true', label: 'Sí' },
        { value: 'false', label: 'No' },
      ],
    }
    const conditionals = [
      ...[true, false, 'true', 'false', 'yes'].map((eq) => ({ show: true, when: 'yn', eq })),
      ...['isEqual', 'isNotEqual'].flatMap((operator) =>
        [true, false, 'true', 'false'].map((value) => ({
          show: true,
          conjunction: 'all',
          conditions: [{ component: 'yn', operator, value }],
        }))
      ),
    ]
    const mismatches: string[] = []
    for (const conditional of conditionals) {
      const target = { type: 'textfield', key: 'x', input: true, conditional }
      const imported = importFormio({ components: [{ type: 'yesNo', key: 'yn', input: true }, target] })
      assert.deepEqual(Object.values(mappedOf(imported)), ['radio'])
      const config = withDefaults(imported.config)
      for (const [formio, tramita] of [
        [true, 'true'],
        [false, 'false'],
        ['', ''],
      ] as const) {
        const form = { components: [source, target] }
        const data = { yn: formio }
        const expected = Utils.checkCondition(target as never, data, data, form as never, null) as boolean
        const run = await evaluateForm(config, initialValues(config, coreRegistry(), { yn: tramita }), { runner })
        const actual = run.conditions.get('x') ?? true
        if (actual !== expected)
          mismatches.push(`${JSON.stringify(conditional)} on ${String(formio)}: Form.io ${expected}`)
      }
    }
    assert.deepEqual(mismatches, [])
  })
})

test.group('Custom types: SurveyJS by shape', (group) => {
  let runner: ScriptRunner
  group.setup(async () => {
    runner = asRunner(await createSandbox())
    return () => runner.dispose()
  })

  const result = importSurveyJs({
    elements: [
      { type: 'yesno', name: 'acepta', title: 'Acepta' },
      {
        type: 'pregunta',
        name: 'sigue',
        choices: [
          { value: 'yes', text: 'Yes' },
          { value: 'no', text: 'No' },
        ],
      },
      {
        type: 'fullname',
        name: 'nombre',
        title: 'Nombre completo',
        elements: [
          { type: 'text', name: 'primero', title: 'Nombre' },
          { type: 'text', name: 'apellido' },
        ],
      },
      { type: 'note', name: 'info', html: 'Lea <i>esto</i>' },
      { type: 'adjunto', name: 'soporte', acceptedTypes: '.pdf' },
      { type: 'ranking', name: 'orden', choices: ['a', 'b'] },
      { type: 'text', name: 'si_acepta', visibleIf: '{acepta} = true' },
      { type: 'text', name: 'si_sigue', visibleIf: "{sigue} = 'yes'" },
      { type: 'text', name: 'si_ana', visibleIf: "{nombre.primero} = 'Ana'" },
      { type: 'text', name: 'si_nombre', visibleIf: '{nombre} notempty' },
    ],
  })

  test('each clear shape becomes its field or element; what has no clear shape is skipped', ({ assert }) => {
    assert.deepEqual(validateConfig(result.config), [])
    assert.deepEqual(mappedOf(result), {
      '/elements/0': 'boolean',
      '/elements/1': 'radiogroup',
      '/elements/2': 'composite',
      '/elements/3': 'html',
      '/elements/4': 'file',
    })
    assert.equal(reasonAt(result, '/elements/5'), 'no equivalent for the SurveyJS question "ranking"')
    assert.deepEqual(itemOf(result, 'acepta').data.options, [
      { id: 'true', label: 'Sí' },
      { id: 'false', label: 'No' },
    ])
    assert.equal(itemOf(result, 'nombre_primero').data.label.value, 'Nombre')
    // A part without a title is titled by its own name, not by its path.
    assert.equal(itemOf(result, 'nombre_apellido').data.label.value, 'apellido')
    assert.deepEqual(itemOf(result, 'info').data, { value: 'Lea *esto*' })
    assert.equal(itemOf(result, 'info').type, 'text')
    assert.equal(itemOf(result, 'soporte').type, 'file')
    assert.match(reasonAt(result, '/elements/9/visibleIf')!, /\{nombre\} is not a question/)
  })

  test('conditions on a mapped yes/no and on a composite part keep their meaning', async ({ assert }) => {
    const config = withDefaults(result.config)
    const yes = await evaluateForm(config, { acepta: 'true', sigue: 'yes', nombre_primero: 'ana ' }, { runner })
    assert.deepEqual(yes.failures, [])
    for (const name of ['si_acepta', 'si_sigue', 'si_ana']) assert.isTrue(yes.conditions.get(name), name)
    const no = await evaluateForm(config, { acepta: 'false', sigue: 'no', nombre_primero: 'Eva' }, { runner })
    for (const name of ['si_acepta', 'si_sigue', 'si_ana']) assert.isFalse(no.conditions.get(name), name)
  })
})

test.group('Custom types: the mapping file', (group) => {
  let runner: ScriptRunner
  group.setup(async () => {
    runner = asRunner(await createSandbox())
    return () => runner.dispose()
  })

  test('a bad mapping file is a TypeMapError naming what is wrong', ({ assert }) => {
    const cases: [unknown, RegExp][] = [
      [[], /a mapping file is a JSON object/],
      [{ formio: { x: 'textfield' }, other: {} }, /unknown section "other"/],
      [{ surveyjs: [] }, /"surveyjs" must be an object/],
      [{ formio: { yesNo: 'nope' } }, /"formio.yesNo": "nope" is not a Form.io type/],
      [{ surveyjs: { yesno: 'radio' } }, /"surveyjs.yesno": "radio" is not a SurveyJS type/],
      [{ formio: { yesNo: 3 } }, /"formio.yesNo": expected a type name or an object with a "type"/],
      [{ formio: { yesNo: { values: [] } } }, /"formio.yesNo": expected a type name/],
      [
        { formio: { name: { type: 'composite', components: [{ type: 'name' }] } } },
        /"formio.name": its properties use "name", which is mapped too/,
      ],
    ]
    // A "__proto__" entry is an entry like any other, not the object's prototype.
    const proto = parseTypeMap(JSON.parse('{"formio": {"__proto__": "textfield"}}'))
    assert.deepEqual(Object.keys(proto.formio), ['__proto__'])
    assert.equal(Object.getPrototypeOf(proto.formio), Object.prototype)
    for (const [json, message] of cases) {
      assert.throws(() => parseTypeMap(json), message)
      try {
        parseTypeMap(json)
      } catch (error) {
        assert.instanceOf(error, TypeMapError)
      }
    }
  })

  test('the file wins over the shape, and its properties are set over the component', async ({ assert }) => {
    const typeMap = parseTypeMap({
      formio: {
        yesNo: 'checkbox',
        nota: { type: 'textarea', rows: 6 },
      },
      surveyjs: {
        fullname: {
          type: 'composite',
          elements: [
            { type: 'text', name: 'first', title: 'Nombre' },
            { type: 'text', name: 'last', title: 'Apellido' },
          ],
        },
      },
    })
    const formio = importForm(
      {
        components: [
          { type: 'yesNo', key: 'acepta', input: true },
          { type: 'nota', key: 'detalle', html: '<p>x</p>', rows: 2 },
          { type: 'textfield', key: 'si', conditional: { show: true, when: 'acepta', eq: 'true' } },
        ],
      },
      undefined,
      { typeMap }
    )
    assert.equal(itemOf(formio, 'acepta').type, 'checkbox')
    assert.equal(itemOf(formio, 'detalle').type, 'textarea')
    assert.equal(itemOf(formio, 'detalle').data.rows, 6)
    assert.deepEqual(mappedOf(formio), { '/components/0': 'checkbox', '/components/1': 'textarea' })
    assert.match(reasonAt(formio, '/components/0')!, /"yesNo" is imported as "checkbox", as the mapping file says/)
    assert.equal(conditionOf(formio, 'si'), 'acepta')
    // A composite the file gives no parts is reported, not silently empty.
    const noParts = importFormio(
      { components: [{ type: 'vacio', key: 'v' }] },
      { typeMap: parseTypeMap({ formio: { vacio: 'composite' } }) }
    )
    assert.equal(noParts.unmapped[1]?.reason, 'the composite "v" has no components: no parts')

    // A SurveyJS composite holds no parts in the survey's JSON: the file gives them.
    const survey = {
      elements: [
        { type: 'fullname', name: 'titular', title: 'Titular' },
        { type: 'text', name: 'saludo', visibleIf: '{titular.first} notempty' },
      ],
    }
    assert.equal(reasonAt(importSurveyJs(survey), '/elements/0'), 'no equivalent for the SurveyJS question "fullname"')
    const read = definitionFromFile(survey, 'Con titular', undefined, { typeMap })
    const config = read.definition.jsonconfig as ImportResult['config']
    assert.deepEqual(validateConfig(config), [])
    assert.deepEqual(
      read.unmapped.map((u) => [u.path, u.mapped]),
      [['/elements/0', 'composite']]
    )
    const run = await evaluateForm(withDefaults(config), { titular_first: 'Ana', titular_last: '' }, { runner })
    assert.deepEqual(run.failures, [])
    assert.isTrue(run.conditions.get('saludo'))
    const empty = await evaluateForm(withDefaults(config), { titular_first: '', titular_last: '' }, { runner })
    assert.isFalse(empty.conditions.get('saludo'))
  })
})
