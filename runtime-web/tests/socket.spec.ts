import { test } from '@japa/runner'
import {
  backoffDelay,
  openSocket,
  shareSocket,
  showPushNotices,
  SocketWaitTimeout,
  socketUrl,
  waitForMessage,
  type SocketLike,
} from '../src/lib/socket.js'

/** Fake sockets and a fake clock: each `create` is recorded; timers run when the test says. */
function fakes() {
  const sockets: (SocketLike & { url: string; closedWith?: number })[] = []
  const timers: { fn: () => void; ms: number }[] = []
  const options = {
    create(url: string) {
      const socket = {
        url,
        onopen: null,
        onmessage: null,
        onclose: null,
        onerror: null,
        close(code?: number) {
          socket.closedWith = code
        },
      } as SocketLike & { url: string; closedWith?: number }
      sockets.push(socket)
      return socket
    },
    setTimeout(fn: () => void, ms: number) {
      const timer = { fn, ms }
      timers.push(timer)
      return timer
    },
    clearTimeout: (handle: unknown) => void timers.splice(timers.indexOf(handle as never), 1),
  }
  const send = (socket: SocketLike, message: unknown) => socket.onmessage?.({ data: JSON.stringify(message) })
  return { sockets, timers, options, send }
}

test.group('the /ws client', () => {
  test('the address carries the token; wss on https', ({ assert }) => {
    assert.equal(socketUrl({ protocol: 'http:', host: 'a:3333' }, 't k'), 'ws://a:3333/ws?token=t%20k')
    assert.equal(socketUrl({ protocol: 'https:', host: 'b.example' }, 'x'), 'wss://b.example/ws?token=x')
  })

  test('subscribers get the data of their case only; init gives the socket id', ({ assert }) => {
    const { sockets, options, send } = fakes()
    const client = openSocket('ws://x/ws?token=t', options)
    const got: unknown[] = []
    const off = client.on('fileReady', (data) => got.push(data))
    send(sockets[0]!, { case: 'init', data: { token: 'sock-1' } })
    send(sockets[0]!, { case: 'fileReady', data: { rute: '/a.pdf' } })
    send(sockets[0]!, { case: 'print_forms', data: {} })
    sockets[0]!.onmessage?.({ data: 'not json' })
    off()
    send(sockets[0]!, { case: 'fileReady', data: { rute: '/b.pdf' } })
    assert.equal(client.socketId, 'sock-1')
    assert.deepEqual(got, [{ rute: '/a.pdf' }])
  })

  test('reconnects with a doubling backoff, reset once open; close stops it', ({ assert }) => {
    const { sockets, timers, options, send } = fakes()
    const client = openSocket('ws://x/ws?token=t', options)
    const got: unknown[] = []
    client.on('push_notify', (data) => got.push(data))
    sockets[0]!.onclose?.({})
    assert.equal(timers[0]!.ms, 1000)
    timers.shift()!.fn()
    sockets[1]!.onclose?.({})
    assert.equal(timers[0]!.ms, 2000)
    timers.shift()!.fn()
    assert.lengthOf(sockets, 3)
    sockets[2]!.onopen?.({})
    send(sockets[2]!, { case: 'push_notify', data: 1 })
    assert.deepEqual(got, [1], 'subscriptions survive a reconnect')
    sockets[2]!.onclose?.({})
    assert.equal(timers[0]!.ms, 1000, 'back to the first delay after a successful open')
    client.close()
    assert.lengthOf(timers, 0, 'the pending retry is cancelled')
    const fresh = openSocket('ws://x', options)
    fresh.close()
    assert.equal(sockets.at(-1)!.closedWith, 1000)
    sockets.at(-1)!.onclose?.({})
    assert.lengthOf(timers, 0, 'no reconnect after close')
    assert.equal(backoffDelay(10), 30_000)
  })

  test('push_notify shows a notification and a toast', ({ assert }) => {
    const { sockets, options, send } = fakes()
    const client = openSocket('ws://x', options)
    const shown: string[][] = []
    showPushNotices(client, {
      toast: (text) => shown.push(['toast', text]),
      notification: (title, body) => shown.push(['notification', title, body]),
    })
    send(sockets[0]!, { case: 'push_notify', data: { title: 'Aviso', message: 'Listo', code_process: 'P-1' } })
    send(sockets[0]!, { case: 'push_notify', data: { title: 'Solo título', message: '' } })
    send(sockets[0]!, { case: 'push_notify', data: null })
    assert.deepEqual(shown, [
      ['notification', 'Aviso', 'Listo'],
      ['toast', 'Aviso: Listo'],
      ['notification', 'Solo título', ''],
      ['toast', 'Solo título'],
    ])
  })
})

/** The page's socket as the form's actions wait on it (a scan's or a print's answer). */
test.group('waiting for a message on the shared socket', () => {
  /** What the promise came to by the next turn of the event loop ('pending' if nothing yet). */
  const settled = async (promise: Promise<unknown>) => {
    let outcome: unknown = 'pending'
    promise.then(
      (value) => (outcome = value),
      (error: unknown) => (outcome = error)
    )
    await new Promise((resolve) => setImmediate(resolve))
    return outcome
  }

  test('resolves the first message of its case that matches, nothing else', async ({ assert }) => {
    const { sockets, timers, options, send } = fakes()
    const client = openSocket('ws://x', options)
    const unshare = shareSocket(client)
    const waiting = waitForMessage(
      'scanforms_upload',
      (d) => (d as { token_form?: string }).token_form === 'a',
      5000,
      undefined,
      options
    )
    send(sockets[0]!, { case: 'scanforms_upload', data: { token_form: 'b' } })
    send(sockets[0]!, { case: 'print_forms', data: { token_form: 'a' } })
    // A match that throws is no match.
    send(sockets[0]!, { case: 'scanforms_upload', data: null })
    assert.equal(await settled(waiting), 'pending')
    send(sockets[0]!, { case: 'scanforms_upload', data: { token_form: 'a', path: '/1' } })
    send(sockets[0]!, { case: 'scanforms_upload', data: { token_form: 'a', path: '/2' } })
    assert.deepEqual(await waiting, { token_form: 'a', path: '/1' })
    assert.lengthOf(
      timers.filter((t) => t.ms === 5000),
      0,
      'its timer is cleared'
    )
    unshare()
    client.close()
  })

  test('waits for a socket shared later, or a new one after a reconnecting session', async ({ assert }) => {
    const { sockets, options, send } = fakes()
    const waiting = waitForMessage('print_forms', () => true, 5000, undefined, options)
    const first = openSocket('ws://x', options)
    const unshareFirst = shareSocket(first)
    unshareFirst()
    first.close()
    const second = openSocket('ws://x', options)
    const unshare = shareSocket(second)
    send(sockets[1]!, { case: 'print_forms', data: { status: 'done' } })
    assert.deepEqual(await waiting, { status: 'done' })
    unshare()
    second.close()
  })

  test('rejects after its time, or when aborted', async ({ assert }) => {
    const { timers, options } = fakes()
    const late = waitForMessage('scanforms_upload', () => true, 120_000, undefined, options)
    assert.equal(timers.at(-1)!.ms, 120_000)
    timers.at(-1)!.fn()
    const error = await settled(late)
    assert.instanceOf(error, SocketWaitTimeout)
    assert.equal((error as Error).message, 'no "scanforms_upload" message within 120 s')

    const stop = new AbortController()
    const dropped = waitForMessage('scanforms_upload', () => true, 5000, stop.signal, options)
    stop.abort(new Error('the scan call failed'))
    assert.equal(((await settled(dropped)) as Error).message, 'the scan call failed')
    assert.equal(
      ((await settled(waitForMessage('x', () => true, 5000, stop.signal, options))) as Error).message,
      'the scan call failed'
    )
  })
})
