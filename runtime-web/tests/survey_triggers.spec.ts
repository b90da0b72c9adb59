import { test } from '@japa/runner'
import fc from 'fast-check'
import { Model } from 'survey-core'
import { importSurveyJs, withDefaults } from '@tramita/contract'
import { asRunner, createSandbox, type ScriptRunner } from '@tramita/sandbox'
import { startedWithActions } from './helpers/action_host.js'

/**
 * Issue 24: SurveyJS triggers carried as actions do what survey-core does. The same changes, in a
 * generated order, go to a survey-core model (setValue, which checks its triggers) and to a form
 * store with the action engine (the value, then the field's on_change, as the renderers fire it);
 * after each change the questions the triggers write hold the same values.
 */
const SURVEY = {
  elements: [
    { type: 'radiogroup', name: 'r', choices: ['x', 'y'] },
    { type: 'text', inputType: 'number', name: 'n' },
    { type: 'text', name: 'b' },
    { type: 'boolean', name: 'yn' },
    { type: 'checkbox', name: 'm', choices: ['p', 'q'] },
    { type: 'text', inputType: 'number', name: 'copy' },
    { type: 'text', inputType: 'number', name: 'total' },
  ],
  triggers: [
    { type: 'setvalue', expression: "{r} = 'x'", setToName: 'b', setValue: 'chosen x' },
    { type: 'setvalue', expression: '{n} > 5', setToName: 'yn', setValue: true },
    { type: 'setvalue', expression: "{r} = 'y' and {n} < 3", setToName: 'm', setValue: ['q'] },
    { type: 'copyvalue', expression: '{n} notempty', setToName: 'copy', fromName: 'n' },
    { type: 'runexpression', expression: '{n} > 0', setToName: 'total', runExpression: 'iif({r} = "x", 10, 20)' },
  ],
}
const WRITTEN = ['b', 'yn', 'm', 'copy', 'total']

/** Unanswered is undefined in survey-core, '' or [] here; a yes/no answer is true/false there, 'true'/'false' here. */
function same(value: unknown): unknown {
  if (value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0)) return null
  if (value === 'true' || value === 'false') return value === 'true'
  return value
}

const change = fc.oneof(
  fc.record({ name: fc.constant('r'), value: fc.constantFrom('x', 'y') }),
  fc.record({ name: fc.constant('n'), value: fc.constantFrom(-1, 0, 2, 6) })
)

test.group('SurveyJS triggers as actions', (group) => {
  let runner: ScriptRunner
  group.setup(async () => {
    runner = asRunner(await createSandbox())
    return () => runner.dispose()
  })

  test('the values they write match survey-core after every change', async ({ assert }) => {
    const imported = importSurveyJs(SURVEY)
    assert.deepEqual(imported.unmapped, [])
    const config = withDefaults(imported.config)
    const mismatches: string[] = []
    await fc.assert(
      fc.asyncProperty(fc.array(change, { minLength: 1, maxLength: 6 }), async (changes) => {
        const survey = new Model(SURVEY)
        const store = await startedWithActions(config, runner)
        for (const [step, { name, value }] of changes.entries()) {
          survey.setValue(name, value)
          store.setValue(name, value)
          await store.fireEvent(name, 'on_change')
          await store.idle()
          for (const target of WRITTEN) {
            const theirs = same(survey.getValue(target))
            const ours = same(store.value(target))
            if (JSON.stringify(theirs) !== JSON.stringify(ours) && mismatches.length < 10) {
              mismatches.push(
                `${JSON.stringify(changes.slice(0, step + 1))}: ${target} ${JSON.stringify(theirs)} / ${JSON.stringify(ours)}`
              )
            }
          }
        }
      }),
      { numRuns: 60, seed: 20261127 }
    )
    assert.deepEqual(mismatches, [])
  })
})
