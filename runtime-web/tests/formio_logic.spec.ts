import { test } from '@japa/runner'
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import fc from 'fast-check'
import { importFormio, withDefaults } from '@tramita/contract'
import { asRunner, createSandbox, type ScriptRunner } from '@tramita/sandbox'
import { startedWithActions } from './helpers/action_host.js'

/**
 * Issue 24: Form.io logic carried as actions does what a live Form.io form does. The same generated
 * changes go to @formio/js 5.6.0 running in jsdom (helpers/formio_live.mjs, its own process) and to a
 * form store with the action engine (the value, then the field's on_change, as the renderers fire
 * it); after every change the components the logic changes have the same value, disabled and
 * required states. The triggers are of the three kinds carried (simple, JSON Logic, JavaScript).
 */
const options = [
  { label: 'A', value: 'a' },
  { label: 'B', value: 'b' },
]
const property = (value: string) => ({ label: value, value, type: 'boolean' })
const FORM = {
  components: [
    { type: 'number', key: 'n', input: true },
    { type: 'radio', key: 's', input: true, values: options },
    { type: 'checkbox', key: 'c', input: true },
    {
      type: 'textfield',
      key: 'x',
      input: true,
      logic: [
        {
          name: 'disabled when big',
          trigger: {
            type: 'simple',
            simple: {
              show: true,
              conjunction: 'all',
              conditions: [{ component: 'n', operator: 'greaterThan', value: 3 }],
            },
          },
          actions: [{ name: 'd', type: 'property', property: property('disabled'), state: true }],
        },
        {
          name: 'required for a',
          trigger: { type: 'json', json: { '==': [{ var: 'data.s' }, 'a'] } },
          actions: [{ name: 'r', type: 'property', property: property('validate.required'), state: true }],
        },
      ],
    },
    {
      type: 'number',
      key: 'y',
      input: true,
      logic: [
        {
          name: 'double',
          trigger: { type: 'javascript', javascript: 'result = data.c === true;' },
          actions: [{ name: 'v', type: 'value', value: 'var base = data.n || 0; value = base * 2;' }],
        },
      ],
    },
    {
      type: 'textfield',
      key: 'z',
      input: true,
      disabled: true,
      logic: [
        {
          name: 'enabled for b',
          trigger: { type: 'simple', simple: { show: true, when: 's', eq: 'b' } },
          actions: [{ name: 'e', type: 'property', property: property('disabled'), state: 'false' }],
        },
      ],
    },
  ],
}
const WATCH = ['x', 'y', 'z']
const LIVE = fileURLToPath(new URL('./helpers/formio_live.mjs', import.meta.url))

type Change = { key: string; value: unknown }
type Seen = Record<string, { value: unknown; disabled: boolean; required: boolean }>

/** Unanswered is null in Form.io's data and '' here. */
const same = (value: unknown) => (value === undefined || value === '' ? null : value)

const change = fc.oneof(
  fc.record({ key: fc.constant('n'), value: fc.constantFrom<unknown>(0, 1, 5) }),
  fc.record({ key: fc.constant('s'), value: fc.constantFrom<unknown>('a', 'b') }),
  fc.record({ key: fc.constant('c'), value: fc.boolean() })
)

test.group('Form.io logic as actions', (group) => {
  let runner: ScriptRunner
  group.setup(async () => {
    runner = asRunner(await createSandbox())
    return () => runner.dispose()
  })

  test('the components it changes match a live Form.io form after every change', async ({ assert }) => {
    const imported = importFormio(structuredClone(FORM))
    assert.deepEqual(imported.unmapped, [])
    const config = withDefaults(imported.config)
    const sequences = fc.sample(fc.array(change, { minLength: 1, maxLength: 6 }), { numRuns: 40, seed: 20261127 })
    const live = spawnSync(process.execPath, [LIVE], {
      input: JSON.stringify({ form: FORM, sequences, watch: WATCH }),
      encoding: 'utf8',
      maxBuffer: 16 * 1024 * 1024,
      timeout: 120_000,
    })
    assert.equal(live.status, 0, live.stderr)
    const expected = JSON.parse(live.stdout) as Seen[][]
    const mismatches: string[] = []
    for (const [index, sequence] of sequences.entries()) {
      const store = await startedWithActions(config, runner)
      for (const [step, { key, value }] of (sequence as Change[]).entries()) {
        store.setValue(key, value)
        await store.fireEvent(key, 'on_change')
        await store.idle()
        for (const name of WATCH) {
          const theirs = expected[index]![step]![name]!
          const ours = {
            value: same(store.value(name)),
            disabled: store.isDisabled(name),
            required: store.fieldState(name)?.required === true,
          }
          const wanted = { ...theirs, value: same(theirs.value) }
          if (JSON.stringify(ours) !== JSON.stringify(wanted) && mismatches.length < 10) {
            mismatches.push(
              `${JSON.stringify(sequence.slice(0, step + 1))}: ${name} Form.io ${JSON.stringify(wanted)}, Tramita ${JSON.stringify(ours)}`
            )
          }
        }
      }
    }
    assert.deepEqual(mismatches, [])
  })
})
