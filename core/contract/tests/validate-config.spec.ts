import { test } from '@japa/runner'
import { Type } from '@sinclair/typebox'
import { schemaProblems, validateConfig } from '../src/index.js'

const base = (extra: Record<string, unknown> = {}) => ({
  form: { pages: [{ name: 'P', layout: [['a', 'b']] }] },
  fields: [
    { field_name: 'a', type: 'text' },
    { field_name: 'b', type: 'number' },
  ],
  ...extra,
})

test.group('validateConfig: every problem with its JSON path', () => {
  test('a valid config has no problems', ({ assert }) => {
    assert.deepEqual(validateConfig(base()), [])
  })

  test('not an object', ({ assert }) => {
    assert.deepEqual(validateConfig(null), [{ path: '', message: 'the form configuration must be an object' }])
    assert.deepEqual(validateConfig([1]), [{ path: '', message: 'the form configuration must be an object' }])
  })

  test('frame problems: missing pages, unknown keys, wrong enum values', ({ assert }) => {
    assert.deepEqual(validateConfig({ fields: [] }), [{ path: '/form', message: 'is required' }])
    const problems = validateConfig({
      form: { display: 'scroll', pages: [{ name: 'P', colour: 'red', style: { type_page: 'diagonal' } }] },
      extra: 1,
    })
    assert.deepEqual(
      problems.map((p) => p.path),
      ['/extra', '/form/display', '/form/pages/0/colour', '/form/pages/0/style/type_page']
    )
    assert.equal(problems[1]!.message, 'must be one of: "wizard", "form"')
  })

  test('field problems are reported at their path, for every field at once', ({ assert }) => {
    const problems = validateConfig(
      base({
        fields: [
          { field_name: 'a', type: 'text', data: { ref: { limit: 'ten' }, colour: 1 } },
          { field_name: 'b', type: 'number', data: { decimals: { enabled: 'yes' } } },
          { field_name: 'c d', type: 'date', data: { date_type: 'week' } },
          { field_name: 'e', type: 'spaceship' },
        ],
      })
    )
    assert.deepEqual(problems, [
      { path: '/fields/0/data/colour', message: 'is not a known key' },
      { path: '/fields/0/data/ref/limit', message: 'must be number' },
      { path: '/fields/1/data/decimals/enabled', message: 'must be boolean' },
      { path: '/fields/2/field_name', message: 'must match pattern "^[A-Za-z_$][A-Za-z0-9_$]*$"' },
      { path: '/fields/2/data/date_type', message: 'must be one of: "date", "datetime", "month", "year"' },
      { path: '/fields/3/type', message: '"spaceship" is not a known field type' },
    ])
  })

  test('references: names, layouts, sections, sets, rules, actions and events', ({ assert }) => {
    const problems = validateConfig({
      form: {
        pages: [
          { name: 'P', layout: [['a', 'ghost'], ['a']], app_info: { navbar: { enable: true, section: 'nav' } } },
          { name: 'S', section: true, layout: [] },
        ],
      },
      validations: {
        autocomplete: [{ id_field: 'nobody', action: 'value', origin: 'users' }],
        actions: [{ name: 'go' }, { name: 'go', start_page: { active: true, page: 7 } }],
      },
      fields: [
        { field_name: 'a', type: 'text', events: { on_click: ['missing'] } },
        { field_name: 'a', type: 'text' },
        { field_name: 'r', type: 'text', isSet: true, set: 'nothing' },
        { field_name: 'Math', type: 'text' },
      ],
      elements: [{ field_name: 'sec', type: 'section', data: { section_id: 'nowhere' } }],
    })
    assert.deepEqual(problems, [
      { path: '/fields/1/field_name', message: '"a" is already used at /fields/0/field_name' },
      { path: '/fields/3/field_name', message: '"Math" is a name scripts already use; choose another' },
      { path: '/form/pages/0/layout/0/1', message: '"ghost" is not a field or element of this form' },
      { path: '/form/pages/0/layout/1/0', message: '"a" is already on a layout' },
      { path: '/form/pages/0/app_info/navbar/section', message: 'no section "nav"' },
      { path: '/form/pages/1/section_id', message: 'a section page needs a section_id' },
      { path: '/elements/0/data/section_id', message: 'no section "nowhere"' },
      { path: '/fields/2/set', message: '"nothing" is not a field of this form' },
      { path: '/validations/autocomplete/0/id_field', message: '"nobody" is not a field' },
      { path: '/validations/actions/1/name', message: 'the action "go" is defined twice' },
      { path: '/validations/actions/1/start_page/page', message: 'no page 7' },
      { path: '/fields/0/events/on_click', message: 'no action named "missing"' },
    ])
  })

  test('scripts that do not parse and formula cycles', ({ assert }) => {
    const problems = validateConfig(
      base({
        fields: [
          { field_name: 'a', type: 'text', data: { show_with_formule: 'b >' } },
          { field_name: 'b', type: 'number', data: { formule: 'c + 1' } },
          { field_name: 'c', type: 'number', data: { formule: 'b * 2' } },
          { field_name: 'd', type: 'text', data: { formule: 'd.toUpperCase()' } },
        ],
      })
    )
    assert.lengthOf(problems, 2)
    assert.equal(problems[0]!.path, '/fields/0/data/show_with_formule')
    assert.match(problems[0]!.message, /^the script does not parse/)
    assert.deepEqual(problems[1], {
      path: '/fields/1/data/formule',
      message: 'the formulas depend on each other: b → c → b',
    })
  })

  test('schemas are checked without generating code (the apps forbid eval: issue 17)', ({ assert }) => {
    const schema = Type.Object({
      n: Type.Number({ maximum: 3 }),
      kind: Type.Union([Type.Literal('a'), Type.Literal('b')]),
    })
    const realFunction = globalThis.Function
    globalThis.Function = function refused() {
      throw new Error('code generation is refused, as under the Content-Security-Policy')
    } as unknown as FunctionConstructor
    try {
      assert.deepEqual(schemaProblems(schema, { n: 5, kind: 'c', extra: 1 }), [
        { path: '/n', message: 'must be <= 3' },
        { path: '/kind', message: 'must be one of: "a", "b"' },
      ])
      assert.deepEqual(schemaProblems(schema, {}), [
        { path: '/n', message: 'is required' },
        { path: '/kind', message: 'is required' },
      ])
    } finally {
      globalThis.Function = realFunction
    }
  })
})
