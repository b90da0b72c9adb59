import { test } from '@japa/runner'
import { idlePhase, WARN_BEFORE_MS } from '../src/lib/inactivity.js'

test.group('inactivity countdown', () => {
  test('the warning shows in the last minute and expiry follows', ({ assert }) => {
    const idle = 30 * 60_000
    assert.equal(WARN_BEFORE_MS, 60_000)
    assert.deepEqual(idlePhase(0, idle - 61_000, idle), { phase: 'active' })
    assert.deepEqual(idlePhase(0, idle - 59_500, idle), { phase: 'warning', secondsLeft: 60 })
    assert.deepEqual(idlePhase(0, idle - 1, idle), { phase: 'warning', secondsLeft: 1 })
    assert.deepEqual(idlePhase(0, idle, idle), { phase: 'expired' })
  })
})
