import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { translate } from '@tramita/i18n'
import { makeUser, resetAuthTables, tokenFor } from '#tests/helpers/auth'
import { permitConfig, resetProcessTables } from '#tests/helpers/process'
import { recordOnlyProcess } from '#services/process/forms'
import { latestVersionByKey } from '#services/process/definitions'
import { FORM_TEMPLATES } from '#services/process/form_templates'

type Client = Parameters<typeof tokenFor>[0]

/** The designer's routes: forms, drafts saved as they are, publication, versions and templates. */
test.group('designer', (group) => {
  group.each.setup(async () => {
    await resetProcessTables()
    await resetAuthTables()
  })

  async function designer(client: Client) {
    await makeUser({ username: 'disenadora', role: 'supervisor' })
    return tokenFor(client, 'disenadora')
  }
  const get = (client: Client, path: string, token: string) => client.get(path).header('token', token)
  const send = (client: Client, method: 'post' | 'put', path: string, token: string, body: Record<string, unknown>) =>
    client[method](path).header('token', token).json(body)

  test('a form starts from a template, its draft is saved as it is, published, and a new draft follows', async ({
    client,
    assert,
  }) => {
    const token = await designer(client)
    const templates = await get(client, '/inside/designer/templates', token)
    templates.assertStatus(200)
    assert.deepEqual(
      templates.body().data.templates.map((t: { id: string }) => t.id),
      FORM_TEMPLATES.map((t) => t.id)
    )

    const created = await send(client, 'post', '/inside/designer/forms', token, {
      name: 'Permiso',
      template: 'solicitud-permiso',
    })
    created.assertStatus(200)
    const id = created.body().data.id as number
    const opened = (await get(client, `/inside/designer/forms/${id}`, token)).body().data
    assert.equal(opened.name, 'Permiso')
    assert.isNotNull(opened.draft_updated_at)
    assert.deepEqual(opened.versions, [])
    assert.isAbove(opened.draft.jsonconfig.fields.length, 5)

    // A draft with a problem is kept, and its problem named at its path.
    const broken = { ...permitConfig(), form: { pages: [{ name: 'Datos', layout: [['nombre', 'no_existe']] }] } }
    const saved = await send(client, 'put', `/inside/designer/forms/${id}/draft`, token, {
      name: 'Permiso',
      jsonconfig: broken,
      process: recordOnlyProcess('Permiso'),
    })
    saved.assertStatus(200)
    const problems = saved.body().data.problems as { path: string }[]
    assert.isAbove(problems.length, 0)
    assert.isTrue(problems.every((p) => p.path.startsWith('/jsonconfig')))
    const stored = (await get(client, `/inside/designer/forms/${id}`, token)).body().data
    assert.deepEqual(stored.draft.jsonconfig, broken)

    // Publishing it is refused with the same problems; nothing is published.
    const refused = await client.post(`/inside/designer/forms/${id}/publish`).header('token', token)
    refused.assertStatus(400)
    assert.equal(refused.body().status, 'fail')
    assert.deepEqual(refused.body().problems, problems)
    const form = await db.from('forms').where('id', id).first()
    assert.isNull(await latestVersionByKey(form.key))

    // Fixed, it publishes as version 1 and the runtime serves it.
    await send(client, 'put', `/inside/designer/forms/${id}/draft`, token, {
      name: 'Permiso de salida',
      jsonconfig: permitConfig(),
      process: recordOnlyProcess('Permiso'),
    }).then((r) => r.assertStatus(200))
    const published = await client.post(`/inside/designer/forms/${id}/publish`).header('token', token)
    published.assertStatus(200)
    assert.equal(published.body().data.version, 1)
    assert.equal((await latestVersionByKey(form.key))?.version, 1)
    assert.equal((await latestVersionByKey(form.key))?.formName, 'Permiso de salida')

    // No draft now: the designer opens a copy of version 1; the next save starts version 2's draft.
    const after = (await get(client, `/inside/designer/forms/${id}`, token)).body().data
    assert.isNull(after.draft_updated_at)
    assert.deepEqual(after.draft.jsonconfig, permitConfig())
    const again = await client.post(`/inside/designer/forms/${id}/publish`).header('token', token)
    again.assertStatus(400)
    const changed = { ...permitConfig(), form: { pages: [{ name: 'Solicitud', layout: [['nombre']] }] } }
    await send(client, 'put', `/inside/designer/forms/${id}/draft`, token, {
      name: 'Permiso de salida',
      jsonconfig: changed,
      process: recordOnlyProcess('Permiso'),
    }).then((r) => r.assertStatus(200))
    const v1 = (await get(client, `/inside/designer/forms/${id}/versions/1`, token)).body().data
    assert.deepEqual(v1.jsonconfig, permitConfig())
    await client
      .post(`/inside/designer/forms/${id}/publish`)
      .header('token', token)
      .then((r) => r.assertStatus(200))
    const v2 = (await get(client, `/inside/designer/forms/${id}/versions/2`, token)).body().data
    assert.deepEqual(v2.jsonconfig, changed)
    // Version 1 did not change when version 2 was designed.
    assert.deepEqual(
      (await get(client, `/inside/designer/forms/${id}/versions/1`, token)).body().data.jsonconfig,
      v1.jsonconfig
    )

    const list = (await get(client, '/inside/designer/forms', token)).body().data.forms
    assert.lengthOf(list, 1)
    assert.include(list[0], { id, name: 'Permiso de salida', versions: 2, latest_version: 2, draft_updated_at: null })
  })

  test('bad input is refused with a reason and nothing changes', async ({ client, assert }) => {
    const token = await designer(client)
    const id = (await send(client, 'post', '/inside/designer/forms', token, { name: 'Vacío' }).then((r) => r.body()))
      .data.id as number
    const before = (await get(client, `/inside/designer/forms/${id}`, token)).body().data

    const unknownTemplate = await send(client, 'post', '/inside/designer/forms', token, {
      name: 'X',
      template: '../../etc/passwd',
    })
    unknownTemplate.assertStatus(404)
    assert.equal(unknownTemplate.body().status, 'fail')

    const badJson = await client
      .put(`/inside/designer/forms/${id}/draft`)
      .header('token', token)
      .form({ case: 'PUT', name: 'Vacío', jsonconfig: '{"form":', process: '{}' })
    badJson.assertStatus(400)
    assert.match(badJson.body().message, /jsonconfig/)

    const notObject = await send(client, 'put', `/inside/designer/forms/${id}/draft`, token, {
      name: 'Vacío',
      jsonconfig: [1, 2],
      process: {},
    })
    notObject.assertStatus(400)
    const missingName = await send(client, 'put', `/inside/designer/forms/${id}/draft`, token, {
      jsonconfig: permitConfig(),
      process: recordOnlyProcess('Permiso'),
    })
    missingName.assertStatus(400)
    const noForm = await send(client, 'put', '/inside/designer/forms/999999/draft', token, {
      name: 'X',
      jsonconfig: permitConfig(),
      process: recordOnlyProcess('Permiso'),
    })
    noForm.assertStatus(404)
    ;(await get(client, '/inside/designer/forms/abc', token)).assertStatus(400)
    ;(await get(client, `/inside/designer/forms/${id}/versions/1`, token)).assertStatus(404)

    const after = (await get(client, `/inside/designer/forms/${id}`, token)).body().data
    assert.deepEqual(after, before)
    assert.equal(Number((await db.from('forms').count('* as n').first()).n), 1)
  })

  test('only designing roles reach the designer; its writes by anyone else change nothing', async ({
    client,
    assert,
  }) => {
    const token = await designer(client)
    const created = await send(client, 'post', '/inside/designer/forms', token, {
      name: 'Permiso',
      template: 'solicitud-permiso',
    })
    created.assertStatus(200)
    const id = created.body().data.id as number
    const rows = async () => ({
      forms: await db.from('forms').orderBy('id'),
      versions: await db.from('form_versions').orderBy('id'),
    })
    const before = await rows()
    const draft = { name: 'Otro', jsonconfig: permitConfig(), process: recordOnlyProcess('Otro') }
    const forbidden = { status: 'fail', message: translate('es', 'auth.forbidden') }
    for (const role of ['teacher', 'student']) {
      await makeUser({ username: `no-${role}`, role })
      const other = await tokenFor(client, `no-${role}`)
      for (const response of [
        await get(client, '/inside/designer/forms', other),
        await send(client, 'post', '/inside/designer/forms', other, { name: 'Intruso', template: 'solicitud-permiso' }),
        await send(client, 'put', `/inside/designer/forms/${id}/draft`, other, draft),
        await send(client, 'post', `/inside/designer/forms/${id}/publish`, other, {}),
      ]) {
        response.assertStatus(403)
        assert.deepEqual(response.body(), forbidden)
      }
    }
    const anonymous = await client.post(`/inside/designer/forms/${id}/publish`).json({})
    anonymous.assertStatus(401)
    assert.deepEqual(anonymous.body(), { status: 'fail', message: 'Unauthorized' })
    assert.deepEqual(await rows(), before)
  })
})
