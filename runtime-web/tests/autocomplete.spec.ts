import { test } from '@japa/runner'
import { coreRegistry, withDefaults } from '@tramita/contract'
import { evaluateChange, evaluateForm } from '@tramita/contract/evaluate'
import { asRunner, createSandbox, type ScriptRunner } from '@tramita/sandbox'
import { createAutocomplete, valueColumn, type AutocompleteHost } from '@tramita/plugin-actions/web'
import { FormStore } from '../src/form/store.js'

/**
 * Autocomplete rules with the real store and QuickJS. Lookups over HTTP (process, databases) are
 * tested against the real routes in plugins/actions/tests/autocomplete.spec.ts and in Chromium.
 */
const FIELDS = [
  { field_name: 'clave', type: 'text', data: {} },
  { field_name: 'nombre', type: 'text', data: {} },
  { field_name: 'ciudad', type: 'text', data: {} },
  { field_name: 'responsable', type: 'users', data: {} },
  { field_name: 'total', type: 'number', data: {} },
  { field_name: 'doble', type: 'number', data: { formule: 'total * 2' } },
]

type Rule = Record<string, unknown>

test.group('autocomplete rules', (group) => {
  let runner: ScriptRunner
  group.setup(async () => {
    runner = asRunner(await createSandbox())
    return () => runner.dispose()
  })

  function setUp(rules: Rule[], post: AutocompleteHost['post'] = () => Promise.reject(new Error('offline'))) {
    const reports: string[] = []
    const posts: [string, Record<string, string>][] = []
    const store = new FormStore({
      config: withDefaults({
        form: { pages: [{ name: 'P', layout: [FIELDS.map((f) => f.field_name)] }] },
        fields: FIELDS,
        validations: { autocomplete: rules },
      }),
      registry: coreRegistry(),
      mode: 'new',
      values: {},
      vars: { code_process: 'X1' },
      scripting: async () => ({ runner, evaluateChange, evaluateForm }),
      actions: async (form) => {
        const rules = createAutocomplete({
          form,
          host: {
            runScript: (source, vars) => runner.run(source, vars),
            post: (path, fields) => {
              posts.push([path, fields])
              return post(path, fields)
            },
            report: (rule, message) => {
              reports.push(`${rule}: ${message}`)
              form.scriptErrors.push({ field: rule, message })
            },
            user: { id: 7, username: 'ana', first_name: 'Ana', last_name: 'Ruiz' },
            users: async () => [
              { id: 7, username: 'ana', first_name: 'Ana', last_name: 'Ruiz' },
              { id: 8, username: 'beto', first_name: 'Beto', last_name: 'Gil' },
              { id: 9, username: 'caro', first_name: 'Carolina', last_name: 'Ruiz' },
            ],
          },
        })
        // The rules' runs, held so settle() can wait for each (the store does not wait for them).
        const track = (run: Promise<void>) => {
          running.add(run)
          return run.finally(() => running.delete(run))
        }
        return {
          run: async () => {},
          started: () => track(rules.started()),
          valuesChanged: (names: readonly string[]) => track(rules.changed(names)),
        }
      },
    })
    const running = new Set<Promise<void>>()
    /** Lets the rules started by the last change finish (their scripts, then their lookups, then what they set). */
    const settle = async () => {
      await store.idle()
      while (running.size > 0) {
        await Promise.allSettled([...running])
        await store.idle()
      }
    }
    return { store, reports, posts, settle }
  }

  test('now and set_user run once at load; formula gives the condition result as the value', async ({ assert }) => {
    const { store } = setUp([
      { id_field: 'nombre', action: 'now', origin: 'formula', query: { condition: '"hola " + code_process' } },
      { id_field: 'responsable', action: 'set_user', origin: 'users' },
      { id_field: 'ciudad', action: 'now', origin: 'users' },
    ])
    await store.start()
    assert.equal(store.value('nombre'), 'hola X1')
    assert.deepEqual(store.value('responsable'), [{ code: 7, label: 'Ana Ruiz' }])
    assert.equal(store.value('ciudad'), 'Ana Ruiz')
  })

  test('value rules follow the fields their condition reads; false or an error does nothing', async ({ assert }) => {
    const { store, reports, settle } = setUp([
      {
        id_field: 'nombre',
        action: 'value',
        origin: 'javascript',
        query: { condition: 'clave === "" ? false : clave.toUpperCase()' },
      },
      { id_field: 'ciudad', action: 'value', origin: 'formula', query: { condition: 'noSuchThing + clave' } },
      // A formula's result counts as a change too.
      { id_field: 'total', action: 'value', origin: 'formula', query: { condition: 'doble > 10 ? 1 : false' } },
    ])
    await store.start()
    store.setValue('nombre', 'previo')
    await settle()
    assert.equal(store.value('nombre'), 'previo', 'a change of its own field does not run it')
    store.setValue('clave', 'abc')
    await settle()
    assert.equal(store.value('nombre'), 'ABC')
    assert.equal(store.value('ciudad'), '', 'a failing condition leaves the field')
    assert.isTrue(reports.some((r) => r.startsWith('autocomplete ciudad: condition:')))
    store.setValue('clave', '')
    await settle()
    assert.equal(store.value('nombre'), 'ABC', 'false: the field keeps its value')
    store.setValue('total', 8)
    await settle()
    assert.equal(store.value('total'), 1, 'doble (a formula) became 16: the rule filled total')
  })

  test('autocomplete offers the looked-up values as suggestions; javascript may give a list', async ({ assert }) => {
    const { store, settle } = setUp([
      {
        id_field: 'ciudad',
        action: 'autocomplete',
        origin: 'javascript',
        query: { condition: '["Lima", "La Paz", clave, "Lima"].filter(Boolean)' },
      },
    ])
    await store.start()
    await settle()
    assert.deepEqual(store.optionsOf('ciudad'), ['Lima', 'La Paz'])
    store.setValue('clave', 'Quito')
    await settle()
    assert.deepEqual(store.optionsOf('ciudad'), ['Lima', 'La Paz', 'Quito'])
    assert.equal(store.value('ciudad'), '', 'suggestions only: the value is the user’s')
  })

  test('the pattern, filled from the form, filters the users origin and is the databases search', async ({
    assert,
  }) => {
    const { store, settle, posts } = setUp(
      [
        { id_field: 'ciudad', action: 'autocomplete', origin: 'users', query: { pattern: '${clave}', limit: 5 } },
        { id_field: 'nombre', action: 'value', origin: 'databases', query: { id_db: 3, pattern: 'ref ${clave}' } },
      ],
      async () => [{ CODE_PROCESS: 'A-1' }]
    )
    await store.start()
    await settle()
    // No text yet: every user.
    assert.deepEqual(store.optionsOf('ciudad'), ['Ana Ruiz', 'Beto Gil', 'Carolina Ruiz'])
    store.setValue('clave', 'ruiz')
    await settle()
    assert.deepEqual(store.optionsOf('ciudad'), ['Ana Ruiz', 'Carolina Ruiz'])
    const search = posts.map(([, fields]) => JSON.parse(fields.data ?? '{}').search as string)
    assert.include(search, 'ref ruiz')
    assert.equal(store.value('nombre'), 'A-1')
  })

  test('a failed lookup keeps the field: network error, fail answer, bad shape, indexing', async ({ assert }) => {
    const answers: (() => Promise<unknown>)[] = [
      () => Promise.reject(new Error('NetworkError')),
      () => Promise.reject(new Error('formulario desconocido')),
      () => Promise.resolve({ not: 'rows' }),
      () => Promise.resolve([{ nombre: 'Ana' }]),
    ]
    let n = 0
    const { store, posts, reports, settle } = setUp(
      [
        {
          id_field: 'nombre',
          action: 'value',
          origin: 'process',
          refers: 'nombre',
          query: { id: 'FORM-A', condition: 'clave ? { clave: clave } : false', get_columns: ['nombre', 'dias'] },
        },
        { id_field: 'ciudad', action: 'value', origin: 'indexing', query: { id_ind: 3, condition: 'clave' } },
      ],
      (_path, fields) => (fields.type === 'select_indexing' ? Promise.reject(new Error('refused')) : answers[n++]!())
    )
    await store.start()
    store.setValue('nombre', 'tecleado')
    store.setValue('ciudad', 'Quito')
    for (const key of ['k1', 'k2', 'k3']) {
      store.setValue('clave', key)
      await settle()
      assert.equal(store.value('nombre'), 'tecleado', key)
    }
    assert.equal(store.value('ciudad'), 'Quito')
    store.setValue('clave', 'k4')
    await settle()
    assert.equal(store.value('nombre'), 'Ana')
    const process = posts.filter(([, f]) => f.type === 'select_forms')
    assert.deepEqual(process[0], [
      '/inside/forms/links_modules',
      {
        type: 'select_forms',
        id_form: 'FORM-A',
        fields_select: '["nombre","dias"]',
        jsonwhere: '{"clave":"k1"}',
        limit: '10',
      },
    ])
    assert.lengthOf(
      reports.filter((r) => r.includes('lookup failed, field kept')),
      3 + 4
    )
  })

  test('python is never run and is reported once; the value column', async ({ assert }) => {
    const { store, posts } = setUp([
      { id_field: 'nombre', action: 'now', origin: 'python', query: { condition: 'print(1)' } },
    ])
    await store.start()
    store.setValue('clave', 'x')
    await store.idle()
    assert.equal(store.value('nombre'), '')
    assert.lengthOf(posts, 0)
    assert.deepEqual(
      store.scriptErrors.map((e) => e.field),
      ['autocomplete nombre']
    )
    assert.match(store.scriptErrors[0]!.message, /Python rules are not run/)
    const rule = { id_field: 'a', action: 'value', origin: 'process' } as const
    assert.equal(valueColumn({ ...rule, refers: 'x', query: { get_columns: ['y'] } }), 'x')
    assert.equal(valueColumn({ ...rule, refers: '', query: { get_columns: ['y'] } }), 'y')
    assert.equal(valueColumn(rule), 'CODE_PROCESS')
  })
})
