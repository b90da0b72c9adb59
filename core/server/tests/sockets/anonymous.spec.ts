import { test } from '@japa/runner'
import { createServer, type Server } from 'node:http'
import { randomBytes } from 'node:crypto'
import type { AddressInfo } from 'node:net'
import logger from '@adonisjs/core/services/logger'
import { WebSocket } from 'ws'
import { SocketHub, type AnonymousOptions, type HubOptions } from '#sockets/hub'
import { anonymousSocketTerms } from '#sockets/anonymous'
import { rateLimit } from '#services/rate_limits'
import { waitUntil } from '#tests/helpers/wait'

/**
 * Anonymous sockets (public-link visitors): hubs built here on their own HTTP servers, in memory and,
 * when REDIS_URL is set (the sockets-redis step), as two nodes sharing a Redis channel.
 */

type Message = { case: string; data: any }
const SIGNED_IN = 7

interface Node {
  hub: SocketHub
  port: number
  server: Server
}

async function startNode(
  channel: string,
  redisUrl: string | undefined,
  anonymous: AnonymousOptions,
  extra: Partial<HubOptions> = {}
): Promise<Node> {
  const hub = new SocketHub({
    redisUrl,
    channel,
    logger,
    allowedOrigins: [],
    authenticate: async (token) => (token === 'good' ? SIGNED_IN : null),
    anonymous,
    ...extra,
  })
  await hub.start()
  const server = createServer((_req, res) => res.end())
  hub.attach(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { hub, server, port: (server.address() as AddressInfo).port }
}

async function stopNode(node: Node) {
  await node.hub.close()
  await new Promise((resolve) => node.server.close(resolve))
}

/** Opens a socket; `opened` resolves with the `init` id, or rejects with the refusal's status. */
function connect(port: number, opts: { token?: string; origin?: string } = {}) {
  const query = opts.token ? `?token=${encodeURIComponent(opts.token)}` : ''
  const ws = new WebSocket(`ws://127.0.0.1:${port}/ws${query}`, {
    headers: opts.origin ? { origin: opts.origin } : {},
  })
  const messages: Message[] = []
  let closed: { code: number; reason: string } | null = null
  ws.on('message', (raw) => messages.push(JSON.parse(String(raw)) as Message))
  ws.on('close', (code, reason) => (closed = { code, reason: String(reason) }))
  ws.on('error', () => undefined)
  const opened = new Promise<string>((resolve, reject) => {
    ws.once('unexpected-response', (_req, res) =>
      reject(Object.assign(new Error('refused'), { status: res.statusCode }))
    )
    ws.once('message', (raw) => resolve((JSON.parse(String(raw)) as Message).data.token))
  })
  const next = async (kase: string) => {
    await waitUntil(() => messages.some((m) => m.case === kase), 3000, `a ${kase} message`)
    return messages.find((m) => m.case === kase)!
  }
  const closing = async () => {
    await waitUntil(() => closed !== null, 3000, 'the socket closing')
    return closed!
  }
  return { ws, messages, opened, next, closing }
}

const refusal = (opened: Promise<unknown>) =>
  opened.then(
    () => null,
    (error: { status?: number }) => error.status ?? 0
  )

const admitAll: AnonymousOptions = { maxPerIp: 2, idleMs: 60_000, admit: async () => true }
const drivers = [
  { name: 'memory', redisUrl: undefined },
  ...(process.env.REDIS_URL ? [{ name: 'redis', redisUrl: process.env.REDIS_URL }] : []),
]

for (const driver of drivers) {
  test.group(`anonymous sockets (${driver.name})`, (group) => {
    let a: Node
    let b: Node
    group.each.setup(async () => {
      const channel = `tramita-test:${randomBytes(6).toString('hex')}:ws`
      a = await startNode(channel, driver.redisUrl, admitAll)
      b = await startNode(channel, driver.redisUrl, admitAll)
      return async () => {
        await stopNode(a)
        await stopNode(b)
      }
    })

    test('one gets an unguessable id and only what is addressed to it', async ({ assert }) => {
      const visitor = connect(a.port, { origin: `http://127.0.0.1:${a.port}` })
      const member = connect(a.port, { token: 'good' })
      const id = await visitor.opened
      await member.opened
      assert.match(id, /^[A-Za-z0-9_-]{22,}$/) // 16 random bytes, base64url
      assert.equal(a.hub.connections, 2)

      await a.hub.publish({ all: true }, { case: 'scanforms_upload', data: {} })
      await a.hub.publish({ userId: SIGNED_IN }, { case: 'push_notify', data: { title: 't' } })
      await a.hub.publish({ socketId: id }, { case: 'fileReady', data: { rute: '/one' } })
      assert.deepEqual((await visitor.next('fileReady')).data, { rute: '/one' })
      // The signed-in socket got the broadcast and its user's message: the anonymous one neither.
      await member.next('push_notify')
      await member.next('scanforms_upload')
      assert.deepEqual(
        visitor.messages.map((m) => m.case),
        ['init', 'fileReady']
      )
      assert.notExists(member.messages.find((m) => m.case === 'fileReady'))

      // Published on another node: through Redis it reaches the socket on this one.
      if (driver.redisUrl) {
        await b.hub.publish({ all: true }, { case: 'scanforms_upload', data: { from: 'b' } })
        await b.hub.publish({ socketId: id }, { case: 'print_forms', data: { status: 'good' } })
        assert.equal((await visitor.next('print_forms')).data.status, 'good')
        assert.deepEqual(
          visitor.messages.map((m) => m.case),
          ['init', 'fileReady', 'print_forms']
        )
      }
      visitor.ws.close()
      member.ws.close()
    })

    test('anything an anonymous socket sends closes it; pings are answered', async ({ assert }) => {
      const visitor = connect(a.port)
      await visitor.opened
      const pong = new Promise<void>((resolve) => visitor.ws.once('pong', () => resolve()))
      visitor.ws.ping()
      await pong
      visitor.ws.send('hello')
      assert.equal((await visitor.closing()).code, 1008)
      await waitUntil(() => a.hub.connections === 0, 3000, 'the hub forgetting the socket')
    })

    test('an address holds at most maxPerIp anonymous sockets; a token still connects', async ({ assert }) => {
      const first = connect(a.port)
      const second = connect(a.port)
      await Promise.all([first.opened, second.opened])
      assert.equal(await refusal(connect(a.port).opened), 429)
      // Signed-in sockets are not counted against it; the other node counts its own.
      const member = connect(a.port, { token: 'good' })
      await member.opened
      const elsewhere = connect(b.port)
      await elsewhere.opened

      // A closed one frees its place.
      first.ws.close()
      await waitUntil(() => a.hub.connections === 2, 3000, 'the hub forgetting the closed socket')
      const third = connect(a.port)
      await third.opened
      for (const c of [second, member, elsewhere, third]) c.ws.close()
    })

    test('a bad token is still refused, and so is a foreign origin', async ({ assert }) => {
      assert.equal(await refusal(connect(a.port, { token: 'not-a-token' }).opened), 401)
      assert.equal(await refusal(connect(a.port, { origin: 'https://evil.example' }).opened), 403)
    })
  })
}

test.group('anonymous sockets: time and attempts', () => {
  test('an idle one is closed; a delivered message restarts its clock', async ({ assert }) => {
    const node = await startNode('tramita-test:idle:ws', undefined, { ...admitAll, idleMs: 600 })
    try {
      const visitor = connect(node.port)
      const id = await visitor.opened
      const started = Date.now()
      // Pings do not keep it open (only messages delivered to it do).
      visitor.ws.ping()
      await waitUntil(() => Date.now() - started > 400, 2000, '400 ms')
      await node.hub.publish({ socketId: id }, { case: 'fileReady', data: { rute: '/x' } })
      await visitor.next('fileReady')
      const closed = await visitor.closing()
      assert.deepEqual(closed, { code: 1000, reason: 'idle' })
      assert.isAbove(Date.now() - started, 900)
      assert.equal(node.hub.connections, 0)
    } finally {
      await stopNode(node)
    }
  })

  test("the core's limiter counts an address's attempts over every node", async ({ assert }) => {
    // A made-up address per run: the limiter's store (Redis here, or the database) outlives the test.
    const ip = `198.51.100.${1 + (process.pid % 250)}-${Date.now()}`
    const terms = anonymousSocketTerms({ perMinute: 3, perIp: 10 })
    const clientIp = () => ip
    const a = await startNode('tramita-test:limits:ws', process.env.REDIS_URL, terms, { clientIp })
    const b = await startNode('tramita-test:limits:ws', process.env.REDIS_URL, terms, { clientIp })
    try {
      const sockets = [connect(a.port), connect(a.port), connect(b.port)]
      await Promise.all(sockets.map((s) => s.opened))
      assert.equal(await refusal(connect(b.port).opened), 429)
      assert.equal(await refusal(connect(a.port).opened), 429)
      // A refused attempt holds no place: the open sockets are the three admitted.
      assert.equal(a.hub.connections + b.hub.connections, 3)
      for (const s of sockets) s.ws.close()
    } finally {
      await rateLimit({ requests: 3, duration: '1 min' }).delete(`ws_anon:${ip}`)
      await stopNode(a)
      await stopNode(b)
    }
  })
})
