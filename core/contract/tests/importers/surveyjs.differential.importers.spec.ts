import { test } from '@japa/runner'
import fc from 'fast-check'
import { Model } from 'survey-core'
import { asRunner, createSandbox, type ScriptRunner } from '@tramita/sandbox'
import { coreRegistry, evaluateForm, initialValues, withDefaults } from '../../src/index.js'
import { importSurveyJs } from '../../src/importers/index.js'

/**
 * Issue 24: a SurveyJS visibleIf the importer carries means what it means in SurveyJS. Generated
 * conditions over one question of each kind, with generated answers (unanswered included): SurveyJS's
 * own model (survey-core 3.0.0, run here) and Tramita's evaluation of the imported form must agree on
 * whether the conditioned question shows, or the importer must list the condition as not carried.
 */

const CHOICES = ['a', 'b', 'c']
const QUESTIONS = [
  { type: 'text', name: 't' },
  { type: 'text', name: 'n', inputType: 'number' },
  { type: 'boolean', name: 'b' },
  { type: 'dropdown', name: 'd', choices: CHOICES },
  { type: 'checkbox', name: 'm', choices: CHOICES },
  { type: 'radiogroup', name: 'r', choices: CHOICES },
]
const NAMES = QUESTIONS.map((q) => q.name)

const literalText = fc.constantFrom("'a'", "'b'", "''", '0', '1', '3', 'true', 'false')
const comparison = fc
  .tuple(
    fc.constantFrom(...NAMES),
    fc.constantFrom('=', '<>', '>', '<', '>=', '<=', 'contains', 'notcontains'),
    literalText
  )
  .map(([name, op, value]) => `{${name}} ${op} ${value}`)
const emptiness = fc
  .tuple(fc.constantFrom(...NAMES), fc.constantFrom('empty', 'notempty'))
  .map(([name, op]) => `{${name}} ${op}`)
const membership = fc
  .tuple(fc.constantFrom(...NAMES), fc.constantFrom('anyof', 'allof', 'noneof'), fc.subarray(["'a'", "'b'", "'c'"]))
  .map(([name, op, list]) => `{${name}} ${op} [${list.join(', ')}]`)
const listEquality = fc
  .tuple(fc.constantFrom('m', 'd', 'b'), fc.constantFrom('=', '<>'), fc.subarray(["'a'", "'b'", "'c'"]))
  .map(([name, op, list]) => `{${name}} ${op} [${list.join(', ')}]`)
const atom = fc.oneof(comparison, emptiness, membership, listEquality)
const condition = fc.oneof(
  atom,
  fc.tuple(atom, fc.constantFrom('and', 'or'), atom).map(([a, op, b]) => `${a} ${op} ${b}`),
  atom.map((a) => `!(${a})`)
)

/** Answers as SurveyJS holds them (absent: unanswered), and as the imported fields hold the same. */
const answers = fc
  .record(
    {
      // Unanswered is an absent key: SurveyJS drops an answer that is cleared.
      t: fc.constantFrom('a', 'B ', '0', '3', 'x@y'),
      n: fc.constantFrom(0, 1, 3, -2),
      b: fc.boolean(),
      d: fc.constantFrom(...CHOICES),
      m: fc.subarray(CHOICES, { minLength: 1 }),
      r: fc.constantFrom(...CHOICES),
    },
    { requiredKeys: [] }
  )
  .map((given) => ({
    survey: given as Record<string, unknown>,
    // A yes / no answer is held as the text 'true' or 'false' (surveyjs-fields.ts).
    tramita: { ...given, ...(given.b === undefined ? {} : { b: String(given.b) }) } as Record<string, unknown>,
  }))

test.group('SurveyJS conditions: the imported form agrees with survey-core', (group) => {
  let runner: ScriptRunner
  group.setup(async () => {
    runner = asRunner(await createSandbox())
    return () => runner.dispose()
  })

  test('generated visibleIf over every kind of question, generated answers', async ({ assert }) => {
    let carried = 0
    let reported = 0
    const mismatches: string[] = []
    await fc.assert(
      fc.asyncProperty(condition, fc.array(answers, { minLength: 1, maxLength: 4 }), async (visibleIf, rows) => {
        const json = { pages: [{ name: 'p', elements: [...QUESTIONS, { type: 'text', name: 'x', visibleIf }] }] }
        const imported = importSurveyJs(JSON.parse(JSON.stringify(json)))
        if (imported.unmapped.some((u) => u.path.includes('/elements/6'))) {
          reported++
          return
        }
        carried++
        const config = withDefaults(imported.config)
        for (const row of rows) {
          const survey = new Model(json)
          survey.data = row.survey
          const expected = survey.getQuestionByName('x').isVisible
          // The values a form starts from, as the runtime and the server give them.
          const run = await evaluateForm(config, initialValues(config, coreRegistry(), row.tramita), { runner })
          const actual = run.conditions.get('x') ?? true
          if (actual !== expected && mismatches.length < 12) {
            const script = config.fields.find((f) => f.field_name === 'x')?.data.show_with_formule
            mismatches.push(
              `${visibleIf} on ${JSON.stringify(row.survey)}: SurveyJS ${expected}, Tramita ${actual} (${String(script)})`
            )
          }
        }
      }),
      { numRuns: 400, seed: 20261126 }
    )
    assert.deepEqual(mismatches, [])
    assert.isAbove(carried, reported)
  })
})
