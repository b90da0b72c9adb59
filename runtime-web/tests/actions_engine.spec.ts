import { test } from '@japa/runner'
import { createClock } from '@sinonjs/fake-timers'
import { coreActionTypes, coreRegistry, withDefaults, type CaseMode } from '@tramita/contract'
import { evaluateChange, evaluateForm } from '@tramita/contract/evaluate'
import { asRunner, createSandbox, type ScriptRunner } from '@tramita/sandbox'
import {
  CAPTURE_IDLE_MS,
  captureKeys,
  coreActionHandlers,
  createActionEngine,
  createActionHandlerRegistry,
  CREATE_DOC_PATH,
  defineActionHandler,
  EXECUTE_SCRIPT_PATH,
  MAX_ACTION_DEPTH,
  PUSH_NOTIFY_PATH,
  safeUrl,
  type ActionHandler,
} from '@tramita/plugin-actions/web'
import { FormStore } from '../src/form/store.js'
import { waitUntil } from '../../core/server/tests/helpers/wait.js'
import { fakeHost } from './helpers/action_host.js'

type Step = { type: string; config?: Record<string, unknown> }
type Definition = {
  name: string
  onevent?: boolean
  conditions?: { active: boolean; code: string }
  start_page?: { active: boolean; page: number | string }
  actions: Step[]
}

const FIELDS = [
  { field_name: 'nombre', type: 'text', data: { label: { value: 'Nombre' } } },
  { field_name: 'edad', type: 'number', data: {} },
  { field_name: 'ciudad', type: 'select', data: { options: [{ id: 'a', label: 'A' }] } },
  { field_name: 'nota', type: 'text', data: {} },
  { field_name: 'foto', type: 'image', data: {} },
  { field_name: 'log', type: 'text', data: {} },
]

function configWith(actions: Definition[], extraFields: object[] = []) {
  return {
    form: {
      pages: [
        {
          name: 'Uno',
          layout: [
            ['nombre', 'edad'],
            ['ciudad', 'nota'],
          ],
        },
        { name: 'Dos', layout: [['foto', 'log']] },
        { name: 'Tres', layout: [extraFields.map((f) => (f as { field_name: string }).field_name)] },
      ],
    },
    fields: [...FIELDS, ...extraFields],
    validations: { actions },
  }
}

test.group('action engine', (group) => {
  let runner: ScriptRunner
  group.setup(async () => {
    runner = asRunner(await createSandbox())
    return () => runner.dispose()
  })

  function setUp(
    actions: Definition[],
    opts: {
      mode?: CaseMode
      invisible?: boolean
      values?: Record<string, unknown>
      extraFields?: object[]
      handlers?: ActionHandler[]
    } = {}
  ) {
    const fake = fakeHost(runner)
    const mode = opts.mode ?? 'new'
    let rechecks = 0
    const store: FormStore = new FormStore({
      config: withDefaults(configWith(actions, opts.extraFields)),
      registry: coreRegistry(),
      mode,
      task: mode === 'new' ? 'start' : undefined,
      values: opts.values ?? {},
      invisible: opts.invisible,
      scripting: async () => ({ runner, evaluateChange, evaluateForm }),
      actions: async (form) => {
        // Counts the required checks the engine asks for.
        const recheck = form.recheckRequired.bind(form)
        form.recheckRequired = () => {
          rechecks += 1
          recheck()
        }
        return createActionEngine({
          form,
          host: fake.host,
          handlers: createActionHandlerRegistry([...coreActionHandlers, ...(opts.handlers ?? [])]),
          task: { id: 'start' },
        })
      },
    })
    return { store, ...fake, rechecks: () => rechecks }
  }

  test('the handler registry: every core type has a handler, a type twice is an error', ({ assert }) => {
    const registry = createActionHandlerRegistry(coreActionHandlers)
    assert.sameMembers(
      registry.list().map((h) => h.type),
      coreActionTypes.map((t) => t.type)
    )
    const extra = defineActionHandler({ type: 'scan_document', plugin: 'devices', run: () => undefined })
    assert.equal(createActionHandlerRegistry([...coreActionHandlers, extra]).get('scan_document'), extra)
    assert.throws(
      () => createActionHandlerRegistry([...coreActionHandlers, defineActionHandler({ type: 'delay', run: () => {} })]),
      /"delay" is registered twice/
    )
  })

  test('a condition gates the action: true runs, false skips, an error and a timeout count as false', async ({
    assert,
  }) => {
    const step = (value: string) => ({ type: 'set_value', config: { field: 'log', value } })
    const { store, reports } = setUp([
      { name: 'yes', conditions: { active: true, code: 'edad >= 18' }, actions: [step('yes')] },
      { name: 'no', conditions: { active: true, code: 'edad < 18' }, actions: [step('no')] },
      { name: 'inactive', conditions: { active: false, code: 'false' }, actions: [step('inactive')] },
      { name: 'broken', conditions: { active: true, code: 'noSuchVariable > 1' }, actions: [step('broken')] },
      { name: 'runaway', conditions: { active: true, code: 'while (true) {}' }, actions: [step('runaway')] },
    ])
    await store.start()
    store.setValue('edad', 30)
    await store.runAction('no')
    assert.equal(store.value('log'), '')
    await store.runAction('yes')
    assert.equal(store.value('log'), 'yes')
    await store.runAction('inactive')
    assert.equal(store.value('log'), 'inactive')
    await store.runAction('broken')
    assert.equal(store.value('log'), 'inactive')
    assert.match(reports.join('\n'), /broken: condition: .*noSuchVariable/)
    await store.runAction('runaway')
    assert.equal(store.value('log'), 'inactive')
    assert.include(reports.join('\n'), 'runaway: condition: the script ran past its deadline', 'the time limit ends it')
    await store.runAction('missing')
    assert.match(reports.join('\n'), /no action named "missing"/)
  })

  test('start_page jumps; steps run in order, each awaited; a failing step stops its action', async ({ assert }) => {
    const { store, ops, reports, calls } = setUp([
      {
        name: 'go',
        start_page: { active: true, page: 'Tres' },
        actions: [
          { type: 'show_progress_bar', config: { message: 'Hola ${nombre}' } },
          { type: 'delay', config: { seconds: 0.02 } },
          { type: 'hide_progress_bar' },
          { type: 'go_to_page', config: { page: 'nowhere' } },
          { type: 'refresh' },
        ],
      },
    ])
    store.setValue('nombre', 'Ana')
    await store.runAction('go')
    assert.equal(store.currentPage(), 2)
    assert.deepEqual(ops(), ['progress', 'wait', 'progress'])
    assert.deepEqual(calls[1]!.args, [20], 'seconds × 1000')
    assert.match(reports.join('\n'), /step 3 \(go_to_page\): no page "nowhere"/)
  })

  test('the required check re-runs after every action, run or skipped', async ({ assert }) => {
    const { store, rechecks } = setUp([
      { name: 'require', actions: [{ type: 'set_state', config: { fields: ['nota'], required: true } }] },
      { name: 'skip', conditions: { active: true, code: 'false' }, actions: [] },
    ])
    assert.deepEqual(store.missing(), [])
    await store.runAction('require')
    assert.equal(rechecks(), 1)
    assert.deepEqual(
      store.missing().map((m) => m.field),
      ['nota']
    )
    await store.runAction('skip')
    assert.equal(rechecks(), 2)
  })

  test('onevent actions run at start, in order, before idle() resolves', async ({ assert }) => {
    const { store } = setUp([
      { name: 'first', onevent: true, actions: [{ type: 'set_value', config: { field: 'log', value: 'a' } }] },
      { name: 'later', actions: [{ type: 'set_value', config: { field: 'log', value: 'never' } }] },
      { name: 'second', onevent: true, actions: [{ type: 'set_value', config: { field: 'log', value: '${log}b' } }] },
    ])
    await store.start()
    assert.equal(store.value('log'), 'ab')
  })

  test('actions naming device or task placeholders re-run when those change', async ({ assert }) => {
    const { store } = setUp([
      {
        name: 'reader',
        actions: [{ type: 'set_value', config: { field: 'log', value: '${device.code}/${task.id}' } }],
      },
      { name: 'counter', actions: [{ type: 'set_value', config: { field: 'edad', formula: 'edad + 1' } }] },
    ])
    store.setValue('edad', 1)
    await store.setPlaceholders('device', { code: 'X1' })
    assert.equal(store.value('log'), 'X1/start')
    assert.equal(store.value('edad'), 1, 'an action naming no placeholder does not re-run')
    store.setValue('log', '')
    await store.setPlaceholders('device', { code: 'X1' })
    assert.equal(store.value('log'), '', 'an unchanged value re-runs nothing')
    await store.setPlaceholders('task', { id: 'review' })
    assert.equal(store.value('log'), 'X1/review')
  })

  test('a step that sets device values re-runs the actions naming them, but not its own action', async ({ assert }) => {
    let reads = 0
    // A device step as the devices plugin's are: it reads something and says so through setDevice.
    const reader = defineActionHandler({
      type: 'read_device',
      plugin: 'devices',
      async run(config, step) {
        reads += 1
        await step.setDevice({ code: String(config.code) })
      },
    })
    const { store } = setUp(
      [
        {
          name: 'read',
          actions: [
            { type: 'read_device', config: { code: 'Z9' } },
            { type: 'set_value', config: { field: 'nombre', value: 'leído ${device.code}' } },
          ],
        },
        { name: 'follow', actions: [{ type: 'set_value', config: { field: 'log', value: 'sigue ${device.code}' } }] },
      ],
      { handlers: [reader] }
    )
    await store.runAction('read')
    assert.equal(store.value('log'), 'sigue Z9', 'the action naming device.code re-ran')
    assert.equal(store.value('nombre'), 'leído Z9')
    assert.equal(reads, 1, 'the action that set it did not feed itself')
  })

  test('start_action: awaited or in the background; a chain that never ends is stopped', async ({ assert }) => {
    const { store, reports } = setUp([
      {
        name: 'outer',
        actions: [
          { type: 'start_action', config: { action: 'inner' } },
          { type: 'set_value', config: { field: 'log', value: '${log}+outer' } },
        ],
      },
      { name: 'inner', actions: [{ type: 'set_value', config: { field: 'log', value: 'inner' } }] },
      {
        name: 'background',
        actions: [
          { type: 'start_action', config: { action: 'slow', mode: 'background' } },
          { type: 'set_value', config: { field: 'nota', value: 'first' } },
        ],
      },
      {
        name: 'slow',
        actions: [
          { type: 'delay', config: { seconds: 0.03 } },
          { type: 'set_value', config: { field: 'nota', value: '${nota}+slow' } },
        ],
      },
      { name: 'loop', actions: [{ type: 'start_action', config: { action: 'loop' } }] },
    ])
    await store.runAction('outer')
    assert.equal(store.value('log'), 'inner+outer')
    await store.runAction('background')
    assert.equal(store.value('nota'), 'first', 'the background action had not finished')
    await waitUntil(() => store.value('nota') === 'first+slow', 5_000, 'the background action')
    await store.runAction('loop')
    assert.match(reports.join('\n'), new RegExp(`deeper than ${MAX_ACTION_DEPTH}`))
  })

  test('save and send: the required check blocks them except in invisible mode and send on new and enter', async ({
    assert,
  }) => {
    const steps = [{ name: 'save', actions: [{ type: 'save', config: { go_to_state: 'review' } }] }]
    const both = [...steps, { name: 'send', actions: [{ type: 'send' }] }]
    const required = [{ field_name: 'dni', type: 'text', data: { validate: { required: true } } }]
    const submits = async (mode: CaseMode, name: string, invisible = false) => {
      const { store, calls } = setUp(both, { mode, invisible, extraFields: required })
      await store.runAction(name)
      return calls.filter((c) => c.op === 'submit').map((c) => c.args)
    }
    assert.deepEqual(await submits('new', 'save'), [], 'save with a required field missing does nothing')
    assert.deepEqual(await submits('enter', 'save'), [])
    assert.deepEqual(await submits('new', 'save', true), [['save', 'review']], 'invisible mode saves anyway')
    assert.deepEqual(await submits('new', 'send'), [['send', '']])
    assert.deepEqual(await submits('enter', 'send'), [['send', '']])
    const { store, calls } = setUp(both, { mode: 'new', extraFields: required, values: { dni: '1' } })
    await store.runAction('save')
    assert.deepEqual(calls.find((c) => c.op === 'submit')?.args, ['save', 'review'])
  })

  test('open_url and push_notify fill placeholders; only http(s) and site paths open', async ({ assert }) => {
    const { store, calls, reports } = setUp([
      {
        name: 'open',
        actions: [
          { type: 'push_notify', config: { title: 'Hola ${nombre}', message: '${row.id} listo' } },
          { type: 'open_url', config: { url: '/forms/see?data=${row.id}', new_tab: false } },
          { type: 'open_url', config: { url: 'javascript:alert(${nombre})' } },
        ],
      },
    ])
    store.setValue('nombre', 'Ana')
    await store.runAction('open', { row: { id: 7 } })
    assert.deepEqual(
      calls.map((c) => [c.op, ...c.args]),
      [
        ['notify', 'Hola Ana', '7 listo'],
        ['post', PUSH_NOTIFY_PATH, { title: 'Hola Ana', message: '7 listo' }],
        ['openUrl', '/forms/see?data=7', false],
      ]
    )
    assert.match(reports.join('\n'), /refused address "javascript:alert\(Ana\)"/)
    assert.isTrue(safeUrl('https://example.org/a b'.replace(' ', '')))
    assert.isFalse(safeUrl('//evil.example/x'))
    assert.isFalse(safeUrl('data:text/html,x'))
  })

  test('push_notify: a failed post to the case’s people is reported, not shown, and the action goes on', async ({
    assert,
  }) => {
    const { store, host, calls, reports } = setUp([
      {
        name: 'tell',
        actions: [
          { type: 'push_notify', config: { title: 'Aviso', message: 'Listo' } },
          { type: 'open_url', config: { url: '/process', new_tab: false } },
        ],
      },
    ])
    host.post = async (path) => {
      calls.push({ op: 'post', args: [path] })
      throw new Error('Demasiadas solicitudes')
    }
    await store.runAction('tell')
    assert.deepEqual(
      calls.map((c) => [c.op, ...c.args]),
      [
        ['notify', 'Aviso', 'Listo'],
        ['post', PUSH_NOTIFY_PATH],
        ['openUrl', '/process', false],
      ]
    )
    assert.notExists(calls.find((c) => c.op === 'toast'))
    assert.deepEqual(reports, ['tell: push_notify: Demasiadas solicitudes'])
  })

  test('take_photo and create_bar_code_qr store the picture the way an upload does', async ({ assert }) => {
    const { store, host, calls } = setUp([
      { name: 'photo', actions: [{ type: 'take_photo', config: { field: 'foto' } }] },
      {
        name: 'qr',
        actions: [{ type: 'create_bar_code_qr', config: { field: 'foto', value: 'ID-${nombre}', kind: 'barcode' } }],
      },
    ])
    await store.runAction('photo')
    assert.equal(store.value('foto'), '', 'closing the camera without a photo changes nothing')
    host.photo = new File(['jpeg'], 'foto_20260101_101010.jpg', { type: 'image/jpeg' })
    await store.runAction('photo')
    assert.deepEqual(store.value('foto'), {
      path: '/data/files/foto_20260101_101010.jpg',
      real_name: 'foto_20260101_101010.jpg',
    })
    store.setValue('nombre', 'Ana')
    await store.runAction('qr')
    assert.deepEqual(calls.find((c) => c.op === 'drawCode')?.args, ['barcode', 'CODE128', 'ID-Ana'])
    assert.deepEqual(calls.filter((c) => c.op === 'upload').at(-1)?.args, ['foto.png', 'foto'])
    assert.equal((store.value('foto') as { real_name: string }).real_name, 'foto.png')
  })

  test('get_barcode_reader_or_rfid: the keys typed go to the field, ending on Enter', async ({ assert }) => {
    const { store, press, calls, listening } = setUp([
      { name: 'read', actions: [{ type: 'get_barcode_reader_or_rfid', config: { field: 'edad', seconds: 5 } }] },
    ])
    const running = store.runAction('read')
    await waitUntil(() => listening() > 0, 5_000, 'the capture listening')
    press(['4', '2', 'Shift', 'Enter', '9'])
    await running
    assert.equal(store.value('edad'), 42, 'coerced by the number field')
    assert.equal(listening(), 0)
    assert.deepEqual(
      calls.filter((c) => c.op === 'capturing').map((c) => c.args[0]),
      ['edad', null]
    )
  })

  test('capture ends 200 ms after the last key, after the seconds configured, or on Escape', async ({ assert }) => {
    const listeners = new Set<(key: string) => void>()
    const host = {
      onKey(listener: (key: string) => void) {
        listeners.add(listener)
        return () => listeners.delete(listener)
      },
    }
    const press = (key: string) => [...listeners].forEach((l) => l(key))
    // A fake clock: the capture's timers fire when the test moves time, exactly at their deadline.
    const clock = createClock()
    const PENDING = Symbol('pending')
    const settled = <T>(promise: Promise<T>) => Promise.race([promise, Promise.resolve(PENDING)])
    const idle = captureKeys(host, 10, clock)
    press('A')
    clock.tick(CAPTURE_IDLE_MS - 1)
    press('B')
    clock.tick(CAPTURE_IDLE_MS - 1)
    assert.equal(await settled(idle), PENDING, 'each key restarts the idle time')
    clock.tick(1)
    assert.equal(await settled(idle), 'AB')
    const quiet = captureKeys(host, 0.3, clock)
    clock.tick(299)
    assert.equal(await settled(quiet), PENDING)
    clock.tick(1)
    assert.equal(await settled(quiet), '', 'nothing typed: ends after the seconds')
    const cancelled = captureKeys(host, 10)
    press('Z')
    press('Escape')
    assert.equal(await cancelled, '')
    assert.equal(listeners.size, 0)
  })

  test('set_value (text, formula), set_style, set_state and set_options', async ({ assert }) => {
    const { store, reports } = setUp([
      {
        name: 'all',
        actions: [
          { type: 'set_value', config: { field: 'edad', value: '${row.age}' } },
          { type: 'set_value', config: { field: 'nota', formula: "'Edad: ' + (edad * 2)" } },
          { type: 'set_style', config: { fields: ['nombre', 'nota'], style: { color: 'red' } } },
          { type: 'set_state', config: { fields: ['nombre'], natural: 'disabled', required: true } },
          { type: 'set_state', config: { fields: ['nota'], see: false } },
          { type: 'set_options', config: { field: 'ciudad', options: [{ id: 'b', label: 'B' }] } },
        ],
      },
      {
        name: 'formulaOptions',
        actions: [{ type: 'set_options', config: { field: 'ciudad', formula: "[{ id: 'c', label: nombre }]" } }],
      },
      { name: 'badOptions', actions: [{ type: 'set_options', config: { field: 'ciudad', formula: '3' } }] },
    ])
    await store.runAction('all', { row: { age: '21' } })
    assert.equal(store.value('edad'), 21)
    assert.equal(store.value('nota'), 'Edad: 42')
    assert.deepEqual(store.styleOf('nombre'), { color: 'red' })
    assert.deepEqual(store.styleOf('nota'), { color: 'red' })
    assert.equal(store.fieldState('nombre')?.natural, 'disabled')
    assert.isTrue(store.fieldState('nombre')?.required)
    assert.isFalse(store.fieldState('nota')?.see)
    assert.equal(store.fieldState('nota')?.natural, 'enabled', 'keys left unset keep their state')
    assert.deepEqual(store.optionsOf('ciudad'), [{ id: 'b', label: 'B', bgcolor: '', txcolor: '' }])
    store.setValue('nombre', 'Lima')
    await store.runAction('formulaOptions')
    assert.deepEqual(store.optionsOf('ciudad'), [{ id: 'c', label: 'Lima' }])
    await store.runAction('badOptions')
    assert.match(reports.join('\n'), /did not return a list/)
  })

  test('execute_script: in the browser sandbox, or posted to ejecutar_exe', async ({ assert }) => {
    const { store, host, calls, reports } = setUp([
      { name: 'client', actions: [{ type: 'execute_script', config: { code: "setValue('log', nombre + '!')" } }] },
      { name: 'failing', actions: [{ type: 'execute_script', config: { code: "throw new Error('boom')" } }] },
      { name: 'server', actions: [{ type: 'execute_script', config: { code: 'return 1', side: 'server' } }] },
    ])
    store.setValue('nombre', 'Ana')
    await store.runAction('client')
    assert.equal(store.value('log'), 'Ana!')
    await store.runAction('failing')
    assert.match(reports.join('\n'), /failing: step 0 \(execute_script\): .*boom/)
    host.answer = {
      value: 1,
      effects: [{ op: 'setValue', field: 'nota', value: 'del servidor' }, { op: 'eval', field: 'x' }, 'junk'],
    }
    await store.runAction('server')
    const post = calls.find((c) => c.op === 'post')!
    assert.equal(post.args[0], EXECUTE_SCRIPT_PATH)
    const fields = post.args[1] as Record<string, string>
    assert.equal(fields.data_text, 'return 1')
    assert.equal(JSON.parse(fields.values).nombre, 'Ana')
    assert.equal(store.value('nota'), 'del servidor', 'well-formed effects only')
  })

  test('open_modal after 100 ms, close_modal; create_doc posts, shows the document and tells the user', async ({
    assert,
  }) => {
    const { store, calls, host } = setUp([
      { name: 'open', actions: [{ type: 'open_modal', config: { title: 'Ver ${nombre}', page: 'Dos' } }] },
      { name: 'close', actions: [{ type: 'close_modal' }] },
      { name: 'doc', actions: [{ type: 'create_doc', config: { template: 'permiso', file_name: '${nombre}.pdf' } }] },
    ])
    store.setValue('nombre', 'Ana')
    await store.runAction('open')
    assert.isNull(store.overlays.modal())
    await waitUntil(() => store.overlays.modal() !== null, 5_000, 'the modal open')
    assert.deepEqual(store.overlays.modal(), { type: 'pages', page: 'Dos', title: 'Ver Ana' })
    await store.runAction('close')
    assert.isNull(store.overlays.modal())
    host.answer = { path: '/data/files/x.pdf', real_name: 'Ana.pdf' }
    await store.runAction('doc')
    const post = calls.find((c) => c.op === 'post')!
    assert.equal(post.args[0], CREATE_DOC_PATH)
    const fields = post.args[1] as Record<string, string>
    assert.equal(fields.template, 'permiso')
    assert.equal(fields.file_name, 'Ana.pdf')
    assert.equal(JSON.parse(fields.values).nombre, 'Ana')
    // The doc tab is told of the new document before the user is.
    assert.deepEqual(calls.slice(-2), [
      { op: 'documentCreated', args: ['/data/files/x.pdf'] },
      { op: 'toast', args: ['success', 'doc_subido_success'] },
    ])
    assert.deepEqual(
      store.overlays.downloads().map((d) => [d.name, d.status]),
      [['Ana.pdf', 'done']]
    )
  })

  test('progress bar: #7f82ff unless a colour is given; refresh reloads', async ({ assert }) => {
    const { store, calls } = setUp([
      {
        name: 'bar',
        actions: [
          { type: 'show_progress_bar', config: { message: 'Cargando' } },
          { type: 'show_progress_bar', config: { color: '#000000' } },
          { type: 'hide_progress_bar' },
          { type: 'refresh' },
        ],
      },
    ])
    await store.runAction('bar')
    assert.deepEqual(
      calls.map((c) => [c.op, ...c.args]),
      [
        ['progress', { message: 'Cargando', color: '#7f82ff' }],
        ['progress', { message: '', color: '#000000' }],
        ['progress', null],
        ['reload'],
      ]
    )
  })

  test("a field's events run their named actions, in order, beside the event's script", async ({ assert }) => {
    const actions = [
      { name: 'a', actions: [{ type: 'set_value', config: { field: 'log', value: '${log}a' } }] },
      { name: 'b', actions: [{ type: 'set_value', config: { field: 'log', value: '${log}b' } }] },
    ]
    const fake = fakeHost(runner)
    const config = withDefaults({
      ...configWith(actions),
      fields: FIELDS.map((f) =>
        f.field_name === 'nombre'
          ? { ...f, events: { on_change: ['a', 'b'] }, data: { ...f.data, on_change: "setValue('nota', 'script')" } }
          : f
      ),
    })
    const store = new FormStore({
      config,
      registry: coreRegistry(),
      mode: 'new',
      values: {},
      scripting: async () => ({ runner, evaluateChange, evaluateForm }),
      actions: async (form) =>
        createActionEngine({ form, host: fake.host, handlers: createActionHandlerRegistry(coreActionHandlers) }),
    })
    store.fireEvent('nombre', 'on_change')
    // The engine loads lazily: idle() covers the actions once they are running.
    await waitUntil(() => String(store.value('log') ?? '').length === 2, 5_000, 'both actions run')
    await store.idle()
    assert.equal(store.value('log'), 'ab')
    assert.equal(store.value('nota'), 'script')
  })

  test('a form without actions never loads the engine', async ({ assert }) => {
    const store = new FormStore({
      config: withDefaults(configWith([])),
      registry: coreRegistry(),
      mode: 'new',
      values: {},
    })
    await store.runAction('anything')
    await store.start()
    assert.deepEqual(store.scriptErrors, [])
  })
})
