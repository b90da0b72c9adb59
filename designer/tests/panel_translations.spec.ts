import { test } from '@japa/runner'
import { readFileSync } from 'node:fs'
import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import i18next from 'i18next'
import { I18nextProvider } from 'react-i18next'
import { coreRegistry } from '@tramita/contract'
import type { Language } from '@tramita/i18n'
import { PanelContext } from '../src/panel/panel_context.js'
import { PanelGroup } from '../src/panel/PanelGroup.js'
import { panelGroups } from '../src/panel/groups.js'
import { itemsSource } from '../src/panel/source.js'
import { translationOf } from '../src/panel/translation.js'
import { describeSchema, leaves, nodeAt, type JsonSchema } from '../src/panel/schema_nodes.js'
import { commonNode } from '../src/panel/common.js'
import { apply, createHistory, openDocument, setItemsValue, undo } from '../src/model/index.js'

const en = JSON.parse(
  readFileSync(new URL('../../core/i18n/locales/designer/en.json', import.meta.url), 'utf8')
) as Record<string, unknown>

const colour = {
  field_name: 'color',
  type: 'select',
  data: {
    label: { value: 'Color' },
    options: [
      { id: 'r', label: 'Rojo' },
      { id: 7, label: 'Verde' },
    ],
  },
  translations: { en: { 'label.value': 'Colour', 'options.7.label': 'Green' } },
}

/** The label and type groups of the panel, as PropertyPanel renders them (it imports CSS, which tests cannot). */
async function panel(language?: Language) {
  const i18n = i18next.createInstance()
  await i18n.init({ lng: 'en', resources: { en: { translation: en } }, interpolation: { escapeValue: false } })
  const items = [{ name: 'color', kind: 'field' as const, item: colour }]
  const groups = panelGroups(commonNode(coreRegistry(), items)!).filter((g) => g.id === 'label' || g.id === 'type')
  const source = itemsSource([colour], () => {})
  const translation = language ? translationOf(language, items, () => {}) : undefined
  return renderToStaticMarkup(
    createElement(
      I18nextProvider,
      { i18n },
      createElement(
        PanelContext.Provider,
        { value: { problems: [], multi: false, translation } },
        ...groups.map((group) => createElement(PanelGroup, { key: group.id, group, source }))
      )
    )
  )
}

test.group('property panel: texts per language', () => {
  test('the schema nodes of texts a reader sees are translatable; names, colours and scripts are not', ({ assert }) => {
    const root = commonNode(coreRegistry(), [{ name: 'color', kind: 'field', item: colour }])!
    assert.isTrue(nodeAt(root, ['data', 'label', 'value'])!.translatable)
    assert.isTrue(nodeAt(root, ['data', 'ref', 'placeholder'])!.translatable)
    assert.isTrue(nodeAt(root, ['data', 'options'])!.item!.children!.find((c) => c.key === 'label')!.translatable)
    const plain = leaves(root).filter((node) => !node.translatable)
    for (const key of ['field_name', 'mask', 'show_with_formule', 'background']) {
      assert.isTrue(
        plain.some((node) => node.key === key),
        key
      )
    }
    assert.isUndefined(describeSchema({ type: 'string' } as JsonSchema).translatable)
  })

  test('in a language, a text row edits its translation with the form text as the placeholder', async ({ assert }) => {
    const html = await panel('en')
    const row = (key: string) =>
      new RegExp(
        `data-translation="${key.replace(/\./g, '\\.')}"><label[^>]*>([^<]*)</label><textarea [^>]*>[^<]*</textarea>`
      ).exec(html)
    assert.equal(row('label.value')?.[1], 'Label (en)')
    assert.match(row('label.value')![0], /lang="en" placeholder="Color"[^>]*>Colour<\/textarea>/)
    assert.match(row('options.7.label')![0], /placeholder="Verde"[^>]*>Green<\/textarea>/)
    // An option without a translation: empty, the form's text as placeholder.
    assert.match(row('options.r.label')![0], /placeholder="Rojo"[^>]*><\/textarea>/)
    // Keys that are not texts keep their own editors.
    assert.isNull(row('options.r.bgcolor'))
    // Without a language the same rows edit the form's own texts.
    const own = await panel()
    assert.notInclude(own, 'data-translation')
    assert.match(own, />Color<\/textarea>/)
  })

  test('a translation is written into the item and undone like any change', ({ assert }) => {
    const doc = openDocument({
      name: 'Colores',
      jsonconfig: { form: { pages: [{ name: 'Uno', layout: [['color']] }] }, fields: [colour] },
      process: {},
    })
    let history = createHistory(doc)
    const items = [{ name: 'color', kind: 'field' as const, item: colour }]
    const translation = translationOf('zh', items, (path, value) => {
      history = apply(history, setItemsValue(['color'], path, value))
    })
    translation.write('label.value', '颜色')
    const stored = history.present.jsonconfig.fields[0]!.translations as Record<string, Record<string, string>>
    assert.deepEqual(stored.zh, { 'label.value': '颜色' })
    assert.deepEqual(stored.en, colour.translations.en)
    assert.equal(translation.read('label.value').value, undefined, 'reads the items it was given')
    const undone = undo(history).present.jsonconfig.fields[0]!.translations as Record<string, unknown>
    assert.deepEqual(undone, colour.translations)
  })
})
