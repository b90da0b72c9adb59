import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { PDFDocument, rgb } from 'pdf-lib'
import { publishPermit } from '../../../../core/server/tests/helpers/process.js'
import { DEVICES_ROUTES, type SignatureOpened } from '../../shared/devices.js'
import { SIGNATURE_AREA, SIGNATURE_BOX } from '../../server/signatures/template.js'
import { saneTestEnv } from '../helpers/services.js'
import { pngInk } from '../helpers/png.js'
import {
  agentIs,
  attachSockets,
  call,
  machines,
  newAgent,
  person,
  personSocket,
  resetDevices,
  startAgent,
  waitUntil,
  type AgentProcess,
  type Client,
  type Person,
} from './devices_fixtures.js'

/**
 * The signing flow (spec 000 §7; issue 21 item 4): the template, a signature request, the signed PDF's
 * upload by its token alone, its box staged as the person's PNG and `signature_upload_finish` on their
 * sockets only; and a real agent whose sign command fills the template.
 */

const EVENT = 'signature_upload_finish'

async function signatureForm() {
  return publishPermit({ extraField: { field_name: 'firma', type: 'signature', data: { label: { value: 'Firma' } } } })
}

async function template(client: Client): Promise<Buffer> {
  const res = await client.get(DEVICES_ROUTES.signatureTemplate.path)
  res.assertStatus(200)
  return Buffer.from(res.body() as Buffer)
}

/** The template with a thick stroke across its box, as a signing app sends it back. */
async function signed(templateBytes: Buffer): Promise<Buffer> {
  const pdf = await PDFDocument.load(templateBytes)
  const box = SIGNATURE_BOX
  pdf.getPage(0).drawLine({
    start: { x: box.x + 30, y: box.y + 40 },
    end: { x: box.x + box.width - 30, y: box.y + box.height - 40 },
    thickness: 8,
    color: rgb(0, 0, 0),
  })
  return Buffer.from(await pdf.save())
}

async function open(client: Client, who: Person, fields: Record<string, string>) {
  return call(client, DEVICES_ROUTES.openSignature, who, fields)
}

function upload(client: Client, path: string, bytes: Buffer, name = 'firma.pdf') {
  return client.post(path).file('file', bytes, { filename: name })
}

async function staged(userId: number) {
  return db.from('uploads').where('owner_user_id', userId)
}

test.group('devices: signatures from a signing app or pad', (group) => {
  const running: AgentProcess[] = []
  group.setup(async () => {
    await attachSockets()
  })
  group.each.setup(async () => {
    await db.from('devices_signatures').delete()
    await resetDevices()
    return async () => {
      for (const agent of running.splice(0)) await agent.stop('SIGKILL')
    }
  })
  group.each.timeout(120_000)

  test('the template is a public, cacheable one-page PDF', async ({ client, assert }) => {
    const res = await client.get(DEVICES_ROUTES.signatureTemplate.path)
    res.assertStatus(200)
    assert.equal(res.header('content-type'), 'application/pdf')
    assert.match(res.header('cache-control') ?? '', /^public, max-age=\d+$/)
    const pdf = await PDFDocument.load(Buffer.from(res.body() as Buffer))
    assert.equal(pdf.getPageCount(), 1)
    assert.deepEqual(pdf.getPage(0).getSize(), { width: 612, height: 792 })
  })

  test('a signed PDF sent by its token alone reaches its person as a staged PNG of the box', async ({
    client,
    assert,
  }) => {
    const ana = await person(client, 'ana_sign', 'teacher')
    const beto = await person(client, 'beto_sign', 'teacher')
    const form = await signatureForm()
    const mine = await personSocket(ana)
    const theirs = await personSocket(beto)
    try {
      ;(await client.post(DEVICES_ROUTES.openSignature.path).form({ data: form.key, field: 'firma' })).assertStatus(401)
      const opened = await open(client, ana, { data: form.key, field: 'firma' })
      assert.equal(opened.body().status, 'done', opened.body().message)
      const request = opened.body().data as SignatureOpened
      assert.match(request.token, /^[A-Za-z0-9_-]{40,}$/)
      assert.equal(request.template, '/static/plantillas/plantilla_firma.pdf')
      assert.equal(request.upload, `/inside/forms/create/document/external/upload_signature/${request.token}.pdf`)
      const row = await db.from('devices_signatures').first()
      assert.notInclude(JSON.stringify(row), request.token, 'only the hash is kept')

      const sent = await upload(client, request.upload, await signed(await template(client)))
      sent.assertStatus(200)
      assert.equal(sent.body().data.message, 'Firma recibida.')
      await waitUntil(() => mine.of(EVENT).length > 0, 20_000, 'signature_upload_finish')
      const event = mine.of(EVENT)[0]
      assert.include(event, { token: request.token, status: 'good', ext: 'png' })
      assert.match(event.path, /^\/data\/files\/[0-9a-f-]{36}\.png$/)
      assert.isString(event.ip)

      const file = await client.get(event.path).header('token', ana.token)
      file.assertStatus(200)
      const ink = pngInk(Buffer.from(file.body() as Buffer))
      assert.deepEqual([ink.width, ink.height], [SIGNATURE_AREA.width * 2, SIGNATURE_AREA.height * 2])
      assert.isAbove(ink.dark, 2000, 'the stroke drawn in the box is in the picture')
      assert.include((await staged(ana.id))[0], { field: 'firma', form_id: form.formId, status: 'staged' })

      // Used once: the same upload again is refused and stores nothing more.
      const again = await upload(client, request.upload, await signed(await template(client)))
      again.assertStatus(409)
      assert.equal(again.body().message, 'Esa solicitud de firma ya se usó. Abre una nueva.')
      assert.lengthOf(await staged(ana.id), 1)

      // Beto's own signature, after all that: his socket hears his token only, and Ana's nothing more.
      const his = (await open(client, beto, { data: form.key, field: 'firma' })).body().data as SignatureOpened
      // Sent with PUT, as some signing apps send a file to an address.
      const put = client.put(his.upload).file('file', await signed(await template(client)), { filename: 'f.pdf' })
      ;(await put).assertStatus(200)
      await waitUntil(() => theirs.of(EVENT).length > 0, 20_000, 'Beto’s signature_upload_finish')
      assert.deepEqual(
        theirs.of(EVENT).map((e) => e.token),
        [his.token],
        'another person hears nothing of Ana’s'
      )
      assert.deepEqual(
        mine.of(EVENT).map((e) => e.token),
        [request.token],
        'the used request told nobody again'
      )
    } finally {
      mine.close()
      theirs.close()
    }
  })

  test('unknown, expired, non-PDF and oversized uploads are refused with a reason, and nothing is kept', async ({
    client,
    assert,
  }) => {
    const ana = await person(client, 'ana_refused', 'teacher')
    const form = await signatureForm()
    const socket = await personSocket(ana)
    try {
      const pdf = await signed(await template(client))
      const unknown = await upload(
        client,
        '/inside/forms/create/document/external/upload_signature/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA.pdf',
        pdf
      )
      unknown.assertStatus(404)
      assert.equal(unknown.body().message, 'No existe esa solicitud de firma.')
      ;(await upload(client, '/inside/forms/create/document/external/upload_signature/x.pdf', pdf)).assertStatus(404)

      const open1 = (await open(client, ana, { data: form.key, field: 'firma' })).body().data as SignatureOpened
      const text = await upload(client, open1.upload, Buffer.from('no soy un PDF, solo texto'), 'firma.pdf')
      text.assertStatus(415)
      assert.equal(text.body().message, 'El archivo enviado no es un PDF válido o está dañado.')
      const broken = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(4096, 0x41)])
      ;(await upload(client, open1.upload, broken)).assertStatus(415)
      ;(await client.post(open1.upload).form({ nothing: 'here' })).assertStatus(400)
      const big = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(11 * 1024 * 1024, 0x20)])
      const tooBig = await upload(client, open1.upload, big)
      assert.equal(tooBig.status(), 413)

      // Bad attempts do not use a request up; one past its end takes nothing.
      assert.deepEqual(
        (await db.from('devices_signatures').select('used_at')).map((row) => row.used_at),
        [null]
      )
      const open2 = (await open(client, ana, { data: form.key, field: 'firma' })).body().data as SignatureOpened
      await db.from('devices_signatures').update({ expires_at: new Date(Date.now() - 1000) })
      const expired = await upload(client, open2.upload, pdf)
      expired.assertStatus(410)
      assert.equal(expired.body().message, 'La solicitud de firma caducó. Abre una nueva.')

      assert.lengthOf(await staged(ana.id), 0, 'nothing staged')
      assert.lengthOf(socket.of(EVENT), 0, 'nobody told')
      // A request names its form.
      assert.equal((await open(client, ana, { field: 'firma' })).status(), 400)

      // A field that takes no pictures: the PDF is refused for good, and the person waiting is told why.
      const wrong = (await open(client, ana, { data: form.key, field: 'motivo' })).body().data as SignatureOpened
      const refused = await upload(client, wrong.upload, pdf)
      refused.assertStatus(400)
      await waitUntil(() => socket.of(EVENT).length > 0, 10_000, 'the failure told')
      assert.deepEqual(socket.of(EVENT), [{ token: wrong.token, status: 'fail', message: refused.body().message }])
      ;(await upload(client, wrong.upload, pdf)).assertStatus(409)
      assert.lengthOf(await staged(ana.id), 0, 'still nothing staged')
    } finally {
      socket.close()
    }
  })

  test('a real agent’s sign command fills the template and its signature reaches the person', async ({
    client,
    assert,
  }) => {
    const sane = await saneTestEnv()
    const dir = await mkdtemp(join(tmpdir(), 'tramita-pad-'))
    try {
      // The "pad": signs once by handing the template back (its box empty, so a white picture), then
      // fails as an unplugged pad would.
      const pad = join(dir, 'pad.sh')
      await writeFile(
        pad,
        '#!/bin/sh\nif [ -e "$0.used" ]; then echo "pad unplugged" >&2; exit 1; fi\ntouch "$0.used"\ncp "$1" "$2"\n'
      )
      await chmod(pad, 0o755)
      const admin = await person(client, 'admin_sign', 'superuser')
      const ana = await person(client, 'ana_pad', 'teacher')
      const made = await newAgent(client, admin, 'Ventanilla')
      const agent = startAgent(made.token, { scanners: ['test:0'] }, { ...sane.env, TRAMITA_AGENT_SIGN_COMMAND: pad })
      running.push(agent)
      await agentIs(client, admin, made.agent.id, 'ACTIVE', 1)
      const [machine] = await machines(client, admin)
      const assigned = await call(
        client,
        DEVICES_ROUTES.updateMachine,
        admin,
        { people: [ana.id] },
        { id: machine!.id }
      )
      assigned.assertStatus(200)
      // The forms' picker tells a machine with a pad.
      const offered = (await call(client, DEVICES_ROUTES.allMachines, ana)).body().data.machines
      assert.deepEqual(
        offered.map((m: { token: string; can_sign: boolean }) => [m.token, m.can_sign]),
        [[machine!.token, true]]
      )
      const form = await signatureForm()
      const socket = await personSocket(ana)
      try {
        const opened = await open(client, ana, { data: form.key, field: 'firma', machine: machine!.token })
        assert.equal(opened.body().status, 'done', opened.body().message)
        const { token } = opened.body().data as SignatureOpened
        await waitUntil(() => socket.of(EVENT).length > 0, 60_000, `the pad's signature (${agent.output()})`)
        const event = socket.of(EVENT)[0]
        assert.include(event, { token, status: 'good', ext: 'png' })
        const file = await client.get(event.path).header('token', ana.token)
        // The template handed back unsigned: a blank picture (the box's border is left out).
        assert.deepEqual(pngInk(Buffer.from(file.body() as Buffer)), {
          width: SIGNATURE_AREA.width * 2,
          height: SIGNATURE_AREA.height * 2,
          dark: 0,
        })
        await waitUntil(() => agent.output().includes('signature sent'), 10_000, 'the agent logs its upload')

        // The pad fails: the request is closed and its person told why.
        const second = (await open(client, ana, { data: form.key, field: 'firma', machine: machine!.token })).body()
        await waitUntil(() => socket.of(EVENT).length > 1, 60_000, `the pad's failure (${agent.output()})`)
        const failed = socket.of(EVENT)[1]
        assert.include(failed, { token: second.data.token, status: 'fail' })
        assert.match(failed.message, /^El pad de firma no devolvió la firma: .*pad unplugged/)
        const late = await upload(client, second.data.upload, await signed(await template(client)))
        late.assertStatus(409)

        // Someone not assigned to the machine: no such machine.
        const beto = await person(client, 'beto_pad', 'teacher')
        const refused = await open(client, beto, { data: form.key, field: 'firma', machine: machine!.token })
        refused.assertStatus(404)
      } finally {
        socket.close()
      }
    } finally {
      await rm(dir, { recursive: true, force: true })
      await sane.remove()
    }
  })

  test('an agent started without a sign command takes no signature', async ({ client, assert }) => {
    const sane = await saneTestEnv()
    try {
      const admin = await person(client, 'admin_nosign', 'superuser')
      const made = await newAgent(client, admin, 'Sin pad')
      running.push(startAgent(made.token, { scanners: ['test:0'] }, sane.env))
      await agentIs(client, admin, made.agent.id, 'ACTIVE', 1)
      const [machine] = await machines(client, admin)
      const offered = (await call(client, DEVICES_ROUTES.allMachines, admin)).body().data.machines
      assert.isFalse(offered[0].can_sign, 'no pad offered')
      const form = await signatureForm()
      const refused = await open(client, admin, { data: form.key, field: 'firma', machine: machine!.token })
      refused.assertStatus(409)
      assert.match(refused.body().message, /no tiene un pad de firma/)
      assert.lengthOf(await db.from('devices_signatures'), 0)
    } finally {
      await sane.remove()
    }
  })
})
