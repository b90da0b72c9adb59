import { createHash } from 'node:crypto'
import { test } from '@japa/runner'
import { childDatabase, seedChildDatabase } from '../../../../core/server/tests/helpers/child_database.js'
import {
  TRAMITA_BIN,
  freePort,
  startProcess,
  waitForHttp,
  type Started,
} from '../../../../core/server/tests/helpers/processes.js'
import { waitUntil } from '../../../../core/server/tests/helpers/wait.js'
import { DEFAULT_DEMO_PASSWORD } from '../../../../core/server/app/services/seed_service.js'
import { DEVICES_ROUTES } from '../../shared/devices.js'
import { receivedFiles, startPrinter, type TestPrinter } from '../helpers/services.js'
import { onePagePdf } from '../functional/devices_fixtures.js'

/**
 * A real `tramita serve` killed and started again while its agent prints (issue 21 "server restarted
 * mid-job"): the agent finishes the job against the printer on its own, keeps the result, reconnects
 * with back-off, and the server records it once; the printer got the document once.
 */
test.group('tramita agent: the server restarted mid-job', (group) => {
  const db = childDatabase('cli-devices')
  let printer: TestPrinter | undefined
  group.setup(async () => {
    await seedChildDatabase(db)
    return () => db.drop()
  })
  group.each.teardown(async () => {
    await printer?.stop()
  })

  async function call(origin: string, token: string, route: { method: string; path: string }, fields?: object) {
    const body = fields
      ? new URLSearchParams(
          Object.entries({ case: route.method, ...fields }).map(([k, v]) => [
            k,
            typeof v === 'string' ? v : JSON.stringify(v),
          ])
        )
      : undefined
    return (await fetch(`${origin}${route.path}`, { method: route.method, headers: { token }, body })).json()
  }

  test('a job printing when the server dies is done once after the server is back', async ({ assert, cleanup }) => {
    printer = await startPrinter({ name: 'Tramita Reinicio', script: 'sleep 4; exit 0' })
    const port = await freePort()
    const origin = `http://127.0.0.1:${port}`
    const serve = () => startProcess([TRAMITA_BIN, 'serve', '--port', String(port), '--host', '127.0.0.1'], db.env)
    let server: Started = serve()
    cleanup(async () => void (await server.stop('SIGKILL')))
    await waitForHttp(port, server)

    const login = await fetch(`${origin}/data/login`, {
      method: 'PUT',
      body: new URLSearchParams({
        case: 'PUT',
        user: 'admin',
        password: createHash('sha256').update(DEFAULT_DEMO_PASSWORD).digest('hex'),
        side_login: 'admin',
        type_login: 'normal',
      }),
    }).then((r) => r.json())
    const token = login.data.token_new as string
    const made = await call(origin, token, DEVICES_ROUTES.createAgent, { name: 'Archivo' })
    const agent = startProcess([TRAMITA_BIN, 'agent', '--server', origin, '--no-discover', '--printer', printer.uri], {
      TRAMITA_AGENT_TOKEN: made.data.token,
    })
    cleanup(async () => void (await agent.stop('SIGKILL')))
    let machine: { token: string } | undefined
    await waitUntil(
      async () => {
        const rows = (await call(origin, token, DEVICES_ROUTES.machines)).data.machines
        machine = rows.find((m: { availability: string }) => m.availability === 'print only')
        return machine !== undefined
      },
      60_000,
      () => `the agent's printer:\n${agent.output()}`
    )

    const formKey = (await (await fetch(`${origin}/inside/inbox/startable`, { headers: { token } })).json()).data
      .processes[0].key as string
    const upload = new FormData()
    for (const [k, v] of Object.entries({ case: 'POST', data: formKey, field: 'soportes', foldertype: 'files' })) {
      upload.append(k, v)
    }
    upload.append(
      'file',
      new Blob([Buffer.from(await onePagePdf('Reinicio'))], { type: 'application/pdf' }),
      'reinicio.pdf'
    )
    const uploaded = await (
      await fetch(`${origin}/data/form/upload/files`, { method: 'POST', headers: { token }, body: upload })
    ).json()
    const printed = await call(origin, token, DEVICES_ROUTES.print, {
      token: machine!.token,
      files: [uploaded.data[0].path],
    })
    assert.equal(printed.status, 'done', JSON.stringify(printed))
    const job = printed.data.job as string

    // The printer has the job (it takes 4 s): the server dies now, without a goodbye.
    await waitUntil(async () => (await receivedFiles(printer!)).length === 1, 30_000, 'the printer has the job')
    await server.stop('SIGKILL')
    server = serve()
    await waitForHttp(port, server)

    await waitUntil(
      async () =>
        (await db.query<{ status: string }>('select status from devices_jobs where id = ?', [job]))[0]?.status ===
        'done',
      60_000,
      () => `the job done after the restart:\nagent:\n${agent.output()}\nserver:\n${server.output()}`
    )
    assert.match(agent.output(), /disconnected \(1006\); reconnecting/)
    assert.lengthOf(await receivedFiles(printer), 1, 'printed once')
    const agents = await call(origin, token, DEVICES_ROUTES.agents)
    assert.equal(agents.data.agents[0].status, 'ACTIVE')
  }).timeout(180_000)
})
