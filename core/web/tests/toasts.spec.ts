import { test } from '@japa/runner'
import { TOAST_DURATION_MS, TOAST_TICK_MS, createToastStore, toastPhase, type Clock } from '../src/toasts.js'

/** A hand-driven clock: `advance` moves time and fires the interval as a real one would. */
function fakeClock() {
  let now = 1_000_000
  let interval: { fn: () => void; ms: number; next: number } | null = null
  const clock: Clock & { advance(ms: number): void; running(): boolean } = {
    now: () => now,
    setInterval: (fn, ms) => {
      interval = { fn, ms, next: now + ms }
      return interval
    },
    clearInterval: (handle) => {
      if (handle === interval) interval = null
    },
    advance(ms) {
      const end = now + ms
      while (interval && interval.next <= end) {
        now = interval.next
        interval.next += interval.ms
        interval.fn()
      }
      now = end
    },
    running: () => interval !== null,
  }
  return clock
}

test.group('toastPhase', () => {
  test('a toast is shown for 6 s, fades during its last second, then is gone', ({ assert }) => {
    const t0 = 50_000
    assert.equal(TOAST_DURATION_MS, 7000)
    assert.equal(toastPhase(t0, t0), 'shown')
    assert.equal(toastPhase(t0, t0 + 5999), 'shown')
    assert.equal(toastPhase(t0, t0 + 6000), 'fading')
    assert.equal(toastPhase(t0, t0 + 6999), 'fading')
    assert.equal(toastPhase(t0, t0 + 7000), 'gone')
    assert.equal(toastPhase(t0, t0 + 60_000), 'gone')
  })

  test('a clock running behind the creation time keeps the toast shown', ({ assert }) => {
    assert.equal(toastPhase(10_000, 9_000), 'shown')
  })
})

test.group('toast store', () => {
  test('checks every second: shown, fading at 1 s left, removed at 7 s', ({ assert }) => {
    const clock = fakeClock()
    const store = createToastStore(clock)
    let notifications = 0
    store.subscribe(() => notifications++)

    const id = store.success('saved')
    assert.equal(TOAST_TICK_MS, 1000)
    assert.isTrue(clock.running())
    assert.deepInclude(store.getSnapshot()[0], { id, type: 'success', message: 'saved', phase: 'shown' })

    clock.advance(5000)
    assert.equal(store.getSnapshot()[0]!.phase, 'shown')
    clock.advance(1000)
    assert.equal(store.getSnapshot()[0]!.phase, 'fading')
    clock.advance(1000)
    assert.lengthOf(store.getSnapshot(), 0)
    assert.isFalse(clock.running(), 'the timer stops when nothing is left')
    assert.equal(notifications, 3) // pushed, fading, removed
  })

  test('toasts age independently and keep their order', ({ assert }) => {
    const clock = fakeClock()
    const store = createToastStore(clock)
    store.error('first')
    clock.advance(3000)
    store.info('second')
    clock.advance(3000)
    assert.deepEqual(
      store.getSnapshot().map((t) => [t.message, t.type, t.phase]),
      [
        ['first', 'error', 'fading'],
        ['second', 'info', 'shown'],
      ]
    )
    clock.advance(1000)
    assert.deepEqual(
      store.getSnapshot().map((t) => t.message),
      ['second']
    )
    clock.advance(3000)
    assert.lengthOf(store.getSnapshot(), 0)
  })

  test('the snapshot is stable between changes and dismiss removes at once', ({ assert }) => {
    const clock = fakeClock()
    const store = createToastStore(clock)
    const a = store.push('info', 'a')
    store.push('success', 'b')
    const before = store.getSnapshot()
    clock.advance(1000)
    assert.strictEqual(store.getSnapshot(), before, 'no phase changed, same array')
    store.dismiss(a)
    assert.deepEqual(
      store.getSnapshot().map((t) => t.message),
      ['b']
    )
    store.dismiss(12345)
    assert.lengthOf(store.getSnapshot(), 1)
  })

  test('unsubscribed listeners are not called', ({ assert }) => {
    const store = createToastStore(fakeClock())
    let calls = 0
    const unsubscribe = store.subscribe(() => calls++)
    store.info('x')
    unsubscribe()
    store.info('y')
    assert.equal(calls, 1)
  })
})
