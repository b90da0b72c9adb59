import { test } from '@japa/runner'
import { definePlugin, type PluginDefinition, type PluginServices } from '@tramita/plugin-api'
import { PluginHost } from '#plugins/host'

function hostFor(definitions: { id: string; definition?: PluginDefinition; error?: string }[]) {
  const jobs: string[] = []
  const errors: string[] = []
  const host = new PluginHost(definitions, {
    logger: { info() {}, warn() {}, error: (m: string | object) => errors.push(String(m)) },
    registerJob: (job) => jobs.push(job.name),
    enqueue: async () => ({ id: 'x' }),
    publish: async () => {},
    config: {},
    // The host only spreads the services into each context; their own tests are plugin_services*.spec.ts.
    services: { forPlugin: () => ({}) as PluginServices },
  })
  return { host, jobs, errors }
}

test.group('plugin host', () => {
  test('a plugin that throws at boot is reported by name; the others boot', async ({ assert }) => {
    const booted: string[] = []
    const ok = definePlugin({ id: 'alpha', version: '1.0.0', boot: () => void booted.push('alpha') })
    const broken = definePlugin({
      id: 'broken',
      version: '1.0.0',
      boot: () => {
        throw new Error('cannot reach the scanner agent')
      },
    })
    const after = definePlugin({ id: 'omega', version: '2.1.0', boot: async () => void booted.push('omega') })
    const { host, errors } = hostFor([ok, broken, after].map((d) => ({ id: d.id, definition: d })))
    await host.register()
    await host.boot()
    assert.deepEqual(booted, ['alpha', 'omega'])
    const status = host.status()
    assert.deepEqual(
      status.find((s) => s.id === 'broken'),
      {
        id: 'broken',
        version: '1.0.0',
        enabled: false,
        state: 'failed',
        error: 'boot failed: cannot reach the scanner agent',
      }
    )
    assert.deepInclude(
      status.find((s) => s.id === 'omega')!,
      { enabled: true, state: 'booted' }
    )
    assert.isTrue(errors.some((e) => e.includes('"broken"') && e.includes('scanner agent')))
  })

  test('a plugin that could not be imported is listed as failed with the reason', async ({ assert }) => {
    const { host, errors } = hostFor([{ id: 'ghost', error: 'plugins/ghost/server/index.ts not found' }])
    await host.register()
    await host.boot()
    assert.deepEqual(host.status(), [
      { id: 'ghost', version: null, enabled: false, state: 'failed', error: 'plugins/ghost/server/index.ts not found' },
    ])
    assert.lengthOf(errors, 1)
  })

  test("jobs are registered under the plugin's id; a failed register skips boot", async ({ assert }) => {
    const booted: string[] = []
    const withJobs = definePlugin({
      id: 'docs',
      version: '0.1.0',
      jobs: [
        { name: 'ocr', handle: async () => null },
        { name: 'docs:thumbs', handle: async () => null },
      ],
    })
    const badRegister = definePlugin({
      id: 'bad',
      version: '0.1.0',
      register: () => {
        throw new Error('missing setting')
      },
      boot: () => void booted.push('bad'),
    })
    const { host, jobs } = hostFor([withJobs, badRegister].map((d) => ({ id: d.id, definition: d })))
    await host.register()
    await host.boot()
    assert.deepEqual(jobs, ['docs:ocr', 'docs:thumbs'])
    assert.deepEqual(booted, [])
    assert.equal(host.status().find((s) => s.id === 'bad')?.error, 'register failed: missing setting')
  })

  test('definePlugin refuses bad ids, versions and duplicate jobs', ({ assert }) => {
    assert.throws(() => definePlugin({ id: 'Bad Id', version: '1.0.0' }), /Invalid plugin id/)
    assert.throws(() => definePlugin({ id: 'ok', version: 'one' }), /invalid version/)
    const job = { name: 'x', handle: async () => null }
    assert.throws(() => definePlugin({ id: 'ok', version: '1.0.0', jobs: [job, job] }), /twice/)
  })

  test('nav entries: checked when declared, offered by role, none from a failed plugin', async ({ assert }) => {
    const web = 'web/index.ts'
    for (const path of ['documents', '//evil.example', '/a?b=1', 'https://x.test/a', '/A']) {
      assert.throws(() => definePlugin({ id: 'ok', version: '1.0.0', web, nav: [{ path, label: 'x.y' }] }), /nav entry/)
    }
    assert.throws(
      () => definePlugin({ id: 'ok', version: '1.0.0', web, nav: [{ path: '/ok', label: '' }] }),
      /nav entry/
    )
    // A nav entry leads to one of the plugin's screens: none without them.
    assert.throws(
      () => definePlugin({ id: 'ok', version: '1.0.0', nav: [{ path: '/ok', label: 'x.y' }] }),
      /no web screens/
    )
    const docs = definePlugin({ id: 'docs', version: '1.0.0', web, nav: [{ path: '/docs', label: 'home.nav.docs' }] })
    const admin = definePlugin({
      id: 'machines',
      version: '1.0.0',
      web,
      nav: [{ path: '/machines', label: 'home.nav.machines', roles: ['supervisor'] }],
    })
    const broken = definePlugin({
      id: 'broken',
      version: '1.0.0',
      web,
      nav: [{ path: '/broken', label: 'home.nav.broken' }],
      register: () => {
        throw new Error('no')
      },
    })
    const { host } = hostFor([docs, admin, broken].map((d) => ({ id: d.id, definition: d })))
    await host.register()
    const paths = (roles: string[]) => host.navigation(roles).map((n) => n.path)
    assert.deepEqual(paths(['student']), ['/docs'])
    assert.deepEqual(paths(['supervisor']), ['/docs', '/machines'])
    assert.deepEqual(paths(['superuser']), ['/docs', '/machines'])
    assert.deepEqual(host.navigation(['student'])[0], { plugin: 'docs', path: '/docs', label: 'home.nav.docs' })
  })
})
