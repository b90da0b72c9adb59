import { test } from '@japa/runner'
import { coreRegistry, importFormio, initialValues, withDefaults, type CaseMode } from '@tramita/contract'
import { evaluateChange, evaluateForm, initialState } from '@tramita/contract/evaluate'
import { asRunner, createSandbox, type Json, type ScriptRunner } from '@tramita/sandbox'
import { FormStore } from '../src/form/store.js'
import { hasScripts } from '../src/form/scripts.js'
import {
  clearLocalEdits,
  decodeBase64Json,
  encodeBase64Json,
  localEditsKey,
  readFormParams,
  readLocalEdits,
  writeLocalEdits,
} from '../src/form/params.js'

/** Two pages and a section page; a condition, a formula and an event script, run in a real QuickJS. */
const CONFIG = {
  form: {
    pages: [
      { name: 'Datos', layout: [['nombre', 'edad'], ['licencia'], ['bloque']] },
      { name: 'Extra', section: true, section_id: 'extra', layout: [['nota']] },
      { name: 'Cierre', layout: [['total', 'acepta']] },
    ],
  },
  fields: [
    { field_name: 'nombre', type: 'text', data: { validate: { required: true }, label: { value: 'Nombre' } } },
    {
      field_name: 'edad',
      type: 'number',
      data: { on_change: "if (edad > 60) setState('acepta', { natural: 'disabled' })" },
    },
    { field_name: 'licencia', type: 'text', data: { show_with_formule: 'edad >= 18', validate: { required: true } } },
    { field_name: 'nota', type: 'text', data: { validate: { required: true }, label: { value: 'Nota' } } },
    { field_name: 'total', type: 'number', data: { formule: 'edad * 2' } },
    { field_name: 'acepta', type: 'checkbox', saveable: false, data: {} },
  ],
  elements: [{ field_name: 'bloque', type: 'section', data: { section_id: 'extra' } }],
}

function storeFor(mode: CaseMode, runner: ScriptRunner, values: Record<string, unknown> = {}) {
  return new FormStore({
    config: withDefaults(CONFIG),
    registry: coreRegistry(),
    mode,
    task: mode === 'new' ? 'start' : undefined,
    values,
    scripting: async () => ({ runner, evaluateChange, evaluateForm }),
  })
}

test.group('form store', (group) => {
  let runner: ScriptRunner
  group.setup(async () => {
    runner = asRunner(await createSandbox())
    return () => runner.dispose()
  })

  test('conditions and formulas follow the values; sections are skipped in navigation', async ({ assert }) => {
    const store = storeFor('new', runner)
    await store.start()
    assert.deepEqual(store.pages, [0, 2])
    assert.isFalse(store.isShown('licencia'), 'edad is empty: the condition is false')
    store.setValue('edad', 20)
    await store.idle()
    assert.isTrue(store.isShown('licencia'))
    assert.equal(store.value('total'), 40)
    store.setValue('edad', 10)
    await store.idle()
    assert.isFalse(store.isShown('licencia'))
  })

  test('missing required fields in reading order, with the page to jump to (sections on their holder)', async ({
    assert,
  }) => {
    const store = storeFor('new', runner)
    await store.start()
    assert.deepEqual(
      store.missing().map((m) => [m.field, m.page]),
      [
        ['nombre', 0],
        ['nota', 0],
      ]
    )
    store.setValue('nombre', 'Ana')
    store.setValue('edad', 30)
    await store.idle()
    assert.deepEqual(
      store.missing().map((m) => m.field),
      ['licencia', 'nota']
    )
    // Send in new goes ahead anyway (spec 000 §5); a save does not.
    assert.isTrue(store.mayProceed('send'))
    assert.isFalse(store.mayProceed('save'))
  })

  test('navigation stays within the navigable pages', ({ assert }) => {
    const store = storeFor('new', runner)
    store.previous()
    assert.equal(store.currentPage(), 0)
    store.next()
    assert.equal(store.currentPage(), 2)
    assert.isTrue(store.isLastPage())
    store.next()
    assert.equal(store.currentPage(), 2)
    store.goToPage(1)
    assert.equal(store.currentPage(), 2, 'a section page is not a destination')
    store.goToPage(0)
    assert.equal(store.currentPage(), 0)
  })

  test('a page whose every item is hidden is passed over, and not counted', async ({ assert }) => {
    const config = withDefaults({
      form: {
        display: 'wizard',
        pages: [
          { name: 'Uno', layout: [['tipo']] },
          { name: 'Dos', layout: [['detalle', 'extra']] },
          { name: 'Tres', layout: [['cierre']] },
        ],
      },
      fields: [
        { field_name: 'tipo', type: 'text', data: {} },
        { field_name: 'detalle', type: 'text', data: { show_with_formule: "tipo == 'otro'" } },
        { field_name: 'extra', type: 'text', data: { show_with_formule: "tipo == 'otro'" } },
        { field_name: 'cierre', type: 'text', data: {} },
      ],
    })
    const store = new FormStore({
      config,
      registry: coreRegistry(),
      mode: 'new',
      values: {},
      scripting: async () => ({ runner, evaluateChange, evaluateForm }),
    })
    await store.start()
    assert.deepEqual(store.pageNumber(), { page: 1, pages: 2 })
    store.next()
    assert.equal(store.currentPage(), 2, 'Dos has nothing shown: straight to Tres')
    assert.isTrue(store.isLastPage())
    store.previous()
    assert.equal(store.currentPage(), 0)
    store.setValue('tipo', 'otro')
    await store.idle()
    assert.deepEqual(store.pageNumber(), { page: 1, pages: 3 })
    store.next()
    assert.equal(store.currentPage(), 1)
    assert.isFalse(store.isLastPage())
  })

  test('a conditional Form.io wizard page is skipped, as in Form.io, once imported', async ({ assert }) => {
    const { config } = importFormio({
      display: 'wizard',
      components: [
        { type: 'panel', key: 'p1', title: 'Uno', components: [{ type: 'textfield', key: 'tipo' }] },
        {
          type: 'panel',
          key: 'p2',
          title: 'Dos',
          conditional: { show: true, when: 'tipo', eq: 'otro' },
          components: [{ type: 'textfield', key: 'detalle' }],
        },
        { type: 'panel', key: 'p3', title: 'Tres', components: [{ type: 'textfield', key: 'cierre' }] },
      ],
    })
    const store = new FormStore({
      config: withDefaults(config),
      registry: coreRegistry(),
      mode: 'new',
      values: {},
      scripting: async () => ({ runner, evaluateChange, evaluateForm }),
    })
    await store.start()
    store.next()
    assert.equal(store.config.form.pages[store.currentPage()]?.name, 'Tres')
  })

  test('event scripts apply their effects', async ({ assert }) => {
    const store = storeFor('new', runner)
    store.setValue('edad', 70)
    store.fireEvent('edad', 'on_change')
    await store.idle()
    assert.isTrue(store.isDisabled('acepta'))
    assert.isFalse(store.showsRequired('acepta'))
  })

  test('see is read-only until edit values; stopping restores the saved values', async ({ assert }) => {
    const store = storeFor('see', runner, { nombre: 'Ana' })
    assert.isTrue(store.isReadOnly('nombre'))
    assert.isFalse(store.showsRequired('nombre'), 'no star in a read-only case')
    assert.deepEqual(store.missing(), [], 'see checks no required fields')
    store.setEditing(true)
    assert.isFalse(store.isReadOnly('nombre'))
    store.setValue('nombre', 'Ana María')
    store.setEditing(false, { nombre: 'Ana' })
    assert.equal(store.value('nombre'), 'Ana')
    assert.isTrue(store.isReadOnly('nombre'))
  })

  test('the payload sends unsaveable fields blank and every field once', async ({ assert }) => {
    const store = storeFor('new', runner, { acepta: true, nombre: 'Ana' })
    const payload = store.payload()
    assert.equal(payload.acepta, false)
    assert.equal(payload.nombre, 'Ana')
    assert.sameMembers(Object.keys(payload), ['nombre', 'edad', 'licencia', 'nota', 'total', 'acepta'])
  })

  test('a set field sends one value per repetition of the field it repeats over; its own stays blank', ({ assert }) => {
    const store = new FormStore({
      config: withDefaults({
        form: { pages: [{ name: 'P', layout: [['hijos', 'hijo']] }] },
        fields: [
          { field_name: 'hijos', type: 'number', data: {} },
          {
            field_name: 'hijo',
            type: 'text',
            isSet: true,
            set: 'hijos',
            data: { label: { value: 'Hijo' }, validate: { required: true } },
          },
        ],
      }),
      registry: coreRegistry(),
      mode: 'enter',
      // Saved repetitions come back from the case; a key of no set field is not taken.
      values: { hijos: 3, 'hijo[1]': 'Ana', 'hijo[3]': 'Eva', 'hijos[1]': 'x' },
    })
    assert.equal(store.value('hijo[3]'), 'Eva')
    assert.isUndefined(store.value('hijos[1]'))
    assert.deepEqual(
      store.missing().map((m) => [m.field, m.label]),
      [['hijo[2]', 'Hijo (2)']]
    )
    store.setValue('hijo[2]', 'Luis')
    store.setValue('hijos', 2)
    assert.deepEqual(store.payload(), { hijos: 2, hijo: '', 'hijo[1]': 'Ana', 'hijo[2]': 'Luis' })
    assert.deepEqual(store.missing(), [])
  })

  test('a field re-renders only for its own changes', async ({ assert }) => {
    const store = storeFor('new', runner)
    let nombre = 0
    let nota = 0
    store.subscribeField('nombre', () => nombre++)
    store.subscribeField('nota', () => nota++)
    store.setValue('nombre', 'A')
    store.setValue('nombre', 'An')
    store.setValue('nombre', 'An')
    await store.idle()
    assert.equal(nombre, 2)
    assert.equal(nota, 0)
  })

  test('an idle store posts a change to the sandbox from setValue itself, not a tick later', async ({ assert }) => {
    const posted: unknown[] = []
    const recording: ScriptRunner = {
      ...runner,
      runBatch: (calls, shared, opts) => {
        posted.push(shared?.edad)
        return runner.runBatch(calls, shared, opts)
      },
    }
    const store = storeFor('new', recording)
    store.setValue('edad', 5)
    assert.deepEqual(posted, [], 'before the scripting has loaded, a change waits for it')
    await store.start()
    posted.length = 0

    // Posted inside the call: in the browser, before React renders the field the key changed.
    store.setValue('edad', 20)
    assert.deepEqual(posted, [20])
    // A change made while that one is out waits for it, so answers apply in the order of the changes.
    store.setValue('edad', 10)
    assert.deepEqual(posted, [20])
    await store.idle()
    assert.deepEqual(posted, [20, 20, 10, 10], 'formula level, then conditions, for each change in turn')
    assert.isFalse(store.isShown('licencia'))
    assert.equal(store.value('total'), 20)

    // Idle again: the next change is posted at once again.
    store.setValue('edad', 30)
    assert.deepEqual(posted.slice(4), [30])
    await store.idle()
    assert.isTrue(store.isShown('licencia'))
    assert.equal(store.value('total'), 60)
  })

  test('a script failure before the first await is recorded and does not stall the queue', async ({ assert }) => {
    let fail = false
    const flaky: ScriptRunner = {
      ...runner,
      runBatch: (calls, shared, opts) => {
        if (fail) throw new Error('worker gone')
        return runner.runBatch(calls, shared, opts)
      },
    }
    const store = storeFor('new', flaky)
    await store.start()
    fail = true
    store.setValue('edad', 20)
    await store.idle()
    assert.deepEqual(
      store.scriptErrors.map((e) => e.message),
      ['worker gone']
    )
    fail = false
    store.setValue('edad', 21)
    await store.idle()
    assert.isTrue(store.isShown('licencia'))
  })

  test('setText coerces outside text through the field type', async ({ assert }) => {
    const store = storeFor('new', runner)
    store.setText('edad', '2,5')
    assert.strictEqual(store.value('edad'), 2.5)
    store.setText('acepta', 'true')
    assert.isTrue(store.value('acepta'))
    store.setText('acepta', 'sí')
    assert.isFalse(store.value('acepta'))
  })
})

test.group('form URL parameters', () => {
  test('the spec parameters, presets in base64 JSON, and the rest as process variables', ({ assert }) => {
    const values = encodeBase64Json({ nombre: 'Ñandú', edad: '7' })
    const params = readFormParams(
      `?data=abc&key_process=k1&token=t1&values=${encodeURIComponent(values)}&invisible&origen=web`
    )
    assert.equal(params.data, 'abc')
    assert.equal(params.keyProcess, 'k1')
    assert.equal(params.token, 't1')
    assert.isTrue(params.invisible)
    assert.deepEqual(params.presets, { nombre: 'Ñandú', edad: '7' })
    assert.deepEqual(params.vars, { origen: 'web' })
    assert.isFalse(readFormParams('?invisible=false').invisible)
  })

  test('URL-safe base64 without padding reads; garbage is flagged, not thrown', ({ assert }) => {
    const safe = encodeBase64Json({ a: '??>>' }).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
    assert.deepEqual(decodeBase64Json(safe), { a: '??>>' })
    const bad = readFormParams('?values=%%%')
    assert.isTrue(bad.presetsInvalid)
    assert.deepEqual(bad.presets, {})
    assert.isTrue(readFormParams(`?values=${encodeBase64Json([1, 2])}`).presetsInvalid)
  })

  test('local edits live under vfields_edit keyed by 10 characters of key_process or data', ({ assert }) => {
    const memory = new Map<string, string>()
    const storage = {
      getItem: (k: string) => memory.get(k) ?? null,
      setItem: (k: string, v: string) => void memory.set(k, v),
      removeItem: (k: string) => void memory.delete(k),
    } as Storage
    const key = localEditsKey({ data: 'formkey-123456', keyProcess: '42.abcdefghijkl' })
    assert.equal(key, '42.abcdefg')
    assert.equal(localEditsKey({ data: 'formkey-123456', keyProcess: '' }), 'formkey-12')
    writeLocalEdits(storage, key, { motivo: 'x' })
    writeLocalEdits(storage, 'other', { a: 1 })
    assert.deepEqual(readLocalEdits(storage, key), { motivo: 'x' })
    clearLocalEdits(storage, key)
    assert.isNull(readLocalEdits(storage, key))
    clearLocalEdits(storage, 'other')
    assert.isNull(memory.get('vfields_edit') ?? null)
  })
})

test.group('form store: when the scripting code is asked for', (group) => {
  let runner: ScriptRunner
  group.setup(async () => {
    runner = asRunner(await createSandbox())
    return () => runner.dispose()
  })

  test('as the store is made for a form with scripts, before start(); never for a form without', async ({ assert }) => {
    let asked = 0
    const scripting = async () => {
      asked += 1
      return { runner, evaluateChange, evaluateForm }
    }
    const plain = { form: { pages: [{ name: 'Uno', layout: [['nombre']] }] }, fields: [CONFIG.fields[0]!] }
    const made = (config: unknown) =>
      new FormStore({ config: withDefaults(config), registry: coreRegistry(), mode: 'new', values: {}, scripting })
    const withScripts = made(CONFIG)
    assert.equal(asked, 1)
    await withScripts.start()
    assert.equal(asked, 1)
    await made(plain).start()
    assert.equal(asked, 1)
  })

  test("the server's first evaluation is drawn before start(); start() corrects a wrong one", async ({ assert }) => {
    const made = (initial: { conditions: Record<string, boolean>; values: Record<string, Json> }) =>
      new FormStore({
        config: withDefaults(CONFIG),
        registry: coreRegistry(),
        mode: 'new',
        values: { edad: 20 },
        scripting: async () => ({ runner, evaluateChange, evaluateForm }),
        initial,
      })
    const right = made({ conditions: { licencia: true }, values: { total: 40 } })
    assert.isTrue(right.isShown('licencia'), 'shown from the first frame')
    assert.equal(right.value('total'), 40)
    await right.start()
    assert.isTrue(right.isShown('licencia'))
    // Only conditioned items and formula fields take it; the rest is the store's own.
    const wrong = made({ conditions: { licencia: false, nombre: false }, values: { total: 1, nombre: 'x' } })
    assert.isFalse(wrong.isShown('licencia'))
    assert.isTrue(wrong.isShown('nombre'))
    assert.equal(wrong.value('total'), 1)
    assert.equal(wrong.value('nombre'), '', "a text field's default, not the hint's")
    await wrong.start()
    assert.isTrue(wrong.isShown('licencia'))
    assert.equal(wrong.value('total'), 40)
  })

  test("a settled first evaluation is not run again, and a change runs what reads it by the server's reads", async ({
    assert,
  }) => {
    // The scripts the store sends to the runner, in order.
    let ran: string[] = []
    const counting: ScriptRunner = {
      ...runner,
      runBatch: (calls, shared, opts) => {
        ran.push(...calls.map((c) => c.source))
        return runner.runBatch(calls, shared, opts)
      },
    }
    const config = withDefaults(CONFIG)
    const values = { edad: 20 }
    // As the server makes it (initial_state.ts), from the same contract code.
    const hint = await initialState(config, initialValues(config, coreRegistry(), values), { runner })
    assert.isTrue(hint.settled)
    assert.deepEqual(hint.reads, { 'total:formula': ['edad'], 'licencia:condition': ['edad'] })
    const made = (initial: typeof hint) =>
      new FormStore({
        config: withDefaults(CONFIG),
        registry: coreRegistry(),
        mode: 'new',
        values,
        scripting: async () => ({ runner: counting, evaluateChange, evaluateForm }),
        initial,
      })

    const settled = made(hint)
    await settled.start()
    assert.deepEqual(ran, [], 'start() runs nothing the server ran')
    assert.isTrue(settled.isShown('licencia'))
    assert.equal(settled.value('total'), 40)
    settled.setValue('edad', 10)
    await settled.idle()
    assert.deepEqual(ran, ['edad * 2', 'edad >= 18'])
    assert.isFalse(settled.isShown('licencia'))
    assert.equal(settled.value('total'), 20)

    // The graph is the server's reads, not a parse of the scripts: said to read nombre, total follows nombre.
    ran = []
    const told = made({ ...hint, reads: { 'total:formula': ['nombre'], 'licencia:condition': ['edad'] } })
    await told.start()
    told.setValue('nombre', 'Ana')
    await told.idle()
    assert.deepEqual(ran, ['edad * 2'])

    // Without `settled` (a script failed, or calls an engine-dependent helper), start() evaluates.
    ran = []
    await made({ conditions: hint.conditions, values: hint.values }).start()
    assert.sameMembers(ran, ['edad * 2', 'edad >= 18'])
  })

  test('hasScripts reads the form as the server sends it, fields without data included', ({ assert }) => {
    assert.isTrue(hasScripts(CONFIG as never))
    assert.isFalse(hasScripts({ fields: [{ field_name: 'a', type: 'text' }] } as never))
    assert.isTrue(hasScripts({ fields: [{ field_name: 'a', type: 'text', data: { on_blur: 'x()' } }] } as never))
    assert.isFalse(hasScripts({ fields: [{ field_name: 'a', type: 'text', data: { formule: '  ' } }] } as never))
  })
})
