import { test } from '@japa/runner'
import { ALL_MACHINES_PATH, loadMachines, machineOptions } from '../src/form/services.js'
import { peopleIdOf, peopleLabelOf, peopleValueOf } from '../src/form/renderers/fields/logic.js'

/** A machine as the devices plugin's all_machines answers it (its shared/devices.ts MachineOption). */
const MACHINE = {
  token: 'm-1',
  name: 'Recepción',
  ubication: 'Piso 1',
  model: 'LaserJet 400',
  ip: '10.0.0.7',
  trays: [{ name: 'Bandeja 1' }, { name: 'Bandeja 2' }],
  availability: 'available',
}

/** A fetch answering every call with `status` and `body`, recording what was asked. */
function answering(status: number, body: unknown) {
  const asked: { url: string; init: RequestInit }[] = []
  const request = async (url: string | URL | Request, init?: RequestInit) => {
    asked.push({ url: String(url), init: init ?? {} })
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })
  }
  return { asked, request: request as typeof fetch }
}

test.group('the machines picker', () => {
  test("all_machines' machines become options the picker and the contract's value understand", ({ assert }) => {
    const [option] = machineOptions([MACHINE])
    assert.deepEqual(option, {
      code: 'm-1',
      label: 'Recepción',
      token: 'm-1',
      ubication: 'Piso 1',
      model: 'LaserJet 400',
      ip: '10.0.0.7',
      trays: [{ name: 'Bandeja 1' }, { name: 'Bandeja 2' }],
    })
    assert.equal(peopleIdOf('machines', option!), 'm-1')
    assert.equal(peopleLabelOf('machines', option!), 'LaserJet 400 (Piso 1)')
    assert.deepEqual(peopleValueOf('machines', option!), {
      token: 'm-1',
      ubication: 'Piso 1',
      model: 'LaserJet 400',
      ip: '10.0.0.7',
      trays: [{ name: 'Bandeja 1' }, { name: 'Bandeja 2' }],
    })
  })

  test('odd rows are mended or left out', ({ assert }) => {
    assert.deepEqual(machineOptions(null), [])
    assert.deepEqual(machineOptions([{ name: 'sin token' }, null, { token: 'm-2', trays: ['A', { name: 7 }] }]), [
      {
        code: 'm-2',
        label: 'm-2',
        token: 'm-2',
        ubication: '',
        model: '',
        ip: '',
        trays: [{ name: '' }, { name: '7' }],
      },
    ])
  })

  test('loads them with a POST to all_machines', async ({ assert }) => {
    const { asked, request } = answering(200, { status: 'done', data: { machines: [MACHINE] } })
    const options = await loadMachines(request)
    assert.deepEqual(
      options.map((o) => o.code),
      ['m-1']
    )
    assert.equal(asked[0]!.url, ALL_MACHINES_PATH)
    assert.equal(asked[0]!.init.method, 'POST')
    assert.equal((asked[0]!.init.body as FormData).get('case'), 'POST')
  })

  test('without the devices plugin (no such route) there are none, quietly; other failures fail', async ({
    assert,
  }) => {
    const missing = answering(404, { status: 'fail', message: 'No existe la ruta' })
    assert.deepEqual(await loadMachines(missing.request), [])
    const refused = answering(401, { status: 'fail', message: 'Unauthorized' })
    await assert.rejects(() => loadMachines(refused.request), 'Unauthorized')
  })
})
