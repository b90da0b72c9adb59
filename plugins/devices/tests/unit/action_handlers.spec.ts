import { fileURLToPath } from 'node:url'
import { test } from '@japa/runner'
import { actionConfigWithDefaults, coreActionTypes, createActionTypeRegistry } from '@tramita/contract'
import { actionsModuleSource } from '@tramita/plugin-api/discover'
import type { ActionHandler, StepContext } from '@tramita/plugin-actions/web'
import handlers, {
  DEVICES_TEXTS,
  filePaths,
  machineToken,
  scanTokenForm,
  types,
  type DevicesStep,
} from '../../web/action_handlers.js'
import { DEVICES_ROUTES, PRINT_EVENT, SCAN_EVENT } from '../../shared/devices.js'

// The engine's step and handler shapes fit these (a plugin restates them rather than importing them).
const asStep: (step: StepContext) => DevicesStep = (step) => step
const asHandlers: readonly ActionHandler[] = handlers
void asStep
void asHandlers

const registry = createActionTypeRegistry([...coreActionTypes, ...types])
const withDefaults = (type: string, config: Record<string, unknown>) =>
  actionConfigWithDefaults({ type, config }, registry)

const handler = (type: string) => {
  const found = handlers.find((h) => h.type === type)
  if (!found) throw new Error(`no handler ${type}`)
  return found
}

/** A machines picker's value: the picked machine, its text "model (place)" and its token. */
const PICKED = [{ token: 'm-1', ubication: 'Piso 2', model: 'Scan 9', ip: '10.0.0.9', trays: [] }]
const SCANNED = { ext: '.pdf', ip: '10.0.0.2', path: '/data/files/scan.pdf', real_name: 'scan.pdf', status: 'good' }

type Emit = (kase: string, data: unknown) => void

/**
 * A step as the engine gives it: form values and field types, `${name}` filled from the values, and a
 * host whose socket waits are released by `emit` (a message) or `expire` (the host's timeout).
 */
function fakeStep(
  opts: {
    values?: Record<string, unknown>
    items?: Record<string, { type: string; data?: Record<string, unknown> }>
    answer?: unknown
    postFails?: string
    onPost?: (fields: Record<string, string | Blob>, emit: Emit) => void
  } = {}
) {
  const calls: { op: string; args: unknown[] }[] = []
  const values: Record<string, unknown> = { ...opts.values }
  const waiters: {
    kase: string
    match: (data: unknown) => boolean
    ms: number
    resolve(data: unknown): void
    reject(error: unknown): void
  }[] = []
  const remove = (w: (typeof waiters)[number]) => void waiters.splice(waiters.indexOf(w), 1)
  const emit: Emit = (kase, data) => {
    for (const w of [...waiters]) {
      if (w.kase === kase && w.match(data)) {
        remove(w)
        w.resolve(data)
      }
    }
  }
  const expire = () => {
    for (const w of waiters.splice(0)) w.reject(new Error(`no "${w.kase}" message within ${w.ms / 1000} s`))
  }
  const step: DevicesStep = {
    form: {
      item(name) {
        const item = opts.items?.[name]
        return item ? { item, kind: 'field' } : undefined
      },
      valuesNow: () => ({ ...values }),
      setValue(name, value) {
        calls.push({ op: 'setValue', args: [name, value] })
        values[name] = value
      },
    },
    host: {
      async post(path, fields) {
        calls.push({ op: 'post', args: [path, fields] })
        opts.onPost?.(fields, emit)
        if (opts.postFails) throw new Error(opts.postFails)
        return opts.answer ?? null
      },
      toast: (kind, key) => void calls.push({ op: 'toast', args: [kind, key] }),
      socketEvent(kase, match, ms, signal) {
        calls.push({ op: 'socketEvent', args: [kase, ms] })
        return new Promise((resolve, reject) => {
          const waiter = { kase, match, ms, resolve, reject }
          waiters.push(waiter)
          signal?.addEventListener('abort', () => {
            remove(waiter)
            reject(signal.reason)
          })
        })
      },
    },
    fill: (template) => template.replace(/\$\{\s*(\w+)\s*\}/g, (_, name: string) => shown(values[name])),
    setDevice: async (device) => void calls.push({ op: 'setDevice', args: [device] }),
  }
  const posted = () => calls.find((c) => c.op === 'post')?.args as [string, Record<string, string>] | undefined
  const ops = (op: string) => calls.filter((c) => c.op === op).map((c) => c.args)
  return { step, calls, values, emit, expire, posted, ops, waiting: () => waiters.length }
}

/** A value's display text as the runtime's placeholders give it: a machines value is "model (place)". */
function shown(value: unknown): string {
  if (Array.isArray(value))
    return value.map((m: { model?: string; ubication?: string }) => `${m.model} (${m.ubication})`).join(', ')
  return typeof value === 'string' ? value : ''
}

/** Lets the handler go on past its awaits. */
const settle = () => new Promise((resolve) => setImmediate(resolve))

async function rejection(work: Promise<unknown>): Promise<Error> {
  try {
    await work
  } catch (error) {
    return error as Error
  }
  throw new Error('expected the step to fail')
}

test.group('devices action handlers', () => {
  test('scan_document and print_document have handlers, join the registry and the virtual module', ({ assert }) => {
    assert.sameMembers(
      handlers.map((h) => h.type),
      ['scan_document', 'print_document']
    )
    assert.sameMembers(
      types.map((t) => t.type),
      ['scan_document', 'print_document']
    )
    assert.equal(registry.require('print_document').plugin, 'devices')
    assert.isTrue(handlers.every((h) => h.plugin === 'devices'))
    const pluginsDir = fileURLToPath(new URL('../../../', import.meta.url))
    const source = actionsModuleSource(pluginsDir, ['actions', 'devices'])
    assert.include(source, 'devices/web/action_handlers.ts')
    // Their toasts' texts load with the engine, one language at a time.
    assert.include(source, '{ plugin: "devices", load: { es: () => import(')
    assert.include(source, 'devices/locales/zh.json')
  })

  test("the configs' defaults are the spec's", ({ assert }) => {
    assert.deepEqual(withDefaults('scan_document', { field: 'f' }), {
      field: 'f',
      machine: '',
      dpi: 300,
      color: true,
      format: 'pdf',
      source: 'Platen',
      duplex: false,
      ocr: false,
      seconds: 120,
    })
    assert.deepEqual(withDefaults('print_document', { files: ['f'] }), {
      files: ['f'],
      machine: '',
      copies: 1,
      both_sides: false,
      color: true,
      tray: 1,
      paper: 'letter',
      seconds: 300,
    })
  })

  test("a machines picker's choice gives its token; other templates are filled", ({ assert }) => {
    const { step } = fakeStep({ values: { maquina: PICKED, otra: 'tok-2', vacia: [] } })
    assert.equal(machineToken(step, '${maquina}'), 'm-1')
    assert.equal(machineToken(step, ' ${ maquina } '), 'm-1')
    assert.equal(machineToken(step, 'tok-9'), 'tok-9')
    assert.equal(machineToken(step, '${vacia}'), '')
    assert.equal(machineToken(step, '${otra}'), 'tok-2')
    assert.equal(step.fill('${maquina}'), 'Scan 9 (Piso 2)')
    assert.equal(scanTokenForm('cedula', 'abc'), 'cedula$$$abc$$$front')
    assert.deepEqual(
      filePaths(
        { a: [{ path: '/x.pdf' }, { path: '/y.pdf' }], b: { path: '/z.png' }, c: '', d: [{ path: '/x.pdf' }] },
        ['a', 'b', 'c', 'd', 'e']
      ),
      ['/x.pdf', '/y.pdf', '/z.png']
    )
  })

  test('scan posts its config and token_form, and takes only the answer for that token_form', async ({ assert }) => {
    const earlier = { ...SCANNED, path: '/data/files/earlier.pdf', real_name: 'earlier.pdf' }
    const fake = fakeStep({
      values: { maquina: PICKED, soporte: [earlier] },
      items: { soporte: { type: 'file', data: { ref: { limit: -1 } } } },
      answer: { job: 'j-1', status: 'sent' },
      // Another scan's answer arrives while this one is being placed: not this step's.
      onPost: (_fields, emit) =>
        emit(SCAN_EVENT, { ...SCANNED, token_form: 'soporte$$$other$$$front', path: '/data/files/other.pdf' }),
    })
    const running = handler('scan_document').run(
      withDefaults('scan_document', { field: 'soporte', machine: '${maquina}' }),
      fake.step
    )
    await settle()
    const [path, fields] = fake.posted()!
    assert.equal(path, DEVICES_ROUTES.scan.path)
    assert.deepEqual(JSON.parse(fields.config_printer!), {
      duplex: false,
      color: true,
      dpi: 300,
      paper: 'letter',
      height: 22,
      width: 28,
      inputSource: 'Platen',
      ocr: false,
      format: 'pdf',
    })
    assert.equal(fields.token_machine, 'm-1')
    assert.match(fields.token_form!, /^soporte\$\$\$[0-9a-f]{24}\$\$\$front$/)
    // The form's key (`data`), key_process and token are the host's to add to every call.
    assert.notProperty(fields, 'data')
    // Listening started before the call; the wait is bounded by `seconds`.
    assert.deepEqual(
      fake.calls.slice(0, 2).map((c) => c.op),
      ['socketEvent', 'post']
    )
    assert.deepEqual(fake.ops('socketEvent'), [[SCAN_EVENT, 120_000]])
    assert.equal(fake.waiting(), 1)
    assert.deepEqual(fake.ops('setValue'), [])

    fake.emit(SCAN_EVENT, { ...SCANNED, token_form: fields.token_form })
    await running
    assert.deepEqual(fake.values.soporte, [earlier, SCANNED])
    assert.deepEqual(fake.ops('toast'), [['success', DEVICES_TEXTS.scanDone]])
    // ${device.scan_path} and the like for the form's other actions.
    assert.deepEqual(fake.ops('setDevice'), [
      [{ scan_path: SCANNED.path, scan_name: SCANNED.real_name, scan_field: 'soporte', machine: 'm-1' }],
    ])
  })

  test('a scan into an image field is a jpeg, and becomes its value', async ({ assert }) => {
    const fake = fakeStep({
      values: { maquina: PICKED },
      items: { foto: { type: 'image' } },
      onPost: (fields, emit) =>
        emit(SCAN_EVENT, { ...SCANNED, ext: '.jpeg', path: '/p.jpeg', token_form: fields.token_form }),
    })
    await handler('scan_document').run(
      withDefaults('scan_document', { field: 'foto', machine: '${maquina}', dpi: 150, color: false, seconds: 30 }),
      fake.step
    )
    const config = JSON.parse(fake.posted()![1].config_printer!) as Record<string, unknown>
    assert.include(config, { format: 'jpeg', dpi: 150, color: false })
    assert.deepEqual(fake.values.foto, { ...SCANNED, ext: '.jpeg', path: '/p.jpeg' })
    assert.deepEqual(fake.ops('socketEvent'), [[SCAN_EVENT, 30_000]])
  })

  test("a failed scan rejects with the server's message, shown as an error", async ({ assert }) => {
    const message = 'No se detectó el documento a escanear.'
    const fake = fakeStep({
      values: { maquina: PICKED },
      items: { soporte: { type: 'file' } },
      onPost: (fields, emit) =>
        emit(SCAN_EVENT, { token_form: fields.token_form, status: 'fail', error: 'not_detected', message }),
    })
    const error = await rejection(
      handler('scan_document').run(
        withDefaults('scan_document', { field: 'soporte', machine: '${maquina}' }),
        fake.step
      )
    )
    assert.equal(error.message, message)
    assert.deepEqual(fake.ops('toast'), [['error', message]])
    assert.deepEqual(fake.ops('setValue'), [])
  })

  test('no answer within the seconds: the step rejects with the timeout text', async ({ assert }) => {
    const fake = fakeStep({ values: { maquina: PICKED }, items: { soporte: { type: 'file' } } })
    const running = handler('scan_document').run(
      withDefaults('scan_document', { field: 'soporte', machine: '${maquina}', seconds: 5 }),
      fake.step
    )
    await settle()
    assert.deepEqual(fake.ops('socketEvent'), [[SCAN_EVENT, 5000]])
    fake.expire()
    const error = await rejection(running)
    assert.match(error.message, /no scanforms_upload answer within 5 s/)
    assert.deepEqual(fake.ops('toast'), [['error', DEVICES_TEXTS.timeout]])
  })

  test('no machine, a full field or a refused call: a clear rejection, no wait left behind', async ({ assert }) => {
    const items = { soporte: { type: 'file', data: { ref: { limit: 1 } } }, nombre: { type: 'text' } }
    const none = fakeStep({ values: { maquina: [] }, items })
    const noMachine = await rejection(
      handler('scan_document').run(
        withDefaults('scan_document', { field: 'soporte', machine: '${maquina}' }),
        none.step
      )
    )
    assert.equal(noMachine.message, 'no machine chosen')
    assert.deepEqual(none.ops('toast'), [['error', DEVICES_TEXTS.noMachine]])
    assert.deepEqual(none.ops('post'), [])

    const full = fakeStep({ values: { maquina: PICKED, soporte: [SCANNED] }, items })
    await rejection(
      handler('scan_document').run(
        withDefaults('scan_document', { field: 'soporte', machine: '${maquina}' }),
        full.step
      )
    )
    assert.deepEqual(full.ops('toast'), [['error', DEVICES_TEXTS.fileFull]])

    // A field that takes no file is the designer's mistake: reported by the engine, not shown.
    const wrong = fakeStep({ values: { maquina: PICKED }, items })
    const notFile = await rejection(
      handler('scan_document').run(withDefaults('scan_document', { field: 'nombre', machine: 'm-1' }), wrong.step)
    )
    assert.match(notFile.message, /"nombre" is not a file or image field/)
    assert.deepEqual(wrong.ops('toast'), [])

    const refused = fakeStep({
      values: { maquina: PICKED },
      items,
      postFails: 'Esa máquina no escanea.',
    })
    const error = await rejection(
      handler('scan_document').run(
        withDefaults('scan_document', { field: 'soporte', machine: '${maquina}' }),
        refused.step
      )
    )
    assert.equal(error.message, 'Esa máquina no escanea.')
    assert.deepEqual(refused.ops('toast'), [['error', 'Esa máquina no escanea.']])
    assert.equal(refused.waiting(), 0)
  })

  test("print posts the fields' files and settles on its job's done", async ({ assert }) => {
    const fake = fakeStep({
      values: {
        impresora: PICKED,
        anexos: [SCANNED, { ...SCANNED, path: '/data/files/b.pdf' }],
        foto: { ...SCANNED, path: '/data/files/f.png' },
      },
      answer: { job: 'j-7', status: 'sent', message: 'Impresión enviada.' },
    })
    const running = handler('print_document').run(
      withDefaults('print_document', {
        machine: '${impresora}',
        files: ['anexos', 'foto'],
        copies: 2,
        both_sides: true,
        color: false,
        tray: 2,
        paper: 'legal',
      }),
      fake.step
    )
    await settle()
    const [path, fields] = fake.posted()!
    assert.equal(path, DEVICES_ROUTES.print.path)
    assert.equal(fields.token, 'm-1')
    assert.equal(fields.cant, '2')
    assert.deepEqual(JSON.parse(fields.files!), ['/data/files/scan.pdf', '/data/files/b.pdf', '/data/files/f.png'])
    assert.deepEqual(JSON.parse(fields.config_printer!), {
      copies: 2,
      both_sides: true,
      color: false,
      tray: 2,
      paper: 'legal',
    })
    assert.match(fields.token_form!, /^print\$\$\$[0-9a-f]{24}$/)
    assert.deepEqual(fake.ops('socketEvent'), [[PRINT_EVENT, 300_000]])

    // Its own "sent" and another job's end change nothing; its job's end settles it.
    fake.emit(PRINT_EVENT, { status: 'sent', data: { job: 'j-7', token_form: fields.token_form }, message: 'x' })
    fake.emit(PRINT_EVENT, { status: 'done', data: { job: 'j-8', token_form: null }, message: 'otro' })
    assert.equal(fake.waiting(), 1)
    fake.emit(PRINT_EVENT, {
      status: 'done',
      data: { job: 'j-7', token_form: null },
      message: 'Impresión terminada correctamente.',
    })
    await running
    assert.deepEqual(fake.ops('toast'), [['success', 'Impresión terminada correctamente.']])
  })

  test("a failed print rejects with the server's message; no files is a clear rejection", async ({ assert }) => {
    const message = 'No se detectó papel en la bandeja.'
    const fake = fakeStep({
      values: { impresora: PICKED, anexos: [SCANNED] },
      onPost: (fields, emit) =>
        emit(PRINT_EVENT, { status: 'failed', data: { job: 'j-1', token_form: fields.token_form }, message }),
    })
    const error = await rejection(
      handler('print_document').run(
        withDefaults('print_document', { machine: '${impresora}', files: ['anexos'] }),
        fake.step
      )
    )
    assert.equal(error.message, message)
    assert.deepEqual(fake.ops('toast'), [['error', message]])

    const empty = fakeStep({ values: { impresora: PICKED, anexos: [] } })
    await rejection(
      handler('print_document').run(
        withDefaults('print_document', { machine: '${impresora}', files: ['anexos'] }),
        empty.step
      )
    )
    assert.deepEqual(empty.ops('toast'), [['error', DEVICES_TEXTS.noFiles]])
    assert.deepEqual(empty.ops('post'), [])
    assert.equal(empty.waiting(), 0)
  })
})
