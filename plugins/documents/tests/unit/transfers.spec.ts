import { test } from '@japa/runner'
import { install } from '@sinonjs/fake-timers'
import { FINISHED_LINGER_MS, startTransfer, subscribeTransfers, transfersNow } from '../../web/library/transfers.ts'

/** The progress panel's list (spec 001 §2, §9): items start, move, finish, and leave 2 s after finishing. */
test.group('documents transfers', (group) => {
  let clock: ReturnType<typeof install>
  group.each.setup(() => {
    clock = install({ toFake: ['setTimeout'] })
    return () => clock.uninstall()
  })

  test('an item moves with its bytes and leaves 2 s after it finishes, done or failed', ({ assert }) => {
    let notified = 0
    const stop = subscribeTransfers(() => notified++)
    const up = startTransfer('acta.pdf', 'up', 100)
    const down = startTransfer('notas.txt', 'down', null)
    up.progress(40, 100)
    down.progress(10, null)
    assert.deepEqual(
      transfersNow().map((t) => [t.name, t.direction, t.loaded, t.total, t.state]),
      [
        ['acta.pdf', 'up', 40, 100, 'running'],
        ['notas.txt', 'down', 10, null, 'running'],
      ]
    )
    up.done()
    down.failed()
    assert.deepEqual(
      transfersNow().map((t) => t.state),
      ['done', 'failed']
    )
    clock.tick(FINISHED_LINGER_MS - 1)
    assert.lengthOf(transfersNow(), 2, 'still shown just before 2 s')
    clock.tick(1)
    assert.lengthOf(transfersNow(), 0)
    assert.equal(FINISHED_LINGER_MS, 2000)
    assert.isAbove(notified, 5)
    stop()
  })
})
