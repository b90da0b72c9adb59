import { test } from '@japa/runner'
import { MODAL_DELAY_MS, Overlays, safeModalUrl } from '../src/form/overlays.js'

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

test.group('form overlays', () => {
  test('a modal opens after the spec delay, a later one replaces it, close empties it', async ({ assert }) => {
    const overlays = new Overlays()
    let seen = 0
    overlays.subscribe(() => seen++)
    overlays.openModal({ type: 'url', url: 'https://example.org' })
    assert.isNull(overlays.modal(), 'not before 100 ms')
    overlays.openModal({ type: 'pages', page: 'extra' })
    await wait(MODAL_DELAY_MS + 30)
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

  test('only http(s) addresses open in a modal', ({ assert }) => {
    const origin = 'https://tramita.example'
    assert.equal(safeModalUrl('/consult?data=x', origin)?.href, 'https://tramita.example/consult?data=x')
    assert.equal(safeModalUrl('http://other.example/a', origin)?.origin, 'http://other.example')
    assert.isNull(safeModalUrl('javascript:alert(1)', origin))
    assert.isNull(safeModalUrl('data:text/html,<b>x</b>', origin))
  })
})
