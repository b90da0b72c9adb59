import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { translate } from '@tramita/i18n'
import AuditLog from '#models/audit_log'
import { makeUser, resetAuthTables, tokenFor } from '#tests/helpers/auth'

type Client = Parameters<typeof tokenFor>[0]
type Language = 'es' | 'en' | 'zh'

const LIST = '/inside/plugin_settings'
const TESTKIT_DEFAULTS = { retentionDays: 30, banner: 'hola', notify: true, period: 'daily' }

function list(client: Client, token: string, language: Language = 'es') {
  return client.get(LIST).header('token', token).header('accept-language', language).qs({ case: 'GET' })
}

function save(client: Client, token: string, plugin: string, patch: unknown, language: Language = 'es') {
  return client
    .put(`${LIST}/${plugin}`)
    .header('token', token)
    .header('accept-language', language)
    .form({ case: 'PUT', settings: typeof patch === 'string' ? patch : JSON.stringify(patch) })
}

/** The testkit plugin's values as the list answers them, by key. */
async function testkitValues(client: Client, token: string) {
  const response = await list(client, token)
  response.assertStatus(200)
  const entry = (response.body().data.plugins as { id: string; settings: { key: string; value: unknown }[] }[]).find(
    (p) => p.id === 'testkit'
  )!
  return Object.fromEntries(entry.settings.map((s) => [s.key, s.value]))
}

async function savedRows() {
  return (await db.from('plugin_settings').orderBy('plugin')).map((r) => ({ plugin: r.plugin, value: r.value }))
}

test.group('plugin settings: administrators list and change them', (group) => {
  group.each.setup(async () => {
    await db.from('plugin_settings').delete()
    await resetAuthTables()
  })

  async function admin(client: Client, role = 'supervisor') {
    const user = await makeUser({ username: `admin_${role}`, role })
    return { user, token: await tokenFor(client, user.username) }
  }

  test('the list: each enabled plugin with settings, its declarations, texts and values', async ({
    client,
    assert,
  }) => {
    const { token } = await admin(client)
    const response = await list(client, token)
    response.assertStatus(200)
    const plugins = response.body().data.plugins as { id: string; title: string; settings: object[] }[]
    // Only plugins that declare settings, in load order: documents, devices, the test plugin; not actions…
    assert.deepEqual(
      plugins.map((p) => p.id),
      ['documents', 'devices', 'testkit']
    )
    const documents = plugins[0]!
    assert.equal(documents.title, 'Documentos')
    assert.deepEqual(documents.settings[0], {
      key: 'trashDays',
      type: 'integer',
      default: 30,
      min: 1,
      max: 3650,
      unit: 'days',
      label: 'Días en la papelera',
      help: 'Lo que lleva más días en la papelera se elimina para siempre cada noche.',
      value: 30,
    })
    assert.deepInclude(documents.settings[1], { key: 'quotaBytes', unit: 'bytes', min: 0, value: 10 * 1024 ** 3 })
    assert.deepInclude(documents.settings[2], { key: 'maxUploadBytes', min: 1, max: 2 * 1024 ** 3 })
    const english = (await list(client, token, 'en'))
      .body()
      .data.plugins.find((p: { id: string }) => p.id === 'testkit')
    assert.equal(english.title, 'Test kit')
    assert.deepEqual(english.settings[3], {
      key: 'period',
      type: 'enum',
      default: 'daily',
      options: [
        { value: 'daily', label: 'Every day' },
        { value: 'weekly', label: 'Every week' },
      ],
      label: 'Frequency',
      help: '',
      value: 'daily',
    })
  })

  test('a save changes only the keys sent, answers the new values and writes who/what/old/new to the audit log', async ({
    client,
    assert,
  }) => {
    const { user, token } = await admin(client, 'superuser')
    const first = await save(client, token, 'testkit', { retentionDays: 7, notify: false })
    first.assertStatus(200)
    assert.equal(first.body().status, 'done')
    assert.equal(first.body().data.id, 'testkit')
    assert.deepEqual(await testkitValues(client, token), { ...TESTKIT_DEFAULTS, retentionDays: 7, notify: false })
    ;(await save(client, token, 'testkit', { banner: 'Aviso ✓', period: 'weekly' })).assertStatus(200)
    const expected = { retentionDays: 7, banner: 'Aviso ✓', notify: false, period: 'weekly' }
    assert.deepEqual(await testkitValues(client, token), expected)
    assert.deepEqual(JSON.parse((await db.from('plugin_settings').where('plugin', 'testkit').first()).value), expected)

    const entries = await AuditLog.query().where('action', 'plugin_settings.update').orderBy('id')
    assert.deepEqual(
      entries.map((e) => [e.actorId, e.subjectType, e.subjectId, e.data]),
      [
        [
          user.id,
          'plugin',
          'testkit',
          {
            changes: [
              { key: 'retentionDays', old: 30, new: 7 },
              { key: 'notify', old: true, new: false },
            ],
          },
        ],
        [
          user.id,
          'plugin',
          'testkit',
          {
            changes: [
              { key: 'banner', old: 'hola', new: 'Aviso ✓' },
              { key: 'period', old: 'daily', new: 'weekly' },
            ],
          },
        ],
      ]
    )
    assert.isNotNull(entries[0]!.ip)
    // The same values again change nothing and record nothing.
    ;(await save(client, token, 'testkit', { retentionDays: 7 })).assertStatus(200)
    assert.equal((await AuditLog.query().where('action', 'plugin_settings.update')).length, 2)
  })

  test('two saves at once of different keys both stay', async ({ client, assert }) => {
    const { token } = await admin(client)
    const one = await admin(client, 'superuser')
    for (let round = 0; round < 3; round++) {
      const days = 10 + round
      const banner = `b${round}`
      const answers = await Promise.all([
        save(client, token, 'testkit', { retentionDays: days }),
        save(client, one.token, 'testkit', { banner }),
      ])
      for (const answer of answers) answer.assertStatus(200)
      assert.deepInclude(await testkitValues(client, token), { retentionDays: days, banner })
    }
  })

  test('bad values are refused with every problem said, in the caller’s language, and nothing is saved', async ({
    client,
    assert,
  }) => {
    const { token } = await admin(client)
    ;(await save(client, token, 'testkit', { banner: 'antes' })).assertStatus(200)
    const rows = await savedRows()
    const audits = (await AuditLog.query().where('action', 'plugin_settings.update')).length

    const refusal = async (plugin: string, patch: unknown, language: Language = 'es') => {
      const response = await save(client, token, plugin, patch, language)
      response.assertStatus(422)
      assert.equal(response.body().status, 'fail')
      return response.body() as { message: string; problems: { key: string; reason: string }[] }
    }
    // Valid keys beside a bad one are not saved either.
    const mixed = await refusal('testkit', { retentionDays: 0, banner: 'nuevo', bogus: 1 })
    assert.equal(
      mixed.message,
      '«Días que se conserva» debe estar entre 1 día y 365 días. «bogus» no es un ajuste de este complemento.'
    )
    assert.deepEqual(
      mixed.problems.map((p) => [p.key, p.reason]),
      [
        ['retentionDays', 'range'],
        ['bogus', 'unknown'],
      ]
    )
    assert.equal(
      (await refusal('testkit', { retentionDays: '7' })).message,
      '«Días que se conserva» debe ser un número entero.'
    )
    assert.equal(
      (await refusal('testkit', { retentionDays: 7.5 }, 'en')).message,
      '“Days kept” must be a whole number.'
    )
    assert.equal((await refusal('testkit', { notify: 'no' }, 'zh')).message, '“通过电子邮件通知”必须是“是”或“否”。')
    assert.equal(
      (await refusal('testkit', { banner: 'x'.repeat(41) })).message,
      '«Aviso» admite como máximo 40 caracteres.'
    )
    assert.equal(
      (await refusal('testkit', { period: 'monthly' }, 'en')).message,
      '“Frequency” must be one of these options: Every day, Every week.'
    )
    assert.equal(
      (await refusal('documents', { maxUploadBytes: 3 * 1024 ** 3 })).message,
      '«Tamaño máximo de un archivo» debe estar entre 1 B y 2 GB.'
    )
    assert.equal(
      (await refusal('documents', { quotaBytes: -1 }, 'en')).message,
      '“Storage per user” must be at least 0 MB.'
    )
    assert.equal(
      (await refusal('documents', { trashDays: 4000 }, 'en')).message,
      '“Days in the recycle bin” must be between 1 day and 3,650 days.'
    )
    // Not an object of values at all.
    for (const patch of ['[1]', '7', 'null', '{']) {
      const response = await save(client, token, 'testkit', patch)
      assert.equal(response.status(), 400, patch)
      assert.equal(response.body().status, 'fail')
    }
    assert.deepEqual(await savedRows(), rows)
    assert.equal((await AuditLog.query().where('action', 'plugin_settings.update')).length, audits)
  })

  test('a plugin that is not enabled, or has no settings, is 404; others than administrators get 403', async ({
    client,
    assert,
  }) => {
    const { token } = await admin(client)
    for (const plugin of ['nosuch', 'exams']) {
      const response = await save(client, token, plugin, { trashDays: 5 })
      response.assertStatus(404)
      assert.deepEqual(response.body(), {
        status: 'fail',
        message: translate('es', 'settings_refusal.not_found', { plugin }),
      })
    }
    for (const role of ['teacher', 'student']) {
      await makeUser({ username: `u_${role}`, role })
      const other = await tokenFor(client, `u_${role}`)
      const listed = await list(client, other)
      listed.assertStatus(403)
      assert.deepEqual(listed.body(), { status: 'fail', message: translate('es', 'auth.forbidden') })
      ;(await save(client, other, 'testkit', { retentionDays: 5 })).assertStatus(403)
    }
    ;(await client.get(LIST).qs({ case: 'GET' })).assertStatus(401)
    assert.deepEqual(await savedRows(), [])
    assert.equal((await AuditLog.query().where('action', 'plugin_settings.update')).length, 0)
  })
})
