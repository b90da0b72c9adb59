import { test } from '@japa/runner'
import { WebSocket } from 'ws'
import User from '#models/user'
import { openSession, revokeSession } from '#services/session_service'
import { platform } from '#services/platform'
import { SERVER_ROOT, freePort, startProcess, waitForHttp, type Started } from '#tests/helpers/processes'

/** Opens a socket and collects its messages; resolves once the server's `init` arrives. */
function connect(port: number, opts: { token?: string; origin?: string }) {
  const url = `ws://127.0.0.1:${port}/ws${opts.token ? `?token=${encodeURIComponent(opts.token)}` : ''}`
  const ws = new WebSocket(url, { headers: opts.origin ? { origin: opts.origin } : {} })
  const messages: { case: string; data: any }[] = []
  ws.on('message', (raw) => messages.push(JSON.parse(String(raw))))
  const opened = new Promise<void>((resolve, reject) => {
    ws.once('unexpected-response', (_req, res) =>
      reject(Object.assign(new Error(`refused with ${res.statusCode}`), { status: res.statusCode }))
    )
    ws.once('error', reject)
    ws.once('message', () => resolve())
  })
  const next = (kase: string) =>
    new Promise<any>((resolve) => {
      const found = messages.find((m) => m.case === kase)
      if (found) return resolve(found)
      const onMessage = (raw: unknown) => {
        const message = JSON.parse(String(raw))
        if (message.case === kase) {
          ws.off('message', onMessage)
          resolve(message)
        }
      }
      ws.on('message', onMessage)
    })
  return { ws, messages, opened, next }
}

test.group('sockets across two app nodes sharing Redis', (group) => {
  const nodes: { port: number; proc: Started }[] = []
  let token = ''
  let userId = 0

  group.setup(async () => {
    const user = await User.create({ username: `ws-${Date.now()}`, firstName: 'Socket', lastName: 'User' })
    userId = user.id
    token = (await openSession(user.id)).token
    for (let i = 0; i < 2; i++) {
      const port = await freePort()
      const proc = startProcess(
        ['--import', '@tramita/ts-run', `${SERVER_ROOT}/bin/server.ts`],
        { PORT: String(port), HOST: '127.0.0.1' },
        SERVER_ROOT
      )
      nodes.push({ port, proc })
    }
    await Promise.all(nodes.map((n) => waitForHttp(n.port, n.proc)))
    return async () => {
      await Promise.all(nodes.map((n) => n.proc.stop()))
    }
  })

  test('an event published on one node reaches clients connected to the others', async ({ assert }) => {
    const [a, b] = nodes
    const onA = connect(a.port, { token, origin: `http://127.0.0.1:${a.port}` })
    const onB = connect(b.port, { token })
    try {
      await Promise.all([onA.opened, onB.opened])
      const initA = await onA.next('init')
      assert.isString(initA.data.token)
      assert.isAtLeast(initA.data.token.length, 20)

      // A third app node: this test process runs the same app (same provider, same hub) on the same
      // Redis; its hub publishes, and the two server processes deliver to their own clients.
      const publisher = platform().sockets
      await publisher.start()
      const waitA = onA.next('fileReady')
      const waitB = onB.next('fileReady')
      // Pub/sub keeps nothing: a node whose subscription is still being made (start() waits 3 s for it, and
      // a loaded CI machine took longer once) misses what is published before. Published again until both
      // nodes have shown they hear the channel, which the rest of the test then relies on.
      const both = Promise.all([waitA, waitB])
      let heard = false
      void both.then(() => (heard = true))
      for (let i = 0; i < 100 && !heard; i++) {
        await publisher.publish({ userId }, { case: 'fileReady', data: { rute: '/x.pdf' } })
        // eslint-disable-next-line no-restricted-syntax -- the interval between publishes, not a wait for a result
        await Promise.race([both, new Promise((r) => setTimeout(r, 200))])
      }
      const [gotA, gotB] = await both
      assert.deepEqual(gotA, { case: 'fileReady', data: { rute: '/x.pdf' } })
      assert.deepEqual(gotB, gotA)

      // Addressed to one socket: only that client gets it.
      const initB = await onB.next('init')
      await publisher.publish({ socketId: initB.data.token }, { case: 'print_forms', data: { status: 'good' } })
      const gotPrint = await onB.next('print_forms')
      assert.equal(gotPrint.data.status, 'good')
      // Round-trip a broadcast after it, so anything A wrongly received would have arrived by now.
      const lastA = onA.next('scanforms_upload')
      await publisher.publish({ all: true }, { case: 'scanforms_upload', data: {} })
      await lastA
      assert.notExists(onA.messages.find((m) => m.case === 'print_forms'))
    } finally {
      onA.ws.close()
      onB.ws.close()
    }
  })

  test('a foreign origin is refused', async ({ assert }) => {
    const client = connect(nodes[0].port, { token, origin: 'https://evil.example' })
    const error = await client.opened.then(
      () => null,
      (e) => e
    )
    assert.equal(error?.status, 403)
  })

  test('a visitor without a token gets fileReady published on another node, and no broadcast', async ({ assert }) => {
    const visitor = connect(nodes[1].port, { origin: `http://127.0.0.1:${nodes[1].port}` })
    await visitor.opened
    const id = (await visitor.next('init')).data.token
    assert.match(id, /^[A-Za-z0-9_-]{22,}$/)
    const publisher = platform().sockets
    await publisher.start()
    try {
      await publisher.publish({ all: true }, { case: 'scanforms_upload', data: {} })
      await publisher.publish({ userId }, { case: 'push_notify', data: {} })
      await publisher.publish({ socketId: id }, { case: 'fileReady', data: { rute: '/public.pdf' } })
      assert.deepEqual((await visitor.next('fileReady')).data, { rute: '/public.pdf' })
      assert.deepEqual(
        visitor.messages.map((m) => m.case),
        ['init', 'fileReady']
      )
    } finally {
      visitor.ws.close()
    }
  })

  test('an unknown or revoked token is refused', async ({ assert }) => {
    const unknown = connect(nodes[1].port, { token: 'not-a-token' })
    const refused = await unknown.opened.then(
      () => null,
      (e) => e
    )
    assert.equal(refused?.status, 401)
    const user = await User.findOrFail(userId)
    const { token: revoked, session } = await openSession(user.id)
    await revokeSession(session)
    const client = connect(nodes[1].port, { token: revoked })
    const error = await client.opened.then(
      () => null,
      (e) => e
    )
    assert.equal(error?.status, 401)
  })
})
