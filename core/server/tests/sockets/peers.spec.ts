import { createServer, type Server } from 'node:http'
import { test } from '@japa/runner'
import { WebSocket } from 'ws'
import type { PluginPeerEndpoint } from '@tramita/plugin-api'
import { PeerHub } from '#sockets/peers'
import { waitUntil } from '#tests/helpers/wait'

/**
 * Plugins' program sockets (PeerHub, plugin-api PluginPeers) on two nodes sharing Redis (the
 * sockets-redis step; in memory without REDIS_URL): a message or a close sent from the node that does
 * not hold the connection reaches it; a refusal is an HTTP answer with its reason.
 */

const logger = { info() {}, warn() {}, error() {} }

interface Seen {
  opened: string[]
  received: [string, unknown][]
  closed: string[]
}

function endpoint(seen: Seen): PluginPeerEndpoint {
  return {
    path: '/api/kit/socket',
    async admit(token, _ip, header) {
      if (token === 'bad') return { refuse: 401, reason: 'unknown token' }
      return { peerId: `${token}.${header('agent-instance') ?? 'none'}` }
    },
    async opened(peerId) {
      seen.opened.push(peerId)
    },
    async received(peerId, message) {
      // Handling that takes a while (a database write) must not reorder what one peer sent.
      await new Promise((resolve) => setImmediate(resolve))
      if ((message as { i?: number }).i === 0) await new Promise((resolve) => setImmediate(resolve))
      seen.received.push([peerId, message])
    },
    async closed(peerId) {
      seen.closed.push(peerId)
    },
  }
}

async function node(seen: Seen) {
  const hub = new PeerHub({
    redisUrl: process.env.REDIS_URL,
    channel: `tramita-test:peers:${process.pid}`,
    logger,
    live: () => true,
    admitAddress: async () => true,
  })
  hub.declare('kit', '/api/kit/socket', endpoint(seen))
  const server: Server = createServer((_req, res) => res.end())
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  await hub.start()
  hub.attach(server)
  const port = (server.address() as { port: number }).port
  return {
    hub,
    port,
    async close() {
      await hub.close()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}

function connect(port: number, token: string | null, instance = 'i1') {
  const headers: Record<string, string> = { 'agent-instance': instance }
  if (token) headers.token = token
  const ws = new WebSocket(`ws://127.0.0.1:${port}/api/kit/socket`, { headers })
  const messages: unknown[] = []
  ws.on('message', (raw) => messages.push(JSON.parse(String(raw))))
  const result = new Promise<{ opened: true } | { status: number; body: string }>((resolve, reject) => {
    ws.once('open', () => resolve({ opened: true }))
    ws.once('unexpected-response', (req, res) => {
      let body = ''
      res.on('data', (chunk: Buffer) => (body += chunk))
      res.on('end', () => {
        req.destroy()
        resolve({ status: res.statusCode ?? 0, body })
      })
    })
    ws.once('error', reject)
  })
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() }))
  )
  return { ws, messages, result, closed }
}

test.group('program sockets across two nodes', (group) => {
  const seenA: Seen = { opened: [], received: [], closed: [] }
  const seenB: Seen = { opened: [], received: [], closed: [] }
  let a: Awaited<ReturnType<typeof node>>
  let b: Awaited<ReturnType<typeof node>>
  group.setup(async () => {
    a = await node(seenA)
    b = await node(seenB)
    return async () => {
      await a.close()
      await b.close()
    }
  })

  test('a peer on one node gets what the other sends, in order; its messages reach its own node', async ({
    assert,
  }) => {
    const peer = connect(a.port, 'tok')
    assert.deepEqual(await peer.result, { opened: true })
    await waitUntil(() => seenA.opened.includes('tok.i1'), 5000, 'opened on node a')
    for (let i = 0; i < 5; i++) await b.hub.send('tok.i1', { n: i })
    await waitUntil(() => peer.messages.length === 5, 5000, 'five messages through node b')
    assert.deepEqual(
      peer.messages,
      [0, 1, 2, 3, 4].map((n) => ({ n }))
    )
    for (let i = 0; i < 5; i++) peer.ws.send(JSON.stringify({ i }))
    await waitUntil(() => seenA.received.length === 5, 5000, 'received on node a')
    assert.deepEqual(
      seenA.received.map(([, m]) => m),
      [0, 1, 2, 3, 4].map((i) => ({ i }))
    )
    assert.lengthOf(seenB.received, 0)

    await b.hub.disconnect('tok.i1', 4401, 'token revoked')
    assert.deepEqual(await peer.closed, { code: 4401, reason: 'token revoked' })
    await waitUntil(() => seenA.closed.includes('tok.i1'), 5000, 'closed once')
    assert.deepEqual(seenA.closed, ['tok.i1'])
  })

  test('refusals are HTTP answers with their reason; text that is not JSON closes the connection', async ({
    assert,
  }) => {
    assert.deepEqual(await connect(a.port, 'bad').result, { status: 401, body: 'unknown token' })
    assert.deepEqual(await connect(a.port, null).result, { status: 401, body: 'a token header is required' })
    const peer = connect(b.port, 'tok2')
    await peer.result
    peer.ws.send('not json')
    assert.equal((await peer.closed).code, 1003)
    assert.throws(() => a.hub.disconnect('x', 1000, 'no'), /4000-4999/)
  })
})
