import { test } from '@japa/runner'
import { translate } from '@tramita/i18n'
import { makeUser, resetAuthTables, tokenFor } from '#tests/helpers/auth'
import { SCRIPT_CALLS_PER_MINUTE, SCRIPT_TIMEOUT_MS } from '#controllers/script_calls_controller'
import { scriptRunner } from '#services/scripts'

type Client = Parameters<typeof tokenFor>[0]

const PATH = '/inside/forms/create/search_endpoint/ejecutar_exe'

/** The execute_script action's server side (spec 000 §7 ejecutar_exe), JavaScript in the server sandbox. */
test.group('ejecutar_exe', (group) => {
  group.each.setup(() => resetAuthTables())

  const run = (client: Client, token: string, fields: Record<string, string>) =>
    client
      .post(PATH)
      .header('token', token)
      .form({ case: 'POST', ...fields })

  test('a supervisor runs a script with the form values; the value and the effects come back', async ({
    client,
    assert,
  }) => {
    await makeUser({ username: 'jefa', role: 'supervisor' })
    const token = await tokenFor(client, 'jefa')
    const res = await run(client, token, {
      data_text: "setValue('total', edad * 2); setState('nota', { required: true }); return edad + 1",
      values: JSON.stringify({ edad: 20 }),
    })
    res.assertStatus(200)
    assert.deepEqual(res.body(), {
      status: 'done',
      data: {
        value: 21,
        effects: [
          { op: 'setValue', field: 'total', value: 40 },
          { op: 'setState', field: 'nota', state: { required: true } },
        ],
      },
    })
  })

  test('only superusers and supervisors may; without a session nobody', async ({ client, assert }) => {
    await makeUser({ username: 'ana', role: 'student' })
    await makeUser({ username: 'profe', role: 'teacher' })
    for (const name of ['ana', 'profe']) {
      const res = await run(client, await tokenFor(client, name), { data_text: '1' })
      res.assertStatus(403)
      assert.deepEqual(res.body(), { status: 'fail', message: translate('es', 'script_call.forbidden') })
    }
    const anonymous = await client.post(PATH).form({ case: 'POST', data_text: '1' })
    anonymous.assertStatus(401)
    assert.deepEqual(anonymous.body(), { status: 'fail', message: 'Unauthorized' })
  })

  test('bad input is a fail with a message, never a 500', async ({ client, assert }) => {
    await makeUser({ username: 'root', role: 'superuser' })
    const token = await tokenFor(client, 'root')
    const cases: [Record<string, string>, number, RegExp][] = [
      [{}, 400, /data_text/],
      [{ data_text: 'x'.repeat(20_001) }, 400, /data_text/],
      [{ data_text: '1', values: '[1, 2]' }, 400, /values/],
      [{ data_text: '1', values: '{not json' }, 400, /values/],
      [{ data_text: 'return (' }, 422, /script/i],
      [{ data_text: "throw new Error('boom')" }, 422, /boom/],
      [{ data_text: 'missingVariable + 1' }, 422, /missingVariable/],
    ]
    for (const [fields, status, pattern] of cases) {
      const res = await run(client, token, fields)
      assert.equal(res.status(), status, JSON.stringify(fields).slice(0, 60))
      assert.equal(res.body().status, 'fail')
      assert.match(res.body().message, pattern)
    }
  })

  test('a runaway script is stopped at the 200 ms deadline and the pool keeps answering', async ({
    client,
    assert,
  }) => {
    await makeUser({ username: 'root', role: 'superuser' })
    const token = await tokenFor(client, 'root')
    // The deadline the pool is given for each call, seen at the pool itself.
    const pool = scriptRunner()
    const original = pool.run
    const deadlines: (number | undefined)[] = []
    pool.run = (source, vars, opts) => {
      deadlines.push(opts?.timeoutMs)
      return original(source, vars, opts)
    }
    try {
      const stuck = await run(client, token, { data_text: 'while (true) {}' })
      stuck.assertStatus(422)
      assert.deepEqual(stuck.body(), {
        status: 'fail',
        message: 'El script superó el tiempo permitido (200 ms) y se detuvo',
      })
      const after = await run(client, token, { data_text: '6 * 7' })
      after.assertStatus(200)
      assert.equal(after.body().data.value, 42)
    } finally {
      pool.run = original
    }
    assert.equal(SCRIPT_TIMEOUT_MS, 200)
    assert.deepEqual(deadlines, [200, 200])
  })

  test('rate-limited per user', async ({ client, assert }) => {
    await makeUser({ username: 'jefa', role: 'supervisor' })
    await makeUser({ username: 'root', role: 'superuser' })
    const token = await tokenFor(client, 'jefa')
    for (let i = 0; i < SCRIPT_CALLS_PER_MINUTE; i++)
      (await run(client, token, { data_text: `${i}` })).assertStatus(200)
    const refused = await run(client, token, { data_text: '1' })
    refused.assertStatus(429)
    assert.deepEqual(refused.body(), { status: 'fail', message: translate('es', 'auth.too_many_requests') })
    assert.isAbove(Number(refused.header('retry-after')), 0)
    // Another user keeps their own allowance.
    ;(await run(client, await tokenFor(client, 'root'), { data_text: '1' })).assertStatus(200)
  })
})
