import { test } from '@japa/runner'
import { coreRegistry } from '@tramita/contract'
import {
  addItem,
  addPage,
  apply,
  canRedo,
  canUndo,
  createHistory,
  deleteItems,
  duplicateItems,
  moveItem,
  redo,
  renameItem,
  resizeItem,
  setItemValue,
  setPageSection,
  setPageStyle,
  undo,
  type Command,
  type History,
} from '../src/model/index.js'
import { sampleDocument } from './model_fixture.js'

const registry = coreRegistry()

/** Ten changes of ten kinds. */
const TEN: Command[] = [
  addPage('Cierre'),
  addItem(registry, { kind: 'field', type: 'signature', name: 'firma', at: { page: 3, newRow: 0 } }),
  moveItem('jefe', { page: 3, row: 0, column: 1 }),
  resizeItem('firma', 'computer', 6),
  setItemValue('nombre', '/data/validate/required', true),
  renameItem('cedula', 'documento'),
  duplicateItems(['nombre']),
  deleteItems(['motivo']),
  setPageSection(1, true),
  setPageStyle(0, '/page_style/background', '#f0f0f0'),
]

test.group('designer model: undo and redo', () => {
  test('ten changes undone all and redone all give back each document exactly', ({ assert }) => {
    let history = createHistory(sampleDocument())
    const snapshots = [structuredClone(history.present)]
    for (const command of TEN) {
      history = apply(history, command)
      snapshots.push(structuredClone(history.present))
    }
    assert.equal(history.past.length, 10)
    for (let step = 10; step > 0; step--) {
      assert.deepEqual(history.present, snapshots[step], `before undo ${step}`)
      history = undo(history)
    }
    assert.deepEqual(history.present, snapshots[0])
    assert.isFalse(canUndo(history))
    assert.strictEqual(undo(history), history)
    for (let step = 1; step <= 10; step++) {
      history = redo(history)
      assert.deepEqual(history.present, snapshots[step], `after redo ${step}`)
    }
    assert.isFalse(canRedo(history))
    assert.strictEqual(redo(history), history)
  })

  test('past documents are immutable: a later command cannot change them', ({ assert }) => {
    let history = createHistory(sampleDocument())
    const first = history.present
    const frozen = structuredClone(first)
    for (const command of TEN) history = apply(history, command)
    assert.deepEqual(first, frozen)
    assert.isTrue(Object.isFrozen(first.jsonconfig.form.pages[0]!.layout))
    assert.throws(() => {
      ;(first.jsonconfig.fields as unknown[]).push({})
    })
  })

  test('a new change after an undo drops the redo steps; a change of nothing is no step', ({ assert }) => {
    let history = createHistory(sampleDocument())
    history = apply(history, addPage('A'))
    history = apply(history, addPage('B'))
    history = undo(history)
    assert.isTrue(canRedo(history))
    history = apply(history, addPage('C'))
    assert.isFalse(canRedo(history))
    assert.deepEqual(history.present.jsonconfig.form.pages.map((p) => p.name).slice(3), ['A', 'C'])
    const same = apply(history, moveItem('nombre', { page: 0, row: 1, column: 0 }))
    assert.strictEqual(same, history)
  })

  test('the history is bounded: the oldest steps are forgotten', ({ assert }) => {
    let history = createHistory(sampleDocument(), 5)
    for (let n = 0; n < 8; n++) history = apply(history, setItemValue('nombre', '/data/ref/limit', n + 1))
    assert.equal(history.past.length, 5)
    while (canUndo(history)) history = undo(history)
    assert.equal((history.present.jsonconfig.fields[0]!.data as any).ref.limit, 3)
    assert.equal(createHistory(sampleDocument()).limit, 200)
    assert.throws(() => createHistory(sampleDocument(), 0), /at least one step/)
  })

  test('steps with one merge key in a row are one step (typing a label)', ({ assert }) => {
    let history: History = createHistory(sampleDocument())
    for (const text of ['N', 'No', 'Nom', 'Nomb']) {
      history = apply(history, setItemValue('nombre', '/data/label/value', text), { merge: 'nombre/label' })
    }
    assert.equal(history.past.length, 1)
    history = apply(history, setItemValue('cedula', '/data/label/value', 'C'), { merge: 'cedula/label' })
    history = apply(history, setItemValue('nombre', '/data/label/value', 'X'), { merge: 'nombre/label' })
    assert.equal(history.past.length, 3, 'another key in between ends the run')
    history = undo(undo(undo(history)))
    assert.equal((history.present.jsonconfig.fields[0]!.data as any).label.value, 'Nombre')
    history = redo(history)
    history = apply(history, setItemValue('nombre', '/data/label/value', 'Y'), { merge: 'nombre/label' })
    assert.equal(history.past.length, 2, 'an undo or redo ends the run too')
  })
})
