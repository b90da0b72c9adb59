import { useEffect, useMemo, useRef } from 'react'
import { useTranslation } from 'react-i18next'
import {
  fieldRows,
  fileUrl,
  lastUpdate,
  previewKind,
  progressSteps,
  stateLabel,
  type ActivityEntry,
  type FileLink,
  type FormByFlow,
  type ProcessState,
} from '../../lib/consultation.js'
import { ActivityRegister } from './ActivityRegister.js'
import { ColorChip } from './ColorChip.js'
import { ConsultTabs } from './ConsultTabs.js'
import { StateProgress } from './StateProgress.js'

interface Props {
  idFlow: string
  info: FormByFlow
  states: ProcessState[]
  /** Null when the process does not show its activity register. */
  activities: ActivityEntry[] | null
  onPreview: (file: FileLink) => void
}

/** What a successful consultation shows (spec 000 §2): code, progress, state, last update, tabs, register. */
export function ConsultResult({ idFlow, info, states, activities, onPreview }: Props) {
  const { t } = useTranslation()
  const names = { init: t('state_init'), end: t('state_end') }
  const steps = progressSteps(states, info.path, info.current_state, names)
  const current = states.find((s) => s.id === info.current_state.id) ?? info.current_state
  const { information, documents } = useMemo(() => fieldRows(info, idFlow), [info, idFlow])
  // The form that asked is gone: the focus goes to the answer, so the keyboard and screen readers go on from it.
  const section = useRef<HTMLElement>(null)
  useEffect(() => section.current?.focus(), [])
  const code = String(info.fields_values.CODE_PROCESS ?? '')
  const updated = lastUpdate(activities ?? [], info.last_update)
  const linked: FileLink | null = info.doc_path_link
    ? {
        name: info.doc_path_link.split('/').pop() || t('consultation.linked_document'),
        url: fileUrl(info.doc_path_link, idFlow),
        kind: previewKind(info.doc_path_link),
      }
    : null

  return (
    <section
      ref={section}
      tabIndex={-1}
      className="consult-result"
      data-testid="consult-result"
      aria-label={t('consultation.result')}
    >
      {/* A plain link to this same address: following it reloads the page, back to an empty form. */}
      <a
        className="consult-result__back"
        href={window.location.pathname + window.location.search}
        onClick={(event) => {
          event.preventDefault()
          window.location.reload()
        }}
      >
        ← {t('consultation.back')}
      </a>
      <p className="consult-result__code">
        {t('consultation.process_code')}: <strong data-testid="consult-code">{code}</strong>
      </p>
      <StateProgress steps={steps} ended={info.ended ?? false} />
      <dl className="consult-summary">
        <div>
          <dt>{t('consultation.current_state')}</dt>
          <dd data-testid="consult-current-state">
            <ColorChip color={current.color}>{stateLabel(current, names)}</ColorChip>
          </dd>
        </div>
        <div>
          <dt>{t('consultation.last_update')}</dt>
          <dd data-testid="consult-last-update">{updated || '—'}</dd>
        </div>
        {linked && (
          <div>
            <dt>{t('consultation.pdf')}</dt>
            <dd>
              <a
                href={linked.url}
                target="_blank"
                rel="noopener noreferrer"
                onClick={(event) => {
                  if (!linked.kind) return
                  event.preventDefault()
                  onPreview(linked)
                }}
              >
                {linked.name}
              </a>
            </dd>
          </div>
        )}
      </dl>
      <ConsultTabs information={information} documents={documents} linkedDocument={linked} onPreview={onPreview} />
      {activities && <ActivityRegister entries={activities} />}
    </section>
  )
}
