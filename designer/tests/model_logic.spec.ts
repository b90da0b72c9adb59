import { test } from '@japa/runner'
import {
  actionNames,
  actionUsages,
  actionsOf,
  addAction,
  addActionStep,
  addAutocompleteRule,
  apply,
  createHistory,
  duplicateAction,
  moveAction,
  moveActionStep,
  moveAutocompleteRule,
  openDocument,
  removeAction,
  removeActionStep,
  removeAutocompleteRule,
  renameAction,
  renameItem,
  rulesOf,
  setActionStepType,
  setValue,
  undo,
  validateDocument,
  type DesignDocument,
} from '../src/model/index.js'
import { recordOnlyProcess } from '@tramita/contract'

/** Two fields running actions on their events, and an action that starts another. */
function logicDocument(): DesignDocument {
  return openDocument({
    name: 'Lógica',
    jsonconfig: {
      form: { pages: [{ name: 'P', layout: [['nombre', 'edad']] }] },
      validations: {
        actions: [
          { name: 'saludar', actions: [{ type: 'set_value', config: { field: 'nombre', value: 'hola' } }] },
          { name: 'todo', actions: [{ type: 'start_action', config: { action: 'saludar' } }] },
        ],
      },
      fields: [
        { field_name: 'nombre', type: 'text', events: { on_change: ['saludar', 'todo'] } },
        { field_name: 'edad', type: 'number', events: { on_blur: ['saludar'] } },
      ],
      elements: [],
    },
    process: recordOnlyProcess('Lógica'),
  })
}

test.group('model: actions', () => {
  test('add: a unique name, in a sparse document without validations', ({ assert }) => {
    const empty = openDocument({ name: 'x', jsonconfig: { form: { pages: [] } }, process: {} })
    const one = addAction()(empty)
    const two = addAction()(one)
    assert.deepEqual(actionNames(two.jsonconfig), ['accion', 'accion_2'])
    assert.deepEqual(actionsOf(two.jsonconfig)[0], { name: 'accion', actions: [] })
    assert.throws(() => addAction('accion')(two), 'The action "accion" already exists')
  })

  test('rename: events and start_action steps follow; empty or taken names are refused', ({ assert }) => {
    const doc = renameAction(0, 'greet')(logicDocument())
    assert.deepEqual(actionNames(doc.jsonconfig), ['greet', 'todo'])
    assert.deepEqual(doc.jsonconfig.fields[0]!.events, { on_change: ['greet', 'todo'] })
    assert.deepEqual(doc.jsonconfig.fields[1]!.events, { on_blur: ['greet'] })
    assert.deepEqual(actionsOf(doc.jsonconfig)[1]!.actions![0]!.config, { action: 'greet' })
    assert.deepEqual(validateDocument(doc), [])
    assert.throws(() => renameAction(0, 'todo')(logicDocument()), 'The action "todo" already exists')
    assert.throws(() => renameAction(0, '  '), 'An action needs a name')
    const same = logicDocument()
    assert.strictEqual(renameAction(0, 'saludar')(same), same)
  })

  test('usages: every event and start_action step naming the action', ({ assert }) => {
    assert.deepEqual(actionUsages(logicDocument().jsonconfig, 'saludar'), [
      { path: '/jsonconfig/fields/0/events/on_change', kind: 'event', owner: 'nombre', detail: 'on_change' },
      { path: '/jsonconfig/fields/1/events/on_blur', kind: 'event', owner: 'edad', detail: 'on_blur' },
      {
        path: '/jsonconfig/validations/actions/1/actions/0/config/action',
        kind: 'start_action',
        owner: 'todo',
        detail: '1',
      },
    ])
    assert.deepEqual(actionUsages(logicDocument().jsonconfig, 'nadie'), [])
  })

  test('delete: out of the events (an emptied event goes); a start_action step is left to be flagged', ({ assert }) => {
    const doc = removeAction(0)(logicDocument())
    assert.deepEqual(actionNames(doc.jsonconfig), ['todo'])
    assert.deepEqual(doc.jsonconfig.fields[0]!.events, { on_change: ['todo'] })
    assert.deepEqual(doc.jsonconfig.fields[1]!.events, {})
    assert.deepEqual(
      validateDocument(doc).map((p) => p.path),
      ['/jsonconfig/validations/actions/0/actions/0/config/action']
    )
  })

  test('duplicate right after, with a free name; move', ({ assert }) => {
    const doc = duplicateAction(0)(logicDocument())
    assert.deepEqual(actionNames(doc.jsonconfig), ['saludar', 'saludar_2', 'todo'])
    assert.deepEqual(actionsOf(doc.jsonconfig)[1]!.actions, actionsOf(doc.jsonconfig)[0]!.actions)
    assert.deepEqual(actionNames(moveAction(2, 0)(doc).jsonconfig), ['todo', 'saludar', 'saludar_2'])
    assert.throws(() => moveAction(0, 5)(doc), 'No action 5')
  })

  test('steps: add a registered type, change type keeping shared keys, move, delete', ({ assert }) => {
    let doc = addActionStep(0, 'delay')(logicDocument())
    doc = addActionStep(0, 'take_photo')(doc)
    assert.deepEqual(
      actionsOf(doc.jsonconfig)[0]!.actions!.map((s) => s.type),
      ['set_value', 'delay', 'take_photo']
    )
    assert.throws(() => addActionStep(0, 'teleport'), 'Unknown action type "teleport"')
    doc = setActionStepType(0, 0, 'get_barcode_reader_or_rfid')(doc)
    assert.deepEqual(actionsOf(doc.jsonconfig)[0]!.actions![0], {
      type: 'get_barcode_reader_or_rfid',
      config: { field: 'nombre' },
    })
    doc = moveActionStep(0, 2, 0)(doc)
    assert.equal(actionsOf(doc.jsonconfig)[0]!.actions![0]!.type, 'take_photo')
    doc = removeActionStep(0, 0)(doc)
    assert.deepEqual(
      actionsOf(doc.jsonconfig)[0]!.actions!.map((s) => s.type),
      ['get_barcode_reader_or_rfid', 'delay']
    )
  })

  test('a new take_photo step is flagged at its field until one is set; then valid', ({ assert }) => {
    let doc = addActionStep(1, 'take_photo')(logicDocument())
    assert.deepEqual(validateDocument(doc), [
      { path: '/jsonconfig/validations/actions/1/actions/1/config/field', message: 'is required' },
    ])
    doc = setValue('/jsonconfig/validations/actions/1/actions/1/config/field', 'nombre')(doc)
    assert.deepEqual(validateDocument(doc), [])
  })

  test('a field renamed: the steps naming it follow', ({ assert }) => {
    const doc = renameItem('nombre', 'nombre_completo')(logicDocument())
    assert.deepEqual(actionsOf(doc.jsonconfig)[0]!.actions![0]!.config, { field: 'nombre_completo', value: 'hola' })
    assert.deepEqual(validateDocument(doc), [])
  })

  test('every command is one step of history', ({ assert }) => {
    const start = logicDocument()
    let history = createHistory(start)
    history = apply(history, renameAction(0, 'greet'))
    history = apply(history, addActionStep(0, 'delay'))
    history = apply(history, removeAction(1))
    history = undo(undo(undo(history)))
    assert.strictEqual(history.present, start)
  })
})

test.group('model: autocomplete rules', () => {
  test('add, move, delete', ({ assert }) => {
    let doc = addAutocompleteRule('nombre')(logicDocument())
    doc = addAutocompleteRule('edad')(doc)
    assert.deepEqual(rulesOf(doc.jsonconfig), [
      { id_field: 'nombre', action: 'value', origin: 'formula' },
      { id_field: 'edad', action: 'value', origin: 'formula' },
    ])
    assert.deepEqual(validateDocument(doc), [])
    doc = moveAutocompleteRule(1, 0)(doc)
    assert.deepEqual(
      rulesOf(doc.jsonconfig).map((r) => r.id_field),
      ['edad', 'nombre']
    )
    doc = removeAutocompleteRule(0)(doc)
    assert.deepEqual(
      rulesOf(doc.jsonconfig).map((r) => r.id_field),
      ['nombre']
    )
    assert.throws(() => removeAutocompleteRule(3)(doc), 'No rule 3')
  })
})
