import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { isDeepStrictEqual } from 'node:util'
import type { Browser, Page } from 'playwright-core'
import { launchChromium } from './chromium.ts'
import { BASE as base, people, waitUntil } from './session.ts'
import { waitUntil as poll } from '../../core/server/tests/helpers/wait.ts'
import { createForm, recordOnlyProcess } from '../../core/server/app/services/process/forms.ts'
import { resetAuthTables } from '../../core/server/tests/helpers/auth.ts'
import { resetProcessTables } from '../../core/server/tests/helpers/process.ts'
import { DEFAULT_DEMO_PASSWORD, seedDemo } from '../../core/server/app/services/seed_service.ts'

/**
 * The designer's "Lógica" view: actions (condition in the script editor, steps generated from the
 * action-type registry) and autocomplete rules, with the contract's problems at their paths and
 * publication refused until they are fixed.
 */
test.group('the form designer’s logic view in Chromium', (group) => {
  let browser: Browser
  const session = people(() => browser, DEFAULT_DEMO_PASSWORD)

  group.setup(async () => {
    browser = await launchChromium()
    return () => browser.close()
  })
  group.each.setup(async () => {
    await resetProcessTables()
    await resetAuthTables()
    await db.from('user_areas').delete()
    await db.from('areas').delete()
    await seedDemo()
    return () => session.closeAll()
  })

  /**
   * A form of three fields, its logic view open on a new action 'saludar' whose condition is on and
   * its script editor focused. `prepare` runs on the signed-in page before the designer loads.
   */
  async function conditionEditor(prepare?: (page: Page) => Promise<unknown>) {
    const supervisor = await db.from('users').where('username', 'supervisor').firstOrFail()
    const { formId } = await createForm(
      {
        name: 'Lógica e2e',
        jsonconfig: {
          form: { pages: [{ name: 'Datos', layout: [['nombre', 'edad'], ['saludo']] }] },
          fields: [
            { field_name: 'nombre', type: 'text', data: { label: { value: 'Nombre' } } },
            { field_name: 'edad', type: 'number', data: { label: { value: 'Edad' } } },
            { field_name: 'saludo', type: 'text', data: { label: { value: 'Saludo' } } },
          ],
          elements: [],
        },
        process: recordOnlyProcess('Lógica e2e'),
      },
      Number(supervisor.id)
    )
    const draft = async () => {
      const row = await db.from('form_versions').where('form_id', formId).whereNull('published_at').firstOrFail()
      return JSON.parse(row.jsonconfig)
    }
    const page = await session.signedIn('supervisor')
    await prepare?.(page)
    await page.goto(`${base}/designer/forms/${formId}`)
    await page.getByTestId('view-logic').click()
    const logic = page.getByTestId('logic-view')

    // An action, renamed.
    await logic.getByTestId('add-action').click()
    const name = logic.getByTestId('action-name')
    await name.fill('saludar')
    await name.press('Enter')
    await logic.locator('[data-testid=action][data-name=saludar]').waitFor()

    // Its condition, in the Monaco script editor typed from the form.
    const detail = logic.getByTestId('action-detail')
    await detail.getByRole('switch', { name: 'Solo si se cumple la condición' }).check()
    await detail.getByTestId('edit-script-code').click()
    const editor = detail.locator('.monaco-editor').first()
    await editor.waitFor()
    await editor.click()
    return { formId, page, logic, draft }
  }

  test('an action with a condition and a set_value step, and an autocomplete rule, are designed and published', async ({
    assert,
  }) => {
    const { formId, page, logic, draft } = await conditionEditor()
    const saved = () => page.locator('[data-testid=save-status][data-state=saved]').waitFor()
    await page.keyboard.type("edad !== '' && edad > 17", { delay: 30 })
    // Stored once the whole condition is checked: a clean prefix (`edad !== ''`) may be stored first.
    await storedCondition(draft, { active: true, code: "edad !== '' && edad > 17" })

    // The enabled plugins' steps are offered beside the core's (virtual:tramita-action-types).
    const offered = await logic
      .getByTestId('new-step-type')
      .locator('option')
      .evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value))
    assert.includeMembers(offered, ['set_value', 'scan_document', 'print_document', 'merge_docs'])

    // A set_value step without its field: flagged at the config's path, and publication refused there.
    await logic.getByTestId('new-step-type').selectOption('set_value')
    await logic.getByTestId('add-step').click()
    const step = logic.getByTestId('step').first()
    assert.equal(await step.getAttribute('data-type'), 'set_value')
    const fieldRow = step.locator('.panel-row', { has: page.getByTestId('config-field') })
    await fieldRow.getByRole('alert').filter({ hasText: 'is required' }).waitFor()
    assert.equal(await step.getByTestId('config-field').getAttribute('aria-invalid'), 'true')
    await saved()
    assert.deepEqual((await draft()).validations.actions[0].actions, [{ type: 'set_value', config: {} }])
    await page.getByTestId('publish').click()
    const refused = page.getByTestId('publish-refused')
    await refused.waitFor()
    assert.include(await refused.innerText(), '/jsonconfig/validations/actions/0/actions/0/config/field')

    // Fixed: the field chosen among the form's, a value with a placeholder.
    await step.getByTestId('config-field').selectOption('saludo')
    await step.getByLabel('Valor (admite ${campo})', { exact: true }).fill('Hola ${nombre}')
    await fieldRow.getByRole('alert').waitFor({ state: 'detached' })

    // An autocomplete rule; a Python origin is refused where it is designed.
    await logic.getByTestId('add-rule').click()
    const rule = logic.getByTestId('rule').first()
    await rule.getByTestId('rule-field').selectOption('nombre')
    await rule.getByLabel('Origen', { exact: true }).selectOption('python')
    await rule.getByTestId('python-refused').waitFor()
    await rule.getByLabel('Origen', { exact: true }).selectOption('users')
    await rule.getByLabel('Acción', { exact: true }).selectOption('set_user')
    await rule.getByTestId('python-refused').waitFor({ state: 'detached' })

    await saved()
    await waitUntil(async () => (await draft()).validations?.autocomplete?.[0]?.origin === 'users')
    await page.getByTestId('publish').click()
    await page.getByTestId('published').waitFor()
    const published = await db.from('form_versions').where('form_id', formId).whereNotNull('published_at').first()
    const config = JSON.parse(published!.jsonconfig)
    assert.deepEqual(config.validations.actions, [
      {
        name: 'saludar',
        actions: [{ type: 'set_value', config: { field: 'saludo', value: 'Hola ${nombre}' } }],
        conditions: { active: true, code: "edad !== '' && edad > 17" },
      },
    ])
    assert.deepEqual(config.validations.autocomplete, [{ id_field: 'nombre', action: 'set_user', origin: 'users' }])

    // The JSON view shows them.
    await page.getByTestId('view-json').click()
    const text = await page.getByTestId('json-text').inputValue()
    assert.include(text, '"set_value"')
    assert.include(text, '"saludar"')
    assert.include(text, '"set_user"')
  })

  test('a condition typed on a slowed page (CPU ×8) is stored exactly as typed', async () => {
    // A loaded machine, as when this test's first half flaked: renders lag the keystrokes, checks
    // start mid-typing (a clean prefix may be stored first) and the TypeScript worker starts cold.
    const { page, draft } = await conditionEditor(async (page) => {
      const cdp = await page.context().newCDPSession(page)
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 8 })
    })
    await page.keyboard.type("edad !== '' && edad > 17", { delay: 30 })
    await storedCondition(draft, { active: true, code: "edad !== '' && edad > 17" })
  })

  test('a condition is stored even when its TypeScript check cannot run', async ({ assert }) => {
    const { page, draft } = await conditionEditor((page) => page.addInitScript(refuseTypeScriptWorker))
    await page.keyboard.type('edad > 17', { delay: 30 })
    // Its syntax checked and its types unknown, the condition is stored rather than dropped.
    await storedCondition(draft, { active: true, code: 'edad > 17' })
    assert.isAbove(await page.evaluate(() => (window as { tsWorkersRefused?: number }).tsWorkersRefused ?? 0), 0)
  })
})

/**
 * Polls the stored draft until its first action's condition is exactly `expected`. The bound covers a
 * cold TypeScript worker on a loaded machine (the editor gives a check up after 20 s) plus the save.
 */
async function storedCondition(draft: () => Promise<any>, expected: { active: boolean; code: string }) {
  let last: unknown
  await poll(
    async () => isDeepStrictEqual((last = (await draft()).validations?.actions?.[0]?.conditions), expected),
    30_000,
    () => `the condition ${JSON.stringify(expected)} stored (last stored: ${JSON.stringify(last)})`,
    100
  )
}

/**
 * Runs in the page: Monaco's TypeScript worker cannot be created (as when a policy refuses it), so
 * every check through it throws; other workers start as usual.
 */
function refuseTypeScriptWorker() {
  const Native = window.Worker
  let refused = 0
  window.Worker = class extends Native {
    constructor(url: string | URL, options?: WorkerOptions) {
      if (String(url).includes('/ts.worker')) {
        refused++
        throw new DOMException('the TypeScript worker is refused by the test', 'SecurityError')
      }
      super(url, options)
    }
  }
  Object.defineProperty(window, 'tsWorkersRefused', { get: () => refused })
}
