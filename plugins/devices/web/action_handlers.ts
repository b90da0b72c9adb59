/**
 * The devices plugin's action types and handlers (spec 000 §4 scan_document and print_document, §7
 * scan / print and their socket events, §9 constants; 001 §4, §8), composed into the action engine by
 * `virtual:tramita-actions` from this module (`./action-handlers`): default export the handlers, `types`
 * their contract action types. Each step calls its route (shared/devices.ts), then waits on the page's
 * socket for the machine's answer, at most `seconds`.
 *
 * Handlers are plain `{ type, plugin, run }` values (what the actions plugin's defineActionHandler
 * makes): a plugin does not import another, so the engine's shapes are restated here, structurally.
 *
 * Every failure shows an error toast (the server's message, spec 001 §8, or one of this plugin's texts
 * under `devices.actions.`) and rejects, so the engine reports it and stops the action.
 */
import { DEVICES_ROUTES, PRINT_EVENT, SCAN_EVENT, type PrintEvent, type ScanEvent } from '../shared/devices.js'
import { devicesActionTypes } from '../shared/action_types.js'
import { isGoodScan, placeAndWait as placeAndListen, randomId, scanCallFields, scanTokenForm } from './scan_order.js'

export { randomId, scanTokenForm, SCAN_HEIGHT_CM, SCAN_PAPER, SCAN_WIDTH_CM } from './scan_order.js'

/** What a handler uses of the engine's step context (plugins/actions/web/types.ts StepContext). */
export interface DevicesStep {
  form: {
    item(
      name: string
    ): { item: { type: string; data?: Record<string, unknown> }; kind: 'field' | 'element' } | undefined
    valuesNow(): Readonly<Record<string, unknown>>
    setValue(name: string, value: unknown): void
  }
  host: {
    post(path: string, fields: Record<string, string | Blob>): Promise<unknown>
    toast(kind: 'success' | 'error', key: string): void
    socketEvent(
      kase: string,
      match: (data: unknown) => boolean,
      timeoutMs: number,
      signal?: AbortSignal
    ): Promise<unknown>
  }
  fill(template: string): string
  /** New `${device.key}` values: the actions naming them re-run (actions plugin StepContext.setDevice). */
  setDevice(values: Record<string, string>): Promise<void>
}

export interface DevicesHandler {
  readonly type: string
  readonly plugin: 'devices'
  run(config: Record<string, unknown>, step: DevicesStep): Promise<void>
}

/** The toasts' texts (plugins/devices/locales, `actions`), loaded with the engine under `devices.`. */
export const DEVICES_TEXTS = {
  scanDone: 'devices.actions.scan_done',
  noMachine: 'devices.actions.no_machine',
  noFiles: 'devices.actions.no_files',
  fileFull: 'devices.actions.file_full',
  timeout: 'devices.actions.timeout',
  // The server's own texts (the same locale files), for an answer that came without its message.
  printDone: 'devices.print.done',
  printError: 'devices.error.print_error',
  scanError: 'devices.error.scan_error',
} as const

/** The action types these handlers run (shared/action_types.ts, also the package's `./action-types`). */
export const types = devicesActionTypes

/** A failure whose toast is one of this plugin's texts (the message is for the engine's report). */
class Notice extends Error {
  constructor(
    readonly key: string,
    message: string
  ) {
    super(message)
    this.name = 'DevicesNotice'
  }
}

const text = (value: unknown) => (typeof value === 'string' ? value : '')

function seconds(value: unknown, fallback: number): number {
  const n = Number(value)
  return Number.isFinite(n) && n > 0 ? n : fallback
}

const ONE_PLACEHOLDER = /^\s*\$\{\s*([A-Za-z_$][A-Za-z0-9_$]*)\s*\}\s*$/

/**
 * The machine's token. A machines picker's text is its model and place, not its token: `${field}`
 * naming a field that holds picked machines gives the first one's token; anything else is filled.
 */
export function machineToken(step: Pick<DevicesStep, 'form' | 'fill'>, template: string): string {
  const named = ONE_PLACEHOLDER.exec(template)
  if (named) {
    const value = step.form.valuesNow()[named[1]!]
    const picked: unknown = Array.isArray(value) ? value[0] : value
    const token = (picked as { token?: unknown } | null | undefined)?.token
    if (typeof token === 'string') return token.trim()
  }
  return step.fill(template).trim()
}

/** The stored paths of these fields' files: a file field's entries, an image's or a signature's one. */
export function filePaths(values: Readonly<Record<string, unknown>>, fields: readonly string[]): string[] {
  const paths: string[] = []
  for (const name of fields) {
    const value = values[name]
    for (const entry of Array.isArray(value) ? value : [value]) {
      const path = typeof entry === 'string' ? entry : (entry as { path?: unknown } | null | undefined)?.path
      if (typeof path === 'string' && path !== '' && !paths.includes(path)) paths.push(path)
    }
  }
  return paths
}

/** The machine's failure: the server's message, or `fallback`'s text when it sent none. */
function failed(message: unknown, fallback: string): never {
  if (text(message)) throw new Error(text(message))
  throw new Notice(fallback, 'the machine failed')
}

/** Runs a step's work; a failure shows its toast (the server's message, or the Notice's text), then rejects. */
async function shown(step: DevicesStep, work: () => Promise<void>): Promise<void> {
  try {
    await work()
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    step.host.toast('error', error instanceof Notice ? error.key : message || 'Error')
    throw error
  }
}

/** Posts a job and waits for its answer on the step's socket (scan_order.ts); no answer within `ms`: a Notice. */
function placeAndWait<T>(
  step: DevicesStep,
  event: string,
  match: (data: T) => boolean,
  ms: number,
  place: () => Promise<unknown>
): Promise<T> {
  return placeAndListen<T>(
    step.host.socketEvent,
    { event, match, ms },
    place,
    (why) => new Notice(DEVICES_TEXTS.timeout, `no ${event} answer within ${Math.round(ms / 1000)} s (${why})`)
  )
}

/** The file entry of a good scan, in the contract's FileEntry shape. */
function scannedEntry(event: ScanEvent) {
  return {
    ext: text(event.ext),
    ip: text(event.ip),
    path: text(event.path),
    real_name: text(event.real_name),
    status: 'good',
  }
}

/** The handlers. */
export function devicesActionHandlers(): DevicesHandler[] {
  const handler = (type: string, run: DevicesHandler['run']): DevicesHandler =>
    Object.freeze({ type, plugin: 'devices' as const, run })

  return [
    handler('scan_document', async (config, step) => {
      const field = text(config.field)
      const target = step.form.item(field)
      const kind = target?.kind === 'field' ? target.item.type : undefined
      // A designer's mistake: reported, not shown.
      if (kind !== 'file' && kind !== 'image') throw new Error(`"${field}" is not a file or image field`)
      await shown(step, async () => {
        const machine = machineToken(step, text(config.machine))
        if (!machine) throw new Notice(DEVICES_TEXTS.noMachine, 'no machine chosen')
        const current = step.form.valuesNow()[field]
        const files = Array.isArray(current) ? current : []
        const limit = Number((target?.item.data?.ref as { limit?: unknown } | undefined)?.limit)
        if (kind === 'file' && limit > 0 && files.length >= limit) {
          throw new Notice(DEVICES_TEXTS.fileFull, `"${field}" holds its ${limit} files`)
        }
        const tokenForm = scanTokenForm(field)
        const format = kind === 'image' && config.format === 'pdf' ? 'jpeg' : text(config.format) || 'pdf'
        const call = scanCallFields(machine, tokenForm, {
          duplex: config.duplex === true,
          color: config.color !== false,
          dpi: Number(config.dpi) || 300,
          source: text(config.source),
          ocr: config.ocr === true,
          format,
        })
        const ms = seconds(config.seconds, 120) * 1000
        const event = await placeAndWait<ScanEvent>(
          step,
          SCAN_EVENT,
          (data) => data?.token_form === tokenForm,
          ms,
          () => step.host.post(call.path, call.fields)
        )
        if (!isGoodScan(event)) failed(event.message, DEVICES_TEXTS.scanError)
        const entry = scannedEntry(event)
        // Added as an upload is: an image's value is its entry, a file field's the list with it at the end.
        const now = step.form.valuesNow()[field]
        step.form.setValue(field, kind === 'image' ? entry : [...(Array.isArray(now) ? now : []), entry])
        step.host.toast('success', DEVICES_TEXTS.scanDone)
        // What the scanner gave, for ${device.scan_path} and the like in other actions.
        await step.setDevice({ scan_path: entry.path, scan_name: entry.real_name, scan_field: field, machine })
      })
    }),

    handler('print_document', async (config, step) => {
      await shown(step, async () => {
        const machine = machineToken(step, text(config.machine))
        if (!machine) throw new Notice(DEVICES_TEXTS.noMachine, 'no machine chosen')
        const fields = Array.isArray(config.files) ? config.files.map(text) : [text(config.files)]
        const paths = filePaths(step.form.valuesNow(), fields.filter(Boolean))
        if (paths.length === 0) throw new Notice(DEVICES_TEXTS.noFiles, `no files in ${fields.join(', ')}`)
        const copies = Number(config.copies) || 1
        const configPrinter = {
          copies,
          both_sides: config.both_sides === true,
          color: config.color !== false,
          tray: Number(config.tray) || 1,
          paper: config.paper === 'legal' ? 'legal' : 'letter',
        }
        const tokenForm = `print$$$${randomId()}`
        let job: string | null = null
        const ms = seconds(config.seconds, 300) * 1000
        const event = await placeAndWait<PrintEvent>(
          step,
          PRINT_EVENT,
          (data) =>
            (data?.data?.token_form === tokenForm || (job !== null && data?.data?.job === job)) &&
            (data.status === 'done' || data.status === 'failed'),
          ms,
          async () => {
            const answer = await step.host.post(DEVICES_ROUTES.print.path, {
              config_printer: JSON.stringify(configPrinter),
              token: machine,
              cant: String(copies),
              files: JSON.stringify(paths),
              token_form: tokenForm,
            })
            const id = (answer as { job?: unknown } | null)?.job
            job = typeof id === 'string' ? id : null
          }
        )
        if (event.status !== 'done') failed(event.message, DEVICES_TEXTS.printError)
        step.host.toast('success', text(event.message) || DEVICES_TEXTS.printDone)
        await step.setDevice({ print_job: job ?? '', print_status: 'done', machine })
      })
    }),
  ]
}

export default devicesActionHandlers()
