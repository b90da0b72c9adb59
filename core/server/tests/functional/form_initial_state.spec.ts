import { test } from '@japa/runner'
import { makeUser, resetAuthTables, tokenFor } from '#tests/helpers/auth'
import { permitConfig, permitProcess, publishPermit, resetProcessTables } from '#tests/helpers/process'
import { publishForm } from '#services/process/forms'

type Client = Parameters<typeof tokenFor>[0]

/**
 * The form's info carries its first evaluation (issue 23): conditions and formula results of the values
 * and variables it sends, so the runtime draws page 1 right before its own evaluation; null for a form
 * with a real script (the server never waits on QuickJS to open a form).
 */
test.group('form info: the first evaluation', (group) => {
  group.each.setup(async () => {
    await resetProcessTables()
    await resetAuthTables()
  })

  const post = (client: Client, token: string, fields: Record<string, string>) =>
    client
      .post('/data/form/info/user/token')
      .header('token', token)
      .form({ case: 'POST', ...fields })

  /** Each script's reads, as the browser's graph takes them from a settled first evaluation. */
  const READS = { 'doble:formula': ['dias'], 'aviso:condition': ['dias'], 'largo:condition': ['dias'] }

  /** The permit form with a notice shown while `dias` is empty, a field shown past 3 days and a formula. */
  async function publish(condition: string, formula = '(dias || 0) * 2') {
    const { area, supervisor } = await publishPermit()
    const config = permitConfig()
    config.form.pages[0]!.layout.push(['aviso', 'largo'], ['doble'])
    config.fields.push(
      { field_name: 'aviso', type: 'text', data: { label: { value: 'Aviso' }, show_with_formule: condition } },
      { field_name: 'largo', type: 'text', data: { label: { value: 'Largo' }, show_with_formule: 'dias > 3' } },
      { field_name: 'doble', type: 'number', data: { label: { value: 'Doble' }, formule: formula } }
    )
    return publishForm({
      name: 'Permiso con avisos',
      jsonconfig: config,
      process: permitProcess(area.id, supervisor.id),
      userId: null,
    })
  }

  test('a new case and a saved one: conditions and formulas as evaluated from their values', async ({
    client,
    assert,
  }) => {
    const form = await publish('!dias')
    await makeUser({ username: 'solicitante', role: 'student' })
    const token = await tokenFor(client, 'solicitante')

    const fresh = await post(client, token, { type: 'new', data: form.key })
    fresh.assertStatus(200)
    assert.deepEqual(fresh.body().data.initial, {
      conditions: { aviso: true, largo: false },
      values: { doble: 0 },
      settled: true,
      reads: READS,
    })

    const started = await client
      .post('/data/form/flows/process')
      .header('token', token)
      .form({
        case: 'POST',
        data: form.key,
        flow_values: JSON.stringify({ nombre: 'Ana Ruiz', dias: 5, motivo: 'Cita', aviso: '', largo: 'sí' }),
      })
    started.assertStatus(200)
    const seen = await post(client, token, { type: 'see', key_process: started.body().data.key_process })
    seen.assertStatus(200)
    assert.deepEqual(seen.body().data.initial, {
      conditions: { aviso: false, largo: true },
      values: { doble: 10 },
      settled: true,
      reads: READS,
    })
  })

  test('not settled when a script formats with the engine, none when one throws: the browser evaluates', async ({
    client,
    assert,
  }) => {
    await makeUser({ username: 'solicitante', role: 'student' })
    const token = await tokenFor(client, 'solicitante')
    // formatNumber answers from the engine's Intl data, which a browser may not share with the server.
    const formatted = await publish('!dias', 'formatNumber(dias || 0, 2)')
    const first = await post(client, token, { type: 'new', data: formatted.key })
    first.assertStatus(200)
    assert.deepEqual(first.body().data.initial, {
      conditions: { aviso: true, largo: false },
      values: { doble: '0,00' },
    })
    // A condition that throws counts as false, and the browser reports it: its own evaluation must run.
    const failing = await publish('dias.x.y')
    const second = await post(client, token, { type: 'new', data: failing.key })
    second.assertStatus(200)
    assert.isNull(second.body().data.initial)
  })

  test('a form with a real script gets none: the browser evaluates it', async ({ client, assert }) => {
    const form = await publish('let vacio = !dias; vacio')
    await makeUser({ username: 'solicitante', role: 'student' })
    const info = await post(client, await tokenFor(client, 'solicitante'), { type: 'new', data: form.key })
    info.assertStatus(200)
    assert.isNull(info.body().data.initial)
  })
})
