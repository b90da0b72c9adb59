import { test } from '@japa/runner'
import { readFileSync } from 'node:fs'
import { PageStyle } from '@tramita/contract'
import { setPageStyle, validateDocument } from '../src/model/index.js'
import { PAGE_PREFIX, pageNodes, pageProblems } from '../src/panel/page_nodes.js'
import { editorPaths, unplacedProblems } from '../src/panel/problems.js'
import { leaves, nodeAt, type EditorNode } from '../src/panel/schema_nodes.js'
import { labelIds, optionIds } from '../src/panel/labels.js'
import { sampleDocument } from './model_fixture.js'

const root = (): EditorNode => ({
  key: '',
  path: [],
  kind: 'object',
  optional: false,
  required: true,
  children: pageNodes(),
})

test.group('designer panel: page settings from the contract Page schema', () => {
  test('every page key but the layout has an editor, every style key included, with its default', ({ assert }) => {
    assert.deepEqual(
      pageNodes().map((node) => node.key),
      ['name', 'section', 'section_id', 'style_from_body', 'style', 'app_info']
    )
    const style = nodeAt(root(), ['style'])!
    assert.deepEqual(
      style.children!.map((node) => node.key),
      Object.keys(PageStyle.properties),
      'generated from the schema: a new style key gets an editor without a change here'
    )
    assert.deepEqual(
      leaves(style).map((node) => node.path.join('/')),
      [
        'style/type_page',
        'style/front_page',
        'style/background',
        'style/background_image',
        'style/background_proportion',
        'style/lateral_paddings',
        'style/pagebar',
        'style/page_style/background',
        'style/page_style/opacity',
        'style/page_style/blur_backdrop',
        'style/page_style/shadow',
        'style/page_style/border',
        'style/responsive/mobile',
        'style/responsive/tablet',
        'style/responsive/computer',
        'style/margins/top',
        'style/margins/bottom',
        'style/maxwidth',
        'style/borderRadius',
      ]
    )
    const at = (path: string) => nodeAt(root(), path.split('/'))!
    assert.deepInclude(at('style/type_page'), { kind: 'select', default: 'center' })
    assert.deepEqual(at('style/type_page').options, ['center', 'left', 'right', 'top', 'side'])
    assert.deepInclude(at('style/page_style/background'), { kind: 'colour', default: '#ffffff' })
    assert.deepInclude(at('style/responsive/computer'), { kind: 'number', default: 70, minimum: 1, maximum: 100 })
    assert.deepInclude(at('style/background_proportion'), { kind: 'number', default: 4 })
    assert.deepInclude(at('app_info/lateralMenu/width'), { kind: 'number', default: 250 })
    assert.deepInclude(at('name'), { kind: 'text', required: true })
  })

  test('the page problems land at the editors of that page only', ({ assert }) => {
    const doc = setPageStyle(
      1,
      ['responsive', 'tablet'],
      120
    )(setPageStyle(0, ['type_page'], 'diagonal')(sampleDocument()))
    const problems = validateDocument(doc)
    const first = pageProblems(problems, 0, 'Datos')
    assert.deepEqual(
      first.map((p) => [p.path, p.item]),
      [[`/${PAGE_PREFIX}/style/type_page`, 'Datos']]
    )
    const second = pageProblems(problems, 1, 'Detalle')
    assert.deepEqual(
      second.map((p) => p.path),
      [`/${PAGE_PREFIX}/style/responsive/tablet`]
    )
    const paths = editorPaths(pageNodes(), [PAGE_PREFIX])
    assert.deepEqual(unplacedProblems(second, paths.exact, paths.containers), [], 'an editor shows each of them')
    assert.deepEqual(pageProblems(problems, 2, 'Ayuda'), [])
  })

  test('every page key and choice is named in each language', ({ assert }) => {
    for (const lang of ['es', 'en', 'zh']) {
      const tree = JSON.parse(
        readFileSync(new URL(`../../core/i18n/locales/designer/${lang}.json`, import.meta.url), 'utf8')
      ) as Record<string, unknown>
      const exists = (id: string) =>
        typeof id.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown>)?.[key], tree) === 'string'
      const missing: string[] = []
      const walk = (node: EditorNode) => {
        const path = [PAGE_PREFIX, ...node.path]
        if (!labelIds(path).some(exists)) missing.push(path.join('/'))
        for (const option of node.kind === 'select' ? (node.options ?? []) : []) {
          if (!optionIds(node.key, option).some(exists)) missing.push(`${node.key}=${option}`)
        }
        node.children?.forEach(walk)
      }
      pageNodes().forEach(walk)
      assert.deepEqual(missing, [], lang)
      for (const id of ['page_panel.title', 'page_settings_of', 'page_delete_ask', 'row_up', 'row_delete']) {
        assert.isTrue(exists(id), `${lang}: ${id}`)
      }
    }
  })
})
