import { test } from '@japa/runner'
import { coreRegistry, DEVICES, withDefaults } from '@tramita/contract'
// The runtime's own rule: what the model writes must be what the runtime lays out.
import { columnsFor } from '../../runtime-web/src/form/grid.js'
import { columnsOf, findItem, outline, resizeItem, resizeItems, validateDocument } from '../src/model/index.js'
import { sampleDocument } from './model_fixture.js'

const runtimeColumns = (doc: ReturnType<typeof sampleDocument>, name: string) => {
  const item = withDefaults(doc.jsonconfig).fields.find((f) => f.field_name === name)!
  return Object.fromEntries(DEVICES.map((device) => [device, columnsFor(item, device)]))
}

test.group('designer model: widths per device', () => {
  test('a resize per device is what the runtime reads, including over an older width', ({ assert }) => {
    let doc = sampleDocument()
    assert.deepEqual(
      runtimeColumns(doc, 'nombre'),
      { mobile: 12, tablet: 12, computer: 6 },
      'width 6 caps the computer'
    )
    doc = resizeItem('nombre', 'mobile', 12)(doc)
    doc = resizeItem('nombre', 'tablet', 8)(doc)
    doc = resizeItem('nombre', 'computer', 9)(doc)
    assert.deepEqual(runtimeColumns(doc, 'nombre'), { mobile: 12, tablet: 8, computer: 9 })
    assert.deepEqual(findItem(doc.jsonconfig, 'nombre')!.item.data, {
      label: { value: 'Nombre' },
      width: 9,
      design: { responsive: { mobile: 12, tablet: 8, computer: 9 } },
    })
    doc = resizeItem('cedula', 'computer', 4)(doc)
    assert.deepEqual(runtimeColumns(doc, 'cedula'), { mobile: 12, tablet: 12, computer: 4 })
    assert.notProperty(findItem(doc.jsonconfig, 'cedula')!.item.data, 'width', 'no older width to follow')
    assert.deepEqual(validateDocument(doc), [])
  })

  test('the canvas reads columns by the runtime rule, for every width', ({ assert }) => {
    const registry = coreRegistry()
    for (const device of DEVICES) {
      for (let columns = 1; columns <= 12; columns++) {
        const doc = resizeItem('nombre', device, columns)(sampleDocument())
        const item = withDefaults(doc.jsonconfig).fields[0]!
        assert.equal(columnsOf(item, device), columnsFor(item, device))
        assert.equal(columnsOf(item, device), columns)
        assert.equal(outline(doc, registry).pages[0]!.rows[1]![0]!.columns[device], columns)
      }
    }
  })

  test('several at once; widths are rounded into 1..12; nonsense is refused', ({ assert }) => {
    const doc = resizeItems(['nombre', 'cedula'], 'tablet', 6)(sampleDocument())
    assert.equal(runtimeColumns(doc, 'nombre').tablet, 6)
    assert.equal(runtimeColumns(doc, 'cedula').tablet, 6)
    assert.equal(runtimeColumns(resizeItem('nombre', 'mobile', 40)(doc), 'nombre').mobile, 12)
    assert.equal(runtimeColumns(resizeItem('nombre', 'mobile', 0)(doc), 'nombre').mobile, 1)
    assert.equal(runtimeColumns(resizeItem('nombre', 'mobile', 4.6)(doc), 'nombre').mobile, 5)
    assert.throws(() => resizeItem('nombre', 'mobile', Number.NaN), /Not a width/)
  })
})
