import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { formatConsultDate, searchActivities, type ActivityEntry } from '../../lib/consultation.js'
import { roleLabel } from '../../lib/roles.js'
import { ColorChip } from './ColorChip.js'
import { SearchBox } from './SearchBox.js'

/** Log events and assignee kinds with a text of their own (spec 000 §3, §4); others show their type. */
const EVENTS = new Set([
  'started',
  'assigned',
  'approval_requested',
  'performed',
  'option_selected',
  'email_sent',
  'state_changed',
  'finished',
])
const KINDS = new Set(['user', 'rol', 'area', 'external'])

/** The activity register (when the process shows it): type, label on its colour, assignees, date. */
export function ActivityRegister({ entries }: { entries: readonly ActivityEntry[] }) {
  const { t } = useTranslation()
  const headingId = useId()
  const [query, setQuery] = useState('')
  const shown = searchActivities(entries, query)
  return (
    <section className="consult-activity" aria-labelledby={headingId} data-testid="consult-activity">
      <div className="consult-activity__head">
        <h2 id={headingId}>{t('consultation.activity_register')}</h2>
        <SearchBox
          label={t('consultation.search_activity')}
          value={query}
          onChange={setQuery}
          testId="consult-activity-search"
        />
      </div>
      {shown.length === 0 ? (
        <p className="muted">{t('consultation.no_results')}</p>
      ) : (
        <ol className="consult-activity__list">
          {shown.map((entry, index) => (
            <li key={index} className="consult-activity__entry" data-type={entry.type} data-event={entry.event}>
              <span className="consult-activity__type">
                {entry.event && EVENTS.has(entry.event) ? t(`consultation.event.${entry.event}`) : entry.type}
              </span>
              {/* Empty cells keep the columns lined up (an e-mail entry has no label). */}
              {entry.label ? <ColorChip color={entry.color}>{entry.label}</ColorChip> : <span />}
              <span className="consult-activity__who">
                {entry.type_asignador === 'rol' ? roleLabel(t, entry.asignados) : entry.asignados}
                {entry.asignados && entry.type_asignador && KINDS.has(entry.type_asignador)
                  ? ` (${t(`consultation.assignee.${entry.type_asignador}`)})`
                  : ''}
              </span>
              <time className="consult-activity__date" dateTime={entry.date}>
                {formatConsultDate(entry.date)}
              </time>
              {/* What the person deciding wrote, under the decision (issue 18). */}
              {entry.comment && (
                <blockquote className="consult-activity__comment" data-testid="consult-activity-comment">
                  <span className="visually-hidden">{t('consultation.comment')}: </span>
                  {entry.comment}
                </blockquote>
              )}
            </li>
          ))}
        </ol>
      )}
    </section>
  )
}
