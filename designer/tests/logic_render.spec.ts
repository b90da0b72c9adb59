import { test } from '@japa/runner'
import { readFileSync } from 'node:fs'
import { createElement, type ReactElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import i18next from 'i18next'
import { I18nextProvider } from 'react-i18next'
import { AutocompleteRule, configRoles, coreActionRegistry, coreRegistry, recordOnlyProcess } from '@tramita/contract'
import { indexProblems, openDocument, validateDocument } from '../src/model/index.js'
import { ActionsEditor } from '../src/logic/ActionsEditor.js'
import { RulesEditor } from '../src/logic/RulesEditor.js'
import { commonNode } from '../src/panel/common.js'
import { panelGroups } from '../src/panel/groups.js'
import { itemsSource } from '../src/panel/source.js'
import { PanelContext } from '../src/panel/panel_context.js'
import { PanelGroup } from '../src/panel/PanelGroup.js'
import { describeSchema, type EditorNode, type JsonSchema } from '../src/panel/schema_nodes.js'
import { labelIds, optionIds } from '../src/panel/labels.js'

type Tree = { [key: string]: string | Tree }
const LANGUAGES = ['es', 'en', 'zh'] as const
const load = (lang: string) =>
  JSON.parse(readFileSync(new URL(`../../core/i18n/locales/designer/${lang}.json`, import.meta.url), 'utf8')) as Tree
const has = (tree: Tree, id: string) =>
  typeof id
    .split('.')
    .reduce<string | Tree | undefined>((node, key) => (typeof node === 'object' ? node[key] : undefined), tree) ===
  'string'

async function html(element: ReactElement): Promise<string> {
  const i18n = i18next.createInstance()
  await i18n.init({ lng: 'es', resources: { es: { translation: load('es') } }, interpolation: { escapeValue: false } })
  return renderToStaticMarkup(createElement(I18nextProvider, { i18n }, element))
}

const doc = openDocument({
  name: 'Lógica',
  jsonconfig: {
    form: { pages: [{ name: 'Datos', layout: [['nombre', 'edad']] }] },
    validations: {
      actions: [
        {
          name: 'saludar',
          actions: [
            { type: 'set_value', config: {} },
            { type: 'delay', config: { seconds: -2 } },
            { type: 'execute_script', config: { code: 'edad + 1' } },
          ],
        },
      ],
      autocomplete: [{ id_field: 'nombre', action: 'value', origin: 'python' }],
    },
    fields: [
      { field_name: 'nombre', type: 'text', data: { label: { value: 'Nombre' } }, events: { on_change: ['saludar'] } },
      { field_name: 'edad', type: 'number' },
    ],
    elements: [],
  },
  process: recordOnlyProcess('Lógica'),
})
const problems = indexProblems(doc, validateDocument(doc))
const fields = [
  { id: 'nombre', label: 'Nombre (nombre)' },
  { id: 'edad', label: 'edad' },
]
const run = () => true

test.group('logic view: rendered', () => {
  test('the contract finds the malformed steps at their paths', ({ assert }) => {
    assert.deepEqual(
      problems.all.map((p) => p.path),
      [
        '/jsonconfig/validations/actions/0/actions/0/config/field',
        '/jsonconfig/validations/actions/0/actions/1/config/seconds',
      ]
    )
  })

  test('steps get editors from their types’ schemas, each showing its problems', async ({ assert }) => {
    const out = await html(
      createElement(ActionsEditor, {
        doc,
        run,
        problems,
        registry: coreRegistry(),
        actionTypes: coreActionRegistry(),
        fields,
      })
    )
    // The field to set: a choice among the form's fields, flagged as required.
    const field =
      /<label for="([^"]+)">Campo<\/label><select id="\1" aria-invalid="true" aria-describedby="\1-problems" data-testid="config-field">/.exec(
        out
      )
    assert.isNotNull(field, out)
    assert.include(out, `<ul id="${field![1]}-problems" class="panel-problems" role="alert"><li>is required</li></ul>`)
    assert.include(out, '<option value="nombre">Nombre (nombre)</option>')
    // The delay's seconds: a number editor with the problem at its path.
    assert.match(out, /<label for="[^"]+">Segundos<\/label><input[^>]*aria-invalid="true"[^>]*type="number"/)
    assert.include(out, 'must be &gt;= 0')
    // Scripts open the script editor.
    assert.include(out, 'data-testid="edit-script-code"')
    assert.include(out, 'data-testid="edit-script-formula"')
    // Where the action is used, before anyone deletes it.
    assert.include(out, 'Se usa en: nombre (on_change)')
    assert.include(out, 'data-name="saludar"')
  })

  test('an autocomplete rule: its field among the fields, Python refused with a message', async ({ assert }) => {
    const out = await html(createElement(RulesEditor, { doc, run, problems, registry: coreRegistry(), fields }))
    assert.include(out, 'data-testid="python-refused"')
    assert.include(out, 'Tramita no ejecuta scripts de Python')
    assert.match(out, /<option value="nombre" selected="">Nombre \(nombre\)<\/option>/)
    assert.include(out, '>Base de datos</label>')
  })

  test('a field’s events offer the form’s actions, the stored ones checked', async ({ assert }) => {
    const items = [
      { name: 'f', kind: 'field' as const, item: { field_name: 'f', type: 'text', events: { on_blur: ['b'] } } },
    ]
    const group = panelGroups(commonNode(coreRegistry(), items)!).find((g) => g.id === 'events')!
    const source = itemsSource(
      items.map((i) => i.item),
      () => {}
    )
    const out = await html(
      createElement(
        PanelContext.Provider,
        { value: { problems: [], multi: false, actionNames: ['a', 'b'] } },
        createElement(PanelGroup, { group, source })
      )
    )
    const onBlur = /Al salir<\/label><div role="group"[^>]*>(.*?)<\/div>/.exec(out)?.[1]
    assert.equal(
      onBlur,
      '<label><input type="checkbox"/> a</label><label><input type="checkbox" checked=""/> b</label>'
    )
    // Without the names (no form known) the list is typed, as before.
    const typed = await html(
      createElement(
        PanelContext.Provider,
        { value: { problems: [], multi: false } },
        createElement(PanelGroup, { group, source })
      )
    )
    assert.notInclude(typed, 'type="checkbox"')
  })
})

test.group('logic view: texts', () => {
  test('{$self}: every action type, config key, rule key and choice is named')
    .with([...LANGUAGES])
    .run(({ assert }, lang) => {
      const tree = load(lang)
      const missing: string[] = []
      const named = (path: string[], node: EditorNode) => {
        if (!labelIds(path).some((id) => has(tree, id))) missing.push(path.join('/'))
        for (const option of node.kind === 'select' ? (node.options ?? []) : []) {
          if (!optionIds(node.key, option).some((id) => has(tree, id))) missing.push(`${node.key}=${option}`)
        }
        for (const child of node.children ?? []) named([...path, child.key], child)
      }
      for (const actionType of coreActionRegistry().list()) {
        if (!has(tree, `logic.types.${actionType.type}`)) missing.push(actionType.type)
        const roles = configRoles(actionType)
        for (const [key, schema] of Object.entries(actionType.schema.properties)) {
          // Keys naming a field, fields, an action or a page have the logic view's own labels.
          if (roles[key] && roles[key] !== 'script') continue
          named(['config', key], describeSchema(schema as JsonSchema, ['config', key]))
        }
      }
      for (const child of describeSchema(AutocompleteRule as JsonSchema).children ?? []) {
        if (child.key !== 'id_field') named([child.key], child)
      }
      assert.deepEqual(missing, [])
    })
})
