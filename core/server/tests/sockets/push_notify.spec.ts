import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import limiter from '@adonisjs/limiter/services/main'
import { WebSocket } from 'ws'
import Area from '#models/area'
import { platform } from '#services/platform'
import { publishForm } from '#services/process/forms'
import { taskToken } from '#services/process/engine'
import { seedBase } from '#services/seed_service'
import { PUSH_NOTIFY_PER_MINUTE } from '#controllers/push_notify_controller'
import { makeUser, resetAuthTables, tokenFor } from '#tests/helpers/auth'
import { areaReviewProcess, resetProcessTables } from '#tests/helpers/process'

type Client = Parameters<typeof tokenFor>[0]
type Message = { case: string; data: any }

const ROUTE = '/inside/forms/create/search_endpoint/push_notify'

/** A signed-in socket on this process's server, collecting what it receives. */
async function listen(token: string, username: string) {
  const ws = new WebSocket(`ws://${process.env.HOST}:${process.env.PORT}/ws?token=${encodeURIComponent(token)}`)
  const messages: Message[] = []
  const waiting: { kase: string; resolve(m: Message): void }[] = []
  ws.on('message', (raw) => {
    const message = JSON.parse(String(raw)) as Message
    messages.push(message)
    for (const w of waiting.filter((x) => x.kase === message.case)) {
      waiting.splice(waiting.indexOf(w), 1)
      w.resolve(message)
    }
  })
  await new Promise<void>((resolve, reject) => {
    ws.once('error', reject)
    ws.once('message', () => resolve())
  })
  const next = (kase: string) =>
    new Promise<Message>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${kase} message`)), 3000)
      waiting.push({
        kase,
        resolve: (m) => {
          clearTimeout(timer)
          resolve(m)
        },
      })
    })
  const userId = Number((await db.from('users').where('username', username).first()).id)
  return { ws, messages, next, userId }
}

/** A review request: the applicant starts it, the members of an area review it. */
async function publishReview() {
  await seedBase()
  const area = (await Area.findBy('name', 'Revisión')) ?? (await Area.create({ name: 'Revisión', color: '#336699' }))
  const published = await publishForm({
    name: 'Avisos',
    userId: null,
    jsonconfig: {
      form: { pages: [{ name: 'Datos', layout: [['nombre']] }] },
      fields: [{ field_name: 'nombre', type: 'text', data: { label: { value: 'Nombre' } } }],
    },
    process: areaReviewProcess('Avisos', area.id),
  })
  return { ...published, area }
}

function post(client: Client, token: string | null, fields: Record<string, string>) {
  let request = client.post(ROUTE)
  if (token) request = request.header('token', token)
  for (const [name, value] of Object.entries(fields)) request = request.field(name, value)
  return request
}

test.group('push_notify: the case’s people are told on /ws', (group) => {
  group.setup(async () => {
    // The suite's HTTP server runs in this process; its hub (memory, or Redis when configured) serves /ws.
    const server = await app.container.make('server')
    await platform().sockets.start()
    platform().sockets.attach(server.getNodeServer()!)
  })

  group.each.setup(async () => {
    await resetProcessTables()
    await resetAuthTables()
  })

  async function setUp(client: Client) {
    const form = await publishReview()
    await makeUser({ username: 'solicitante', role: 'student' })
    for (const name of ['revisora', 'revisor2']) {
      const user = await makeUser({ username: name, role: 'teacher' })
      await user.related('areas').attach([form.area.id])
    }
    await makeUser({ username: 'ajeno', role: 'teacher' })
    // Counters live in Redis when it is configured: a run shortly after another starts from zero too.
    for (const user of await db.from('users').select('id')) {
      await limiter.use({ requests: PUSH_NOTIFY_PER_MINUTE, duration: '1 min' }).delete(`push_notify:${user.id}`)
    }
    const t = {
      applicant: await tokenFor(client, 'solicitante'),
      reviewer: await tokenFor(client, 'revisora'),
      colleague: await tokenFor(client, 'revisor2'),
      outsider: await tokenFor(client, 'ajeno'),
    }
    const started = await client
      .post('/data/form/flows/process')
      .header('token', t.applicant)
      .field('data', form.key)
      .field('flow_values', JSON.stringify({ nombre: 'Ana' }))
    started.assertStatus(200)
    const { id, key_process: key } = started.body().data
    const task = await db.from('tasks').where('case_id', id).where('status', 'pending').first()
    const code = (await db.from('cases').where('id', id).first()).code as string
    return { form, t, base: { data: form.key, key_process: key as string, token: taskToken(task.id) }, code }
  }

  test('the assignees and the starter get it; the sender and an unrelated user do not', async ({ client, assert }) => {
    const { t, base, code } = await setUp(client)
    const sockets = {
      applicant: await listen(t.applicant, 'solicitante'),
      reviewer: await listen(t.reviewer, 'revisora'),
      colleague: await listen(t.colleague, 'revisor2'),
      outsider: await listen(t.outsider, 'ajeno'),
    }
    try {
      const toColleague = sockets.colleague.next('push_notify')
      const toApplicant = sockets.applicant.next('push_notify')
      const res = await post(client, t.reviewer, { ...base, title: 'Revisión lista', message: 'Falta la firma' })
      res.assertStatus(200)
      assert.equal(res.body().status, 'done')
      assert.equal(res.body().data.sent, 2)
      const expected = {
        case: 'push_notify',
        data: { title: 'Revisión lista', message: 'Falta la firma', code_process: code },
      }
      assert.deepEqual(await toColleague, expected)
      assert.deepEqual(await toApplicant, expected)

      // Anything wrongly sent to the sender or the outsider would have arrived before this round trip.
      for (const s of [sockets.reviewer, sockets.outsider]) {
        const mark = s.next('mark')
        await platform().sockets.publish({ userId: s.userId }, { case: 'mark', data: {} })
        await mark
        assert.notExists(s.messages.find((m) => m.case === 'push_notify'))
      }
    } finally {
      for (const s of Object.values(sockets)) s.ws.close()
    }
  })

  test('bad input answers fail with a message and a 4xx, and tells nobody', async ({ client, assert }) => {
    const { t, base } = await setUp(client)
    const colleague = await listen(t.colleague, 'revisor2')
    try {
      const good = { ...base, title: 'Aviso', message: 'Texto' }
      const cases: [string, string | null, Record<string, string>, number, RegExp][] = [
        ['no session', null, good, 401, /.+/],
        ['no title', t.reviewer, { ...base, message: 'x' }, 400, /title/],
        ['title too long', t.reviewer, { ...good, title: 'x'.repeat(201) }, 400, /title/],
        ['message not text', t.reviewer, { ...good, message: 'y'.repeat(2001) }, 400, /message/],
        ['no such case', t.reviewer, { ...good, key_process: '999.forgedforgedforged' }, 404, /no existe/],
        ['not the assignee', t.outsider, good, 403, /no está asignada/],
        ['a task of no case', t.reviewer, { ...good, token: 'forged' }, 404, /.+/],
      ]
      for (const [name, token, fields, status, text] of cases) {
        const res = await post(client, token, fields)
        assert.equal(res.status(), status, name)
        assert.equal(res.body().status, 'fail', name)
        assert.match(res.body().message, text, name)
      }
      const mark = colleague.next('mark')
      await platform().sockets.publish({ userId: colleague.userId }, { case: 'mark', data: {} })
      await mark
      assert.notExists(colleague.messages.find((m) => m.case === 'push_notify'))
    } finally {
      colleague.ws.close()
    }
  })

  test('rate-limited per user', async ({ client, assert }) => {
    const { t, base } = await setUp(client)
    const fields = { ...base, title: 'Aviso' }
    for (let i = 0; i < PUSH_NOTIFY_PER_MINUTE; i++) (await post(client, t.reviewer, fields)).assertStatus(200)
    const refused = await post(client, t.reviewer, fields)
    refused.assertStatus(429)
    assert.equal(refused.body().status, 'fail')
    assert.exists(refused.header('retry-after'))
  })
})
