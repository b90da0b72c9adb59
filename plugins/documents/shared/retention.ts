/**
 * Retention (spec 001 §2, §3, §4, §7; spec 000 §2; issue 20 items 2 and 3): schedules in the style of a
 * Colombian TRD (tabla de retención documental), assigned to folders, indexes or documents, the daily
 * e-mail asking the responsible person to confirm the final disposition, and the public confirmation
 * (`/confirmretention`) with the conservation card. Shared by server/retention/ and the screens.
 * Isomorphic: no node:, no DOM.
 *
 * The schedule that applies to a document is the nearest assignment: the document's own, else the
 * index it is filed under (a sub-index's before its parent's), else its folder's or the nearest folder
 * above it. A document is due when its retention start (when it was created in the library) plus the
 * years in the active and the central archive has passed.
 */
import { fillPath } from './library.js'
import type { OcrDetails, OcrSubType } from './ocr.js'

export type Disposition = 'delete' | 'archive'
export const DISPOSITIONS: readonly Disposition[] = ['delete', 'archive']

export type RetentionTargetType = 'folder' | 'index' | 'file'
export const RETENTION_TARGET_TYPES: readonly RetentionTargetType[] = ['folder', 'index', 'file']

export const RETENTION_LIMITS = {
  codeMax: 40,
  textMax: 255,
  /** Years in one archive (active or central). */
  yearsMax: 200,
  labels: 20,
  labelNameMax: 60,
  /** Spec 001 §2, §4, §9: after a confirmation the screen goes home after this long. */
  redirectMs: 2000,
  /** How long the card's preview address stays valid. */
  previewMinutes: 10,
} as const

export const COLOR = /^#[0-9a-fA-F]{6}$/

/** The screen a confirmation mail links to (spec 000 §2). */
export const CONFIRM_SCREEN = '/confirmretention'
export function confirmScreenPath(code: string, userId: number): string {
  return `${CONFIRM_SCREEN}?code=${encodeURIComponent(code)}&user=${userId}`
}

/** Administrators manage schedules and their assignments (the superuser holds every role). */
export const RETENTION_ADMINS = ['superuser', 'supervisor'] as const

export const RETENTION_ROUTES = {
  /** Administrators. → ScheduleRow[] by code. */
  schedules: { method: 'GET', path: '/api/documents/retention/schedules' },
  /** Administrators. code, serie, subserie, doc_type, active_years, central_years, disposition (delete |
   * archive), responsible_id (absent: the document's owner), labels (JSON [{name, color}]) → ScheduleRow. */
  createSchedule: { method: 'POST', path: '/api/documents/retention/schedules' },
  /** Administrators. The same fields, all of them → ScheduleRow. */
  updateSchedule: { method: 'PUT', path: '/api/documents/retention/schedules/:id' },
  /** Administrators. Its assignments go with it; confirmations already mailed stay valid → { id }. */
  deleteSchedule: { method: 'DELETE', path: '/api/documents/retention/schedules/:id' },
  /** Administrators. → AssignmentRow[]: every folder, index and document with a schedule of its own. */
  assignments: { method: 'GET', path: '/api/documents/retention/assignments' },
  /** Administrators. target_type (folder | index | file), target_id, schedule_id (absent or empty: none of
   * its own) → EffectiveRetention of that target. */
  assign: { method: 'PUT', path: '/api/documents/retention/assignments' },
  /** Administrators. target_type, target_id → EffectiveRetention. */
  effective: { method: 'GET', path: '/api/documents/retention/effective' },
  /** Administrators. → DueRow[]: what is due now (what `tramita documents:retention --dry-run` lists). */
  due: { method: 'GET', path: '/api/documents/retention/due' },
  /** Public (spec 001 §7). user (query) → ConservationCard; changes nothing. */
  card: { method: 'GET', path: '/confirmretention/document/:code' },
  /** Public (spec 001 §7). user (query), code, option (delete | archive) → ConfirmAnswer; once per code. */
  confirm: { method: 'PUT', path: '/confirmretention' },
  /** Public. The card's preview: the document's current version inline, for minutes, while its code is open. */
  preview: { method: 'GET', path: '/api/documents/retention/preview/:grant' },
} as const satisfies Record<string, { method: 'GET' | 'POST' | 'PUT' | 'DELETE'; path: string }>

export type RetentionRouteName = keyof typeof RETENTION_ROUTES

export function retentionPath(name: RetentionRouteName, params: Record<string, string | number> = {}): string {
  return fillPath(RETENTION_ROUTES[name].path, params)
}

export interface RetentionLabel {
  name: string
  /** #rrggbb */
  color: string
}

/** The schedule's fields as the screens send them. */
export interface ScheduleInput {
  code: string
  serie: string
  subserie: string
  doc_type: string
  active_years: number
  central_years: number
  disposition: Disposition
  responsible_id: number | null
  labels: RetentionLabel[]
}

export interface ScheduleRow extends Omit<ScheduleInput, 'responsible_id'> {
  id: number
  /** Who confirms; null: each document's owner. */
  responsible: { id: number; name: string } | null
  /** Folders, indexes and documents with this schedule of their own. */
  assignments: number
  updated_at: string
}

export interface AssignmentRow {
  target_type: RetentionTargetType
  target_id: number
  /** The folder's, index's or document's name ("" when it is gone). */
  target_name: string
  schedule_id: number
  schedule_code: string
}

export interface EffectiveRetention {
  target_type: RetentionTargetType
  target_id: number
  /** The schedule assigned to the target itself. */
  own: number | null
  /** What applies (its own, or the nearest one above it) and where it comes from. */
  effective: {
    schedule_id: number
    schedule_code: string
    from_type: RetentionTargetType
    from_id: number
    /** The name of the folder, index or document it comes from ("" when it is gone). */
    from_name: string
  } | null
}

export interface DueRow {
  file_id: number
  file_name: string
  schedule_id: number
  schedule_code: string
  /** Where the schedule comes from: the document, an index or a folder. */
  from_type: RetentionTargetType
  from_id: number
  responsible: { id: number; name: string }
  /** The day its retention ended (ISO). */
  due_since: string
  /** A confirmation was mailed and its code is still open (until `pending_until`): it is not mailed again. */
  pending_until: string | null
}

/** Spec 001 §2, §3: the document (conservation) of the retention confirmation screen. */
export interface ConservationCard {
  name: string
  /** Bytes. */
  weight: number
  mime: string
  /** Opens the document without a session, for minutes (RETENTION_LIMITS.previewMinutes). */
  preview_url: string
  /** The type badge (spec 001 §2). */
  sub_type: OcrSubType
  total_page: number | null
  last_modification: string
  /** The latest finished OCR run of the current version, its pages by result (zeros when none). */
  details: OcrDetails
  /** The card's four counts: skipped, with OCR, without OCR (scanned, not read) and with errors. */
  pages: { skipped: number; with_ocr: number; without_ocr: number; errors: number }
  retention: { code: string; serie: string; subserie: string; doc_type: string; disposition: Disposition }
  labels: RetentionLabel[]
  /** Until when the code may be used. */
  expires_at: string
}

export interface ConfirmAnswer {
  option: Disposition
  name: string
  /** Spec 001 §4: home, after RETENTION_LIMITS.redirectMs. */
  redirect: string
}
