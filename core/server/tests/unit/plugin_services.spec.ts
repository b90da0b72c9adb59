import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from '@japa/runner'
import { definePlugin, type PluginRoute, type PluginServices } from '@tramita/plugin-api'
import { PluginHost } from '#plugins/host'
import { CORE_TABLES, insertedIds, scopedTableName, tablePrefix } from '#plugins/services/db'
import { contentDisposition, isFileAnswer, parseRange } from '#plugins/services/file_answer'
import { checkRoute, routePath, RouteTable } from '#plugins/services/http'
import { enqueueSchedules, periodJobId, pluginJobs, type Schedule } from '#plugins/services/jobs'
import { folded } from '#plugins/services/people'
import { NotReadyError, whenReady } from '#plugins/services/ready'
import { isPluginKey, pluginObjectKey } from '#plugins/services/storage'

const route = (over: Partial<PluginRoute> = {}): PluginRoute => ({
  method: 'GET',
  path: 'items',
  auth: 'signed-in',
  handle: async () => null,
  ...over,
})

test.group('plugin services: routes', () => {
  test('a route lives under the plugin namespace or a spec path, nowhere else', ({ assert }) => {
    assert.equal(routePath('docs', 'folders/:id'), '/api/docs/folders/:id')
    assert.equal(routePath('docs', '/api/docs/folders'), '/api/docs/folders')
    assert.equal(routePath('docs', '/data/documents/verify/document/public'), '/data/documents/verify/document/public')
    assert.equal(routePath('docs', '/getPublicFile/:token'), '/getPublicFile/:token')
    // Spec 001 §7: the retention confirmation's card and, as it is, its PUT.
    assert.equal(routePath('docs', '/confirmretention/document/:code'), '/confirmretention/document/:code')
    assert.equal(routePath('docs', '/confirmretention'), '/confirmretention')
    // Spec 000 §7: the signing flow's template PDF.
    assert.equal(routePath('docs', '/static/plantillas/plantilla_firma.pdf'), '/static/plantillas/plantilla_firma.pdf')
    assert.throws(() => routePath('plugins', 'list'), /is the core's/)
    for (const bad of [
      '/api/other/x',
      '/api/docsx/a',
      '/health',
      '/api/plugins',
      '/api/docs/../plugins',
      '/data/a b',
      '/confirmretentionx',
      '/static/other.js',
      '',
    ]) {
      assert.throws(() => routePath('docs', bad), /plugin "docs"/, bad)
    }
  })

  test('a declaration is checked: method, auth, limits', ({ assert }) => {
    assert.doesNotThrow(() => checkRoute('docs', route({ auth: { roles: ['teacher'] }, maxBytes: 1024 })))
    const bad: Partial<PluginRoute>[] = [
      { method: 'PATCH' as 'GET' },
      { auth: 'anyone' as 'public' },
      { auth: { roles: [] } },
      { rateLimit: { per: 'user', max: 5, windowSeconds: 60 }, auth: 'public' },
      { rateLimit: { per: 'ip', max: 0, windowSeconds: 60 } },
      { rateLimit: { per: 'ip', max: 5, windowSeconds: 1.5 } },
      { maxBytes: 0 },
      { handle: undefined as unknown as PluginRoute['handle'] },
    ]
    for (const over of bad) assert.throws(() => checkRoute('docs', route(over)), /plugin "docs"/, JSON.stringify(over))
  })

  test('the table refuses a route declared twice, and any declared after mounting', ({ assert }) => {
    const table = new RouteTable()
    const http = table.httpFor('docs', 'https://tramita.example')
    http.route(route())
    http.route(route({ method: 'POST' }))
    table.httpFor('other', 'https://tramita.example').route(route({ path: '/data/shared' }))
    assert.throws(() => http.route(route({ path: '/data/shared' })), /already declared by "other"/)
    assert.throws(() => http.route(route()), /already declared by "docs"/)
    assert.equal(table.find('POST', '/api/docs/items')?.pluginId, 'docs')
    assert.lengthOf(table.of('docs'), 2)
    assert.equal(http.url('/static/public/abc'), 'https://tramita.example/static/public/abc')
    table.markMounted()
    assert.throws(() => http.route(route({ path: 'late' })), /declared in register/)
  })
})

test.group('plugin services: database names', () => {
  test("a plugin's table name gets its prefix; core tables and other plugins' are refused", ({ assert }) => {
    const ids = ['documents', 'doc', 'exam-room']
    assert.equal(scopedTableName('documents', 'folders', ids), 'documents_folders')
    assert.equal(scopedTableName('documents', 'documents_folders', ids), 'documents_folders')
    assert.equal(scopedTableName('exam-room', 'seats', ids), 'exam_room_seats')
    assert.equal(tablePrefix('exam-room'), 'exam_room_')
    assert.throws(() => scopedTableName('documents', 'users', ids), /core table/)
    assert.throws(() => scopedTableName('documents', 'doc_notes', ids), /belongs to plugin "doc"/)
    assert.throws(() => scopedTableName('doc', 'documents_folders', ids), /belongs to plugin "documents"/)
    for (const bad of ['Folders', 'folders;', 'a.b', '`x`', '1x', '']) {
      assert.throws(() => scopedTableName('documents', bad, ids), /invalid table name/, bad)
    }
  })

  test("the list of core tables holds every table the core's migrations create", ({ assert }) => {
    const dir = join(import.meta.dirname, '..', '..', 'database', 'migrations')
    const created = readdirSync(dir).flatMap((file) =>
      [...readFileSync(join(dir, file), 'utf8').matchAll(/createTable\('([a-z_]+)'/g)].map((m) => m[1]!)
    )
    assert.isAbove(created.length, 20)
    assert.deepEqual(
      created.filter((name) => !CORE_TABLES.has(name)),
      []
    )
  })

  test('insert ids: one per row on SQLite (consecutive up to the last), the first on MySQL', ({ assert }) => {
    assert.deepEqual(insertedIds([12], 3, 'sqlite'), [10, 11, 12])
    assert.deepEqual(insertedIds([7], 1, 'sqlite'), [7])
    assert.deepEqual(insertedIds([40], 3, 'mysql'), [40])
    assert.deepEqual(insertedIds(5, 1, 'mysql'), [5])
    assert.deepEqual(insertedIds([], 1, 'sqlite'), [])
  })
})

test.group('plugin services: files, keys, schedules, search, readiness', () => {
  test('HTTP ranges: one range, suffixes, open ends; outside the file is unsatisfiable', ({ assert }) => {
    assert.deepEqual(parseRange('bytes=0-9', 100), { start: 0, end: 9 })
    assert.deepEqual(parseRange('bytes=90-', 100), { start: 90, end: 99 })
    assert.deepEqual(parseRange('bytes=-10', 100), { start: 90, end: 99 })
    assert.deepEqual(parseRange('bytes=50-500', 100), { start: 50, end: 99 })
    assert.deepEqual(parseRange('bytes=-500', 100), { start: 0, end: 99 })
    assert.equal(parseRange('bytes=100-', 100), 'unsatisfiable')
    assert.equal(parseRange('bytes=9-3', 100), 'unsatisfiable')
    assert.equal(parseRange('bytes=-0', 100), 'unsatisfiable')
    for (const none of [undefined, '', 'bytes=-', 'bytes=0-1,5-6', 'items=0-1', 'bytes=a-b']) {
      assert.isNull(parseRange(none, 100), String(none))
    }
  })

  test('file answers and their disposition', ({ assert }) => {
    assert.isTrue(isFileAnswer({ kind: 'file', source: { key: 'k' } }))
    assert.isFalse(isFileAnswer({ kind: 'folder' }))
    assert.isFalse(isFileAnswer(null))
    assert.equal(
      contentDisposition('attachment', 'año "final"%.pdf'),
      `attachment; filename="a_o _final__.pdf"; filename*=UTF-8''${encodeURIComponent('año "final"%.pdf')}`
    )
  })

  test("storage keys are made by the core under the plugin's folder; others are not its keys", ({ assert }) => {
    const key = pluginObjectKey('docs', '.PDF', new Date('2026-03-05T10:00:00Z'))
    assert.match(key, /^plugins\/docs\/2026\/03\/[0-9a-f-]{36}\.pdf$/)
    assert.isTrue(isPluginKey('docs', key))
    assert.isFalse(isPluginKey('other', key))
    assert.isFalse(isPluginKey('docs', 'plugins/docs/../../files/2026/03/x.pdf'))
    assert.isFalse(isPluginKey('docs', 'files/2026/03/3f0e8c4c-9a57-4a43-8a8e-2b3f1c1d2e4f.pdf'))
    assert.isFalse(isPluginKey('docs', 42))
    assert.throws(() => pluginObjectKey('docs', 'p/h/p'), /invalid file extension/)
  })

  test('a period job id changes once per period', ({ assert }) => {
    const at = new Date('2026-11-25T22:59:59Z')
    assert.equal(periodJobId('docs:purge', 'hourly', at), 'docs:purge:2026-11-25T22')
    assert.equal(periodJobId('docs:purge', 'daily', at), 'docs:purge:2026-11-25')
    assert.equal(periodJobId('docs:purge', 'daily', new Date('2026-11-25T00:00:00Z')), 'docs:purge:2026-11-25')
  })

  test("schedules: declared in register only, enqueued per period for live plugins' jobs", async ({ assert }) => {
    const schedules: Schedule[] = []
    let declaring = true
    const queued: [string, string | undefined][] = []
    const queue = {
      enqueue: async (name: string, _payload: unknown, opts?: { jobId?: string }) => {
        if (name === 'gone:sweep') throw new Error('unknown job')
        queued.push([name, opts?.jobId])
        return { id: opts?.jobId ?? 'x' }
      },
    }
    const jobs = pluginJobs(
      'docs',
      () => queue,
      schedules,
      () => declaring
    )
    jobs.every('daily', 'purge')
    jobs.every('daily', 'docs:purge')
    jobs.every('hourly', 'thumbs')
    assert.throws(() => jobs.every('weekly' as 'daily', 'x'), /unknown period/)
    pluginJobs(
      'off',
      () => queue,
      schedules,
      () => true
    ).every('hourly', 'never')
    pluginJobs(
      'gone',
      () => queue,
      schedules,
      () => true
    ).every('hourly', 'sweep')
    declaring = false
    assert.throws(() => jobs.every('daily', 'late'), /declared in register/)
    const warnings: string[] = []
    const at = new Date('2026-11-25T08:30:00Z')
    await enqueueSchedules(
      queue,
      schedules,
      (id) => id !== 'off',
      (m) => warnings.push(m),
      at
    )
    assert.deepEqual(queued, [
      ['docs:purge', 'docs:purge:2026-11-25'],
      ['docs:thumbs', 'docs:thumbs:2026-11-25T08'],
    ])
    assert.deepEqual(warnings, ['gone:sweep not queued: unknown job'])
  })

  test('search folds case and accents', ({ assert }) => {
    assert.equal(folded('JOSÉ Pérez Ñandú'), 'jose perez nandu')
  })

  test('guarded services throw "not ready" until boot; the host marks a plugin that used one in register failed', async ({
    assert,
  }) => {
    let ready = false
    const service = whenReady('docs', 'db', () => ready, { dialect: 'sqlite' as const, table: (name: string) => name })
    assert.equal(service.dialect, 'sqlite')
    assert.throws(() => service.table('x'), NotReadyError)
    ready = true
    assert.equal(service.table('x'), 'x')

    const eager = definePlugin({
      id: 'eager',
      version: '1.0.0',
      register: (ctx) => void ctx.db.table('rows'),
    })
    const patient = definePlugin({
      id: 'patient',
      version: '1.0.0',
      boot: (ctx) => void ctx.db.table('rows'),
    })
    const host = new PluginHost(
      [eager, patient].map((d) => ({ id: d.id, definition: d })),
      {
        logger: { info() {}, warn() {}, error() {} },
        registerJob() {},
        enqueue: async () => ({ id: 'x' }),
        publish: async () => {},
        config: {},
        services: {
          forPlugin: (id, _definition, isReady) =>
            ({ db: whenReady(id, 'db', isReady, { table: (name: string) => name }) }) as unknown as PluginServices,
        },
      }
    )
    await host.register()
    await host.boot()
    const status = host.status()
    assert.deepInclude(
      status.find((s) => s.id === 'eager')!,
      { state: 'failed' }
    )
    assert.include(status.find((s) => s.id === 'eager')!.error!, 'ctx.db.table is not ready in register')
    assert.deepInclude(
      status.find((s) => s.id === 'patient')!,
      { state: 'booted' }
    )
  })
})
