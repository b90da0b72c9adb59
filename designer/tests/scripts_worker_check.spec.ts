import { test } from '@japa/runner'
import { workerCheck } from '../src/scripts/worker_check.js'
import { waitUntil } from '../../core/server/tests/helpers/wait.js'

/** The script editor's TypeScript check always ends: retried when it throws, given up when it hangs. */
test.group('scripts: the worker check', () => {
  test('a check that throws is tried again until it answers', async ({ assert }) => {
    let calls = 0
    const found = await workerCheck(
      async () => {
        if (++calls < 3) throw new Error('TypeScript not registered!')
        return ['clean']
      },
      { pauseMs: 1 }
    )
    assert.deepEqual(found, ['clean'])
    assert.equal(calls, 3)
  })

  test('a check that keeps throwing gives up with "types unknown"', async ({ assert }) => {
    let calls = 0
    const found = await workerCheck(
      async () => {
        calls++
        throw new Error('worker could not be created')
      },
      { tries: 3, pauseMs: 1 }
    )
    assert.isUndefined(found)
    assert.equal(calls, 3)
  })

  test('a check that hangs is given up, and what it says late is passed on', async ({ assert }) => {
    let answer!: (value: string[]) => void
    const late: string[][] = []
    let calls = 0
    const found = await workerCheck(
      () => {
        calls++
        return new Promise<string[]>((resolve) => (answer = resolve))
      },
      { timeoutMs: 5, late: (value) => late.push(value) }
    )
    assert.isUndefined(found)
    assert.equal(calls, 1, 'a hung worker is not asked again')
    answer(['a type error'])
    await waitUntil(() => late.length > 0, 5_000, 'the late answer')
    assert.deepEqual(late, [['a type error']])
  })

  test('a check no longer wanted (a newer text) is not retried', async ({ assert }) => {
    let calls = 0
    let wanted = true
    const found = await workerCheck(
      async () => {
        calls++
        wanted = false
        throw new Error('worker torn down')
      },
      { pauseMs: 1, wanted: () => wanted }
    )
    assert.isUndefined(found)
    assert.equal(calls, 1)
  })
})
