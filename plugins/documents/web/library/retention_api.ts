/** The retention calls of the screens, on the route table the server half shares (shared/retention.ts). */
import { call } from '@tramita/web/api'
import {
  RETENTION_ROUTES,
  retentionPath,
  type AssignmentRow,
  type ConfirmAnswer,
  type ConservationCard,
  type Disposition,
  type DueRow,
  type EffectiveRetention,
  type RetentionTargetType,
  type ScheduleInput,
  type ScheduleRow,
} from '../../shared/retention.js'
import { data } from './api.js'

export const schedules = () => data(call<ScheduleRow[]>('GET', retentionPath('schedules')))

function fields(input: ScheduleInput): Record<string, string | number> {
  return {
    code: input.code,
    serie: input.serie,
    subserie: input.subserie,
    doc_type: input.doc_type,
    active_years: input.active_years,
    central_years: input.central_years,
    disposition: input.disposition,
    responsible_id: input.responsible_id ?? '',
    labels: JSON.stringify(input.labels),
  }
}

export const createSchedule = (input: ScheduleInput) =>
  data(call<ScheduleRow>('POST', retentionPath('createSchedule'), fields(input)))

export const updateSchedule = (id: number, input: ScheduleInput) =>
  data(call<ScheduleRow>('PUT', retentionPath('updateSchedule', { id }), fields(input)))

export const deleteSchedule = (id: number) =>
  data(call<{ id: number }>('DELETE', retentionPath('deleteSchedule', { id })))

export const assignments = () => data(call<AssignmentRow[]>('GET', retentionPath('assignments')))

export const assign = (type: RetentionTargetType, id: number, scheduleId: number | null) =>
  data(
    call<EffectiveRetention>('PUT', retentionPath('assign'), {
      target_type: type,
      target_id: id,
      schedule_id: scheduleId ?? '',
    })
  )

export const due = () => data(call<DueRow[]>('GET', retentionPath('due')))

/** Spec 001 §7: the card of a code, for the person it was mailed to (no session needed). */
export const conservationCard = (code: string, user: string) =>
  data(call<ConservationCard>('GET', `${retentionPath('card', { code })}?user=${encodeURIComponent(user)}`))

/** Spec 001 §7: the decision, once. */
export const confirmRetention = (code: string, user: string, option: Disposition) =>
  data(
    call<ConfirmAnswer>(
      RETENTION_ROUTES.confirm.method,
      `${RETENTION_ROUTES.confirm.path}?user=${encodeURIComponent(user)}`,
      {
        code,
        option,
      }
    )
  )

/** Administrators: the schedule a folder, index or document has of its own and the one that applies. */
export const effectiveRetention = (type: RetentionTargetType, id: number) =>
  data(
    call<EffectiveRetention>(
      'GET',
      `${retentionPath('effective')}?target_type=${type}&target_id=${encodeURIComponent(String(id))}`
    )
  )
