import { test } from '@japa/runner'
import { makeUser, resetAuthTables, tokenFor } from '#tests/helpers/auth'
import { publishPermit, resetProcessTables } from '#tests/helpers/process'
import { MAX_JSON_DEPTH } from '#lib/json_input'

/** `levels` arrays nested in one another, as JSON text: [[[...]]]. */
const deepText = (levels: number) => '['.repeat(levels) + ']'.repeat(levels)
/** `levels` objects nested in one another: {"a":{"a":...}}. */
const deepObject = (levels: number) => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels)

/**
 * Every JSON field a request carries is parsed with a bound on its depth (and size): a deeply nested
 * document is refused with a `fail` naming the field, never a 500 from a recursive walk after it.
 */
test.group('deep JSON input', (group) => {
  group.each.setup(async () => {
    await resetProcessTables()
    await resetAuthTables()
  })

  /** A 400 `fail` saying what is too deep (a field's name, or the JSON body) and the bound. */
  const assertRefused = (res: { status(): number; body(): any }, name: string, assert: any) => {
    assert.equal(res.status(), 400, JSON.stringify(res.body()).slice(0, 200))
    assert.equal(res.body().status, 'fail')
    assert.include(res.body().message, name)
    assert.include(res.body().message, String(MAX_JSON_DEPTH))
  }

  test('a form value nested 5,000 levels is refused (form-data and JSON body)', async ({ client, assert }) => {
    const form = await publishPermit({
      extraField: { field_name: 'datos', type: 'var', data: { label: { value: 'Datos' }, var_type: 'json' } },
    })
    await makeUser({ username: 'solicitante', role: 'student' })
    const token = await tokenFor(client, 'solicitante')
    const values = `{"nombre":"Ana","datos":${deepObject(5000)}}`
    const asForm = await client
      .post('/data/form/flows/process')
      .header('token', token)
      .form({ case: 'POST', data: form.key, flow_values: values })
    assertRefused(asForm, 'flow_values', assert)

    const asJson = (nested: string) =>
      client
        .post('/data/form/flows/process')
        .header('token', token)
        .unsafeJson(`{"case":"POST","data":${JSON.stringify(form.key)},"flow_values":${nested}}`)
    assertRefused(await asJson(values), 'JSON', assert)
    assertRefused(await asJson(`{"datos":${deepObject(100)}}`), 'flow_values', assert)

    // Nesting within the bound is stored as it came.
    const fine = await client
      .post('/data/form/flows/process')
      .header('token', token)
      .form({ case: 'POST', data: form.key, flow_values: `{"nombre":"Ana","datos":${deepObject(MAX_JSON_DEPTH - 2)}}` })
    fine.assertStatus(200)
  })

  test('a designer draft nested 5,000 levels is refused', async ({ client, assert }) => {
    await makeUser({ username: 'disenadora', role: 'supervisor' })
    const token = await tokenFor(client, 'disenadora')
    const created = await client.post('/inside/designer/forms').header('token', token).json({ name: 'Hondo' })
    const id = created.body().data.id as number
    const deepConfig = `{"form":{"pages":[]},"fields":[{"field_name":"x","type":"text","data":${deepObject(5000)}}]}`
    const asForm = await client
      .put(`/inside/designer/forms/${id}/draft`)
      .header('token', token)
      .form({ case: 'PUT', name: 'Hondo', jsonconfig: deepConfig, process: '{}' })
    assertRefused(asForm, 'jsonconfig', assert)
    const asJson = (config: string) =>
      client
        .put(`/inside/designer/forms/${id}/draft`)
        .header('token', token)
        .unsafeJson(`{"name":"Hondo","jsonconfig":${config},"process":{}}`)
    assertRefused(await asJson(deepConfig), 'JSON', assert)
    assertRefused(await asJson(`{"fields":${deepText(100)}}`), 'jsonconfig', assert)
  })

  test('ejecutar_exe values nested 5,000 levels are refused', async ({ client, assert }) => {
    await makeUser({ username: 'root', role: 'superuser' })
    const token = await tokenFor(client, 'root')
    const res = await client
      .post('/inside/forms/create/search_endpoint/ejecutar_exe')
      .header('token', token)
      .form({ case: 'POST', data_text: 'return 1', values: `{"x":${deepText(5000)}}` })
    assertRefused(res, 'values', assert)
    const asJson = (levels: number) =>
      client
        .post('/inside/forms/create/search_endpoint/ejecutar_exe')
        .header('token', token)
        .unsafeJson(`{"case":"POST","data_text":"return 1","values":{"x":${deepText(levels)}}}`)
    assertRefused(await asJson(5000), 'JSON', assert)
    assertRefused(await asJson(100), 'values', assert)
  })
})
