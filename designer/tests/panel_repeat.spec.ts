import { test } from '@japa/runner'
import { readFileSync } from 'node:fs'
import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import i18next from 'i18next'
import { I18nextProvider } from 'react-i18next'
import { coreRegistry } from '@tramita/contract'
import { describeSchema, nodeAt, typedEntryNode, type EditorNode, type JsonSchema } from '../src/panel/schema_nodes.js'
import { newListEntry } from '../src/panel/values.js'
import { commonNode } from '../src/panel/common.js'
import { panelGroups } from '../src/panel/groups.js'
import { itemsSource } from '../src/panel/source.js'
import { PanelContext } from '../src/panel/panel_context.js'
import { PanelGroup } from '../src/panel/PanelGroup.js'
import { addItem, setItemValue, validateDocument, type Command, type DesignDocument } from '../src/model/index.js'
import { sampleDocument } from './model_fixture.js'

const registry = coreRegistry()
const run = (doc: DesignDocument, ...commands: Command[]) => commands.reduce((d, command) => command(d), doc)
const root = () => describeSchema(registry.require('field', 'repeat').schema as JsonSchema)
const en = JSON.parse(
  readFileSync(new URL('../../core/i18n/locales/designer/en.json', import.meta.url), 'utf8')
) as Record<string, unknown>

/** The panel's "type" group of one repeating group, rendered in English. */
async function typeGroup(data: Record<string, unknown>) {
  const i18n = i18next.createInstance()
  await i18n.init({ lng: 'en', resources: { en: { translation: en } }, interpolation: { escapeValue: false } })
  const items = [{ name: 'hijos', kind: 'field' as const, item: { field_name: 'hijos', type: 'repeat', data } }]
  const group = panelGroups(commonNode(registry, items)!).find((g) => g.id === 'type')!
  const source = itemsSource(
    items.map((i) => i.item),
    () => {}
  )
  return renderToStaticMarkup(
    createElement(
      I18nextProvider,
      { i18n },
      createElement(
        PanelContext.Provider,
        { value: { problems: [], multi: false, registry } },
        createElement(PanelGroup, { group, source })
      )
    )
  )
}

test.group('designer: repeating groups', () => {
  test('the panel edits min and max rows, and each cell’s name, type, label, required flag, condition and own keys', ({
    assert,
  }) => {
    const tree = root()
    assert.equal(nodeAt(tree, ['data', 'min_rows'])?.kind, 'number')
    assert.equal(nodeAt(tree, ['data', 'max_rows'])?.default, -1)
    const cells = nodeAt(tree, ['data', 'cells']) as EditorNode
    assert.equal(cells.kind, 'list')
    const entry = cells.item!
    assert.deepEqual(
      entry.children!.map((c) => [c.key, c.kind]),
      [
        ['field_name', 'text'],
        ['type', 'select'],
        ['data', 'object'],
      ]
    )
    assert.includeMembers(entry.children![1]!.options as string[], ['text', 'number', 'select', 'switch'])
    assert.deepEqual(
      nodeAt(entry, ['data'])!.children!.map((c) => c.key),
      ['label', 'validate', 'show_with_formule', 'formule']
    )
    assert.equal(nodeAt(entry, ['data', 'show_with_formule'])?.kind, 'script')
    assert.isTrue(cells.typedItems)
    // Each cell also gets its own type's keys: a select's choices, a number's limits.
    const ofType = (type: string) =>
      nodeAt(typedEntryNode(entry, registry.require('field', type).schema as JsonSchema), ['data'])!.children!.map(
        (c) => c.key
      )
    assert.includeMembers(ofType('select'), ['options', 'multiple', 'ref'])
    assert.includeMembers(ofType('number'), ['limit', 'decimals'])
    assert.notInclude(ofType('number'), 'design')
    assert.notInclude(ofType('number'), 'on_change', 'a cell has no event scripts')
    assert.lengthOf(
      ofType('number').filter((key) => key === 'formule'),
      1,
      'the formula once, from the cell’s own keys'
    )
    // "Add" gives a cell a name no other cell has.
    assert.deepEqual(newListEntry(entry, [{ field_name: 'cell_1', type: 'text' }]), {
      field_name: 'cell_2',
      type: 'text',
    })
  })

  test('a repeating group added from the palette, given cells and row limits, makes a valid form', ({ assert }) => {
    const doc = run(
      sampleDocument(),
      addItem(registry, { kind: 'field', type: 'repeat', name: 'companeros', at: { page: 0, newRow: 0 } }),
      setItemValue(
        'companeros',
        ['data', 'cells'],
        [
          { field_name: 'cell_1', type: 'text', data: { label: { value: 'Nombre' }, validate: { required: true } } },
          { field_name: 'cell_2', type: 'select', data: { options: [{ id: 'a', label: 'A' }] } },
        ]
      ),
      setItemValue('companeros', ['data', 'min_rows'], 1),
      setItemValue('companeros', ['data', 'max_rows'], 4)
    )
    assert.deepEqual(validateDocument(doc), [])
    // A row limit that cannot hold is a problem at its path.
    const bad = run(doc, setItemValue('companeros', ['data', 'max_rows'], 0))
    assert.deepInclude(
      validateDocument(bad).map((p) => p.path),
      `/jsonconfig/fields/${doc.jsonconfig.fields.findIndex((f) => f.field_name === 'companeros')}/data/max_rows`
    )
  })

  test('the rendered panel names the keys and offers to add a cell', async ({ assert }) => {
    const html = await typeGroup({
      cells: [
        { field_name: 'cell_1', type: 'number' },
        { field_name: 'cell_2', type: 'select' },
      ],
    })
    assert.include(html, 'Minimum rows')
    assert.include(html, 'Maximum rows (-1: no limit)')
    assert.include(html, '>Add to Cells</button>')
    assert.include(html, 'aria-label="Remove cell_1"')
    // The select cell's choices are edited as a field's are.
    assert.include(html, '>Add to Options</button>')
  })
})
