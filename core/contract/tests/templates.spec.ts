import { test } from '@japa/runner'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { asRunner, createSandbox } from '@tramita/sandbox'
import { validateConfig, validateSubmission } from '../src/index.js'

const FORMS = fileURLToPath(new URL('../../../templates/forms', import.meta.url))
const files = readdirSync(FORMS).filter((name) => name.endsWith('.json'))

test.group('templates/forms', () => {
  test('there are form templates to check', ({ assert }) => {
    assert.isAtLeast(files.length, 5)
  })

  test('{name} passes validateConfig and its empty submission lists its required fields')
    .with(files.map((name) => ({ name })))
    .run(async ({ assert }, { name }) => {
      const config = JSON.parse(readFileSync(join(FORMS, name), 'utf8'))
      assert.deepEqual(validateConfig(config), [])
      const runner = asRunner(await createSandbox())
      try {
        const result = await validateSubmission(config, {}, { case: 'new', runner })
        assert.deepEqual(result.errors, [])
        assert.isAbove(result.missing.length, 0)
      } finally {
        await runner.dispose()
      }
    })
})
