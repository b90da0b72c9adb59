import { test } from '@japa/runner'
import { WebSocket } from 'ws'
import { SERVER_ROOT, freePort, startProcess, waitForHttp } from '#tests/helpers/processes'

test.group('a served node with browsers connected', () => {
  // Node's server.close() waits for every connection, upgraded sockets included: before the hub closed
  // its clients ahead of it, one open tab kept a node alive after SIGTERM until something killed it.
  test('ends on SIGTERM, closing their sockets as shutting down', async ({ assert }) => {
    const port = await freePort()
    const node = startProcess(
      ['--import', '@tramita/ts-run', `${SERVER_ROOT}/bin/server.ts`],
      { PORT: String(port), HOST: '127.0.0.1' },
      SERVER_ROOT
    )
    await waitForHttp(port, node)
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`, { headers: { origin: `http://127.0.0.1:${port}` } })
    const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)))
    await new Promise((resolve, reject) => {
      ws.once('message', resolve)
      ws.once('error', reject)
    })

    const code = await node.stop('SIGTERM')
    assert.equal(code, 0, node.output())
    assert.equal(await closed, 1001)
  })
})
