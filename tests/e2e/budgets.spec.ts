import { test } from '@japa/runner'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { DESIGNER_PAGE_BUDGET_KB, FORM_ROUTE_BUDGET_KB, designerPage, formRoute } from '../bench/budgets.ts'

/**
 * The web apps' byte budgets, measured like `npm run bench` measures them (tests/bench/budgets.ts) on
 * the dist this suite serves: a change that misses one fails `npm test`, not only the bench.
 */
const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)))
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`

test.group('the web apps within their byte budgets', () => {
  test('the form route loads at most its budget of JavaScript, gzipped, and no Monaco', ({ assert }) => {
    const { keys, bytes } = formRoute(join(ROOT, 'runtime-web', 'dist'))
    assert.isAtMost(bytes / 1024, FORM_ROUTE_BUDGET_KB, `form route initial JS: ${kb(bytes)}`)
    assert.deepEqual(
      [...keys].filter((key) => /monaco/i.test(key)),
      []
    )
  })

  test("the designer's form page loads at most its budget before a script editor opens, none of it Monaco", ({
    assert,
  }) => {
    const { monaco, bytes } = designerPage(join(ROOT, 'designer', 'dist'))
    assert.isAtMost(bytes / 1024, DESIGNER_PAGE_BUDGET_KB, `designer form page initial JS: ${kb(bytes)}`)
    assert.deepEqual(monaco, [])
  })
})
