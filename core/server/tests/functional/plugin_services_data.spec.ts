import { readFile } from 'node:fs/promises'
import { existsSync, readdirSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import type { PluginContext, PluginPrincipal } from '@tramita/plugin-api'
import Area from '#models/area'
import { dataSubdir } from '#lib/paths'
import { platform } from '#services/platform'
import { makeUser, resetAuthTables, tokenFor } from '#tests/helpers/auth'
import { pluginDir } from '#plugins/enabled'
import { pluginMailJob } from '#plugins/services/mail'
import { mailsTo, waitForMail } from '#tests/helpers/smtp_listener'
import { formFile } from '#tests/helpers/uploads'
import { principalFor } from '#services/auth/principal'
import { pluginPrincipal } from '#plugins/services/mount'

/** The very module the plugin loader imported (same URL), whose boot hook kept its context. */
const { seen } = (await import(pathToFileURL(resolve(pluginDir('testkit'), 'server', 'index.ts')).href)) as {
  seen: { context?: PluginContext; registerError?: string }
}

/** The test plugin's context, as its boot hook received it. */
function ctx(): PluginContext {
  if (!seen.context) throw new Error('the testkit plugin did not boot')
  return seen.context
}

async function collect(source: AsyncIterable<Uint8Array>): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of source) chunks.push(Buffer.from(chunk))
  return Buffer.concat(chunks).toString('utf8')
}

/** The test plugin's objects on the local disk. */
function storedObjects(): string[] {
  const root = join(dataSubdir('storage'), 'plugins', 'testkit')
  if (!existsSync(root)) return []
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => entry.name)
}

const file = (name: string) => ({ storage_key: 'k', name, size: 1, sha256: 'x', mime: 'text/plain' })

test.group('plugin services: lifecycle, database, storage', (group) => {
  group.each.setup(async () => {
    await db.from('testkit_files').delete()
  })

  test('data services throw "not ready" in register; the plugin still booted', ({ assert }) => {
    assert.include(seen.registerError ?? '', 'not ready in register')
    assert.deepInclude(
      platform()
        .plugins.status()
        .find((s) => s.id === 'testkit')!,
      { state: 'booted' }
    )
    assert.deepInclude(platform().pluginServices!.schedules, {
      pluginId: 'testkit',
      job: 'testkit:tick',
      period: 'daily',
    })
  })

  test("db.table is the plugin's own table; core tables and other plugins' are refused", async ({ assert }) => {
    const { db: pdb } = ctx()
    assert.throws(() => pdb.table('users'), /core table/)
    assert.throws(() => pdb.table('documents_folders'), /belongs to plugin "documents"/)
    assert.throws(() => pdb.table('files; drop table users'), /invalid table name/)
    const ids = await pdb.table('files').insert([file('a'), file('b'), file('c')])
    const rows = await pdb.table('files').orderBy('id').select('id', 'name')
    assert.deepEqual(
      rows.map((r) => r.name),
      ['a', 'b', 'c']
    )
    // One id per row on SQLite; MariaDB tells the first only.
    assert.deepEqual(ids, pdb.dialect === 'sqlite' ? rows.map((r) => Number(r.id)) : [Number(rows[0].id)])
    const [one] = await pdb.table('files').insert(file('d'))
    assert.equal((await pdb.table('files').where('id', one!).first())?.name, 'd')
    assert.equal(await pdb.table('files').where('name', 'd').update({ name: 'e' }), 1)
    assert.equal(await pdb.table('files').where('name', 'e').increment('size', 4), 1)
    assert.equal(Number((await pdb.table('files').where('name', 'e').first())?.size), 5)
    const counted = await pdb.table('files').count('* as n').first()
    assert.equal(Number(counted.n), 4)
    const nested = await pdb
      .table('files')
      .where((q) => q.where('name', 'a').orWhere('name', 'e'))
      .whereIn('id', pdb.table('files').select('id').whereNotNull('sha256'))
      .orderBy('name')
    assert.deepEqual(
      nested.map((r) => r.name),
      ['a', 'e']
    )
    assert.equal(await pdb.table('files').where('name', 'e').delete(), 1)
  })

  test('a transaction commits or rolls back as one; raw gives plain rows on both engines', async ({ assert }) => {
    const { db: pdb } = ctx()
    await assert.rejects(() =>
      pdb.transaction(async (trx) => {
        await trx.table('files').insert(file('lost'))
        throw new Error('half-way')
      })
    )
    await pdb.transaction(async (trx) => {
      await trx.table('files').insert(file('kept'))
    })
    const rows = await pdb.raw<{ name: string; n: number }>(
      'SELECT name, COUNT(*) AS n FROM testkit_files WHERE name IN (?, ?) GROUP BY name',
      ['lost', 'kept']
    )
    assert.deepEqual(
      rows.map((r) => ({ name: r.name, n: Number(r.n) })),
      [{ name: 'kept', n: 1 }]
    )
    assert.deepEqual(await pdb.raw('UPDATE testkit_files SET size = 2 WHERE 1 = 0'), [])
  })

  test('storage: put with its hash, ranged reads, a local file, delete twice; a failed source leaves nothing; no foreign keys', async ({
    assert,
  }) => {
    const { storage } = ctx()
    const stored = await storage.put(new TextEncoder().encode('hola mundo'), 'txt')
    assert.match(stored.key, /^plugins\/testkit\/\d{4}\/\d{2}\/[0-9a-f-]{36}\.txt$/)
    assert.deepInclude(stored, {
      size: 10,
      mime: 'text/plain',
      sha256: '0b894166d3336435c800bea36ff21b29eaa801a52f584c006c49289a0dcf6e2f',
    })
    assert.equal(await collect(await storage.read(stored.key)), 'hola mundo')
    assert.equal(await collect(await storage.read(stored.key, { start: 5, end: 9 })), 'mundo')
    assert.equal(await storage.withLocalFile(stored.key, (path) => readFile(path, 'utf8')), 'hola mundo')
    await storage.delete(stored.key)
    await storage.delete(stored.key)
    await assert.rejects(() => storage.read(stored.key))
    const before = storedObjects()
    const broken = (async function* () {
      yield new TextEncoder().encode('medio archivo')
      throw new Error('the source failed')
    })()
    await assert.rejects(() => storage.put(broken, 'zip'), /the source failed/)
    assert.deepEqual(storedObjects(), before)
    await assert.rejects(
      () => storage.read('files/2026/01/00000000-0000-0000-0000-000000000000.pdf'),
      /not its storage key/
    )
    await assert.rejects(() => storage.read('plugins/testkit/../../files/x.pdf'), /not its storage key/)
  })
})

test.group('plugin services: usage, settings, people, audit, texts, tokens', (group) => {
  group.each.setup(async () => {
    await db.from('usage_events').delete()
    await db.from('plugin_settings').delete()
    await resetAuthTables()
  })

  test('usage counts a key once, whatever runs it twice', async ({ assert }) => {
    const { usage } = ctx()
    assert.isTrue(await usage.record('pages', 'doc:1:p1', 2))
    assert.isFalse(await usage.record('pages', 'doc:1:p1', 2))
    assert.isFalse(await usage.record('testkit.pages', 'doc:1:p1', 2))
    assert.isTrue(await usage.record('pages', 'doc:1:p2'))
    assert.isTrue(await usage.record('ocr', 'doc:1:p1', 5))
    assert.equal(await usage.total('pages'), 3)
    assert.equal(await usage.total('pages', new Date(Date.now() + 60_000)), 0)
    assert.equal(Number((await db.from('usage_events').count('* as n').first()).n), 3)
    await assert.rejects(() => usage.record('Bad Metric', 'k'), /invalid usage metric/)
  })

  test('settings: defaults, then what was saved over them; a patch outside the declaration is refused', async ({
    assert,
  }) => {
    const { settings } = ctx()
    const admin = await makeUser({ username: 'root', role: 'superuser' })
    const by: PluginPrincipal = {
      userId: admin.id,
      roles: ['superuser'],
      roleIds: [],
      areaIds: [],
      impersonatorId: null,
      language: 'es',
    }
    const defaults = { retentionDays: 30, banner: 'hola', notify: true, period: 'daily' }
    assert.deepEqual(await settings.get(), defaults)
    await assert.rejects(() => settings.set({ retentionDays: 7, bogus: true }, by), /bogus \(unknown\)/)
    await assert.rejects(() => settings.set({ retentionDays: 0 }, by), /retentionDays \(range\)/)
    assert.deepEqual(await settings.get(), defaults)
    assert.deepEqual(await settings.set({ retentionDays: 7 }, by), { ...defaults, retentionDays: 7 })
    assert.deepEqual(await settings.set({ banner: 'adiós' }, by), { ...defaults, retentionDays: 7, banner: 'adiós' })
    assert.deepEqual(await settings.get(), { ...defaults, retentionDays: 7, banner: 'adiós' })
    const row = await db.from('plugin_settings').where('plugin', 'testkit').first()
    assert.equal(Number(row.updated_by), admin.id)
    assert.deepEqual(JSON.parse(row.value), { retentionDays: 7, banner: 'adiós' })
    // A saved value a narrower declaration no longer allows reads as the default.
    await db.from('plugin_settings').where('plugin', 'testkit').update({ value: '{"retentionDays":9999,"old":1}' })
    assert.deepEqual(await settings.get(), defaults)
  })

  test('people: batch reads with roles and areas, accent-insensitive search, areas and roles', async ({ assert }) => {
    const { people } = ctx()
    const jose = await makeUser({ username: 'jperez', role: 'teacher', email: 'jp@example.test' })
    await db.from('users').where('id', jose.id).update({ first_name: 'José', last_name: 'Pérez' })
    const other = await makeUser({ username: 'maria', role: 'student' })
    const area = await Area.create({ name: 'Compras', color: '#00aa00' })
    await jose.related('areas').attach([area.id])

    const found = await people.byIds([jose.id, other.id, 999_999, jose.id])
    assert.deepEqual([...found.keys()].sort(), [jose.id, other.id].sort())
    assert.deepEqual(found.get(jose.id), {
      id: jose.id,
      name: 'José Pérez',
      username: 'jperez',
      email: 'jp@example.test',
      roles: ['teacher'],
      roleIds: [(await db.from('roles').where('name', 'teacher').firstOrFail()).id],
      areaIds: [area.id],
      language: 'es',
    })
    assert.deepEqual(
      (await people.search('JOSE')).map((p) => p.id),
      [jose.id]
    )
    assert.deepEqual(
      (await people.search('pérez')).map((p) => p.id),
      [jose.id]
    )
    assert.deepEqual(await people.search('   '), [])
    assert.deepInclude(await people.areas(), { id: area.id, name: 'Compras', color: '#00aa00' })
    assert.includeMembers(
      (await people.roles()).map((r) => r.name),
      ['superuser', 'supervisor', 'teacher', 'student']
    )
  })

  test("audit records the plugin's action; texts and tokens are the core's", async ({ assert }) => {
    const { audit, texts, tokens } = ctx()
    const user = await makeUser({ username: 'ana', role: 'student' })
    const who: PluginPrincipal = {
      userId: user.id,
      roles: ['student'],
      roleIds: [],
      areaIds: [],
      impersonatorId: null,
      language: 'es',
    }
    await audit.record(who, 'share', { type: 'document', id: 12 }, { with: 'area' })
    await audit.record({ ip: '203.0.113.9' }, 'public_open', { type: 'link', id: 'abc' })
    const rows = await db.from('audit_logs').where('action', 'like', 'testkit.%').orderBy('id')
    assert.deepEqual(
      rows.map((r) => [r.action, r.actor_id === null ? null : Number(r.actor_id), r.subject_id, r.ip]),
      [
        ['testkit.share', user.id, '12', null],
        ['testkit.public_open', null, 'abc', '203.0.113.9'],
      ]
    )

    assert.equal(texts.t('en', 'testkit.no_way', { name: 'X' }), 'You cannot do that with X')
    assert.equal(texts.t('zh', 'no_way', { name: 'X' }), '您不能对 X 这样做')
    assert.equal(texts.t('en', 'testkit.mail.text', { count: 2 }), 'You have 2 notices')
    assert.equal(texts.t('en', 'error.generic'), texts.t('en', 'error.generic'))
    assert.notEqual(texts.t('en', 'error.generic'), 'error.generic')

    const { token, hash } = tokens.create()
    assert.isAtLeast(token.length, 43)
    assert.equal(tokens.hash(token), hash)
    assert.notEqual(tokens.create().token, token)
    const stored = await tokens.hashPassword('clave-del-enlace')
    assert.isTrue(await tokens.verifyPassword(stored, 'clave-del-enlace'))
    assert.isFalse(await tokens.verifyPassword(stored, 'otra'))
  })
})

test.group('plugin services: mail', (group) => {
  group.each.setup(async () => {
    await resetAuthTables()
  })

  test("a mail is queued, sent in the recipient's language with the plugin's texts, and once", async ({ assert }) => {
    const { mail, http } = ctx()
    const user = await makeUser({ username: 'lucia', role: 'student', email: 'lucia@example.test' })
    const link = http.url('/static/public/abc')
    await mail.send(
      { userId: user.id },
      { subject: 'mail.subject', text: 'testkit.mail.text', params: { name: 'Lucía', count: 3 }, link }
    )
    const es = await waitForMail('lucia@example.test', (m) => m.subject === 'Hola Lucía')
    assert.include(es.text, 'Tienes 3 avisos')
    assert.include(es.text, link)

    await mail.send(
      { email: 'visitor@example.test', language: 'en' },
      { subject: 'mail.subject', text: 'mail.text', params: { name: 'Sam', count: 1 } }
    )
    const en = await waitForMail('visitor@example.test', (m) => m.subject === 'Hello Sam')
    assert.include(en.text, 'You have 1 notices')

    // The job run again with a payload already sent mails nobody.
    const before = mailsTo('solo@example.test').length
    const payload = {
      plugin: 'testkit',
      to: { email: 'solo@example.test', language: 'zh' as const },
      subject: 'testkit.mail.subject',
      text: 'testkit.mail.text',
      params: { name: 'Li', count: 2 },
      link: null,
      effect: `plugin-mail:test-${user.id}`,
    }
    assert.deepEqual(await pluginMailJob.handle(payload), { sent: true })
    assert.deepEqual(await pluginMailJob.handle(payload), { sent: false })
    const zh = await waitForMail('solo@example.test', (m) => m.subject === '您好 Li')
    assert.include(zh.text, '您有 2 条通知')
    assert.lengthOf(mailsTo('solo@example.test'), before + 1)

    await assert.rejects(() => mail.send({ userId: user.id }, { subject: 'mail.nope', text: 'mail.text' }), /no text/)
    await assert.rejects(
      () => mail.send({ email: 'not an address', language: 'es' }, { subject: 'mail.subject', text: 'mail.text' }),
      /invalid mail recipient/
    )
  })
  test("caseFiles: a form's file read under the core's rule; another reader, a made-up principal or path get nothing", async ({
    client,
    assert,
  }) => {
    await db.from('uploads').delete()
    const ana = await makeUser({ username: 'ana_cf' })
    await makeUser({ username: 'beto_cf' })
    const path = await formFile(ana.id, 'nota.txt', 'hola')
    const reader = async (username: string) =>
      pluginPrincipal((await principalFor(await tokenFor(client, username)))!, 'es')
    const who = await reader('ana_cf')
    const found = await ctx().caseFiles.open(path, who)
    assert.deepInclude(found, { path, name: 'nota.txt', mime: 'text/plain', size: 4 })
    assert.equal(await collect(await found!.read()), 'hola')
    // Staged: its uploader's alone.
    assert.isNull(await ctx().caseFiles.open(path, await reader('beto_cf')))
    // A principal the core did not make (a copy of a real one) is nobody.
    assert.isNull(await ctx().caseFiles.open(path, { ...who }))
    for (const bad of [
      '/data/files/../../etc/passwd',
      `${path}x`,
      '/data/files/00000000-0000-0000-0000-000000000000.txt',
    ]) {
      assert.isNull(await ctx().caseFiles.open(bad, who), bad)
    }
    await db.from('uploads').delete()
  })
})
