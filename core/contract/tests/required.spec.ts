import { test } from '@japa/runner'
import {
  MISSING_REQUIRED_HEADING,
  applyConditions,
  applyEffects,
  declaredState,
  missingRequired,
  requiredCheckBlocks,
  withDefaults,
} from '../src/index.js'

const req = (field_name: string, type = 'text', extra: Record<string, any> = {}) => ({
  field_name,
  type,
  ...extra,
  data: { label: { value: field_name.toUpperCase() }, validate: { required: true }, ...extra.data },
})

const config = withDefaults({
  form: {
    pages: [
      { name: 'Uno', layout: [['a', 'b'], ['sec']] },
      { name: 'Sección', section: true, section_id: 's1', layout: [['c']] },
      { name: 'Dos', layout: [['d', 'e', 'f', 'g']] },
    ],
  },
  fields: [
    req('a'),
    req('b', 'text', { state: { natural: 'disabled' } }),
    req('c', 'number'),
    req('d', 'checkbox'),
    req('e', 'radio'),
    req('f', 'file', { data: { ref: { limit: 2 } } }),
    req('g', 'level'),
    req('off_layout'),
  ],
  elements: [{ field_name: 'sec', type: 'section', data: { section_id: 's1' } }],
})

test.group('missingRequired', () => {
  test('lists required, enabled, shown fields on a layout, in reading order, with page and label', ({ assert }) => {
    const missing = missingRequired(config, {}, declaredState(config))
    assert.deepEqual(missing, [
      { field: 'a', page: 0, label: 'A' },
      { field: 'c', page: 0, label: 'C' },
      { field: 'd', page: 2, label: 'D' },
      { field: 'f', page: 2, label: 'F' },
      { field: 'g', page: 2, label: 'G' },
    ])
  })

  test('per-type pass conditions', ({ assert }) => {
    const pdf = { ext: 'pdf', ip: '', path: 'x.pdf', real_name: 'x.pdf', status: 'good' }
    const values = { a: 'hola', c: 0, d: true, f: [pdf], g: 0 }
    // file with limit 2 needs exactly two files; level 0 passes (at least 0); number 0 passes.
    assert.deepEqual(
      missingRequired(config, values, declaredState(config)).map((m) => m.field),
      ['f']
    )
    assert.deepEqual(missingRequired(config, { ...values, f: [pdf, pdf] }, declaredState(config)), [])
    assert.deepEqual(
      missingRequired(config, { ...values, d: false, g: -1 }, declaredState(config)).map((m) => m.field),
      ['d', 'f', 'g']
    )
  })

  test('a field inside a section counts only while a section element showing it is shown', ({ assert }) => {
    const hidden = applyConditions(declaredState(config), new Map([['sec', false]]))
    assert.notInclude(
      missingRequired(config, {}, hidden).map((m) => m.field),
      'c'
    )
  })

  test('hidden fields and set_state effects', ({ assert }) => {
    const state = applyEffects(declaredState(config), [
      { op: 'setState', field: 'a', state: { show: false } },
      { op: 'setState', field: 'd', state: { required: false } },
      { op: 'setState', field: 'b', state: { natural: 'enabled' } },
    ])
    assert.deepEqual(
      missingRequired(config, {}, state).map((m) => m.field),
      ['b', 'c', 'f', 'g']
    )
  })

  test('show_on_task hides a field on other steps', ({ assert }) => {
    const onTask = withDefaults({
      form: { pages: [{ name: 'P', layout: [['x']] }] },
      fields: [req('x', 'text', { show_on_task: ['revision'] })],
    })
    assert.lengthOf(missingRequired(onTask, {}, declaredState(onTask, { task: 'revision' })), 1)
    assert.lengthOf(missingRequired(onTask, {}, declaredState(onTask, { task: 'inicio' })), 0)
  })

  test('the heading is the spec text', ({ assert }) => {
    assert.equal(MISSING_REQUIRED_HEADING, 'No se han diligenciado lo siguientes campos obligatorios:')
  })

  test('a failed check blocks save and send, except invisible mode and send on new or enter', ({ assert }) => {
    const rows: [Parameters<typeof requiredCheckBlocks>, boolean][] = [
      [['save', { case: 'new' }, 2], true],
      [['save', { case: 'new', invisible: true }, 2], false],
      [['send', { case: 'new' }, 2], false],
      [['send', { case: 'enter' }, 2], false],
      [['send', { case: 'edit' }, 2], true],
      [['save', { case: 'edit' }, 0], false],
    ]
    for (const [args, blocks] of rows) assert.equal(requiredCheckBlocks(...args), blocks, JSON.stringify(args))
  })
})
