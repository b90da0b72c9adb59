import { PluginFailure, type PluginContext, type PluginPrincipal } from '@tramita/plugin-api'
import { MEDIA, type Media, type PrintOrder, type ScanOrder } from '../../shared/protocol.js'

/**
 * A form's scan and print settings (spec 000 §7 config_printer, spec 001 §9 constants) read into an
 * order, with the spec's defaults; anything out of range is a clear failure, never passed on to a driver.
 */

type Config = Record<string, unknown>

function config(value: unknown): Config {
  if (value === undefined || value === null || value === '') return {}
  if (typeof value !== 'object' || Array.isArray(value)) throw new PluginFailure('devices.config_invalid')
  return value as Config
}

function number(value: unknown, fallback: number, min: number, max: number, what: string): number {
  if (value === undefined || value === null || value === '') return fallback
  const n = typeof value === 'string' ? Number(value) : value
  if (typeof n !== 'number' || !Number.isFinite(n) || n < min || n > max) {
    throw new PluginFailure('devices.config_out_of_range', 400, { key: what, min, max })
  }
  return n
}

function bool(value: unknown, fallback: boolean): boolean {
  if (value === undefined || value === null || value === '') return fallback
  if (typeof value === 'boolean') return value
  if (value === 'true' || value === 1 || value === '1') return true
  if (value === 'false' || value === 0 || value === '0') return false
  throw new PluginFailure('devices.config_invalid')
}

/** Colour as the forms send it: true/false, or 'color' against 'bw' / 'gray' / 'black'. */
function color(value: unknown): boolean {
  if (typeof value === 'string' && /^(bw|gray|grey|black|blanco y negro)$/i.test(value)) return false
  if (typeof value === 'string' && /^colou?r$/i.test(value)) return true
  return bool(value, true)
}

function media(value: unknown): Media {
  if (value === undefined || value === null || value === '') return 'letter'
  const paper = String(value).toLowerCase()
  if (!(MEDIA as readonly string[]).includes(paper)) throw new PluginFailure('devices.config_paper')
  return paper as Media
}

/** The spec's scan config: duplex false, colour, dpi, paper, height 22, width 28, input source Platen, ocr. */
export function scanOptions(value: unknown): Omit<ScanOrder, 'kind' | 'id' | 'machineUid'> & { ocr: boolean } {
  const c = config(value)
  const format = c.format === undefined ? 'pdf' : String(c.format).toLowerCase().replace('jpg', 'jpeg')
  if (format !== 'pdf' && format !== 'png' && format !== 'jpeg') throw new PluginFailure('devices.config_format')
  const source = c.inputSource === undefined ? 'Platen' : String(c.inputSource)
  if (!/^[\w .-]{1,50}$/.test(source)) throw new PluginFailure('devices.config_invalid')
  return {
    duplex: bool(c.duplex, false),
    color: color(c.color),
    dpi: Math.round(number(c.dpi, 300, 50, 1200, 'dpi')),
    heightCm: number(c.height, 22, 1, 100, 'height'),
    widthCm: number(c.width, 28, 1, 100, 'width'),
    source,
    format,
    ocr: bool(c.ocr, false),
  }
}

/**
 * Where a scan goes: the form (`data`, its key) and the field named first in token_form, which joins
 * field, a random id and the side with `$$$` (spec 000 §7); the client matches the answer by it.
 */
export function scanTarget(tokenForm: string | undefined, formKey: string | undefined) {
  const token = (tokenForm ?? '').slice(0, 300)
  const field = token.split('$$$')[0] ?? ''
  if (!field || field.length > 150) throw new PluginFailure('devices.token_form_invalid')
  if (!formKey || formKey.length > 64) throw new PluginFailure('devices.form_missing')
  return { tokenForm: token, field, formKey }
}

/** The spec's print options: letter or legal, copies (`cant`), both sides, colour or black and white, tray 1. */
export function printOptions(
  value: unknown,
  cant: string | undefined
): Omit<PrintOrder, 'kind' | 'id' | 'machineUid' | 'files'> {
  const c = config(value)
  return {
    copies: Math.round(number(cant ?? c.copies, 1, 1, 99, 'cant')),
    bothSides: bool(c.both_sides ?? c.bothSides ?? c.duplex, false),
    color: color(c.color),
    tray: Math.round(number(c.tray, 1, 1, 20, 'tray')),
    media: media(c.paper ?? c.media),
  }
}

/** What a printer takes (IPP Everywhere's formats). */
const PRINTABLE: Record<string, string> = { 'application/pdf': 'pdf', 'image/jpeg': 'jpg', 'image/png': 'png' }
const MAX_FILES = 20

/**
 * The form files to print, each one the caller may read (the core's rule), copied into the plugin's
 * storage so the agent can fetch them until the job ends; at most `maxBytes` together.
 */
export async function printFiles(
  ctx: Pick<PluginContext, 'caseFiles' | 'storage'>,
  who: PluginPrincipal,
  value: unknown,
  maxBytes: number
) {
  const list = Array.isArray(value) ? value : []
  const paths = list.map((item) => (typeof item === 'string' ? item : (item as { path?: unknown } | null)?.path))
  if (paths.length === 0 || paths.length > MAX_FILES || paths.some((p) => typeof p !== 'string')) {
    throw new PluginFailure('devices.print_files_invalid')
  }
  const opened = []
  let total = 0
  for (const path of paths as string[]) {
    const file = await ctx.caseFiles.open(path, who)
    if (!file) throw new PluginFailure('devices.print_file_not_found', 404)
    if (!PRINTABLE[file.mime]) throw new PluginFailure('devices.print_format', 400, { name: file.name })
    total += file.size
    if (total > maxBytes) throw new PluginFailure('devices.print_too_large', 413)
    opened.push(file)
  }
  const stored: { storage_key: string; name: string; mime: string; size: number }[] = []
  try {
    for (const file of opened) {
      const object = await ctx.storage.put(await file.read(), PRINTABLE[file.mime]!)
      stored.push({ storage_key: object.key, name: file.name.slice(0, 255), mime: file.mime, size: object.size })
    }
  } catch (error) {
    for (const file of stored) await ctx.storage.delete(file.storage_key)
    throw error
  }
  return stored
}
