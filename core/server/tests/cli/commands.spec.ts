import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from '@japa/runner'
import { prehash } from '#lib/password'
import {
  NOT_ABOUT_THE_DATABASE,
  REPO_ROOT,
  SERVER_ROOT,
  TRAMITA_BIN,
  freePort,
  runCli,
  startProcess,
  waitForHttp,
} from '#tests/helpers/processes'
import { childDatabase } from '#tests/helpers/child_database'
import { waitUntil } from '#tests/helpers/wait'

test.group('tramita CLI', () => {
  test('--help lists the commands and --version prints the version', async ({ assert }) => {
    const help = await runCli(['--help'])
    assert.equal(help.code, 0)
    for (const command of ['serve', 'worker', 'migrate', 'seed', 'plugins', 'make:plugin']) {
      assert.include(help.output, command)
    }
    const version = await runCli(['--version'])
    assert.equal(version.code, 0)
    assert.match(version.output.trim(), /^\d+\.\d+\.\d+$/)
  }).skip(...NOT_ABOUT_THE_DATABASE)

  test('migrate creates every table once; seed --demo creates the demo people', async ({ assert, cleanup }) => {
    const db = childDatabase('cli-migrate')
    cleanup(() => db.drop())
    const first = await runCli(['migrate'], db.env)
    assert.equal(first.code, 0, first.output)
    assert.include(first.output, 'migrated')
    assert.include(first.output, '0003_users')
    assert.include(first.output, 'documents_tables')
    const second = await runCli(['migrate'], db.env)
    assert.equal(second.code, 0, second.output)
    assert.include(second.output, 'Already up to date')

    const seeded = await runCli(['seed', '--demo'], db.env)
    assert.equal(seeded.code, 0, seeded.output)
    const users = await db.query<{ id: number; username: string }>('select id, username from users order by id')
    assert.deepEqual(
      users.map((u) => u.username),
      ['admin', 'supervisor', 'teacher', 'student']
    )
    assert.equal(users[0].id, 1)
    const roles = await db.query<{ name: string }>(
      'select r.name from roles r join user_roles ur on ur.role_id = r.id where ur.user_id = 1'
    )
    assert.deepEqual(
      roles.map((r) => r.name),
      ['superuser']
    )
    const forms = await db.query<{ key: string; name: string }>('select f.key, f.name from forms f')
    assert.deepEqual(
      forms.map((f) => f.name),
      ['Solicitud de permiso']
    )
    assert.include(seeded.output, `/forms/new?data=${forms[0].key}`)
    assert.include(seeded.output, `/consult?data=${forms[0].key}`)
    const versions = await db.query<{ n: number }>(
      'select count(*) as n from form_versions where published_at is not null'
    )
    assert.equal(Number(versions[0].n), 1)
    const hashes = await db.query<{ password_hash: string }>('select password_hash from users')
    for (const h of hashes) assert.match(h.password_hash, /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/)

    const again = await runCli(['seed', '--demo'], db.env)
    assert.equal(again.code, 0)
    assert.include(again.output, 'skipped')
  })

  test('migrate run side by side: on two databases of one server, and twice on one (the second waits)', async ({
    assert,
    cleanup,
  }) => {
    const one = childDatabase('cli-migrate-one')
    const other = childDatabase('cli-migrate-other')
    cleanup(() => one.drop())
    cleanup(() => other.drop())
    const runs = await Promise.all([
      runCli(['migrate'], one.env),
      runCli(['migrate'], other.env),
      runCli(['migrate'], one.env),
    ])
    for (const run of runs) assert.equal(run.code, 0, run.output)
    // The two on one database: one migrated, the other found nothing left to do.
    assert.equal(runs.filter((r) => r.output.includes('Already up to date')).length, 1)
    for (const db of [one, other]) {
      const [row] = await db.query<{ n: number }>(
        "select count(*) as n from adonis_schema where name like '%0003_users'"
      )
      assert.equal(Number(row!.n), 1)
    }
  }).skip(process.env.DB_CONNECTION !== 'mysql', 'SQLite has one writer and no migration lock')

  test('failures exit non-zero with a one-line reason', async ({ assert }) => {
    const worker = await runCli(['worker'], { REDIS_URL: '' })
    assert.equal(worker.code, 1)
    assert.match(worker.output.trim(), /^tramita: the worker needs REDIS_URL/)
    assert.lengthOf(worker.output.trim().split('\n'), 1)

    const badEnv = await runCli(['migrate'], { DB_CONNECTION: 'oracle' })
    assert.equal(badEnv.code, 1)
    assert.include(badEnv.output, 'DB_CONNECTION')

    const badName = await runCli(['make:plugin', 'Bad Name'])
    assert.equal(badName.code, 1)
    assert.include(badName.output, 'invalid plugin name')

    const rollback = await runCli(['migrate', '--rollback'])
    assert.equal(rollback.code, 1)
    assert.include(rollback.output, '--force')
  }).skip(...NOT_ABOUT_THE_DATABASE)

  test('plugins lists the six plugins as booted', async ({ assert, cleanup }) => {
    const db = childDatabase('cli-plugins')
    cleanup(() => db.drop())
    const result = await runCli(['plugins', '--json'], db.env)
    assert.equal(result.code, 0, result.output)
    const list = JSON.parse(result.output.slice(result.output.indexOf('[')))
    assert.sameMembers(
      list.map((p: { id: string }) => p.id),
      ['documents', 'devices', 'actions', 'exams', 'census', 'fichas']
    )
    assert.isTrue(list.every((p: { state: string }) => p.state === 'booted'))
  }).skip(...NOT_ABOUT_THE_DATABASE)

  test('make:plugin scaffolds a plugin that passes its own test', async ({ assert, cleanup }) => {
    // Named tmp-*, as every throwaway file a test writes into the repository: the type check, ESLint
    // and the unit suite's tsconfig checks leave it out, so a run of them beside this test cannot list
    // the plugin and then find it gone (tsc's TS6053 failed the CI at 4270265).
    const id = `tmp-scaffold-${process.pid}`
    const dir = join(REPO_ROOT, 'plugins', id)
    // The plugin is enabled in a copy of the list (TRAMITA_PLUGINS_FILE): processes of the other CLI
    // suite, running beside this one, keep reading the repository's six.
    const listDir = mkdtempSync(join(tmpdir(), 'tramita-plugins-file-'))
    const listFile = join(listDir, 'tramita.plugins.json')
    const repoList = readFileSync(join(REPO_ROOT, 'tramita.plugins.json'), 'utf8')
    writeFileSync(listFile, repoList)
    const listEnv = { TRAMITA_PLUGINS_FILE: listFile }
    cleanup(() => {
      rmSync(dir, { recursive: true, force: true })
      rmSync(listDir, { recursive: true, force: true })
    })

    const made = await runCli(['make:plugin', id], listEnv)
    assert.equal(made.code, 0, made.output)
    assert.include(made.output, listFile)
    assert.isTrue(existsSync(join(dir, 'server', 'index.ts')))
    assert.include(JSON.parse(readFileSync(listFile, 'utf8')).enabled, id)
    assert.equal(
      readFileSync(join(REPO_ROOT, 'tramita.plugins.json'), 'utf8'),
      repoList,
      'the repository list is untouched'
    )
    const again = await runCli(['make:plugin', id], listEnv)
    assert.equal(again.code, 1)
    assert.include(again.output, 'already exists')

    // Its command, dispatched by the CLI after the app has loaded the plugin.
    const db0 = childDatabase('cli-plugin-cmd')
    cleanup(() => db0.drop())
    const hello = await runCli([`${id}:hello`, 'Ana', '--loud'], { ...db0.env, ...listEnv })
    assert.equal(hello.code, 0, hello.output)
    assert.include(hello.output, `HELLO ANA FROM ${id.toUpperCase()}`)
    const unknown = await runCli([`${id}:nope`], { ...db0.env, ...listEnv })
    assert.equal(unknown.code, 1)
    assert.include(unknown.output, `${id}:hello`)

    // Its own test, run by the functional suite's runner against only that plugin's files.
    const db = childDatabase('cli-scaffold')
    cleanup(() => db.drop())
    const run = startProcess(
      ['--import', '@tramita/ts-run', 'bin/test.ts', 'functional', '--files', `plugins/${id}/tests/plugin.spec.ts`],
      { ...db.env, ...listEnv, NODE_ENV: 'test', TRAMITA_TEST_SUMMARY: join(db.dataDir, 'summary.json') },
      SERVER_ROOT
    )
    const code = await new Promise<number | null>((r) => run.child.once('exit', r))
    assert.equal(code, 0, run.output())
    const summary = JSON.parse(readFileSync(join(db.dataDir, 'summary.json'), 'utf8'))
    assert.equal(summary.passed, 2)
    assert.equal(summary.failed, 0)
  }).skip(...NOT_ABOUT_THE_DATABASE)
})

test.group('tramita serve', () => {
  test('--migrate --seed-demo starts on a new database and reports healthy services', async ({ assert, cleanup }) => {
    const db = childDatabase('cli-serve')
    cleanup(() => db.drop())
    const port = await freePort()
    const server = startProcess(
      [TRAMITA_BIN, 'serve', '--migrate', '--seed-demo', '--port', String(port), '--host', '127.0.0.1'],
      db.env,
      SERVER_ROOT
    )
    cleanup(async () => void (await server.stop()))
    await waitForHttp(port, server)
    // It serves at once and says degraded while its Redis connections are still being made (a
    // balancer then waits): healthy once they are.
    let health: any
    await waitUntil(
      async () => {
        health = await (await fetch(`http://127.0.0.1:${port}/health`)).json()
        return health.status === 'ok'
      },
      15_000,
      () => `a healthy node: ${JSON.stringify(health)}`
    )
    assert.equal(health.checks.database.driver, process.env.DB_CONNECTION === 'mysql' ? 'mysql' : 'better-sqlite3')
    assert.equal(health.checks.queue.driver, process.env.REDIS_URL ? 'redis' : 'memory')
    assert.equal(health.checks.sockets.driver, process.env.REDIS_URL ? 'redis' : 'memory')
    const info = (await (await fetch(`http://127.0.0.1:${port}/data/config/infocompany`)).json()) as any
    assert.deepEqual(info, {
      status: 'done',
      data: {
        company: 'Institución Educativa Tramita',
        url_img: '',
        login_background: '',
        login_panel: '',
        principal_host: null,
      },
    })
    // The demo administrator signs in with the README's password.
    const signIn = await fetch(`http://127.0.0.1:${port}/data/login`, {
      method: 'PUT',
      body: new URLSearchParams({ case: 'PUT', user: 'admin', password: prehash('Tramita#2026') }),
    })
    const answer = (await signIn.json()) as any
    assert.equal(answer.status, 'done', JSON.stringify(answer))
    assert.isString(answer.data.token_new)
    const users = await db.query<{ username: string }>('select username from users where id = 1')
    assert.equal(users[0]?.username, 'admin')
  })
})
