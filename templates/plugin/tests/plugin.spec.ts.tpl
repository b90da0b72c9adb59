import { test } from '@japa/runner'

test.group('plugin __ID__', () => {
  test('is loaded and booted', async ({ client, assert }) => {
    const response = await client.get('/api/plugins')
    response.assertStatus(200)
    const entry = response.body().data.find((p: { id: string }) => p.id === '__ID__')
    assert.deepInclude(entry, { id: '__ID__', enabled: true, state: 'booted' })
  })

  test('answers in its route namespace', async ({ client }) => {
    const response = await client.get('/api/__ID__/ping')
    response.assertStatus(200)
    response.assertBody({ status: 'done', data: { plugin: '__ID__' } })
  })
})
