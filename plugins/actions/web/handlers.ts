/**
 * The core action types' handlers (spec 000 §4 "Action types", 001 §4, constants of 000 §9). Each
 * reads its config with its type's defaults (core/contract/src/actions.ts). The document-folder and
 * scan/print types come with the documents and devices plugins.
 */
import type { Effect, Json } from '@tramita/sandbox'
import { pageIndex } from './engine.js'
import { defineActionHandler } from './registry.js'
import type { ActionHandler, ActionHost, StepContext } from './types.js'

/** The server's script call (spec 000 §7); the actions plugin's route answers it. */
export const EXECUTE_SCRIPT_PATH = '/inside/forms/create/search_endpoint/ejecutar_exe'
/** The documents side's route: renders a template to PDF and attaches it to the case. */
export const CREATE_DOC_PATH = '/inside/forms/create/search_endpoint/create_doc'
/** The push_notify action's socket half: the server tells the case's other people on /ws. */
export const PUSH_NOTIFY_PATH = '/inside/forms/create/search_endpoint/push_notify'
/** Capture of a barcode reader or RFID: ends after this long without a key (spec 000 §9). */
export const CAPTURE_IDLE_MS = 200
export const PROGRESS_COLOR = '#7f82ff'

/** Only http(s) addresses and paths of this site open: never javascript:, data: or protocol-relative ones. */
export function safeUrl(url: string): boolean {
  const trimmed = url.trim()
  return /^https?:\/\/[^\s]+$/i.test(trimmed) || /^\/(?![/\\])[^\s]*$/.test(trimmed)
}

/** The timers captureKeys runs on: the page's, or a test's fake clock. */
export interface CaptureTimers {
  setTimeout(fn: () => void, ms: number): unknown
  clearTimeout(id: unknown): void
}

/**
 * Reads what a barcode reader or RFID types: keys until Enter, CAPTURE_IDLE_MS after the last key,
 * or `seconds` in all. Resolves the text read ('' when nothing came, or on Escape: cancelled).
 */
export function captureKeys(
  host: Pick<ActionHost, 'onKey'>,
  seconds: number,
  timers: CaptureTimers = globalThis as unknown as CaptureTimers
): Promise<string> {
  return new Promise((resolve) => {
    let text = ''
    let idle: unknown
    const finish = () => {
      timers.clearTimeout(idle)
      timers.clearTimeout(overall)
      stop()
      resolve(text)
    }
    const overall = timers.setTimeout(finish, seconds * 1000)
    const stop = host.onKey((key) => {
      if (key === 'Enter') return finish()
      if (key === 'Escape') {
        text = ''
        return finish()
      }
      if (key.length !== 1) return
      text += key
      timers.clearTimeout(idle)
      idle = timers.setTimeout(finish, CAPTURE_IDLE_MS)
    })
  })
}

const EFFECT_OPS = new Set(['setValue', 'setState', 'setOptions', 'setStyle'])

/** Effects a server script answered, kept only when each has the shape the sandbox records. */
function effectsFrom(data: unknown): Effect[] {
  const list = (data as { effects?: unknown } | null)?.effects
  if (!Array.isArray(list)) return []
  return list.filter(
    (e): e is Effect =>
      typeof e === 'object' && e !== null && EFFECT_OPS.has((e as Effect).op) && typeof (e as Effect).field === 'string'
  )
}

async function scriptValue(step: StepContext, source: string): Promise<Json> {
  const result = await step.script(source)
  if (!result.ok) throw new Error(result.error.message)
  return result.value
}

type Submit = { go_to_state: string }

function submitHandler(type: 'save' | 'send'): ActionHandler {
  return defineActionHandler<Submit>({
    type,
    run(config, { form, host }) {
      // Save/send does nothing while required fields are missing, except in invisible mode and for
      // send on new and enter (the contract's requiredCheckBlocks, through the form).
      if (!form.mayProceed(type)) return
      host.submit(type, config.go_to_state)
    },
  })
}

/** Draws or photographs into an image field the way an upload does: the stored entry becomes its value. */
async function storeImage(step: StepContext, field: string, file: File) {
  const entry = await step.host.upload(file, field)
  step.form.setValue(field, entry)
}

export const coreActionHandlers: readonly ActionHandler[] = Object.freeze([
  defineActionHandler({ type: 'refresh', run: (_config, { host }) => host.reload() }),
  submitHandler('send'),
  submitHandler('save'),
  defineActionHandler<{ page: number | string }>({
    type: 'go_to_page',
    run(config, { form }) {
      const index = pageIndex(form.config.form.pages, config.page)
      if (index === undefined) throw new Error(`no page ${JSON.stringify(config.page)}`)
      form.goToPage(index)
    },
  }),
  defineActionHandler<{ url: string; new_tab: boolean }>({
    type: 'open_url',
    run(config, { host, fill }) {
      const url = fill(config.url)
      if (!safeUrl(url)) throw new Error(`refused address "${url}"`)
      host.openUrl(url.trim(), config.new_tab)
    },
  }),
  defineActionHandler<{ title: string; message: string }>({
    type: 'push_notify',
    async run(config, { host, fill, action }) {
      const title = fill(config.title)
      const message = fill(config.message)
      host.notify(title, message)
      // The case's other people are told on their sockets (spec 000 §7). A failure there is reported,
      // not shown, and does not stop the action: this browser's notification has been shown already.
      try {
        await host.post(PUSH_NOTIFY_PATH, { title, message })
      } catch (error) {
        host.report(action, `push_notify: ${error instanceof Error ? error.message : String(error)}`)
      }
    },
  }),
  defineActionHandler<{ field: string }>({
    type: 'take_photo',
    async run(config, step) {
      const photo = await step.host.takePhoto()
      if (photo) await storeImage(step, config.field, photo)
    },
  }),
  defineActionHandler<{ field: string; value: string; kind: 'qr' | 'barcode'; format: string }>({
    type: 'create_bar_code_qr',
    async run(config, step) {
      const text = step.fill(config.value).trim()
      if (text === '') return step.form.setValue(config.field, '')
      const png = await step.host.drawCode(config.kind, config.format, text, `${config.field}.png`)
      await storeImage(step, config.field, png)
    },
  }),
  defineActionHandler<{ seconds: number }>({
    type: 'delay',
    run: (config, { host }) => host.wait(Math.max(0, Number(config.seconds) || 0) * 1000),
  }),
  defineActionHandler<{ action: string; mode: 'awaited' | 'background' }>({
    type: 'start_action',
    async run(config, step) {
      const running = step.runAction(config.action, step.row ? { row: step.row } : undefined)
      if (config.mode === 'awaited') await running
    },
  }),
  defineActionHandler<{ field: string; seconds: number }>({
    type: 'get_barcode_reader_or_rfid',
    async run(config, { form, host }) {
      host.capturing(config.field)
      try {
        const text = await captureKeys(host, config.seconds)
        if (text !== '') form.setText(config.field, text)
      } finally {
        host.capturing(null)
      }
    },
  }),
  defineActionHandler<{ field: string; value: string; formula: string }>({
    type: 'set_value',
    async run(config, step) {
      if (config.formula.trim() !== '') step.form.setValue(config.field, await scriptValue(step, config.formula))
      else step.form.setText(config.field, step.fill(config.value))
    },
  }),
  defineActionHandler<{ fields: string[]; style: Record<string, string> }>({
    type: 'set_style',
    run: (config, { form }) =>
      form.applyEffects(config.fields.map((field) => ({ op: 'setStyle', field, style: config.style }))),
  }),
  defineActionHandler<{
    fields: string[]
    natural?: 'enabled' | 'disabled' | 'readonly'
    see?: boolean
    required?: boolean
  }>({
    type: 'set_state',
    run(config, { form }) {
      // A key left unset leaves that part of the state as it is.
      const state = {
        ...(config.natural !== undefined ? { natural: config.natural } : {}),
        ...(config.see !== undefined ? { see: config.see } : {}),
        ...(config.required !== undefined ? { required: config.required } : {}),
      }
      form.applyEffects(config.fields.map((field) => ({ op: 'setState', field, state })))
    },
  }),
  defineActionHandler<{ field: string; options: Json[]; formula: string }>({
    type: 'set_options',
    async run(config, step) {
      const options = config.formula.trim() !== '' ? await scriptValue(step, config.formula) : config.options
      if (!Array.isArray(options)) throw new Error('the options formula did not return a list')
      step.form.applyEffects([{ op: 'setOptions', field: config.field, options }])
    },
  }),
  defineActionHandler<{ code: string; side: 'client' | 'server' }>({
    type: 'execute_script',
    async run(config, step) {
      if (config.code.trim() === '') return
      if (config.side === 'server') {
        const data = await step.host.post(EXECUTE_SCRIPT_PATH, {
          data_text: config.code,
          values: JSON.stringify({
            ...step.form.vars,
            ...step.form.valuesNow(),
            ...(step.row ? { row: step.row } : {}),
          }),
        })
        step.form.applyEffects(effectsFrom(data))
        return
      }
      const result = await step.script(config.code)
      if (!result.ok) throw new Error(result.error.message)
      step.form.applyEffects(result.effects)
    },
  }),
  defineActionHandler<{ title: string; content: 'page' | 'url'; page: number | string; url: string }>({
    type: 'open_modal',
    run(config, { form, fill }) {
      const title = fill(config.title)
      if (config.content === 'url') {
        const url = fill(config.url)
        if (!safeUrl(url)) throw new Error(`refused address "${url}"`)
        form.overlays.openModal({ type: 'url', url: url.trim(), title })
      } else form.overlays.openModal({ type: 'pages', page: config.page, title })
    },
  }),
  defineActionHandler({ type: 'close_modal', run: (_config, { form }) => form.overlays.closeModal() }),
  defineActionHandler<{ template: string; file_name: string }>({
    type: 'create_doc',
    async run(config, { form, host, fill }) {
      const fileName = fill(config.file_name) || 'documento.pdf'
      const work = host.post(CREATE_DOC_PATH, {
        template: config.template,
        file_name: fileName,
        values: JSON.stringify(form.valuesNow()),
      })
      const created = await (form.overlays.track ? form.overlays.track(fileName, work) : work)
      const path = (created as { path?: unknown } | null)?.path
      if (typeof path === 'string' && path !== '') host.documentCreated(path)
      host.toast('success', 'doc_subido_success')
    },
  }),
  defineActionHandler<{ message: string; color: string }>({
    type: 'show_progress_bar',
    run: (config, { host, fill }) =>
      host.progress({ message: fill(config.message), color: config.color || PROGRESS_COLOR }),
  }),
  defineActionHandler({ type: 'hide_progress_bar', run: (_config, { host }) => host.progress(null) }),
])
