import { test } from '@japa/runner'
import { asRunner, createSandbox, type ScriptRunner } from '@tramita/sandbox'
import {
  MAX_SET_REPEATS,
  declaredState,
  missingRequired,
  parseSetEntryKey,
  setEntries,
  setEntryKey,
  setRepeats,
  validateConfig,
  validateSubmission,
  withDefaults,
} from '../src/index.js'

/** Children's names repeat over a count; a document number repeats over the chosen documents. */
const config = {
  form: {
    pages: [
      {
        name: 'P',
        layout: [
          ['hijos', 'hijo_nombre'],
          ['docs', 'doc_numero'],
        ],
      },
    ],
  },
  fields: [
    { field_name: 'hijos', type: 'number', data: { label: { value: 'Hijos' } } },
    {
      field_name: 'hijo_nombre',
      type: 'text',
      isSet: true,
      set: 'hijos',
      idset: 'Hijo',
      data: { label: { value: 'Nombre' }, validate: { required: true }, ref: { limit: 10 } },
    },
    {
      field_name: 'docs',
      type: 'select',
      data: {
        multiple: true,
        options: [
          { id: 'cc', label: 'Cédula' },
          { id: 'pp', label: 'Pasaporte' },
        ],
      },
    },
    { field_name: 'doc_numero', type: 'number', isSet: true, set: 'docs', data: { label: { value: 'Número' } } },
  ],
}

test.group('sets: repetitions over another field', () => {
  test('a count gives ids 1..n (bounded); other values one repetition per value, by its id', ({ assert }) => {
    const form = withDefaults(config)
    const [hijos, , docs] = form.fields
    assert.deepEqual(setRepeats(hijos, 3), [
      { id: '1', label: '1' },
      { id: '2', label: '2' },
      { id: '3', label: '3' },
    ])
    assert.deepEqual(setRepeats(hijos, 2.7).length, 2)
    assert.deepEqual(setRepeats(hijos, -4), [])
    assert.deepEqual(setRepeats(hijos, ''), [])
    assert.lengthOf(setRepeats(hijos, 10_000), MAX_SET_REPEATS)
    assert.deepEqual(setRepeats(docs, ['pp', 'cc', 'pp']), [
      { id: 'pp', label: 'Pasaporte' },
      { id: 'cc', label: 'Cédula' },
    ])
    assert.deepEqual(setRepeats(docs, 'cc'), [{ id: 'cc', label: 'Cédula' }])
    assert.deepEqual(setRepeats(docs, []), [])
    // People pickers hold objects: their code names the repetition.
    assert.deepEqual(setRepeats({ ...docs!, type: 'users' }, [{ code: 7, label: 'Ana Ruiz' }]), [
      { id: '7', label: 'Ana Ruiz' },
    ])
    assert.equal(setEntryKey('hijo_nombre', '2'), 'hijo_nombre[2]')
    assert.deepEqual(parseSetEntryKey('hijo_nombre[2]'), { name: 'hijo_nombre', id: '2' })
    assert.isNull(parseSetEntryKey('hijo_nombre'))
    assert.deepEqual(
      setEntries(form, { hijos: 2, docs: ['cc'] }).map((e) => e.key),
      ['hijo_nombre[1]', 'hijo_nombre[2]', 'doc_numero[cc]']
    )
  })

  test('each repetition of a required set field is required; the field itself is not', ({ assert }) => {
    const form = withDefaults(config)
    const state = declaredState(form)
    assert.deepEqual(missingRequired(form, { hijos: 0 }, state), [], 'no repetition, nothing to fill')
    assert.deepEqual(
      missingRequired(form, { hijos: 2, 'hijo_nombre[1]': 'Ana' }, state).map((m) => [m.field, m.label]),
      [['hijo_nombre[2]', 'Nombre (Hijo 2)']]
    )
  })

  test('a set must repeat over a plain field of the form', ({ assert }) => {
    const bad = {
      ...config,
      fields: [
        ...config.fields,
        { field_name: 'nieto', type: 'text', isSet: true, set: 'hijo_nombre' },
        { field_name: 'eco', type: 'text', isSet: true, set: 'eco' },
      ],
    }
    const problems = validateConfig(bad).filter((p) => p.path.endsWith('/set'))
    assert.deepEqual(problems, [
      { path: '/fields/4/set', message: '"hijo_nombre" is itself repeated' },
      { path: '/fields/5/set', message: '"eco" is itself repeated' },
    ])
  })
})

test.group('sets: what the server stores', (group) => {
  let runner: ScriptRunner
  group.setup(async () => {
    runner = asRunner(await createSandbox())
    return () => runner.dispose()
  })

  test('repetitions are stored under name[id], checked like the field; the field stays blank', async ({ assert }) => {
    const result = await validateSubmission(
      config,
      {
        hijos: 2,
        hijo_nombre: 'ignored',
        'hijo_nombre[1]': 'Ana',
        'hijo_nombre[2]': 'Luis',
        // A repetition the count no longer gives (the count went down) is dropped, not refused.
        'hijo_nombre[3]': 'Old',
        docs: ['pp'],
        'doc_numero[pp]': 123,
      },
      { case: 'new', runner }
    )
    assert.deepEqual(result.errors, [])
    assert.isTrue(result.ok)
    assert.equal(result.values.hijo_nombre, '', 'the set field itself is blank (spec 000 §7)')
    assert.equal(result.values['hijo_nombre[1]'], 'Ana')
    assert.equal(result.values['hijo_nombre[2]'], 'Luis')
    assert.notProperty(result.values, 'hijo_nombre[3]')
    assert.equal(result.values['doc_numero[pp]'], 123)
  })

  test('a repetition of the wrong shape, over its limit, missing, or of no set field is refused', async ({
    assert,
  }) => {
    const result = await validateSubmission(
      config,
      {
        hijos: 2,
        'hijo_nombre[1]': 'Un nombre demasiado largo',
        'docs[1]': 'x',
        'nadie[1]': 'x',
        docs: ['cc'],
        'doc_numero[cc]': 'doce',
      },
      { case: 'new', runner }
    )
    assert.isFalse(result.ok)
    assert.deepEqual(
      result.errors.map((e) => e.field),
      ['docs[1]', 'nadie[1]', 'hijo_nombre[1]', 'doc_numero[cc]']
    )
    assert.deepEqual(
      result.missing.map((m) => m.field),
      ['hijo_nombre[2]']
    )
  })
})
