import { test } from '@japa/runner'
import { readdirSync, readFileSync } from 'node:fs'
import { coreRegistry } from '@tramita/contract'
import {
  indexProblems,
  openDocument,
  outline,
  setItemValue,
  setValue,
  validateDocument,
  type Command,
} from '../src/model/index.js'
import { PROCESS, sampleDocument } from './model_fixture.js'

const TEMPLATES = new URL('../../templates/forms/', import.meta.url)
const registry = coreRegistry()

test.group('designer model: validation', () => {
  test('problems carry their path in the document and are found by item name', ({ assert }) => {
    const doc = [
      setItemValue('cedula', '/data/ref/limit', 'mucho'),
      setItemValue('titulo', '/data/width', 20),
      setValue('/process/steps/0/assign/field', 'nadie'),
    ].reduce((d, command: Command) => command(d), sampleDocument())
    const problems = validateDocument(doc)
    assert.deepEqual(problems, [
      { path: '/jsonconfig/fields/1/data/ref/limit', message: 'must be number' },
      { path: '/jsonconfig/elements/0/data/width', message: 'must be <= 12' },
      { path: '/process/steps/0/assign/field', message: '"nadie" is not a field of the form' },
    ])
    const index = indexProblems(doc, problems)
    assert.deepEqual(index.ofItem('cedula'), [{ path: '/data/ref/limit', message: 'must be number' }])
    assert.deepEqual(index.ofItem('titulo'), [{ path: '/data/width', message: 'must be <= 12' }])
    assert.deepEqual(index.ofItem('nombre'), [])
    assert.lengthOf(index.at('/jsonconfig/fields/1/data/ref/limit'), 1)
    assert.lengthOf(index.at(['jsonconfig', 'fields', 1, 'data', 'ref']), 0)
    assert.lengthOf(index.under(['jsonconfig', 'fields', 1]), 1)
    assert.lengthOf(index.under('/process'), 1)
    assert.lengthOf(index.under(''), 3)
  })

  test('a blank name and a broken process are flagged', ({ assert }) => {
    const doc = setValue('/name', ' ')(setValue('/process/states', [])(sampleDocument()))
    const paths = validateDocument(doc).map((p) => p.path)
    assert.include(paths, '/name')
    assert.include(paths, '/process/states')
  })

  test('every template in templates/forms opens, reads and validates clean', ({ assert }) => {
    const files = readdirSync(TEMPLATES).filter((file) => file.endsWith('.json'))
    assert.isAtLeast(files.length, 5)
    for (const file of files) {
      const jsonconfig = JSON.parse(readFileSync(new URL(file, TEMPLATES), 'utf8'))
      const doc = openDocument({ name: file, jsonconfig, process: PROCESS_FOR_ANY_FORM })
      assert.deepEqual(doc.jsonconfig, jsonconfig, `${file}: opened as it is`)
      assert.deepEqual(validateDocument(doc, registry), [], file)
      const read = outline(doc, registry)
      assert.equal(read.pages.length, jsonconfig.form.pages.length, file)
      for (const row of read.pages.flatMap((page) => page.rows)) {
        for (const item of row) assert.isDefined(item.kind, `${file}: ${item.name}`)
      }
    }
  })

  test('opening a document fills only the lists the commands walk', ({ assert }) => {
    const doc = openDocument({ name: 'X', jsonconfig: { form: { pages: [{ name: 'A' }] } }, process: null })
    assert.deepEqual(doc.jsonconfig, { form: { pages: [{ name: 'A', layout: [] }] }, fields: [], elements: [] })
    assert.deepEqual(doc.process, {})
    assert.isTrue(Object.isFrozen(doc.jsonconfig.form))
    const empty = openDocument({ name: 'Y', jsonconfig: 'nope', process: [] })
    assert.deepEqual(empty.jsonconfig, { form: { pages: [] }, fields: [], elements: [] })
    assert.include(
      validateDocument(empty).map((p) => p.path),
      '/jsonconfig/form/pages'
    )
  })

  test('the outline lists items on no page and names on a layout the form lacks', ({ assert }) => {
    const doc = setValue('/jsonconfig/form/pages/0/layout/0', ['titulo', 'fantasma'])(sampleDocument())
    const read = outline(setValue('/jsonconfig/fields/6', { field_name: 'suelto', type: 'var' })(doc), registry)
    assert.deepEqual(
      read.unplaced.map((i) => i.name),
      ['suelto']
    )
    const ghost = read.pages[0]!.rows[0]![1]!
    assert.equal(ghost.name, 'fantasma')
    assert.isUndefined(ghost.kind)
    assert.deepEqual(
      read.pages[0]!.rows[1]!.map((i) => i.label),
      ['Nombre', 'Cédula']
    )
  })
})

const PROCESS_FOR_ANY_FORM = { ...PROCESS, start: { step: null }, steps: [], external_consultation: {} }
