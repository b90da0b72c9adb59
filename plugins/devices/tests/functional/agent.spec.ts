import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { DEVICES_ROUTES, type MachineOption, type MachineRow } from '../../shared/devices.js'
import { jobAttributes, receivedFiles, saneTestEnv, startPrinter, type TestPrinter } from '../helpers/services.js'
import {
  agentIs,
  agents,
  attachSockets,
  call,
  formFile,
  machines,
  newAgent,
  onePagePdf,
  person,
  personSocket,
  resetDevices,
  scanForm,
  startAgent,
  waitUntil,
  type AgentProcess,
  type Client,
  type Person,
} from './devices_fixtures.js'

/**
 * Issue 21 items 1 and 2: a real agent process (`tramita agent`) against this test server, CUPS's
 * ippeveprinter as its printer and SANE's test backend as its scanner.
 */

async function assign(client: Client, admin: Person, machine: MachineRow, people: number[]) {
  const res = await call(client, DEVICES_ROUTES.updateMachine, admin, { people }, { id: machine.id })
  res.assertStatus(200)
}

/** An agent connected with a printer and the test scanner, both assigned to `user`. */
async function connected(client: Client, printer: TestPrinter, user: Person, env: NodeJS.ProcessEnv) {
  const admin = await person(client, 'admin_dev', 'superuser')
  const made = await newAgent(client, admin, 'Recepción')
  const agent = startAgent(made.token, { printers: [printer.uri], scanners: ['test:0'] }, env)
  await agentIs(client, admin, made.agent.id, 'ACTIVE', 2)
  const rows = await machines(client, admin)
  for (const row of rows) await assign(client, admin, row, [user.id])
  const printerRow = rows.find((m) => m.availability === 'print only')!
  const scannerRow = rows.find((m) => m.availability === 'scan only')!
  return { admin, made, agent, printerRow, scannerRow }
}

test.group('devices: an agent, its machines, printing and scanning', (group) => {
  let printer: TestPrinter
  let sane: Awaited<ReturnType<typeof saneTestEnv>>
  const running: AgentProcess[] = []
  group.setup(async () => {
    await attachSockets()
  })
  group.each.setup(async () => {
    await resetDevices()
    sane = await saneTestEnv()
    return async () => {
      for (const agent of running.splice(0)) await agent.stop('SIGKILL')
      await printer?.stop()
      await sane.remove()
    }
  })
  group.each.timeout(120_000)

  test('an agent reports its machines; their people print and scan through it', async ({ client, assert }) => {
    printer = await startPrinter({ name: 'Tramita Recepcion' })
    const ana = await person(client, 'ana_dev', 'teacher')
    const beto = await person(client, 'beto_dev', 'teacher')
    const { admin, made, agent, printerRow, scannerRow } = await connected(client, printer, ana, sane.env)
    running.push(agent)
    assert.equal(made.agent.token_hint, made.token.slice(0, 6))
    assert.equal((await agents(client, admin))[0]!.machines, 2)
    assert.include(printerRow, { ip: '127.0.0.1', brand: 'Tramita' })

    // The forms' picker: Ana's machines; none for Beto.
    const mine = (await call(client, DEVICES_ROUTES.allMachines, ana)).body().data.machines as MachineOption[]
    assert.sameMembers(
      mine.map((m) => m.availability),
      ['print only', 'scan only']
    )
    assert.lengthOf((await call(client, DEVICES_ROUTES.allMachines, beto)).body().data.machines, 0)

    const socket = await personSocket(ana)
    try {
      const form = await scanForm()
      const path = await formFile(client, ana, form.key, await onePagePdf('Acta de entrega'), 'acta.pdf')
      const printed = await call(client, DEVICES_ROUTES.print, ana, {
        config_printer: { paper: 'letter', both_sides: true, color: false },
        token: printerRow.token,
        cant: '2',
        files: [path],
        token_form: 'acta$$$r1$$$print',
      })
      assert.equal(printed.body().status, 'done', printed.body().message)
      const job = printed.body().data.job as string
      await waitUntil(() => socket.of('print_forms').some((e) => e.status === 'done'), 60_000, 'the print is done')
      const events = socket.of('print_forms').filter((e) => e.data.job === job)
      assert.deepEqual(
        events.map((e) => e.status),
        ['sent', 'done']
      )
      assert.equal(events[1].message, 'Impresión terminada correctamente.')
      const files = await receivedFiles(printer)
      assert.lengthOf(files, 1)
      assert.equal(files[0]!.name, `tramita-${job}-0`)
      const attributes = await jobAttributes(printer, files[0]!.jobId)
      assert.equal(attributes.copies, '2')
      assert.equal(attributes.sides, 'two-sided-long-edge')
      assert.equal(attributes['print-color-mode'], 'monochrome')
      assert.lengthOf(await db.from('devices_job_files').where('job_id', job), 0, 'the copy to print is gone')

      // Beto may not use Ana's printer: it reads as no printer at all.
      const refused = await call(client, DEVICES_ROUTES.print, beto, { token: printerRow.token, files: [path] })
      refused.assertStatus(404)

      const scanned = await call(client, DEVICES_ROUTES.scan, ana, {
        config_printer: {
          duplex: false,
          color: false,
          dpi: 75,
          height: 22,
          width: 28,
          inputSource: 'Platen',
          ocr: false,
        },
        token_machine: scannerRow.token,
        token_form: 'escaneo$$$k2$$$front',
        data: form.key,
      })
      assert.equal(scanned.body().status, 'done', scanned.body().message)
      await waitUntil(() => socket.of('scanforms_upload').length > 0, 60_000, 'the scan arrives')
      const arrived = socket.of('scanforms_upload')[0]
      assert.include(arrived, { token_form: 'escaneo$$$k2$$$front', status: 'good', ext: 'pdf' })
      assert.match(arrived.path, /^\/data\/files\/[0-9a-f-]{36}\.pdf$/)
      const bytes = await client.get(arrived.path).header('token', ana.token)
      bytes.assertStatus(200)
      assert.equal(
        Buffer.from(bytes.body() as Buffer)
          .subarray(0, 5)
          .toString(),
        '%PDF-'
      )
      const upload = await db.from('uploads').where('path', arrived.path).first()
      assert.include(upload, { owner_user_id: ana.id, field: 'escaneo', form_id: form.formId, status: 'staged' })
      assert.equal((await client.get(arrived.path).header('token', beto.token)).status(), 403)
    } finally {
      socket.close()
    }
  })

  test('a scan asked with ocr reaches its field as the OCR engine’s searchable PDF, its page billed once', async ({
    client,
    assert,
  }) => {
    printer = await startPrinter({ name: 'Tramita OCR' })
    const ana = await person(client, 'ana_ocr_scan', 'teacher')
    const { agent, scannerRow } = await connected(client, printer, ana, sane.env)
    running.push(agent)
    const socket = await personSocket(ana)
    try {
      const form = await scanForm()
      const scanned = await call(client, DEVICES_ROUTES.scan, ana, {
        config_printer: { color: false, dpi: 75, ocr: true },
        token_machine: scannerRow.token,
        token_form: 'escaneo$$$ocr1$$$front',
        data: form.key,
      })
      const job = scanned.body().data.job as string
      await waitUntil(() => socket.of('scanforms_upload').length > 0, 120_000, 'the OCR’d scan arrives')
      const arrived = socket.of('scanforms_upload')[0]
      assert.include(arrived, { status: 'good', ext: 'pdf', token_form: 'escaneo$$$ocr1$$$front' })
      const bytes = Buffer.from((await client.get(arrived.path).header('token', ana.token)).body() as Buffer)
      assert.include(bytes.toString('latin1'), 'ocrmypdf', 'made by the documents plugin’s OCR engine')
      assert.include(await db.from('devices_jobs').where('id', job).first(), { status: 'done' })
      const billed = await db.from('usage_events').where('plugin', 'documents').select('key')
      assert.deepEqual(
        billed.map((row) => row.key),
        [`scan:${job}:p1`]
      )
      assert.lengthOf(await db.from('uploads').where('owner_user_id', ana.id), 1, 'one file staged for the field')
    } finally {
      socket.close()
    }
  })

  test('an agent killed while a job prints finishes it after its restart, and the printer gets it once', async ({
    client,
    assert,
  }) => {
    // A printer that takes 4 s per job: the agent is killed while it waits for the job to end.
    printer = await startPrinter({ name: 'Tramita Lenta', script: 'sleep 4; exit 0' })
    const ana = await person(client, 'ana_kill', 'teacher')
    const first = await connected(client, printer, ana, sane.env)
    running.push(first.agent)
    const form = await scanForm()
    const path = await formFile(client, ana, form.key, await onePagePdf('Una sola vez'), 'unica.pdf')
    const printed = await call(client, DEVICES_ROUTES.print, ana, { token: first.printerRow.token, files: [path] })
    const job = printed.body().data.job as string
    await waitUntil(async () => (await receivedFiles(printer)).length === 1, 30_000, 'the printer has the job')
    await first.agent.stop('SIGKILL')
    await agentIs(client, first.admin, first.made.agent.id, 'INACTIVE')

    const second = startAgent(first.made.token, { printers: [printer.uri], scanners: ['test:0'] }, sane.env)
    running.push(second)
    await waitUntil(
      async () => (await db.from('devices_jobs').where('id', job).first())?.status === 'done',
      60_000,
      'the job is done after the restart'
    )
    const files = await receivedFiles(printer)
    assert.lengthOf(files, 1, `printed once:\n${second.output()}`)
    assert.equal(files[0]!.name, `tramita-${job}-0`)
  })

  test('a revoked token is refused at once: its connection closed, its jobs failed, a new start refused', async ({
    client,
    assert,
  }) => {
    printer = await startPrinter({ name: 'Tramita Revocada', script: 'sleep 30; exit 0' })
    const ana = await person(client, 'ana_rev', 'teacher')
    const { admin, made, agent, printerRow } = await connected(client, printer, ana, sane.env)
    running.push(agent)
    const socket = await personSocket(ana)
    try {
      const form = await scanForm()
      const path = await formFile(client, ana, form.key, await onePagePdf('Pendiente'), 'pendiente.pdf')
      const job = (await call(client, DEVICES_ROUTES.print, ana, { token: printerRow.token, files: [path] })).body()
        .data.job as string
      await waitUntil(async () => (await receivedFiles(printer)).length === 1, 30_000, 'the printer has the job')

      const revoked = await call(client, DEVICES_ROUTES.revokeAgent, admin, {}, { id: made.agent.id })
      assert.equal(revoked.body().data.agent.status, 'CANCELLED')
      assert.equal(await agent.exited, 3, agent.output())
      assert.match(agent.output(), /token revoked/)
      assert.include(await db.from('devices_jobs').where('id', job).first(), { status: 'failed', error: 'agent_off' })
      await waitUntil(() => socket.of('print_forms').some((e) => e.status === 'failed'), 10_000, 'told of the failure')
      assert.equal(
        socket.of('print_forms').find((e) => e.status === 'failed').message,
        'El agente está apagado o desconectado.'
      )

      const again = startAgent(made.token, { printers: [printer.uri] }, sane.env)
      running.push(again)
      assert.equal(await again.exited, 3)
      assert.match(again.output(), /refused by the server \(401\): token revoked/)
      const off = await call(client, DEVICES_ROUTES.print, ana, { token: printerRow.token, files: [path] })
      off.assertStatus(409)
      assert.equal(off.body().message, 'El agente está apagado o desconectado.')
    } finally {
      socket.close()
    }
  })

  test('two agents with one token: the second waits while the first is connected, then takes over', async ({
    client,
    assert,
  }) => {
    printer = await startPrinter({ name: 'Tramita Doble' })
    const ana = await person(client, 'ana_two', 'teacher')
    const { admin, made, agent, printerRow } = await connected(client, printer, ana, sane.env)
    running.push(agent)
    const second = startAgent(made.token, { printers: [printer.uri] }, sane.env)
    running.push(second)
    await waitUntil(() => /\(409\)/.test(second.output()), 30_000, 'the second agent refused')
    assert.match(second.output(), /another agent is connected with this token/)

    // The first keeps working.
    const form = await scanForm()
    const path = await formFile(client, ana, form.key, await onePagePdf('Primero'), 'primero.pdf')
    const job = (await call(client, DEVICES_ROUTES.print, ana, { token: printerRow.token, files: [path] })).body().data
      .job as string
    await waitUntil(
      async () => (await db.from('devices_jobs').where('id', job).first())?.status === 'done',
      30_000,
      'printed through the first agent'
    )

    // The first stops: the second gets in at its next try.
    await agent.stop('SIGTERM')
    await waitUntil(() => /connected to/.test(second.output()), 60_000, 'the second agent connected')
    await agentIs(client, admin, made.agent.id, 'ACTIVE')
  })
})
