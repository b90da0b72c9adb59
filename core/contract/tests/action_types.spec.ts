import { test } from '@japa/runner'
import {
  actionConfigWithDefaults,
  coreActionRegistry,
  coreActionTypes,
  createActionTypeRegistry,
  configRole,
  defineActionType,
  definitionProblems,
  recordOnlyProcess,
  validateConfig,
  FieldNameRef,
} from '../src/index.js'
import * as Type from '../src/schema/type.js'

/** The devices plugin's scan step, as a plugin declares it (not a core type). */
const scanDocument = defineActionType({
  type: 'scan_document',
  plugin: 'devices',
  config: { field: FieldNameRef, dpi: Type.Integer({ minimum: 75, default: 300 }) },
})

const form = (actions: unknown[], extra: Record<string, unknown> = {}) => ({
  form: {
    pages: [
      { name: 'P', layout: [['a', 'b']] },
      { name: 'Q', layout: [] },
    ],
  },
  fields: [
    { field_name: 'a', type: 'text' },
    { field_name: 'b', type: 'select' },
  ],
  validations: { actions },
  ...extra,
})

const CORE = [
  'refresh',
  'send',
  'save',
  'go_to_page',
  'open_url',
  'push_notify',
  'take_photo',
  'create_bar_code_qr',
  'delay',
  'start_action',
  'get_barcode_reader_or_rfid',
  'set_value',
  'set_style',
  'set_state',
  'set_options',
  'execute_script',
  'open_modal',
  'close_modal',
  'create_doc',
  'show_progress_bar',
  'hide_progress_bar',
]

test.group('action types: the registry', () => {
  test('the core types are the spec’s, without the devices’ and documents’ ones', ({ assert }) => {
    assert.deepEqual(
      coreActionRegistry()
        .list()
        .map((t) => t.type),
      CORE
    )
    for (const pluginType of ['scan_document', 'print_document', 'search_doc_folder', 'zip_docs']) {
      assert.isUndefined(coreActionRegistry().get(pluginType), pluginType)
    }
    assert.throws(() => coreActionRegistry().require('scan_document'), 'Unknown action type "scan_document"')
  })

  test('a plugin adds its types; a type registered twice is an error', ({ assert }) => {
    const registry = createActionTypeRegistry([...coreActionTypes, scanDocument])
    assert.equal(registry.require('scan_document').plugin, 'devices')
    assert.lengthOf(registry.list(), CORE.length + 1)
    assert.throws(
      () => createActionTypeRegistry([...coreActionTypes, defineActionType({ type: 'delay', config: {} })]),
      'The action type "delay" is registered twice'
    )
  })

  test('a config read with its defaults; what is set stays', ({ assert }) => {
    assert.deepEqual(actionConfigWithDefaults({ type: 'delay' }), { seconds: 1 })
    assert.deepEqual(actionConfigWithDefaults({ type: 'delay', config: { seconds: 3 } }), { seconds: 3 })
    assert.deepEqual(actionConfigWithDefaults({ type: 'start_action', config: { action: 'x' } }), {
      action: 'x',
      mode: 'awaited',
    })
    // set_state's keys have no defaults: unset leaves the field's state as it is.
    assert.deepEqual(actionConfigWithDefaults({ type: 'set_state', config: { fields: ['a'] } }), { fields: ['a'] })
    assert.deepEqual(actionConfigWithDefaults({ type: 'nope', config: { x: 1 } }), { x: 1 })
  })

  test('keys that name a field, an action, a page or hold a script are marked', ({ assert }) => {
    const props = (type: string) => coreActionRegistry().require(type).schema.properties
    assert.equal(configRole(props('set_value').field!), 'field')
    assert.equal(configRole(props('set_value').formula!), 'script')
    assert.equal(configRole(props('set_state').fields!), 'fields')
    assert.equal(configRole(props('start_action').action!), 'action')
    assert.equal(configRole(props('go_to_page').page!), 'page')
    assert.equal(configRole(props('execute_script').code!), 'script')
    assert.isUndefined(configRole(props('delay').seconds!))
  })
})

test.group('action types: validation of the steps', () => {
  test('well-formed steps of every kind pass', ({ assert }) => {
    const problems = validateConfig(
      form([
        {
          name: 'uno',
          actions: [
            { type: 'delay', config: { seconds: 2 } },
            { type: 'set_value', config: { field: 'a', value: 'hola ${b}' } },
            { type: 'set_state', config: { fields: ['a', 'b'], natural: 'readonly', required: false } },
            { type: 'set_options', config: { field: 'b', options: [{ id: 1, label: 'Uno' }] } },
            { type: 'go_to_page', config: { page: 'Q' } },
            { type: 'start_action', config: { action: 'dos', mode: 'background' } },
            { type: 'execute_script', config: { code: 'a + 1', side: 'server' } },
            { type: 'push_notify', config: { message: 'hola' } },
            { type: 'refresh' },
          ],
        },
        { name: 'dos' },
      ])
    )
    assert.deepEqual(problems, [])
  })

  test('an unknown type and malformed configs are reported at their precise paths', ({ assert }) => {
    const problems = validateConfig(
      form([
        { name: 'uno', actions: [{ type: 'delay', config: { seconds: 1 } }] },
        { name: 'dos', actions: [{ type: 'teleport', config: {} }] },
        {
          name: 'tres',
          actions: [
            { type: 'delay', config: { seconds: 'cinco' } },
            { type: 'set_value', config: { value: 'x', colour: 'red' } },
            { type: 'start_action', config: { action: 'uno', mode: 'later' } },
          ],
        },
      ])
    )
    assert.deepEqual(problems, [
      { path: '/validations/actions/1/actions/0/type', message: '"teleport" is not a known action type' },
      { path: '/validations/actions/2/actions/0/config/seconds', message: 'must be number' },
      { path: '/validations/actions/2/actions/1/config/field', message: 'is required' },
      { path: '/validations/actions/2/actions/1/config/colour', message: 'is not a known key' },
      { path: '/validations/actions/2/actions/2/config/mode', message: 'must be one of: "awaited", "background"' },
    ])
  })

  test('names in a config must exist: fields, actions, pages; config scripts must parse', ({ assert }) => {
    const problems = validateConfig(
      form([
        {
          name: 'uno',
          actions: [
            { type: 'set_value', config: { field: 'zz' } },
            { type: 'set_state', config: { fields: ['a', 'yy'] } },
            { type: 'start_action', config: { action: 'nadie' } },
            { type: 'go_to_page', config: { page: 5 } },
            { type: 'execute_script', config: { code: 'a +' } },
          ],
        },
      ])
    )
    assert.deepEqual(
      problems.map((p) => p.path),
      [
        '/validations/actions/0/actions/0/config/field',
        '/validations/actions/0/actions/1/config/fields/1',
        '/validations/actions/0/actions/2/config/action',
        '/validations/actions/0/actions/3/config/page',
        '/validations/actions/0/actions/4/config/code',
      ]
    )
    assert.equal(problems[0]!.message, '"zz" is not a field or element of this form')
    assert.match(problems[4]!.message, /^the script does not parse/)
  })

  test('a plugin’s type is unknown to the core registry and valid with the plugin’s', ({ assert }) => {
    const config = form([{ name: 'escanear', actions: [{ type: 'scan_document', config: { field: 'a' } }] }])
    assert.deepEqual(
      validateConfig(config).map((p) => p.path),
      ['/validations/actions/0/actions/0/type']
    )
    const withDevices = createActionTypeRegistry([...coreActionTypes, scanDocument])
    assert.deepEqual(validateConfig(config, undefined, withDevices), [])
    const process = recordOnlyProcess('x')
    assert.deepEqual(
      definitionProblems(config, process).map((p) => p.path),
      ['/jsonconfig/validations/actions/0/actions/0/type']
    )
    assert.deepEqual(definitionProblems(config, process, { actionTypes: withDevices }), [])
  })
})
