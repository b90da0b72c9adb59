import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { expiryJobs, liveSince } from '../../server/jobs/expire.js'
import { unfinishedOrders } from '../../server/jobs/results.js'
import { attachSockets, person, personSocket, resetDevices, waitUntil } from './devices_fixtures.js'

/** A job its agent never answered: failed after `jobMinutes`, its person told, never sent again. */
test.group('devices: jobs that waited too long', (group) => {
  group.setup(async () => {
    await attachSockets()
  })
  group.each.setup(async () => {
    await resetDevices()
  })

  test('an hour later a job still sent fails as agent off and is not sent at the next hello; a newer one stays', async ({
    client,
    assert,
  }) => {
    const ana = await person(client, 'ana_expiry', 'teacher')
    const now = new Date()
    const [agentId] = await db
      .table('devices_agents')
      .insert({ name: 'Lejos', status: 'INACTIVE', created_at: now, updated_at: now })
    const [machineId] = await db.table('devices_machines').insert({
      agent_id: agentId,
      uid: 'ipp://127.0.0.1:1/ipp/print',
      name: 'Impresora',
      token: 'f'.repeat(32),
      can_print: true,
      created_at: now,
      updated_at: now,
    })
    const job = (id: string, minutesAgo: number) => ({
      id,
      kind: 'print',
      agent_id: agentId,
      machine_id: machineId,
      user_id: ana.id,
      orders: JSON.stringify({ kind: 'print', id, machineUid: 'ipp://127.0.0.1:1/ipp/print', files: [] }),
      status: 'sent',
      created_at: new Date(now.getTime() - minutesAgo * 60_000),
      updated_at: now,
    })
    await db.table('devices_jobs').insert([job('viejo-0000', 61), job('nuevo-0000', 5)])
    const socket = await personSocket(ana)
    try {
      const expire = expiryJobs[0]!
      const ctx = { id: 'x', name: 'devices:expire_jobs', attempt: 1, signal: new AbortController().signal }
      assert.deepEqual(await expire.handle({}, ctx), { expired: 1 })
      assert.deepEqual(await expire.handle({}, ctx), { expired: 0 }, 'a second run finds nothing')
      assert.include(await db.from('devices_jobs').where('id', 'viejo-0000').first(), {
        status: 'failed',
        error: 'agent_off',
      })
      assert.include(await db.from('devices_jobs').where('id', 'nuevo-0000').first(), { status: 'sent' })
      await waitUntil(() => socket.of('print_forms').length === 1, 10_000, 'Ana told')
      assert.include(socket.of('print_forms')[0], {
        status: 'failed',
        message: 'El agente está apagado o desconectado.',
      })

      const pluginDb = { table: (name: string) => db.from(`devices_${name}`) } as never
      const orders = await unfinishedOrders(
        pluginDb,
        Number(agentId),
        await liveSince({ get: async () => ({}) } as never)
      )
      assert.deepEqual(
        orders.map((o) => o.id),
        ['nuevo-0000']
      )
    } finally {
      socket.close()
    }
  })
})
