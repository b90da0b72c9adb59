import { readdirSync } from 'node:fs'
import { test } from '@japa/runner'
import { FORM_TEMPLATES, TEMPLATES_DIR, templateConfig } from '#services/process/form_templates'
import { definitionProblems, recordOnlyProcess } from '@tramita/contract'

test.group('form templates', () => {
  test('the list names every file of templates/forms once, and each makes a publishable form', async ({ assert }) => {
    const files = readdirSync(TEMPLATES_DIR)
      .filter((name) => name.endsWith('.json'))
      .map((name) => name.slice(0, -'.json'.length))
      .sort()
    assert.deepEqual(FORM_TEMPLATES.map((t) => t.id).sort(), files)
    for (const template of FORM_TEMPLATES) {
      const config = await templateConfig(template.id)
      assert.deepEqual(definitionProblems(config, recordOnlyProcess(template.name)), [], template.id)
    }
  })

  test('an id outside the list is no template, whatever path it spells', async ({ assert }) => {
    for (const id of ['../package', 'censo.json', '', 'CENSO']) assert.isNull(await templateConfig(id))
  })
})
