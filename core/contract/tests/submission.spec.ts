import { test } from '@japa/runner'
import { asRunner, createSandbox, type ScriptRunner } from '@tramita/sandbox'
import { buildGraph, evaluateChange, evaluateForm, validateSubmission, withDefaults } from '../src/index.js'
import { generateForm } from './generate-form.js'

const config = {
  form: {
    pages: [
      {
        name: 'P',
        layout: [
          ['tipo', 'motivo', 'dias', 'total'],
          ['soporte', 'nota', 'clave'],
        ],
      },
    ],
  },
  fields: [
    {
      field_name: 'tipo',
      type: 'select',
      data: {
        options: [
          { id: 'med', label: 'Médico' },
          { id: 'per', label: 'Personal' },
        ],
        validate: { required: true },
      },
    },
    { field_name: 'motivo', type: 'text', data: { validate: { required: true }, ref: { limit: 10 } } },
    { field_name: 'dias', type: 'number', data: { limit: { min: 1, max: 30 } } },
    { field_name: 'total', type: 'number', data: { formule: 'dias * 8' } },
    {
      field_name: 'soporte',
      type: 'file',
      data: { show_with_formule: 'tipo == "med"', validate: { required: true }, ref: { limit: 1 }, ext: ['pdf'] },
    },
    { field_name: 'nota', type: 'text', saveable: false },
    { field_name: 'clave', type: 'text', data: { show_with_formule: 'code_process.length > 3 &&' } },
  ],
}
const pdf = (name: string) => ({ ext: 'pdf', ip: '', path: `u/${name}`, real_name: name, status: 'good' })

test.group('validateSubmission', (group) => {
  let runner: ScriptRunner
  group.setup(async () => {
    runner = asRunner(await createSandbox())
    return () => runner.dispose()
  })

  test('a complete submission passes; formulas are recomputed by the server', async ({ assert }) => {
    const result = await validateSubmission(
      config,
      { tipo: 'per', motivo: 'viaje', dias: 3, total: 999 },
      { case: 'new', runner }
    )
    assert.isTrue(result.ok)
    assert.deepEqual(result.missing, [])
    assert.deepEqual(result.errors, [])
    assert.equal(result.values.total, 24)
  })

  test('without a sandbox nothing passes: the hidden-by-condition fields would be unchecked', async ({ assert }) => {
    const down: ScriptRunner = {
      run: async () => ({ ok: false, error: { code: 'SANDBOX_UNAVAILABLE', message: 'no sandbox' } }),
      runBatch: async (calls) =>
        calls.map(() => ({
          ok: false as const,
          error: { code: 'SANDBOX_UNAVAILABLE' as const, message: 'no sandbox' },
        })),
      dispose: () => undefined,
    }
    // tipo 'med' would show the required soporte; with conditions failing it looks hidden.
    const result = await validateSubmission(config, { tipo: 'med', motivo: 'cita' }, { case: 'new', runner: down })
    assert.isTrue(result.unavailable)
    assert.isFalse(result.ok)
    const working = await validateSubmission(config, { tipo: 'med', motivo: 'cita' }, { case: 'new', runner })
    assert.isFalse(working.unavailable)
    assert.deepEqual(
      working.missing.map((m) => m.field),
      ['soporte']
    )
  })

  test('only the variables a batch reads cross into the sandbox (all of them for value(name))', async ({ assert }) => {
    const seen: string[][] = []
    const spy: ScriptRunner = {
      run: (source, vars, opts) => runner.run(source, vars, opts),
      runBatch: (calls, shared, opts) => {
        seen.push(Object.keys(shared ?? {}).sort())
        return runner.runBatch(calls, shared, opts)
      },
      dispose: () => undefined,
    }
    const values = { tipo: 'med', motivo: 'x', dias: 2, total: 0, nota: '', clave: '' }
    await evaluateChange(withDefaults(config), 'dias', values, { runner: spy, vars: { code_process: 'ABC' } })
    assert.deepEqual(seen, [['dias']], 'the total formula reads dias only')
    const dynamic = withDefaults({
      form: { pages: [{ name: 'P', layout: [['a', 'b']] }] },
      fields: [
        { field_name: 'a', type: 'text' },
        { field_name: 'b', type: 'text', data: { formule: "value('a' + '') + '!'" } },
      ],
    })
    seen.length = 0
    // A computed name is not known statically: evaluateForm runs it, with every variable.
    const result = await evaluateForm(dynamic, { a: 'hola', b: '' }, { runner: spy, vars: { extra: 1 } })
    assert.deepEqual(seen, [['a', 'b', 'extra']])
    assert.equal(result.values.b, 'hola!')
  })

  test('a condition shows a required field, which is then missing', async ({ assert }) => {
    const result = await validateSubmission(config, { tipo: 'med', motivo: 'cita', dias: 1 }, { case: 'new', runner })
    assert.isFalse(result.ok)
    assert.deepEqual(result.missing, [{ field: 'soporte', page: 0, label: 'soporte' }])
    const done = await validateSubmission(
      config,
      { tipo: 'med', motivo: 'cita', dias: 1, soporte: [pdf('c.pdf')] },
      { case: 'new', runner }
    )
    assert.isTrue(done.ok)
  })

  test('unknown fields, wrong shapes, limits and over-limit files are refused with reasons', async ({ assert }) => {
    const result = await validateSubmission(
      config,
      { tipo: 'med', motivo: 'demasiado largo', dias: 'tres', soporte: [pdf('a.pdf'), pdf('b.pdf')], intruso: 1 },
      { case: 'new', runner }
    )
    assert.isFalse(result.ok)
    assert.deepEqual(
      result.errors.map((e) => e.field),
      ['intruso', 'motivo', 'dias', 'soporte']
    )
    assert.equal(result.errors[0]!.message, 'El campo «intruso» no existe en este formulario')
    assert.equal(result.errors[1]!.message, 'El texto supera el límite de 10 caracteres')
    assert.match(result.errors[2]!.message, /^El valor de «dias» no es válido/)
    assert.equal(result.errors[3]!.message, 'Se admiten como máximo 1 archivos')
    const exe = await validateSubmission(
      config,
      { soporte: [{ ...pdf('x.exe'), ext: 'exe', real_name: 'x.exe' }] },
      { case: 'edit', runner }
    )
    assert.deepEqual(
      exe.errors.map((e) => e.message),
      ['No se permiten archivos .exe']
    )
  })

  test('unsaveable fields are stored blank; numbers outside the limits are refused', async ({ assert }) => {
    const result = await validateSubmission(
      config,
      { tipo: 'per', motivo: 'x', dias: 31, nota: 'no' },
      { case: 'new', runner, lang: 'en' }
    )
    assert.equal(result.values.nota, '')
    assert.deepEqual(result.errors, [{ field: 'dias', message: 'The number is above the maximum (30)' }])
  })

  test('required fields are checked only for new and enter', async ({ assert }) => {
    for (const mode of ['edit', 'see', 'approve'] as const) {
      assert.isTrue((await validateSubmission(config, {}, { case: mode, runner })).ok, mode)
    }
    assert.isFalse((await validateSubmission(config, {}, { case: 'enter', runner })).ok)
  })

  test('a failing condition counts as false and is reported for the designer, not thrown', async ({ assert }) => {
    const result = await validateSubmission(config, { tipo: 'per', motivo: 'x' }, { case: 'new', runner })
    assert.isTrue(result.ok)
    assert.deepEqual(
      result.scriptErrors.map((e) => [e.field, e.kind, e.code]),
      [['clave', 'condition', 'SCRIPT_ERROR']]
    )
    const withVar = await validateSubmission(
      config,
      { tipo: 'per', motivo: 'x' },
      { case: 'new', runner, vars: { code_process: 'ABCD' } }
    )
    assert.deepEqual(
      withVar.scriptErrors.map((e) => e.field),
      ['clave']
    )
  })

  test('a generated 500-field form: valid values pass, conditions hide what they hide', async ({ assert }) => {
    const { config: big, values } = generateForm()
    const result = await validateSubmission(big, values, { case: 'new', runner })
    assert.deepEqual(result.errors, [])
    assert.deepEqual(result.missing, [])
    const empty = await validateSubmission(big, {}, { case: 'new', runner })
    // Every even field is required; those behind a condition reading a number still 0 are hidden.
    const hidden = big.fields!.filter((f: any) => f.data?.show_with_formule).map((f: any) => f.field_name)
    assert.isAbove(empty.missing.length, 100)
    assert.notIncludeMembers(
      empty.missing.map((m) => m.field),
      hidden
    )
  })
})

test.group('dependency tracking', (group) => {
  let runner: ScriptRunner
  group.setup(async () => {
    runner = asRunner(await createSandbox())
    return () => runner.dispose()
  })

  test('a change re-runs exactly the scripts that read the field, through formulas', async ({ assert }) => {
    const resolved = withDefaults(config)
    const graph = buildGraph(resolved)
    assert.deepEqual(
      graph.affectedBy('dias').map((s) => s.id),
      ['total:formula']
    )
    assert.deepEqual(
      graph.affectedBy('tipo').map((s) => s.id),
      ['soporte:condition']
    )
    assert.deepEqual(graph.affectedBy('motivo'), [])
    const evaluation = await evaluateChange(resolved, 'dias', { dias: 2 }, { runner })
    assert.equal(evaluation.ran, 1)
    assert.equal(evaluation.values.total, 16)
  })

  test('on the generated form, the re-run count equals the dependents of the field', async ({ assert }) => {
    const { config: big, values, conditionReads } = generateForm()
    const resolved = withDefaults(big)
    const graph = buildGraph(resolved)
    const field = 'f1'
    const dependents = [...conditionReads].filter(([, read]) => read === field).map(([owner]) => `${owner}:condition`)
    assert.isAbove(dependents.length, 0)
    assert.deepEqual(
      graph
        .affectedBy(field)
        .map((s) => s.id)
        .sort(),
      dependents.sort()
    )
    // The bench's figure (c): what a change runs, not only what the graph says it would.
    assert.equal((await evaluateChange(resolved, field, values, { runner })).ran, dependents.length)
  })
})
