import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { formatDate, type StartedRow } from '../../lib/inbox.js'
import { roleLabel } from '../../lib/roles.js'
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
      <table className="users__table inbox__table" data-testid="inbox-started-table" aria-busy={busy}>
        <caption className="visually-hidden">{t('inbox.started_caption')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('inbox.code')}</th>
            <th scope="col">{t('inbox.process')}</th>
            <th scope="col">{t('inbox.state')}</th>
            <th scope="col">{t('inbox.status')}</th>
            <th scope="col">{t('inbox.waiting_on')}</th>
            <th scope="col">{t('inbox.started_at')}</th>
            <th scope="col">{t('inbox.updated_at')}</th>
            <th scope="col">{t('inbox.actions')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.key_process} data-code={row.code}>
              <th scope="row" className="inbox__code">
                {row.code}
              </th>
              <td>{row.process}</td>
              <td>
                <StateBadge state={row.state} />
              </td>
              <td>{t(row.status === 'ended' ? 'inbox.status_ended' : 'inbox.status_open')}</td>
              {/* A role step waits on the role: the spec's four are named in the page's language. */}
              <td>{row.waiting_on ? roleLabel(t, row.waiting_on) : '—'}</td>
              <td>
                <time dateTime={row.started_at ?? undefined}>{formatDate(row.started_at)}</time>
              </td>
              <td>
                <time dateTime={row.updated_at ?? undefined}>{formatDate(row.updated_at)}</time>
              </td>
              <td>
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
