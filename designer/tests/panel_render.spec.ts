import { test } from '@japa/runner'
import { readFileSync } from 'node:fs'
import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import i18next from 'i18next'
import { I18nextProvider } from 'react-i18next'
import { coreRegistry } from '@tramita/contract'
import { commonNode } from '../src/panel/common.js'
import { panelGroups } from '../src/panel/groups.js'
import { itemsSource } from '../src/panel/source.js'
import { PanelContext } from '../src/panel/panel_context.js'
import { PanelGroup } from '../src/panel/PanelGroup.js'
import { gatherProblems } from '../src/panel/problems.js'

const en = JSON.parse(
  readFileSync(new URL('../../core/i18n/locales/designer/en.json', import.meta.url), 'utf8')
) as Record<string, unknown>

async function render(type: string, data: Record<string, unknown>, groupId: string) {
  const i18n = i18next.createInstance()
  await i18n.init({ lng: 'en', resources: { en: { translation: en } }, interpolation: { escapeValue: false } })
  const items = [{ name: 'f', kind: 'field' as const, item: { field_name: 'f', type, data } }]
  const group = panelGroups(commonNode(coreRegistry(), items)!).find((g) => g.id === groupId)!
  const problems = gatherProblems(['f'], () => [{ path: '/data/ref/limit', message: 'must be a number' }])
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
        { value: { problems, multi: false } },
        createElement(PanelGroup, { group, source })
      )
    )
  )
}

test.group('property panel: rendered', () => {
  test('a group is a fieldset with a legend; each input has its label, default and problem', async ({ assert }) => {
    const html = await render('text', { ref: { placeholder: 'Su nombre' } }, 'reference')
    assert.match(html, /<fieldset[^>]*><legend><button type="button"[^>]*aria-expanded="true"[^>]*>Reference<\/button>/)
    const id = /<label for="([^"]+)">Maximum length \(-1: none\)<\/label>/.exec(html)?.[1]
    assert.isString(id)
    assert.match(html, new RegExp(`<input id="${id}" aria-describedby="${id}-problems" aria-invalid="true"`))
    assert.include(html, `<ul id="${id}-problems" class="panel-problems" role="alert"><li>must be a number</li></ul>`)
    // Words a reader sees are edited in a box that wraps (a textarea), not a one-line input.
    assert.match(html, /<textarea [^>]*class="panel-words"[^>]*>Su nombre<\/textarea>/)
    assert.include(html, 'aria-label="Reset Placeholder to its default"')
  })

  test('options: a list of entries with colours, move and remove buttons; the default list noted', async ({
    assert,
  }) => {
    const html = await render('select', {}, 'type')
    assert.include(html, 'These are the default entries: a change stores the list.')
    assert.include(html, 'aria-label="Remove Opción 1"')
    assert.include(html, '<input type="color"')
    assert.include(html, '>Add to Options</button>')
    assert.match(html, /<option value=""[^>]*>Default \(Dropdown\)<\/option>/)
  })
})
