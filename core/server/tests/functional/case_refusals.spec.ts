import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { translate } from '@tramita/i18n'
import { taskToken } from '#services/process/engine'
import { makeUser, resetAuthTables, tokenFor } from '#tests/helpers/auth'
import { publishPermit, resetProcessTables } from '#tests/helpers/process'

type Client = Parameters<typeof tokenFor>[0]

const refusal = (key: string) => ({ status: 'fail', message: translate('es', key) })
const UNAUTHORIZED = refusal('error.unauthorized')
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64'
)
const ID_CARD = {
  field_name: 'cedula',
  type: 'file',
  data: { label: { value: 'Cédula' }, ext: ['pdf'], idcard: true },
}

/**
 * Everything a case is: its row, its tasks, its log and the files staged or attached. The log's
 * assignee-mail entries are left out: the mail job writes them whenever it runs, which is no call's doing.
 */
async function caseState(caseId: number) {
  return {
    row: await db.from('cases').where('id', caseId).first(),
    tasks: await db.from('tasks').where('case_id', caseId).orderBy('id'),
    activities: await db.from('activities').where('case_id', caseId).whereNot('type', 'email').orderBy('id'),
    uploads: await db.from('uploads').orderBy('id'),
  }
}

/** Who may not look at, fill, decide or scan into a case, and what they are told. */
test.group('case refusals', (group) => {
  group.each.setup(async () => {
    await db.from('uploads').delete()
    await resetProcessTables()
    await resetAuthTables()
  })

  function post(
    client: Client,
    path: string,
    token: string | null,
    fields: Record<string, string>,
    files: Record<string, Buffer> = {}
  ) {
    let request = client.post(path)
    if (token) request = request.header('token', token)
    for (const [name, value] of Object.entries({ case: 'POST', ...fields })) request = request.field(name, value)
    for (const [name, bytes] of Object.entries(files)) request = request.file(name, bytes, { filename: 'frente.png' })
    return request
  }

  /** A permit (with an ID card field) started by a student, reviewed by a teacher of the area. */
  async function setUp(client: Client) {
    const form = await publishPermit({ extraField: ID_CARD })
    await makeUser({ username: 'solicitante', role: 'student' })
    const reviewer = await makeUser({ username: 'revisora', role: 'teacher' })
    await reviewer.related('areas').attach([form.area.id])
    await makeUser({ username: 'jefa', role: 'supervisor' })
    await makeUser({ username: 'ajeno', role: 'teacher' })
    const t = {
      applicant: await tokenFor(client, 'solicitante'),
      reviewer: await tokenFor(client, 'revisora'),
      approver: await tokenFor(client, 'jefa'),
      outsider: await tokenFor(client, 'ajeno'),
    }
    const started = await post(client, '/data/form/flows/process', t.applicant, {
      data: form.key,
      flow_values: JSON.stringify({ nombre: 'Ana Ruiz', dias: 3, motivo: 'Cita médica' }),
    })
    started.assertStatus(200)
    const id = started.body().data.id as number
    const key = started.body().data.key_process as string
    const pending = async () =>
      taskToken((await db.from('tasks').where('case_id', id).where('status', 'pending').firstOrFail()).id)
    return { form, t, id, key, pending }
  }

  test('info/user/token: an outsider gets 403 and an anonymous caller 401 in see, edit and enter', async ({
    client,
    assert,
  }) => {
    const { t, id, key, pending } = await setUp(client)
    const before = await caseState(id)
    const token = await pending()
    const asks: Record<string, string>[] = [
      { type: 'see', key_process: key },
      { type: 'edit', key_process: key },
      { type: 'enter', key_process: key, token },
    ]
    for (const fields of asks) {
      const outsider = await post(client, '/data/form/info/user/token', t.outsider, fields)
      outsider.assertStatus(403)
      assert.deepEqual(outsider.body(), refusal('engine.not_yours'), fields.type)
      const anonymous = await post(client, '/data/form/info/user/token', null, fields)
      anonymous.assertStatus(401)
      assert.deepEqual(anonymous.body(), UNAUTHORIZED, fields.type)
      // The same asks by the reviewer are answered: the refusals are about who asks.
      const reviewer = await post(client, '/data/form/info/user/token', t.reviewer, fields)
      assert.equal(reviewer.body().data.values_init.nombre, 'Ana Ruiz', fields.type)
    }
    assert.deepEqual(await caseState(id), before)
  })

  test('decision/process/info by anyone but the assignee is refused and the case stays as it was', async ({
    client,
    assert,
  }) => {
    const { t, id, key, pending } = await setUp(client)
    const reviewed = await post(client, '/data/form/asignar/process/info', t.reviewer, {
      key_process: key,
      token: await pending(),
      flow_values: JSON.stringify({ nombre: 'Ana Ruiz', dias: 3, motivo: 'Cita médica', observacion: 'Conforme' }),
    })
    reviewed.assertStatus(200)
    const token = await pending()
    const before = await caseState(id)
    assert.equal(before.row.state, 'revision')
    const decide = { key_process: key, token, decision: JSON.stringify({ id: 'aprobar' }), flow_values: '{}' }
    const refused = await post(client, '/data/form/decision/process/info', t.outsider, decide)
    refused.assertStatus(403)
    assert.deepEqual(refused.body(), refusal('engine.not_yours'))
    const anonymous = await post(client, '/data/form/decision/process/info', null, decide)
    anonymous.assertStatus(401)
    assert.deepEqual(anonymous.body(), UNAUTHORIZED)
    assert.deepEqual(await caseState(id), before)
    // The supervisor, whose task it is, decides.
    const approved = await post(client, '/data/form/decision/process/info', t.approver, decide)
    approved.assertStatus(200)
    assert.equal(approved.body().data.state, 'aprobado')
  })

  test('cardim_preview and cardim_full refuse an outsider and store nothing', async ({ client, assert }) => {
    const { t, id, key, pending } = await setUp(client)
    const context = { key_process: key, token: await pending(), field: 'cedula' }
    const endpoint = (name: string) => `/inside/forms/create/search_endpoint/${name}`
    // The assignee's face is stored: the context is a good one.
    const face = await post(client, endpoint('cardim_preview'), t.reviewer, context, { pdf_one: PNG })
    assert.equal(face.body().status, 'done', face.body().message)
    const before = await caseState(id)
    const preview = await post(client, endpoint('cardim_preview'), t.outsider, context, { pdf_one: PNG })
    preview.assertStatus(403)
    assert.deepEqual(preview.body(), refusal('engine.not_yours'))
    const full = await post(client, endpoint('cardim_full'), t.outsider, {
      ...context,
      pdf_one: face.body().data.path,
      pdf_two: face.body().data.path,
    })
    full.assertStatus(403)
    assert.deepEqual(full.body(), refusal('engine.not_yours'))
    assert.deepEqual(await caseState(id), before)
  })
})
