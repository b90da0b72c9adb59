import { test } from '@japa/runner'
import { DOWNLOAD_LINGER_MS, MODAL_DELAY_MS, Overlays, type OverlayTimers } from '../src/form/overlays.js'
import { safeModalUrl } from '../src/form/modal_url.js'

/** A hand-driven clock: `advance` moves time and fires the timeouts that fall due, in order. */
function fakeTimers() {
  let now = 0
  const pending = new Map<number, { at: number; fn: () => void }>()
  let nextHandle = 1
  const timers: OverlayTimers & { advance(ms: number): void } = {
    setTimeout: (fn, ms) => {
      pending.set(nextHandle, { at: now + ms, fn })
      return nextHandle++
    },
    clearTimeout: (handle) => pending.delete(handle as number),
    advance(ms) {
      const end = now + ms
      for (;;) {
        const due = [...pending].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0]
        if (!due) break
        pending.delete(due[0])
        now = due[1].at
        due[1].fn()
      }
      now = end
    },
  }
  return timers
}

test.group('form overlays', () => {
  test('a modal opens after the spec delay, a later one replaces it, close empties it', ({ assert }) => {
    const clock = fakeTimers()
    const overlays = new Overlays(clock)
    let seen = 0
    overlays.subscribe(() => seen++)
    overlays.openModal({ type: 'url', url: 'https://example.org' })
    clock.advance(MODAL_DELAY_MS - 1)
    assert.isNull(overlays.modal(), 'not before 100 ms')
    overlays.openModal({ type: 'pages', page: 'extra' })
    clock.advance(MODAL_DELAY_MS)
    assert.deepEqual(overlays.modal(), { type: 'pages', page: 'extra' })
    assert.equal(seen, 1, 'the first open was replaced before it showed')
    overlays.closeModal()
    assert.isNull(overlays.modal())
  })

  test('downloads are listed while produced, then done or failed, and can be dismissed', async ({ assert }) => {
    const overlays = new Overlays()
    let finish!: (v: string) => void
    const running = overlays.track('acta.pdf', new Promise<string>((resolve) => (finish = resolve)))
    assert.deepEqual(
      overlays.downloads().map((d) => [d.name, d.status]),
      [['acta.pdf', 'running']]
    )
    await assert.rejects(() => overlays.track('roto.pdf', Promise.reject(new Error('no'))))
    finish('ok')
    assert.equal(await running, 'ok')
    assert.deepEqual(
      overlays.downloads().map((d) => [d.name, d.status]),
      [
        ['acta.pdf', 'done'],
        ['roto.pdf', 'failed'],
      ]
    )
    overlays.dismissDownload(overlays.downloads()[0]!.id)
    assert.deepEqual(
      overlays.downloads().map((d) => d.name),
      ['roto.pdf']
    )
  })

  test('a finished download leaves the panel 2 s after it finished, a running one stays', async ({ assert }) => {
    const clock = fakeTimers()
    const overlays = new Overlays(clock)
    let finish!: (v: string) => void
    const slow = overlays.track('lento.pdf', new Promise<string>((resolve) => (finish = resolve)))
    await overlays.track('acta.pdf', Promise.resolve('ok'))
    await assert.rejects(() => overlays.track('roto.pdf', Promise.reject(new Error('no'))))
    assert.equal(DOWNLOAD_LINGER_MS, 2000)
    clock.advance(DOWNLOAD_LINGER_MS - 1)
    assert.deepEqual(
      overlays.downloads().map((d) => [d.name, d.status]),
      [
        ['lento.pdf', 'running'],
        ['acta.pdf', 'done'],
        ['roto.pdf', 'failed'],
      ]
    )
    clock.advance(1)
    assert.deepEqual(
      overlays.downloads().map((d) => d.name),
      ['lento.pdf'],
      'a running one is never removed'
    )
    clock.advance(60_000)
    finish('ok')
    await slow
    assert.deepEqual(
      overlays.downloads().map((d) => d.status),
      ['done']
    )
    clock.advance(DOWNLOAD_LINGER_MS)
    assert.deepEqual(overlays.downloads(), [])
  })

  test('a download dismissed before its 2 s is not removed twice', async ({ assert }) => {
    const clock = fakeTimers()
    const overlays = new Overlays(clock)
    let seen = 0
    overlays.subscribe(() => seen++)
    await overlays.track('acta.pdf', Promise.resolve('ok'))
    overlays.dismissDownload(overlays.downloads()[0]!.id)
    const after = seen
    clock.advance(DOWNLOAD_LINGER_MS)
    assert.equal(seen, after, 'nothing changed, nobody told')
  })

  test('only http(s) addresses open in a modal', ({ assert }) => {
    const origin = 'https://tramita.example'
    assert.equal(safeModalUrl('/consult?data=x', origin)?.href, 'https://tramita.example/consult?data=x')
    assert.equal(safeModalUrl('http://other.example/a', origin)?.origin, 'http://other.example')
    assert.isNull(safeModalUrl('javascript:alert(1)', origin))
    assert.isNull(safeModalUrl('data:text/html,<b>x</b>', origin))
  })
})
