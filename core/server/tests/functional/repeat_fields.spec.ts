import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { makeUser, resetAuthTables, tokenFor } from '#tests/helpers/auth'
import { publishPermit, resetProcessTables } from '#tests/helpers/process'

type Client = Parameters<typeof tokenFor>[0]

/** Companions, one or two: a required name, and a document number only for a passport (a cell condition). */
const COMPANIONS = {
  field_name: 'acompanantes',
  type: 'repeat',
  data: {
    label: { value: 'Acompañantes' },
    min_rows: 1,
    max_rows: 2,
    cells: [
      { field_name: 'nombre', type: 'text', data: { label: { value: 'Nombre' }, validate: { required: true } } },
      {
        field_name: 'doc',
        type: 'radios',
        data: {
          label: { value: 'Documento' },
          options: [
            { id: 'cc', label: 'Cédula' },
            { id: 'pp', label: 'Pasaporte' },
          ],
        },
      },
      {
        field_name: 'numero',
        type: 'text',
        data: { label: { value: 'Número' }, validate: { required: true }, show_with_formule: "row.doc === 'pp'" },
      },
    ],
  },
}

/** A repeating group through the save route: rows and cells checked by the contract on the server. */
test.group('repeating groups in saves', (group) => {
  group.each.setup(async () => {
    await resetProcessTables()
    await resetAuthTables()
  })

  function post(client: Client, path: string, token: string, fields: Record<string, string>) {
    let request = client.post(path).header('token', token)
    for (const [name, value] of Object.entries({ case: 'POST', ...fields })) request = request.field(name, value)
    return request
  }

  test('too many rows, a wrong cell and an empty required cell are refused; good rows are stored', async ({
    client,
    assert,
  }) => {
    const form = await publishPermit({ extraField: COMPANIONS })
    await makeUser({ username: 'solicitante', role: 'student' })
    const applicant = await tokenFor(client, 'solicitante')
    const start = (acompanantes: unknown, lang?: string) =>
      post(client, '/data/form/flows/process', applicant, {
        data: form.key,
        flow_values: JSON.stringify({ nombre: 'Ana', dias: 2, acompanantes }),
        ...(lang ? { lang } : {}),
      })

    const three = Array.from({ length: 3 }, (_, i) => ({ nombre: `N${i}`, doc: 'cc' }))
    const tooMany = await start(three)
    tooMany.assertStatus(400)
    assert.deepEqual(tooMany.body().errors, [{ field: 'acompanantes', message: 'Se permiten como máximo 2 filas' }])

    const wrong = await start([{ nombre: 'Eva', doc: 'dni' }, { nombre: 7 }])
    wrong.assertStatus(400)
    assert.deepEqual(
      wrong.body().errors.map((e: { message: string }) => e.message),
      ['Fila 1, Documento: La opción «dni» no existe', 'Fila 2, Nombre: La información no es válida']
    )

    // A passport row needs its number (its condition shows it); a cédula row does not.
    const missing = await start([
      { nombre: 'Eva', doc: 'pp' },
      { nombre: '', doc: 'cc' },
    ])
    missing.assertStatus(400)
    assert.deepEqual(missing.body().missing, ['acompanantes.0.numero', 'acompanantes.1.nombre'])
    assert.lengthOf(await db.from('cases'), 0, 'nothing refused was stored')

    const rows = [
      { nombre: 'Eva', doc: 'pp', numero: 'X1' },
      { nombre: 'Leo', doc: 'cc', numero: '' },
    ]
    const started = await start(rows)
    started.assertStatus(200)
    const stored = await db.from('cases').where('id', started.body().data.id).firstOrFail()
    assert.deepEqual(JSON.parse(stored.values).acompanantes, rows)
  })
})
