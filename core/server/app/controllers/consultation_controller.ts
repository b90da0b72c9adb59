import type { HttpContext } from '@adonisjs/core/http'
import db from '@adonisjs/lucid/services/db'
import {
  setEntries,
  setRepeatCaption,
  toStoredValue,
  INIT_STATE,
  type FormConfig,
  type FormItem,
  type ProcessDefinition,
} from '@tramita/contract'
import { CallFailure, done, fail } from '#lib/envelope'
import { field, optionalField } from '#lib/input'
import { languageOf, message } from '#lib/messages'
import { readSignedId, signId } from '#lib/signed_id'
import { sameSecret } from '#lib/tokens'
import { latestVersionByKey, versionById, type LoadedVersion } from '#services/process/definitions'
import { normalizeCaseCode } from '#services/process/case_code'
import type { CaseRow } from '#services/process/engine'
import { rateLimit } from '#services/rate_limits'

/** Lookups per address per minute, and failed lookups per case code per 15 minutes. */
const LOOKUPS_PER_MINUTE = 20
const FAILURES_PER_CODE = 10

/** Fields the consultation may show: the chosen ones, or all when none are chosen (spec 000 §2). */
function shownFields(form: FormConfig, process: ProcessDefinition) {
  const chosen = process.external_consultation.select_show_info
  return form.fields.filter((f) => chosen.length === 0 || chosen.includes(f.field_name))
}

/**
 * A shown set field becomes one field per repetition the case holds (named by its key, labelled with
 * the repetition's caption): its own value is always blank, the repetitions are what was filled.
 */
function withRepetitions(form: FormConfig, fields: FormItem[], values: Record<string, unknown>): FormItem[] {
  const entries = setEntries(form, values)
  return fields.flatMap((item) => {
    if (!item.isSet) return [item]
    const label = item.data.label.value || item.field_name
    return entries
      .filter((entry) => entry.item === item)
      .map(({ repeat, key }) => ({
        ...item,
        isSet: false,
        field_name: key,
        data: { ...item.data, label: { ...item.data.label, value: `${label} (${setRepeatCaption(item, repeat)})` } },
      }))
  })
}

/** One state of the path: the id, its label and colour as logged, and when the case entered it. */
interface PathStep {
  id: string
  label: string
  color: string
  date: string | null
}

interface StateEntry {
  state: string | null
  label: string
  color: string
  created_at: string | Date
}

/**
 * The states the case went through, in order, from its activity log: init first, then each state it
 * entered (again when it came back to one), the last being where it is now. Entries logged before the
 * log kept state ids are matched by label.
 */
function pathTaken(process: ProcessDefinition, row: CaseRow, entries: StateEntry[]): PathStep[] {
  const byId = new Map(process.states.map((s) => [s.id, s]))
  const step = (id: string, date: string | Date | null | undefined, label?: string, color?: string): PathStep => ({
    id,
    label: label ?? byId.get(id)?.label ?? id,
    color: color ?? byId.get(id)?.color ?? '',
    date: date ? new Date(date).toISOString() : null,
  })
  const path = [step(INIT_STATE, (row as CaseRow & { created_at?: Date | string }).created_at)]
  for (const entry of entries) {
    const id = entry.state ?? process.states.find((s) => s.label === entry.label)?.id ?? entry.label
    path.push(step(id, entry.created_at, entry.label, entry.color))
  }
  // The case's own row is the truth about where it is, should the log not say so.
  if (path.at(-1)!.id !== row.state) path.push(step(row.state, null))
  return path
}

/**
 * The public consultation of a case by its code (spec 000 §2, §7). Nothing here needs a session. A
 * lookup that fails for any reason (unknown code, wrong verification value, consultation disabled
 * for the case) gets the same answer, so a wrong value reveals nothing about the case.
 */
export default class ConsultationController {
  /** POST /inside/forms/info_basicform (data: the form key) */
  async basicForm(ctx: HttpContext) {
    const version = await latestVersionByKey(field(ctx, 'data', { max: 64 }))
    if (!version) fail(message(ctx, 'engine.not_found'), 404)
    const consult = version.process.external_consultation
    if (!consult.enable) fail(message(ctx, 'this_form_dont_have_external'), 403)
    return done({
      estados: version.process.states,
      color: version.process.color,
      label: version.process.label,
      external_consultation: {
        enable: true,
        select_restrinct_consult: consult.select_restrinct_consult !== '',
        label_restrinct_consult: consult.label_restrinct_consult,
        activity_register: consult.activity_register,
      },
      id_form: version.formKey,
    })
  }

  /** POST /inside/forms/validation_flow (idform, code_process, dynamic) → idflow */
  async validateFlow(ctx: HttpContext) {
    const ip = ctx.request.ip()
    const lookups = await rateLimit({ requests: LOOKUPS_PER_MINUTE, duration: '1 min' }).increment(`consult_ip:${ip}`)
    if (lookups.consumed > LOOKUPS_PER_MINUTE) this.tooMany(ctx, lookups.availableIn)
    const code = normalizeCaseCode(field(ctx, 'code_process', { max: 40 }))
    const dynamic = optionalField(ctx, 'dynamic', 500)?.trim() ?? ''
    const formKey = field(ctx, 'idform', { max: 64 })
    const failures = rateLimit({ requests: FAILURES_PER_CODE, duration: '15 min' })
    // A code that has failed too often waits, even for the right value.
    const failed = code ? await failures.get(`consult_code:${code}`) : null
    if (failed && failed.consumed >= FAILURES_PER_CODE) this.tooMany(ctx, failed.availableIn)
    const row = code
      ? ((await db
          .from('cases as c')
          .join('forms as f', 'f.id', 'c.form_id')
          .where('c.code', code)
          .where('f.key', formKey)
          .select('c.*')
          .first()) as CaseRow | null)
      : null
    const version = row ? await versionById(row.form_version_id) : null
    if (!row || !version || !this.verified(version, row, dynamic)) {
      if (code) await failures.increment(`consult_code:${code}`)
      fail(message(ctx, 'consulta_incorrecta'), 404)
    }
    return done({ idflow: signId('consult', row.id), message: message(ctx, 'consulta_correcta') })
  }

  /** POST /data/forms/record_info (id_form, id_flow) → the activity register, when enabled. */
  async recordInfo(ctx: HttpContext) {
    const { row, version } = await this.consulted(ctx)
    if (!version.process.external_consultation.activity_register) return done([])
    const entries = await db.from('activities').where('case_id', row.id).orderBy('id')
    return done(
      entries.map((a) => ({
        type: a.type,
        event: a.event,
        label: a.label,
        color: a.color,
        date: new Date(a.created_at).toISOString(),
        asignados: a.assignees,
        type_asignador: a.type_asignador,
        // What the person deciding wrote with a decision (option_selected), else null.
        comment: a.comment ?? null,
      }))
    )
  }

  /** POST /inside/forms/info_formxflow (id_form, id_flow) → what the visitor may see of the case. */
  async formByFlow(ctx: HttpContext) {
    const { row, version } = await this.consulted(ctx)
    const values = JSON.parse(row.values) as Record<string, unknown>
    const fields = withRepetitions(version.form, shownFields(version.form, version.process), values)
    const lang = languageOf(ctx)
    const state = version.process.states.find((s) => s.id === row.state)
    const last = await db.from('activities').where('case_id', row.id).orderBy('id', 'desc').first()
    const states = (await db
      .from('activities')
      .where('case_id', row.id)
      .where('type', 'state')
      .orderBy('id')
      .select('state', 'label', 'color', 'created_at')) as StateEntry[]
    return done({
      // Only the shown fields travel: the others' labels and values stay on the server.
      jsonconfig: { form: { pages: [] }, fields },
      fields_values: {
        ...Object.fromEntries(fields.map((f) => [f.field_name, toStoredValue(f, values[f.field_name], { lang })])),
        CODE_PROCESS: row.code,
        ID_PROCESS: version.formId,
      },
      current_state: state ? { id: state.id, label: state.label, color: state.color } : { id: row.state },
      last_update: last ? new Date(last.created_at).toISOString() : null,
      // The states the case went through, in order, and whether it has ended (the progress bar).
      path: pathTaken(version.process, row, states),
      ended: row.status === 'ended',
      doc_path_link: '',
      infouser: [],
    })
  }

  /** The case an idflow names, if it belongs to the form and still may be consulted. */
  private async consulted(ctx: HttpContext): Promise<{ row: CaseRow; version: LoadedVersion }> {
    const id = readSignedId('consult', ctx.request.input('id_flow'))
    const row = id ? ((await db.from('cases').where('id', id).first()) as CaseRow | null) : null
    const version = row ? await versionById(row.form_version_id) : null
    if (!row || !version || version.formKey !== ctx.request.input('id_form'))
      fail(message(ctx, 'consulta_incorrecta'), 404)
    if (!version.process.external_consultation.enable) fail(message(ctx, 'process_not_external'), 403)
    return { row, version }
  }

  /** The case may be consulted and, when the process asks for it, the typed value matches the field. */
  private verified(version: LoadedVersion, row: CaseRow, dynamic: string): boolean {
    const consult = version.process.external_consultation
    if (!consult.enable) return false
    if (!consult.select_restrinct_consult) return true
    const values = JSON.parse(row.values) as Record<string, unknown>
    const expected = String(values[consult.select_restrinct_consult] ?? '')
      .trim()
      .toLowerCase()
    return expected !== '' && sameSecret(expected, dynamic.toLowerCase())
  }

  /** 429 with Retry-After. */
  private tooMany(ctx: HttpContext, availableIn: number): never {
    const error = new CallFailure(message(ctx, 'auth.too_many_requests'), 429, 'E_CALL_FAILED')
    error.retryAfter = availableIn
    throw error
  }
}
