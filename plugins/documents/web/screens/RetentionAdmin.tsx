/**
 * The retention schedules screen (spec 001 §3, §4; issue 20), /documents/retention, for administrators:
 * the schedules (TRD: code, serie, subserie, document type, years in the active and the central archive,
 * final disposition, responsible person, labels) made, changed and deleted in dialogs; the folders,
 * indexes and documents with a schedule of their own, assigned or removed; and what is due now. Every
 * rule is the server's; a refusal is shown in the dialog or the form that asked.
 */
import { useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { call } from '@tramita/web/api'
import { Dialog } from '@tramita/web/Dialog'
import { Page } from '@tramita/web/Page'
import { toasts } from '@tramita/web/toasts'
import { errorText, useLoaded } from '@tramita/web/loading'
import { ConfirmDialog, DialogActions, Refusal, useAttempt } from '@tramita/web/dialog-form'
import type { IndexRow } from '../../shared/indexes.js'
import {
  DISPOSITIONS,
  RETENTION_LIMITS,
  RETENTION_TARGET_TYPES,
  type AssignmentRow,
  type DueRow,
  type RetentionLabel,
  type RetentionTargetType,
  type ScheduleInput,
  type ScheduleRow,
} from '../../shared/retention.js'
import { indexes as listIndexes } from '../library/api.js'
import { formatDate } from '../library/format.js'
import {
  assign,
  assignments as listAssignments,
  createSchedule,
  deleteSchedule,
  due as listDue,
  schedules as listSchedules,
  updateSchedule,
} from '../library/retention_api.js'
import { Facts, LabelChips } from './RetentionParts.js'
import '@tramita/web/screens.css'
import './library.css'
import './retention.css'

interface Person {
  id: number
  name: string
}

interface Loaded {
  schedules: ScheduleRow[]
  assignments: AssignmentRow[]
  due: DueRow[]
  indexes: IndexRow[]
  people: Person[]
}

type Open = null | { kind: 'new' } | { kind: 'edit'; schedule: ScheduleRow } | { kind: 'remove'; schedule: ScheduleRow }

async function people(): Promise<Person[]> {
  const body = await call<{ users: { id: number; first_name: string; last_name: string }[] }>('GET', '/data/allusers')
  return (body.data?.users ?? []).map((u) => ({ id: u.id, name: `${u.first_name} ${u.last_name}`.trim() }))
}

async function loadAll(): Promise<Loaded> {
  const [schedules, assignments, due, indexes, users] = await Promise.all([
    listSchedules(),
    listAssignments(),
    listDue(),
    listIndexes(),
    people().catch(() => []),
  ])
  return { schedules, assignments, due, indexes, people: users }
}

export default function RetentionAdmin() {
  const { t } = useTranslation()
  const { value: loaded, failure, reload } = useLoaded(loadAll)
  const [open, setOpen] = useState<Open>(null)

  /** A change went through: the dialog closes, everything is read again. */
  function done(message: string) {
    setOpen(null)
    toasts.success(message)
    reload()
  }
  const close = () => setOpen(null)

  return (
    <Page title={t('documents.screens.retention')} testId="docs-retention-admin">
      <div className="retention-admin" aria-busy={loaded === null && failure === null}>
        {failure && (
          <p className="notice notice--error" role="alert">
            {failure}
          </p>
        )}
        <section aria-labelledby="retention-schedules" data-testid="retention-schedules">
          <div className="docs-index__head">
            <h2 id="retention-schedules">{t('documents.retention.schedules')}</h2>
            <button type="button" className="button" disabled={!loaded} onClick={() => setOpen({ kind: 'new' })}>
              {t('documents.retention.new_schedule')}
            </button>
          </div>
          {loaded?.schedules.length === 0 && <p className="muted">{t('documents.retention.no_schedules')}</p>}
          {loaded && loaded.schedules.length > 0 && (
            <ul className="docs-indexes">
              {loaded.schedules.map((schedule) => (
                <li key={schedule.id}>
                  <ScheduleCard
                    schedule={schedule}
                    onEdit={() => setOpen({ kind: 'edit', schedule })}
                    onRemove={() => setOpen({ kind: 'remove', schedule })}
                  />
                </li>
              ))}
            </ul>
          )}
        </section>
        {loaded && <Assignments loaded={loaded} onChanged={reload} />}
        {loaded && <Due rows={loaded.due} />}
      </div>

      {(open?.kind === 'new' || open?.kind === 'edit') && loaded && (
        <Dialog
          className="docs-dialog"
          title={
            open.kind === 'new'
              ? t('documents.retention.new_schedule')
              : t('documents.retention.edit_schedule', { code: open.schedule.code })
          }
          onClose={close}
          testId="retention-schedule-dialog"
        >
          <ScheduleForm
            editing={open.kind === 'edit' ? open.schedule : undefined}
            people={loaded.people}
            onCancel={close}
            onSubmit={async (input) => {
              if (open.kind === 'edit') {
                await updateSchedule(open.schedule.id, input)
                done(t('documents.retention.saved'))
              } else {
                await createSchedule(input)
                done(t('documents.retention.made'))
              }
            }}
          />
        </Dialog>
      )}
      {open?.kind === 'remove' && (
        <ConfirmDialog
          title={t('documents.retention.remove_title', { code: open.schedule.code })}
          question={t('documents.retention.remove_confirm', { code: open.schedule.code })}
          action={t('documents.retention.remove')}
          testId="retention-remove-dialog"
          onClose={close}
          onConfirm={async () => {
            await deleteSchedule(open.schedule.id)
            done(t('documents.retention.removed'))
          }}
        />
      )}
    </Page>
  )
}

function ScheduleCard({ schedule, onEdit, onRemove }: { schedule: ScheduleRow; onEdit(): void; onRemove(): void }) {
  const { t } = useTranslation()
  const facts: [string, string][] = [
    [t('documents.retention.serie'), schedule.serie],
    [t('documents.retention.subserie'), schedule.subserie],
    [t('documents.retention.doc_type'), schedule.doc_type],
    [
      `${t('documents.retention.active_years')} + ${t('documents.retention.central_years')}`,
      t('documents.retention.years', { active: schedule.active_years, central: schedule.central_years }),
    ],
    [t('documents.retention.disposition'), t(`documents.retention.disposition_${schedule.disposition}`)],
    [t('documents.retention.responsible'), schedule.responsible?.name || t('documents.retention.responsible_owner')],
  ]
  return (
    <article className="docs-index" data-testid="retention-schedule" data-code={schedule.code}>
      <div className="docs-index__head">
        <h3>{schedule.code}</h3>
        <span className="docs-index__actions">
          <button type="button" className="link-button" onClick={onEdit}>
            {t('documents.retention.edit')}
            <span className="visually-hidden"> {schedule.code}</span>
          </button>
          <button type="button" className="link-button" onClick={onRemove}>
            {t('documents.retention.remove')}
            <span className="visually-hidden"> {schedule.code}</span>
          </button>
        </span>
      </div>
      <Facts facts={facts.filter(([, value]) => value !== '')} />
      {schedule.labels.length > 0 && <LabelChips labels={schedule.labels} />}
    </article>
  )
}

const EMPTY: ScheduleInput = {
  code: '',
  serie: '',
  subserie: '',
  doc_type: '',
  active_years: 2,
  central_years: 8,
  disposition: 'archive',
  responsible_id: null,
  labels: [],
}

function ScheduleForm({
  editing,
  people,
  onSubmit,
  onCancel,
}: {
  editing?: ScheduleRow
  people: Person[]
  onSubmit(input: ScheduleInput): Promise<void>
  onCancel(): void
}) {
  const { t } = useTranslation()
  const [draft, setDraft] = useState<ScheduleInput>(
    editing ? { ...editing, responsible_id: editing.responsible?.id ?? null, labels: [...editing.labels] } : EMPTY
  )
  const { failure, busy, attempt } = useAttempt()
  const set = (patch: Partial<ScheduleInput>) => setDraft((current) => ({ ...current, ...patch }))
  const setLabel = (at: number, patch: Partial<RetentionLabel>) =>
    set({ labels: draft.labels.map((label, i) => (i === at ? { ...label, ...patch } : label)) })

  function send(event: FormEvent) {
    event.preventDefault()
    void attempt(() => onSubmit(draft))
  }

  const text = (key: 'code' | 'serie' | 'subserie' | 'doc_type', max: number, required = false) => (
    <label>
      {t(`documents.retention.${key}`)}
      <input value={draft[key]} maxLength={max} required={required} onChange={(e) => set({ [key]: e.target.value })} />
    </label>
  )
  const years = (key: 'active_years' | 'central_years') => (
    <label>
      {t(`documents.retention.${key}`)}
      <input
        type="number"
        min={0}
        max={RETENTION_LIMITS.yearsMax}
        step={1}
        required
        value={Number.isNaN(draft[key]) ? '' : draft[key]}
        onChange={(e) => set({ [key]: e.target.valueAsNumber })}
      />
    </label>
  )

  return (
    <form className="docs-form" onSubmit={send} data-testid="retention-schedule-form">
      {text('code', RETENTION_LIMITS.codeMax, true)}
      {text('serie', RETENTION_LIMITS.textMax, true)}
      {text('subserie', RETENTION_LIMITS.textMax)}
      {text('doc_type', RETENTION_LIMITS.textMax)}
      <div className="retention-admin__years">
        {years('active_years')}
        {years('central_years')}
      </div>
      <label>
        {t('documents.retention.disposition')}
        <select
          value={draft.disposition}
          onChange={(e) => set({ disposition: e.target.value as ScheduleInput['disposition'] })}
        >
          {DISPOSITIONS.map((option) => (
            <option key={option} value={option}>
              {t(`documents.retention.disposition_${option}`)}
            </option>
          ))}
        </select>
      </label>
      <label>
        {t('documents.retention.responsible')}
        <select
          value={draft.responsible_id ?? ''}
          onChange={(e) => set({ responsible_id: e.target.value ? Number(e.target.value) : null })}
        >
          <option value="">{t('documents.retention.responsible_owner')}</option>
          {people.map((person) => (
            <option key={person.id} value={person.id}>
              {person.name}
            </option>
          ))}
        </select>
      </label>
      <fieldset className="retention-admin__labels">
        <legend>{t('documents.retention.labels')}</legend>
        {draft.labels.map((label, at) => (
          <div key={at} className="retention-admin__label">
            <label>
              {t('documents.retention.label_name')}
              <input
                value={label.name}
                required
                maxLength={RETENTION_LIMITS.labelNameMax}
                onChange={(e) => setLabel(at, { name: e.target.value })}
              />
            </label>
            <label>
              {t('documents.retention.label_color')}
              <input type="color" value={label.color} onChange={(e) => setLabel(at, { color: e.target.value })} />
            </label>
            <button
              type="button"
              className="link-button"
              onClick={() => set({ labels: draft.labels.filter((_, i) => i !== at) })}
            >
              {t('documents.retention.remove_label', { name: label.name || at + 1 })}
            </button>
          </div>
        ))}
        {draft.labels.length < RETENTION_LIMITS.labels && (
          <button
            type="button"
            className="link-button"
            onClick={() => set({ labels: [...draft.labels, { name: '', color: '#1c4f9c' }] })}
          >
            {t('documents.retention.add_label')}
          </button>
        )}
      </fieldset>
      <DialogActions
        submit={editing ? t('documents.retention.save') : t('documents.retention.create')}
        busy={busy}
        failure={failure}
        onCancel={onCancel}
      />
    </form>
  )
}

/** The folders, indexes and documents with a schedule of their own; a form gives one (or takes it away). */
function Assignments({ loaded, onChanged }: { loaded: Loaded; onChanged(): void }) {
  const { t } = useTranslation()
  const [type, setType] = useState<RetentionTargetType>('folder')
  const [target, setTarget] = useState('')
  const [schedule, setSchedule] = useState('')
  const { failure, busy, attempt } = useAttempt()

  function send(event: FormEvent) {
    event.preventDefault()
    void attempt(async () => {
      await assign(type, Number(target), schedule ? Number(schedule) : null)
      toasts.success(t(schedule ? 'documents.retention.assigned' : 'documents.retention.unassigned'))
      setTarget('')
      onChanged()
    })
  }

  async function unassign(row: AssignmentRow) {
    try {
      await assign(row.target_type, row.target_id, null)
      toasts.success(t('documents.retention.unassigned'))
      onChanged()
    } catch (error) {
      toasts.error(errorText(error))
    }
  }

  return (
    <section aria-labelledby="retention-assignments" data-testid="retention-assignments">
      <h2 id="retention-assignments">{t('documents.retention.assignments')}</h2>
      {loaded.assignments.length === 0 ? (
        <p className="muted">{t('documents.retention.no_assignments')}</p>
      ) : (
        <table className="data-table docs-table">
          <thead>
            <tr>
              <th scope="col">{t('documents.retention.target_type')}</th>
              <th scope="col">{t('documents.screens.name')}</th>
              <th scope="col">{t('documents.retention.schedule')}</th>
              <th scope="col">{t('documents.screens.actions')}</th>
            </tr>
          </thead>
          <tbody>
            {loaded.assignments.map((row) => (
              <tr key={`${row.target_type}:${row.target_id}`}>
                <td>{t(`documents.retention.target_${row.target_type}`)}</td>
                <td className="docs-table__name">
                  {row.target_name} <span className="muted">#{row.target_id}</span>
                </td>
                <td>{row.schedule_code}</td>
                <td className="docs-table__actions">
                  <button type="button" className="link-button" onClick={() => void unassign(row)}>
                    {t('documents.retention.unassign')}
                    <span className="visually-hidden">
                      {' '}
                      {t('documents.retention.unassign_of', { name: row.target_name })}
                    </span>
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <form className="docs-form" onSubmit={send} aria-labelledby="retention-assign" data-testid="retention-assign">
        <h3 id="retention-assign" className="docs-subtitle">
          {t('documents.retention.assign_title')}
        </h3>
        <label>
          {t('documents.retention.target_type')}
          <select
            value={type}
            onChange={(e) => {
              setType(e.target.value as RetentionTargetType)
              setTarget('')
            }}
          >
            {RETENTION_TARGET_TYPES.map((option) => (
              <option key={option} value={option}>
                {t(`documents.retention.target_${option}`)}
              </option>
            ))}
          </select>
        </label>
        {type === 'index' ? (
          <label>
            {t('documents.retention.target_index')}
            <select value={target} required onChange={(e) => setTarget(e.target.value)}>
              <option value="" />
              {loaded.indexes.map((index) => (
                <option key={index.id} value={index.id}>
                  {index.parent_id === null
                    ? index.name
                    : `${loaded.indexes.find((i) => i.id === index.parent_id)?.name ?? ''} › ${index.name}`}
                </option>
              ))}
            </select>
          </label>
        ) : (
          <label>
            {t('documents.retention.target_id')}
            <input type="number" min={1} step={1} required value={target} onChange={(e) => setTarget(e.target.value)} />
          </label>
        )}
        <label>
          {t('documents.retention.schedule')}
          <select value={schedule} onChange={(e) => setSchedule(e.target.value)}>
            <option value="">{t('documents.retention.none')}</option>
            {loaded.schedules.map((s) => (
              <option key={s.id} value={s.id}>
                {s.code} · {s.serie}
              </option>
            ))}
          </select>
        </label>
        <Refusal failure={failure} />
        <div className="dialog__actions">
          <button type="submit" className="button" disabled={busy}>
            {t('documents.retention.assign')}
          </button>
        </div>
      </form>
    </section>
  )
}

/** What `tramita documents:retention --dry-run` lists: due now, and whether it was mailed. */
function Due({ rows }: { rows: DueRow[] }) {
  const { t, i18n } = useTranslation()
  return (
    <section aria-labelledby="retention-due" data-testid="retention-due">
      <h2 id="retention-due">{t('documents.retention.due')}</h2>
      {rows.length === 0 ? (
        <p className="muted">{t('documents.retention.no_due')}</p>
      ) : (
        <table className="data-table docs-table">
          <thead>
            <tr>
              <th scope="col">{t('documents.retention.document')}</th>
              <th scope="col">{t('documents.retention.schedule')}</th>
              <th scope="col">{t('documents.retention.responsible')}</th>
              <th scope="col">{t('documents.retention.due_since')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.file_id}>
                <td className="docs-table__name">
                  {row.file_name} <span className="muted">#{row.file_id}</span>
                </td>
                <td>{row.schedule_code}</td>
                <td>{row.responsible.name}</td>
                <td>
                  {formatDate(row.due_since, i18n.language)}
                  <br />
                  <span className="muted">
                    {row.pending_until
                      ? t('documents.retention.mailed_until', { date: formatDate(row.pending_until, i18n.language) })
                      : t('documents.retention.not_mailed')}
                  </span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  )
}
