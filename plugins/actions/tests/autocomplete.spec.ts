import { test } from '@japa/runner'
import { coreRegistry, withDefaults } from '@tramita/contract'
import { evaluateChange, evaluateForm } from '@tramita/contract/evaluate'
import { asRunner, createSandbox, type ScriptRunner } from '@tramita/sandbox'
import { createAutocomplete } from '../web/index.ts'
import { makeUser, resetAuthTables, tokenFor } from '../../../core/server/tests/helpers/auth.ts'
import { publishPermit, resetProcessTables } from '../../../core/server/tests/helpers/process.ts'
import { FormStore } from '../../../runtime-web/src/form/store.ts'

type Client = Parameters<typeof tokenFor>[0]

const text = (field_name: string) => ({ field_name, type: 'text', data: {} })

/** Autocomplete rules of a form (runtime-web's store) over the real lookup routes, process and databases. */
test.group('autocomplete rules over the lookup routes', (group) => {
  let runner: ScriptRunner
  group.setup(async () => {
    runner = asRunner(await createSandbox())
    return () => runner.dispose()
  })
  group.each.setup(async () => {
    await resetProcessTables()
    await resetAuthTables()
  })

  /** The runtime's call: form-data with the case, the answer's data, a 'fail' status rejected. */
  const poster = (client: Client, token: string) => async (path: string, fields: Record<string, string>) => {
    const body = (
      await client
        .post(path)
        .header('token', token)
        .form({ case: 'POST', ...fields })
    ).body()
    if (body.status !== 'done') throw new Error(String(body.message ?? 'Error'))
    return body.data as unknown
  }

  test('process and databases origins fill and suggest from another form’s cases', async ({ client, assert }) => {
    const permit = await publishPermit()
    await makeUser({ username: 'solicitante', role: 'student' })
    const token = await tokenFor(client, 'solicitante')
    for (const values of [
      { nombre: 'Ana', dias: 3 },
      { nombre: 'Beto', dias: 12 },
    ]) {
      const started = await client
        .post('/data/form/flows/process')
        .header('token', token)
        .form({ case: 'POST', data: permit.key, flow_values: JSON.stringify(values) })
      started.assertStatus(200)
    }
    const when = 'buscado ? { nombre: buscado } : false'
    // The rules' runs, held so the test can wait for each (the store does not wait for them).
    const running = new Set<Promise<void>>()
    const track = (run: Promise<void>) => {
      running.add(run)
      return run.finally(() => running.delete(run))
    }
    const reports: string[] = []
    const store = new FormStore({
      config: withDefaults({
        form: { pages: [{ name: 'P', layout: [['buscado', 'dias', 'codigo', 'lista', 'nota']] }] },
        fields: ['buscado', 'dias', 'codigo', 'lista', 'nota'].map(text),
        validations: {
          autocomplete: [
            {
              id_field: 'dias',
              action: 'value',
              origin: 'process',
              refers: 'dias',
              query: { id: permit.key, condition: when },
            },
            // No refers nor get_columns: the case code.
            { id_field: 'codigo', action: 'value', origin: 'databases', query: { id_db: permit.key, condition: when } },
            {
              id_field: 'lista',
              action: 'autocomplete',
              origin: 'databases',
              refers: 'nombre',
              query: { id_db: permit.key, order: 'nombre asc' },
            },
            {
              id_field: 'nota',
              action: 'value',
              origin: 'process',
              refers: 'nombre',
              query: { id: 'nope', condition: when },
            },
          ],
        },
      }),
      registry: coreRegistry(),
      mode: 'new',
      values: { nota: 'mía' },
      scripting: async () => ({ runner, evaluateChange, evaluateForm }),
      actions: async (form) => {
        const rules = createAutocomplete({
          form,
          host: {
            runScript: (source, vars) => runner.run(source, vars),
            post: poster(client, token),
            report: (rule, message) => void reports.push(`${rule}: ${message}`),
            user: null,
            users: async () => [],
          },
        })
        return {
          run: async () => {},
          started: () => track(rules.started()),
          valuesChanged: (names: readonly string[]) => track(rules.changed(names)),
        }
      },
    })
    await store.start()
    assert.deepEqual(store.optionsOf('lista'), ['Ana', 'Beto'])

    /** Every rule the last change started has run: its script, its lookup and what it set. */
    const settle = async () => {
      await store.idle()
      while (running.size > 0) {
        await Promise.allSettled([...running])
        await store.idle()
      }
    }
    // Ana's case is the older one: without the filter the newest (Beto's) would answer.
    store.setValue('buscado', 'Ana')
    await settle()
    assert.equal(store.value('dias'), '3')
    assert.match(String(store.value('codigo')), /^[0-9A-Z]{5}-[0-9A-Z]{5}$/)
    assert.equal(store.value('nota'), 'mía', 'the failed lookup (unknown form) left the field')
    assert.isTrue(
      reports.some((r) => r.startsWith('autocomplete nota: lookup failed, field kept: ') && r.includes('nope'))
    )

    // A name no case has: the fields keep what they had.
    const reported = reports.length
    store.setValue('buscado', 'Zoe')
    await settle()
    assert.isAbove(reports.length, reported, "the rules ran for Zoe (nota's lookup failed again)")
    assert.equal(store.value('dias'), '3')
  })
})
