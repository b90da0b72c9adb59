import { readFileSync } from 'node:fs'
import { test } from '@japa/runner'

const CORE_PLUGINS = ['documents', 'devices', 'actions', 'exams', 'census', 'fichas']

test.group('health and plugins', () => {
  test('GET /health checks database, queue, storage, sockets, job outbox, limiter and antivirus', async ({
    client,
    assert,
  }) => {
    const response = await client.get('/health')
    response.assertStatus(200)
    const body = response.body()
    assert.equal(body.status, 'ok')
    assert.deepEqual(body.degraded, [])
    assert.sameMembers(Object.keys(body.checks), [
      'database',
      'queue',
      'storage',
      'sockets',
      'outbox',
      'limiter',
      'antivirus',
    ])
    for (const check of Object.values(body.checks) as { ok: boolean; driver: string }[]) {
      assert.isTrue(check.ok)
      assert.isString(check.driver)
    }
    assert.equal(body.checks.database.driver, process.env.DB_CONNECTION === 'mysql' ? 'mysql' : 'better-sqlite3')
  })

  test('GET /api/plugins lists the six plugins, booted', async ({ client, assert }) => {
    const response = await client.get('/api/plugins')
    response.assertStatus(200)
    const plugins = response.body().data as { id: string; version: string; enabled: boolean; state: string }[]
    for (const id of CORE_PLUGINS) {
      const entry = plugins.find((p) => p.id === id)
      assert.exists(entry, `${id} is listed`)
      // The version a plugin declares is its package's.
      const { version } = JSON.parse(
        readFileSync(new URL(`../../../../plugins/${id}/package.json`, import.meta.url), 'utf8')
      )
      assert.deepInclude(entry!, { enabled: true, state: 'booted', version })
    }
  })

  test("the plugins' own tables exist after migration", async ({ assert }) => {
    const { default: db } = await import('@adonisjs/lucid/services/db')
    for (const table of [
      'documents_folders',
      'devices_machines',
      'exams_questions',
      'census_censuses',
      'fichas_fichas',
    ]) {
      assert.isTrue(await db.connection().schema.hasTable(table), table)
    }
  })

  test('a badly encoded path is a 400 with a reason, not a 500', async ({ assert }) => {
    // The framework refuses it before routing, with a plain-text reason.
    for (const path of ['/forms/%E0%A4%A', '/data/%ZZ']) {
      const response = await fetch(`http://${process.env.HOST}:${process.env.PORT}${path}`)
      assert.equal(response.status, 400, path)
      assert.equal(await response.text(), 'Bad Request')
    }
  })

  test('the web app is served for client routes, with an SPA fallback', async ({ client, assert }) => {
    const response = await client.get('/forms/new')
    // npm test builds runtime-web before the suites run.
    response.assertStatus(200)
    assert.include(response.text(), '<div id="root">')
    assert.include(response.header('content-type'), 'text/html')
  })
})
