/**
 * The public consultation page's pure parts (spec 000 §2 "External process consultation", §3 "Process
 * info"): the answers of the four calls, the progress-bar order, the date format, the tab rows and
 * their search, file links. No React and no DOM, so they are unit-tested as they are.
 */
import { fileKindOf, type FileKind } from './preview.js'
import { foldText } from './text_search.js'

/** GET /data/config/infocompany (the parts this page reads). */
export interface CompanyInfo {
  company: string
  url_img: string
}

export interface ProcessState {
  id: string
  label: string
  color?: string
}

/** POST /inside/forms/info_basicform */
export interface BasicForm {
  estados: ProcessState[]
  color: string
  label: string
  external_consultation: {
    enable: boolean
    /** True when the process asks for a verification value. */
    select_restrinct_consult: boolean
    label_restrinct_consult: string
    activity_register: boolean
  }
  id_form: string
}

export interface StoredValue {
  type: string
  value_replace: string
  value_simple: string
  value: unknown
}

export interface ConsultedField {
  field_name: string
  type: string
  data?: { label?: { value?: string } }
}

/** POST /inside/forms/info_formxflow */
export interface FormByFlow {
  jsonconfig: { fields: ConsultedField[] }
  /** Stored values of the shown fields, plus CODE_PROCESS and ID_PROCESS (plain values). */
  fields_values: Record<string, StoredValue | string | number>
  current_state: { id: string; label?: string; color?: string }
  last_update: string | null
  doc_path_link: string
  /** The states the case went through, in order (its log), the last being where it is. */
  path?: PathState[]
  /** Whether the case has ended (then its last state is where it ended). */
  ended?: boolean
}

/** One state of a case's path: as logged when the case entered it. */
export interface PathState {
  id: string
  label: string
  color: string
  date: string | null
}

/** One entry of POST /data/forms/record_info */
export interface ActivityEntry {
  type: string
  event?: string
  label: string
  color: string
  date: string
  asignados: string
  type_asignador: string | null
  /** What the person deciding wrote with a decision (option_selected entries). */
  comment?: string | null
}

export const INIT_STATE = 'init'
export const END_STATE = 'end'

/** Field types shown on the Documents tab; every other field is on the Information tab. */
export const DOCUMENT_TYPES = ['image', 'signature', 'file'] as const

const pad = (n: number, width = 2) => String(n).padStart(width, '0')

/** YYYY/MM/DD HH:mm:ss in the viewer's time zone; '' for a missing or unreadable date. */
export function formatConsultDate(input: string | number | Date | null | undefined): string {
  if (input === null || input === undefined || input === '') return ''
  const date = input instanceof Date ? input : new Date(input)
  if (Number.isNaN(date.getTime())) return ''
  const day = `${pad(date.getFullYear(), 4)}/${pad(date.getMonth() + 1)}/${pad(date.getDate())}`
  return `${day} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`
}

/** The last update: the date of the last activity entry, else what the case answer carries. */
export function lastUpdate(entries: readonly ActivityEntry[], fallback: string | null | undefined): string {
  return formatConsultDate(entries.at(-1)?.date ?? fallback)
}

export interface ProgressStep {
  id: string
  label: string
  color: string
  /** When the case entered this state ('' when unknown). */
  date: string
  /** Where the case is now: the last state of its path. */
  current: boolean
  /** The last state has no arrow after it. */
  last: boolean
}

/**
 * The progress bar: the path the case took, in order, ending where it is now (issue 18), not every
 * state of the process, so a state it never entered (the rejection of an approved case) is not drawn
 * as if it followed. A state entered twice is there twice. Init and end read as the spec's 'Iniciado'
 * and 'Finalizado' (passed in, translated); other labels are the process's current ones when the
 * state still exists, else as logged. Without a path (an older server), init then the current state.
 */
export function progressSteps(
  states: readonly ProcessState[],
  path: readonly PathState[] | undefined,
  current: { id: string; label?: string; color?: string },
  names: { init: string; end: string }
): ProgressStep[] {
  const byId = new Map(states.map((s) => [s.id, s]))
  const taken: PathState[] =
    path && path.length > 0
      ? [...path]
      : [
          {
            id: INIT_STATE,
            label: byId.get(INIT_STATE)?.label ?? '',
            color: byId.get(INIT_STATE)?.color ?? '',
            date: null,
          },
          ...(current.id === INIT_STATE
            ? []
            : [{ id: current.id, label: current.label ?? '', color: current.color ?? '', date: null }]),
        ]
  return taken.map((entry, index) => {
    const state = byId.get(entry.id)
    return {
      id: entry.id,
      label: stateLabel({ id: entry.id, label: state?.label || entry.label }, names),
      color: state?.color ?? entry.color ?? '',
      date: formatConsultDate(entry.date),
      current: index === taken.length - 1,
      last: index === taken.length - 1,
    }
  })
}

/** A state's shown name: init and end by their fixed names, the others by their label (or id). */
export function stateLabel(state: { id: string; label?: string }, names: { init: string; end: string }): string {
  if (state.id === INIT_STATE) return names.init
  if (state.id === END_STATE) return names.end
  return state.label || state.id
}

export interface FileLink {
  name: string
  url: string
  kind: PreviewKind
}

/** What the preview panel shows a file as; null: it has no viewer (the link still opens it). */
export type PreviewKind = Exclude<FileKind, 'other'> | null

export interface FieldRow {
  name: string
  label: string
  type: string
  /** The display text, '' when empty (the page shows a dash). */
  text: string
  files: FileLink[]
}

/**
 * A stored file path as a link on this host ("files are shown from host plus file path", spec 000 §7).
 * Only http(s) URLs are kept as they are; anything else becomes a path on this host, so a stored
 * value can never become a `javascript:` link or point at another host through `//`. A path on this
 * host carries the consultation's `id_flow`: that is what lets an anonymous visitor read the file.
 */
export function fileUrl(path: string, idFlow?: string): string {
  const trimmed = path.trim()
  if (/^https?:\/\//i.test(trimmed)) return trimmed
  const local = `/${trimmed.replace(/^[/\\]+/, '')}`
  if (!idFlow) return local
  return `${local}${local.includes('?') ? '&' : '?'}${new URLSearchParams({ id_flow: idFlow })}`
}

/** What the preview panel can show for a file name, extension or path (lib/preview decides). */
export function previewKind(nameOrExt: string): PreviewKind {
  const kind = fileKindOf(nameOrExt)
  return kind === 'other' ? null : kind
}

interface FileLike {
  path?: unknown
  real_name?: unknown
  ext?: unknown
}

function fileLink(entry: FileLike, fallbackName: string, idFlow?: string): FileLink | null {
  if (typeof entry.path !== 'string' || entry.path.trim() === '') return null
  const name = typeof entry.real_name === 'string' && entry.real_name !== '' ? entry.real_name : fallbackName
  const ext = typeof entry.ext === 'string' && entry.ext !== '' ? entry.ext : entry.path
  return { name, url: fileUrl(entry.path, idFlow), kind: previewKind(ext) }
}

/** The files of an image, signature or file value (one, one, or a list of entries). */
export function filesOf(field: ConsultedField, stored: StoredValue | undefined, idFlow?: string): FileLink[] {
  const value = stored?.value
  if (!value || typeof value !== 'object') return []
  const entries = (Array.isArray(value) ? value : [value]) as FileLike[]
  const label = field.data?.label?.value || field.field_name
  return entries.flatMap((entry) => {
    const fallback = typeof entry.path === 'string' ? (entry.path.split('/').pop() ?? label) : label
    const link = fileLink(entry, field.type === 'signature' ? `${label}.png` : fallback, idFlow)
    return link ? [link] : []
  })
}

/**
 * The field rows of both tabs: documents are image, signature and file fields; the rest is
 * information. File links carry `idFlow` (see fileUrl).
 */
export function fieldRows(
  info: Pick<FormByFlow, 'jsonconfig' | 'fields_values'>,
  idFlow?: string
): {
  information: FieldRow[]
  documents: FieldRow[]
} {
  const information: FieldRow[] = []
  const documents: FieldRow[] = []
  for (const field of info.jsonconfig.fields) {
    const raw = info.fields_values[field.field_name]
    const stored = raw !== null && typeof raw === 'object' ? raw : undefined
    const row: FieldRow = {
      name: field.field_name,
      label: field.data?.label?.value || field.field_name || field.type,
      type: field.type,
      text: stored?.value_replace?.trim() ?? '',
      files: [],
    }
    if ((DOCUMENT_TYPES as readonly string[]).includes(field.type)) {
      documents.push({ ...row, files: filesOf(field, stored, idFlow) })
    } else {
      information.push(row)
    }
  }
  return { information, documents }
}

/**
 * Rows whose label, name, shown value or file names contain the query (case and accents ignored). A
 * row found only by some of its file names keeps just those files.
 */
export function searchRows<T extends FieldRow>(rows: readonly T[], query: string): readonly T[] {
  const wanted = foldText(query.trim())
  if (wanted === '') return rows
  const found = (text: string) => foldText(text).includes(wanted)
  return rows.flatMap((row) => {
    if (found(row.label) || found(row.name)) return [row]
    const files = row.files.filter((f) => found(f.name))
    if (files.length > 0) return [{ ...row, files }]
    return found(row.text) ? [row] : []
  })
}

/** Activity entries whose assignee text or label contains the query (spec 000 §2). */
export function searchActivities<T extends Pick<ActivityEntry, 'asignados' | 'label'>>(
  entries: readonly T[],
  query: string
): readonly T[] {
  const wanted = foldText(query.trim())
  if (wanted === '') return entries
  return entries.filter(
    (e) => foldText(`${e.asignados ?? ''}`).includes(wanted) || foldText(e.label ?? '').includes(wanted)
  )
}

export interface Offset {
  x: number
  y: number
}

export interface Box {
  left: number
  top: number
  width: number
  height: number
}

/**
 * Moves a panel by `delta` from `offset` (its CSS translation), keeping the box (where it is now on
 * screen) inside the viewport; a panel larger than the viewport stays pinned to the top left.
 */
export function moveWithin(offset: Offset, delta: Offset, box: Box, viewport: { width: number; height: number }) {
  const clamp = (value: number, min: number, max: number) => Math.max(min, Math.min(value, Math.max(min, max)))
  const dx = clamp(delta.x, -box.left, viewport.width - box.width - box.left)
  const dy = clamp(delta.y, -box.top, viewport.height - box.height - box.top)
  return { x: offset.x + dx, y: offset.y + dy }
}
