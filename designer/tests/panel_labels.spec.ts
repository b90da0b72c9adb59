import { test } from '@japa/runner'
import { readFileSync } from 'node:fs'
import { coreRegistry } from '@tramita/contract'
import { describeSchema, type EditorNode, type JsonSchema } from '../src/panel/schema_nodes.js'
import { GROUP_IDS, panelGroups } from '../src/panel/groups.js'
import { keyLabel, labelIds, optionIds, optionLabel, type Texts } from '../src/panel/labels.js'

type Tree = { [key: string]: string | Tree }
const LANGUAGES = ['es', 'en', 'zh'] as const
const load = (lang: string) =>
  JSON.parse(readFileSync(new URL(`../../core/i18n/locales/designer/${lang}.json`, import.meta.url), 'utf8')) as Tree

/** The texts of a language file as labels.ts reads them (ids with dots). */
function textsOf(tree: Tree): Texts {
  const find = (id: string) =>
    id
      .split('.')
      .reduce<string | Tree | undefined>((node, key) => (typeof node === 'object' ? node[key] : undefined), tree)
  return { exists: (id) => typeof find(id) === 'string', t: (id) => String(find(id)) }
}

const GROUPED = new Set(['data', 'data/label', 'data/ref', 'data/validate', 'data/design', 'state', 'events', 'type'])

/** Every editor of every core type, with its path inside the item (list entries at index 0). */
function everyEditor(): { path: (string | number)[]; node: EditorNode }[] {
  const found: { path: (string | number)[]; node: EditorNode }[] = []
  const walk = (node: EditorNode, path: (string | number)[]) => {
    // The containers the groups open up are not editors of their own.
    if (!GROUPED.has(path.join('/'))) found.push({ path, node })
    for (const child of node.children ?? []) walk(child, [...path, child.key])
    for (const child of node.item?.children ?? []) walk(child, [...path, 0, child.key])
  }
  for (const fieldType of coreRegistry().list()) {
    const root = describeSchema(fieldType.schema as JsonSchema)
    for (const child of root.children ?? []) walk(child, [child.key])
  }
  return found
}

test.group('property panel: names of keys', () => {
  test('a key is named for where it sits, then by itself; list indices and `data` do not count', ({ assert }) => {
    assert.deepEqual(labelIds(['data', 'ref', 'limit']), ['panel.keys.ref_limit', 'panel.keys.limit'])
    assert.deepEqual(labelIds(['data', 'limit']), ['panel.keys.limit'])
    assert.deepEqual(labelIds(['data', 'options', 2, 'label']), ['panel.keys.options_label', 'panel.keys.label'])
    assert.deepEqual(labelIds([]), [])
    assert.deepEqual(optionIds('natural', 'readonly'), ['panel.options.natural_readonly', 'panel.options.readonly'])
  })

  test('an unknown key shows as itself; a known one in the language', ({ assert }) => {
    const texts: Texts = { exists: (id) => id === 'panel.keys.limit', t: () => 'Límites' }
    assert.equal(keyLabel(texts, ['data', 'limit']), 'Límites')
    assert.equal(keyLabel(texts, ['data', 'plugin_key']), 'plugin_key')
    assert.equal(optionLabel(texts, 'mode', 'grid'), 'grid')
  })

  test('{$self}: every key, group and choice of the core types is named')
    .with([...LANGUAGES])
    .run(({ assert }, lang) => {
      const texts = textsOf(load(lang))
      const missing = new Set<string>()
      for (const { path, node } of everyEditor()) {
        if (!labelIds(path).some((id) => texts.exists(id))) missing.add(path.join('/'))
        for (const option of node.kind === 'select' ? (node.options ?? []) : []) {
          if (!optionIds(node.key, option).some((id) => texts.exists(id))) missing.add(`${node.key}=${option}`)
        }
      }
      assert.deepEqual([...missing], [])
      for (const id of GROUP_IDS) assert.isTrue(texts.exists(`panel.groups.${id}`), id)
      for (const group of panelGroups(describeSchema(coreRegistry().require('field', 'text').schema as JsonSchema))) {
        assert.notEqual(texts.t(`panel.groups.${group.id}`), '')
      }
    })

  test('{$self}: a custom message is named and explained as a message, not as the rule it words')
    .with([...LANGUAGES])
    .run(({ assert }, lang) => {
      const texts = textsOf(load(lang))
      const first = (ids: string[]) => ids.find((id) => texts.exists(id))
      for (const rule of ['required', 'pattern', 'min_length', 'max_length', 'email', 'min', 'max']) {
        const path = ['data', 'validate', 'messages', rule]
        assert.equal(first(labelIds(path)), `panel.keys.messages_${rule}`)
        assert.equal(first(labelIds(path, 'hints')), `panel.hints.messages_${rule}`)
      }
      // The pattern itself keeps its own hint.
      assert.equal(first(labelIds(['data', 'ref', 'pattern'], 'hints')), 'panel.hints.pattern')
      assert.equal(first(labelIds(['data', 'ref', 'min_length'])), 'panel.keys.ref_min_length')
    })

  test('the three languages have the same panel texts', ({ assert }) => {
    const ids = (tree: Tree, prefix = ''): string[] =>
      Object.entries(tree).flatMap(([key, value]) =>
        typeof value === 'string' ? [`${prefix}${key}`] : ids(value, `${prefix}${key}.`)
      )
    const [es, en, zh] = LANGUAGES.map((lang) => ids(load(lang).panel as Tree).sort())
    assert.deepEqual(en, es)
    assert.deepEqual(zh, es)
  })
})
