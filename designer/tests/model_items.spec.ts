import { test } from '@japa/runner'
import {
  coreFieldTypes,
  coreRegistry,
  createFieldTypeRegistry,
  defineFieldType,
  itemWithDefaults,
} from '@tramita/contract'
import {
  addItem,
  copyNames,
  deleteItems,
  duplicateItems,
  FieldNameError,
  fieldNameProblem,
  findItem,
  renameItem,
  resolvedItem,
  setItemsValue,
  setItemValue,
  setValue,
  uniqueFieldName,
  validateDocument,
  type Command,
  type DesignDocument,
} from '../src/model/index.js'
import { layouts, sampleDocument } from './model_fixture.js'

const registry = coreRegistry()
const run = (doc: DesignDocument, ...commands: Command[]) => commands.reduce((d, command) => command(d), doc)

test.group('designer model: adding items', () => {
  test('every registered type can be added, with a unique name, and the form stays valid', ({ assert }) => {
    let doc = sampleDocument()
    const added: string[] = []
    for (const type of coreFieldTypes) {
      const name = uniqueFieldName(doc.jsonconfig, type.type)
      // A section element shows a section page: it names one, as the palette will.
      const data = type.type === 'section' ? { section_id: 'ayuda' } : undefined
      doc = addItem(registry, { kind: type.kind, type: type.type, at: { page: 1, newRow: 0 }, data })(doc)
      added.push(name)
      const found = findItem(doc.jsonconfig, name)!
      assert.equal(found.kind, type.kind, name)
      assert.equal(found.item.type, type.type, name)
      // Sparse: defaults apply when read, and read back they are the type's own.
      assert.deepEqual(resolvedItem(doc.jsonconfig, name, registry), itemWithDefaults(found.item, type.kind), name)
    }
    assert.equal(new Set(added).size, coreFieldTypes.length)
    assert.deepEqual(added.slice(0, 3), ['text_1', 'number_1', 'textarea_1'])
    assert.include(added, 'text_2', 'the text element comes after the text field: names are unique across both')
    assert.deepEqual(validateDocument(doc), [])
    // Each went into a new first row of page 1, the last one added on top.
    assert.deepEqual(layouts(doc)[1]!.slice(0, 2), [[added.at(-1)!], [added.at(-2)!]])
  })

  test('a new item: given name, label and place; required keys without a default are seeded', ({ assert }) => {
    const doc = sampleDocument()
    const next = addItem(registry, {
      kind: 'field',
      type: 'email',
      name: 'correo',
      at: { page: 0, row: 1, column: 1 },
      data: { label: { value: 'Correo' } },
    })(doc)
    assert.deepEqual(findItem(next.jsonconfig, 'correo')!.item, {
      field_name: 'correo',
      type: 'email',
      data: { label: { value: 'Correo' } },
    })
    assert.deepEqual(layouts(next)[0]![1], ['nombre', 'correo', 'cedula'])
    const bare = addItem(registry, { kind: 'field', type: 'date' })(doc)
    assert.deepEqual(findItem(bare.jsonconfig, 'date_1')!.item, { field_name: 'date_1', type: 'date' })
    assert.deepEqual(layouts(bare), layouts(doc), 'no place given: on no layout')
    const section = addItem(registry, { kind: 'element', type: 'section' })(doc)
    assert.deepEqual(findItem(section.jsonconfig, 'section_1')!.item.data, { section_id: '' })
    assert.deepInclude(validateDocument(section), {
      path: '/jsonconfig/elements/2/data/section_id',
      message: 'must NOT have fewer than 1 characters',
    })
  })

  test('types come from the registry given: a plugin type is added; an unknown one is refused', ({ assert }) => {
    const rating = defineFieldType({ type: 'rating_plugin' })
    const withPlugin = createFieldTypeRegistry([...coreFieldTypes, rating])
    const doc = addItem(withPlugin, { kind: 'field', type: 'rating_plugin', at: { page: 0, newRow: 3 } })(
      sampleDocument()
    )
    assert.equal(findItem(doc.jsonconfig, 'rating_plugin_1')!.item.type, 'rating_plugin')
    assert.deepEqual(validateDocument(doc, withPlugin), [])
    assert.throws(() => addItem(registry, { kind: 'field', type: 'rating_plugin' }), /Unknown field type/)
    assert.throws(() => addItem(registry, { kind: 'field', type: 'divider' }), /Unknown field type "divider"/)
  })

  test('names: taken, reserved or not identifiers are refused with the reason', ({ assert }) => {
    const doc = sampleDocument()
    const refused = (name: string) => {
      try {
        addItem(registry, { kind: 'field', type: 'text', name })(doc)
      } catch (error) {
        return error instanceof FieldNameError ? error.problem : 'other'
      }
      return 'accepted'
    }
    assert.equal(refused('nombre'), 'taken')
    assert.equal(refused('titulo'), 'taken', 'names are unique across fields and elements')
    assert.equal(refused('Math'), 'reserved')
    assert.equal(refused('value'), 'reserved', 'the host API')
    assert.equal(refused('if'), 'reserved')
    assert.equal(refused('2x'), 'pattern')
    assert.equal(refused('con espacio'), 'pattern')
    assert.equal(refused(''), 'empty')
    assert.equal(refused('x'.repeat(121)), 'too_long')
    assert.equal(refused('apellido'), 'accepted')
    assert.isUndefined(fieldNameProblem(doc.jsonconfig, 'nombre', 'nombre'), 'its own name is free for it')
  })

  test('generated names are identifiers whatever the base (a plugin type may be named freely)', ({ assert }) => {
    const doc = sampleDocument()
    assert.equal(uniqueFieldName(doc.jsonconfig, 'mi-tipo 2'), 'mi_tipo_1')
    assert.equal(uniqueFieldName(doc.jsonconfig, '3d'), '_3d_1')
    assert.equal(uniqueFieldName(doc.jsonconfig, 'Math'), 'Math_1')
    assert.equal(uniqueFieldName(doc.jsonconfig, 'nombre'), 'nombre_1')
    assert.equal(uniqueFieldName(doc.jsonconfig, 'nombre', ['nombre_1']), 'nombre_2')
    const odd = createFieldTypeRegistry([...coreFieldTypes, defineFieldType({ type: 'mi-tipo' })])
    const added = addItem(odd, { kind: 'field', type: 'mi-tipo' })(doc)
    assert.equal(findItem(added.jsonconfig, 'mi_tipo_1')!.item.type, 'mi-tipo')
  })
})

test.group('designer model: duplicate, delete, rename, set', () => {
  test('duplicates get new unique names and sit just after their originals', ({ assert }) => {
    const doc = sampleDocument()
    const copies = copyNames(doc.jsonconfig, ['nombre', 'cedula', 'titulo'])
    assert.deepEqual(
      [...copies],
      [
        ['titulo', 'titulo_1'],
        ['nombre', 'nombre_1'],
        ['cedula', 'cedula_1'],
      ]
    )
    const twice = copyNames(duplicateItems(['nombre'])(doc).jsonconfig, ['nombre', 'nombre_1'])
    assert.deepEqual([...twice.values()], ['nombre_2', 'nombre_3'], 'copies made together do not collide')
    const next = duplicateItems(['cedula', 'nombre', 'titulo'])(doc)
    assert.deepEqual(layouts(next)[0], [['titulo', 'titulo_1'], ['nombre', 'nombre_1', 'cedula', 'cedula_1'], ['jefe']])
    const names = next.jsonconfig.fields.map((f) => f.field_name)
    assert.deepEqual(names.slice(0, 4), ['nombre', 'nombre_1', 'cedula', 'cedula_1'])
    const { field_name: _a, ...original } = findItem(doc.jsonconfig, 'nombre')!.item
    const { field_name: _b, ...copy } = findItem(next.jsonconfig, 'nombre_1')!.item
    assert.deepEqual(copy, original)
    assert.notStrictEqual(copy.data, original.data, 'a copy, not the same object')
    const again = duplicateItems(['nombre_1'])(next)
    assert.isDefined(findItem(again.jsonconfig, 'nombre_2'), 'a copy of nombre_1 is nombre_2')
    assert.deepEqual(validateDocument(next), [])
  })

  test('a duplicate of an item on no layout stays off the layouts', ({ assert }) => {
    const doc = addItem(registry, { kind: 'field', type: 'var', name: 'total' })(sampleDocument())
    const next = duplicateItems(['total'])(doc)
    assert.isDefined(findItem(next.jsonconfig, 'total_1'))
    assert.deepEqual(layouts(next), layouts(doc))
  })

  test('deleting removes the items, their places and rows left empty; empty rows made on purpose stay', ({
    assert,
  }) => {
    const doc = sampleDocument()
    const next = deleteItems(['nombre', 'cedula', 'motivo'])(doc)
    assert.deepEqual(layouts(next), [[['titulo'], ['jefe']], [[], ['hijos', 'hijo_nombre']], [['nota']]])
    for (const name of ['nombre', 'cedula', 'motivo']) assert.isUndefined(findItem(next.jsonconfig, name))
    assert.deepEqual((next.process as any).external_consultation.select_show_info, [])
    // No layout names a missing item; the references the designer wrote are flagged where they are.
    const problems = validateDocument(next).map((p) => p.path)
    assert.notInclude(problems.join(' '), '/layout/')
    assert.include(problems, '/jsonconfig/validations/autocomplete/0/id_field')
    assert.throws(() => deleteItems(['nadie'])(doc), /No field or element named "nadie"/)
  })

  test('a rename follows the layout, sets, rules and the process; scripts are left as written', ({ assert }) => {
    const doc = sampleDocument()
    const next = run(
      doc,
      renameItem('cedula', 'documento'),
      renameItem('hijos', 'numero_hijos'),
      renameItem('jefe', 'jefe_area')
    )
    assert.deepEqual(layouts(next)[0]![1], ['nombre', 'documento'])
    assert.equal(findItem(next.jsonconfig, 'hijo_nombre')!.item.set, 'numero_hijos')
    assert.equal((next.jsonconfig.validations as any).autocomplete[0].id_field, 'documento')
    const process = next.process as any
    assert.equal(process.steps[0].assign.field, 'jefe_area')
    assert.equal(process.external_consultation.select_restrinct_consult, 'documento')
    assert.deepEqual(process.external_consultation.select_show_info, ['nombre', 'documento'])
    assert.deepEqual(validateDocument(next), [])
    assert.throws(() => renameItem('nombre', 'cedula')(doc), FieldNameError)
    assert.throws(() => renameItem('nombre', 'Date')(doc), /reserved/)
    assert.strictEqual(renameItem('nombre', 'nombre')(doc).jsonconfig, doc.jsonconfig)
  })

  test('any key of an item is set by path; undefined brings its default back; the name renames', ({ assert }) => {
    const doc = sampleDocument()
    const next = run(
      doc,
      setItemValue('nombre', '/data/validate/required', true),
      setItemValue('nombre', ['data', 'ref', 'limit'], 40),
      setItemValue('nombre', '/data/width', undefined)
    )
    assert.deepEqual(findItem(next.jsonconfig, 'nombre')!.item.data, {
      label: { value: 'Nombre' },
      validate: { required: true },
      ref: { limit: 40 },
    })
    assert.equal(resolvedItem(next.jsonconfig, 'nombre', registry)!.data.width, -1)
    const renamed = setItemValue('nombre', '/field_name', 'nombres')(doc)
    assert.deepEqual(layouts(renamed)[0]![1], ['nombres', 'cedula'])
    const several = setItemsValue(['nombre', 'cedula', 'motivo'], '/data/validate/required', true)(doc)
    for (const name of ['nombre', 'cedula', 'motivo']) {
      assert.isTrue((findItem(several.jsonconfig, name)!.item.data as any).validate.required, name)
    }
    assert.strictEqual(several.jsonconfig.elements, doc.jsonconfig.elements, 'what was not touched is shared')
  })

  test('any value of the document is set by the path the validation reports', ({ assert }) => {
    const doc = sampleDocument()
    const next = run(
      doc,
      setValue('/name', 'Permiso'),
      setValue('/jsonconfig/form/display', 'form'),
      setValue('/process/steps/0/label', 'Revisión del jefe'),
      setValue('/jsonconfig/fields/1/field_name', 'documento')
    )
    assert.equal(next.name, 'Permiso')
    assert.equal(next.jsonconfig.form.display, 'form')
    assert.equal((next.process as any).steps[0].label, 'Revisión del jefe')
    assert.deepEqual(layouts(next)[0]![1], ['nombre', 'documento'], 'a field_name written by path is a rename')
    const bad = setValue('/jsonconfig/fields/0/data/ref/limit', 'mucho')(doc)
    assert.deepEqual(validateDocument(bad), [
      { path: '/jsonconfig/fields/0/data/ref/limit', message: 'must be number' },
    ])
    assert.throws(() => setValue('/other', 1)(doc), /No part "other"/)
    assert.throws(() => setValue('/jsonconfig/fields/0/type/x', 1)(doc), /Cannot write inside/)
    assert.throws(() => setValue('jsonconfig', 1)(doc), /starts with "\/"/)
    assert.throws(() => setValue('/jsonconfig/fields/9/data/width', 3)(doc), /No index 9 in a list of 6/)
  })
})
