/**
 * A folder's or document's retention schedule, from the library's row (issue 20, for RETENTION_ADMINS):
 * the schedule that applies and where it comes from (its own, or the nearest folder's above it), and a
 * choice of one of its own or none. The same route as the retention screen's assignment form.
 */
import { useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import type { TFunction } from 'i18next'
import { Dialog } from '@tramita/web/Dialog'
import { DialogActions, useAttempt } from '@tramita/web/dialog-form'
import { useLoaded } from '@tramita/web/loading'
import { toasts } from '@tramita/web/toasts'
import type { EffectiveRetention, RetentionTargetType } from '../../shared/retention.js'
import { assign, effectiveRetention, schedules as listSchedules } from '../library/retention_api.js'

interface RetentionDialogProps {
  target: { type: Extract<RetentionTargetType, 'folder' | 'file'>; id: number; name: string }
  onClose(): void
}

export function RetentionDialog({ target, onClose }: RetentionDialogProps) {
  const { t } = useTranslation()
  const loaded = useLoaded(() =>
    Promise.all([listSchedules(), effectiveRetention(target.type, target.id)]).then(([schedules, effective]) => ({
      schedules,
      effective,
    }))
  )
  const [choice, setChoice] = useState<string | null>(null)
  const { failure, busy, attempt } = useAttempt()
  const own = loaded.value?.effective.own
  const chosen = choice ?? (own === null || own === undefined ? '' : String(own))

  function send(event: FormEvent) {
    event.preventDefault()
    void attempt(async () => {
      await assign(target.type, target.id, chosen ? Number(chosen) : null)
      toasts.success(t(chosen ? 'documents.retention.assigned' : 'documents.retention.unassigned'))
      onClose()
    })
  }

  return (
    <Dialog
      className="docs-dialog"
      title={t('documents.retention.of', { name: target.name })}
      onClose={onClose}
      testId="docs-retention-dialog"
    >
      {loaded.failure ? (
        <p className="notice notice--error" role="alert">
          {loaded.failure}
        </p>
      ) : !loaded.value ? (
        <p role="status" aria-busy="true" />
      ) : (
        <form className="docs-form" onSubmit={send}>
          <p data-testid="docs-retention-applies">{applies(t, loaded.value.effective, target)}</p>
          <label>
            {t('documents.retention.own_schedule')}
            <select value={chosen} onChange={(e) => setChoice(e.target.value)}>
              <option value="">{t('documents.retention.none')}</option>
              {loaded.value.schedules.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.code} · {s.serie}
                </option>
              ))}
            </select>
          </label>
          <DialogActions submit={t('documents.retention.save')} busy={busy} failure={failure} onCancel={onClose} />
        </form>
      )}
    </Dialog>
  )
}

/** "Applies: 100-12.3, of its own" / "…, from the folder Contratos" / "No schedule applies". */
function applies(t: TFunction, retention: EffectiveRetention, target: RetentionDialogProps['target']): string {
  const effective = retention.effective
  if (!effective) return t('documents.retention.applies_none')
  if (effective.from_type === target.type && effective.from_id === target.id)
    return t('documents.retention.applies_own', { code: effective.schedule_code })
  return t('documents.retention.applies_from', {
    code: effective.schedule_code,
    from: t(`documents.retention.target_${effective.from_type}`),
    name: effective.from_name,
  })
}
