import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { formatDate, type StartedRow } from '../../lib/inbox.js'
import { roleLabel } from '../../lib/roles.js'
import './cards.css'
import { ColumnHeaders } from './ColumnHeaders.js'
import { StateBadge } from './StateBadge.js'

/** The cases the user started, newest activity first, each with its read-only view. */
export function StartedTable({ rows, busy }: { rows: StartedRow[]; busy: boolean }) {
  const { t } = useTranslation()
  if (rows.length === 0 && !busy) {
    return (
      <p className="muted" data-testid="inbox-started-empty">
        {t('inbox.none_started')}
      </p>
    )
  }
  return (
    <div className="inbox__scroll">
      <table
        role="table"
        className="users__table inbox__table inbox__table--cards"
        data-testid="inbox-started-table"
        aria-busy={busy}
      >
        <caption className="visually-hidden">{t('inbox.started_caption')}</caption>
        <ColumnHeaders
          keys={[
            'inbox.code',
            'inbox.process',
            'inbox.state',
            'inbox.status',
            'inbox.waiting_on',
            'inbox.started_at',
            'inbox.updated_at',
            'inbox.actions',
          ]}
        />
        <tbody role="rowgroup">
          {rows.map((row) => (
            <tr role="row" key={row.key_process} data-code={row.code}>
              <th scope="row" role="rowheader" className="inbox__code">
                {row.code}
              </th>
              <td role="cell" data-label={t('inbox.process')}>
                {row.process}
              </td>
              <td role="cell" data-label={t('inbox.state')}>
                <StateBadge state={row.state} />
              </td>
              <td role="cell" data-label={t('inbox.status')}>
                {t(row.status === 'ended' ? 'inbox.status_ended' : 'inbox.status_open')}
              </td>
              {/* A role step waits on the role: the spec's four are named in the page's language. */}
              <td role="cell" data-label={t('inbox.waiting_on')}>
                {row.waiting_on ? roleLabel(t, row.waiting_on) : '—'}
              </td>
              <td role="cell" data-label={t('inbox.started_at')}>
                <time dateTime={row.started_at ?? undefined}>{formatDate(row.started_at)}</time>
              </td>
              <td role="cell" data-label={t('inbox.updated_at')}>
                <time dateTime={row.updated_at ?? undefined}>{formatDate(row.updated_at)}</time>
              </td>
              <td role="cell" data-label={t('inbox.actions')}>
                <Link to={row.link} aria-label={t('inbox.see_label', { code: row.code })}>
                  {t('inbox.see')}
                </Link>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
