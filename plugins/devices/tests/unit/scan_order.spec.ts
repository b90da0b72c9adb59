import { test } from '@japa/runner'
import { DEVICES_ROUTES } from '../../shared/devices.js'
import { isGoodScan, placeAndWait, scanCallFields, scanTokenForm, type SocketEvent } from '../../web/scan_order.js'
import { machineAbilities } from '../../web/form_devices/machines.js'

/** A socket whose waits `emit` releases, that notes when a wait is given up (its signal aborted). */
function fakeSocket() {
  const waits: { kase: string; match: (data: unknown) => boolean; resolve(data: unknown): void }[] = []
  const dropped: unknown[] = []
  const socketEvent: SocketEvent = (kase, match, _ms, signal) =>
    new Promise((resolve, reject) => {
      const wait = { kase, match, resolve }
      waits.push(wait)
      signal?.addEventListener('abort', () => {
        waits.splice(waits.indexOf(wait), 1)
        dropped.push(signal.reason)
        reject(signal.reason)
      })
    })
  const emit = (kase: string, data: unknown) => {
    for (const wait of [...waits]) if (wait.kase === kase && wait.match(data)) wait.resolve(data)
  }
  return { socketEvent, emit, waits, dropped }
}

const silent = (why: string) => new Error(`silent: ${why}`)

test.group('devices: a scan asked from the browser (scan_order.ts)', () => {
  test('the scan route’s fields: the spec’s defaults, a dialog’s token_form with its side', ({ assert }) => {
    const token = scanTokenForm('cedula', 'abc', 'back')
    assert.equal(token, 'cedula$$$abc$$$back')
    assert.match(scanTokenForm('cedula', undefined, 'front'), /^cedula\$\$\$[0-9a-f]{24}\$\$\$front$/)
    const call = scanCallFields('m-1', token)
    assert.equal(call.path, DEVICES_ROUTES.scan.path)
    assert.deepEqual(JSON.parse(call.fields.config_printer), {
      duplex: false,
      color: true,
      dpi: 300,
      paper: 'letter',
      height: 22,
      width: 28,
      inputSource: 'Platen',
      ocr: false,
      format: 'pdf',
    })
    assert.include(call.fields, { token_machine: 'm-1', token_form: token })
    assert.isTrue(isGoodScan({ token_form: token, status: 'good', path: '/data/files/a.pdf' }))
    assert.isFalse(isGoodScan({ token_form: token, status: 'good' }))
    assert.isFalse(isGoodScan({ token_form: token, status: 'fail', message: 'Ocurrió un error al escanear.' }))
  })

  test('listens before placing: an answer that comes during the call is taken', async ({ assert }) => {
    const socket = fakeSocket()
    const answer = await placeAndWait<{ id: string }>(
      socket.socketEvent,
      { event: 'scan', match: (data) => data.id === 'mine', ms: 1000 },
      async () => {
        socket.emit('scan', { id: 'other' })
        socket.emit('scan', { id: 'mine' })
      },
      silent
    )
    assert.deepEqual(answer, { id: 'mine' })
  })

  test('a refused call rejects with its error and stops listening; silence is the caller’s error', async ({
    assert,
  }) => {
    const socket = fakeSocket()
    const refused = new Error('El agente está apagado o desconectado.')
    await assert.rejects(
      () =>
        placeAndWait(
          socket.socketEvent,
          { event: 'scan', match: () => true, ms: 1000 },
          () => Promise.reject(refused),
          silent
        ),
      'El agente está apagado o desconectado.'
    )
    assert.lengthOf(socket.waits, 0)
    const quiet: SocketEvent = () => Promise.reject(new Error('no "scan" message within 1 s'))
    await assert.rejects(
      () => placeAndWait(quiet, { event: 'scan', match: () => true, ms: 1000 }, async () => undefined, silent),
      'silent: no "scan" message within 1 s'
    )
  })

  test('cancelled (the dialog’s Stop waiting): rejects with the signal’s reason, the wait given up', async ({
    assert,
  }) => {
    const socket = fakeSocket()
    const controller = new AbortController()
    const scanning = placeAndWait(
      socket.socketEvent,
      { event: 'scan', match: () => true, ms: 1000, signal: controller.signal },
      async () => undefined,
      silent
    )
    await Promise.resolve()
    assert.lengthOf(socket.waits, 1)
    controller.abort(new Error('cancelled'))
    await assert.rejects(() => scanning, 'cancelled')
    assert.lengthOf(socket.waits, 0)
    // An answer after that reaches nobody.
    socket.emit('scan', { id: 'late' })
  })

  test('what a machine can do, from its availability (spec 001 §5)', ({ assert }) => {
    assert.deepEqual(machineAbilities('available'), { canScan: true, canPrint: true })
    assert.deepEqual(machineAbilities('scan only'), { canScan: true, canPrint: false })
    assert.deepEqual(machineAbilities('print only'), { canScan: false, canPrint: true })
    assert.deepEqual(machineAbilities('not available'), { canScan: false, canPrint: false })
  })
})
