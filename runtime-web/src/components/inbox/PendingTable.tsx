import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { formatDate, type PendingRow } from '../../lib/inbox.js'
import { roleLabel } from '../../lib/roles.js'
import './cards.css'
import { ColumnHeaders } from './ColumnHeaders.js'
import { StateBadge } from './StateBadge.js'

interface PendingTableProps {
  rows: PendingRow[]
  busy: boolean
  /** The token of the step whose claim or release is on its way. */
  acting: string | null
  onClaim: (row: PendingRow) => void
  onRelease: (row: PendingRow) => void
  /** Fewer columns (the home page). */
  compact?: boolean
}

/**
 * The steps waiting for the user. A role or area step is claimed before it is done (or by doing it);
 * the list only holds unclaimed steps and the user's own claims, so a claimed row is theirs.
 */
export function PendingTable({ rows, busy, acting, onClaim, onRelease, compact = false }: PendingTableProps) {
  const { t } = useTranslation()
  if (rows.length === 0 && !busy) {
    return (
      <p className="muted" data-testid="inbox-pending-empty">
        {t('inbox.none_pending')}
      </p>
    )
  }
  return (
    <div className="inbox__scroll">
      <table
        role="table"
        className="users__table inbox__table inbox__table--cards"
        data-testid="inbox-pending-table"
        aria-busy={busy}
      >
        <caption className="visually-hidden">{t('inbox.pending_caption')}</caption>
        <ColumnHeaders
          keys={[
            'inbox.code',
            'inbox.process',
            'inbox.step',
            ...(compact ? [] : ['inbox.kind']),
            'inbox.state',
            ...(compact ? [] : ['inbox.assigned_to']),
            'inbox.assigned_at',
            'inbox.actions',
          ]}
        />
        <tbody role="rowgroup">
          {rows.map((row) => (
            <tr role="row" key={row.token} data-code={row.code} data-claimed={row.claimed_by ? 'true' : 'false'}>
              <th scope="row" role="rowheader" className="inbox__code">
                {row.code}
              </th>
              <td role="cell" data-label={t('inbox.process')}>
                {row.process}
              </td>
              <td role="cell" data-label={t('inbox.step')}>
                {row.step}
              </td>
              {!compact && (
                <td role="cell" data-label={t('inbox.kind')}>
                  {t(row.kind === 'approve' ? 'inbox.kind_approve' : 'inbox.kind_fill')}
                </td>
              )}
              <td role="cell" data-label={t('inbox.state')}>
                <StateBadge state={row.state} />
              </td>
              {!compact && (
                <td role="cell" data-label={t('inbox.assigned_to')}>
                  <span className="muted">{t(`inbox.assignee_${row.assignee_type}`)}: </span>
                  {row.assignee_type === 'rol' ? roleLabel(t, row.assignee) : row.assignee}
                  {row.claimed_by && (
                    <div className="inbox__claimed" data-testid="inbox-claimed">
                      {t('inbox.claimed_by_you')}
                    </div>
                  )}
                </td>
              )}
              <td role="cell" data-label={t('inbox.assigned_at')}>
                <time dateTime={row.assigned_at ?? undefined}>{formatDate(row.assigned_at)}</time>
              </td>
              <td role="cell" data-label={t('inbox.actions')}>
                <div className="users__actions">
                  <Link
                    className="button inbox__open"
                    to={row.link}
                    aria-label={t('inbox.open_label', { step: row.step, code: row.code })}
                  >
                    {t('inbox.open')}
                  </Link>
                  {row.claimable && !row.claimed_by && (
                    <button
                      type="button"
                      className="link"
                      disabled={acting === row.token}
                      aria-label={t('inbox.claim_label', { step: row.step, code: row.code })}
                      onClick={() => onClaim(row)}
                    >
                      {t('inbox.claim')}
                    </button>
                  )}
                  {row.claimable && row.claimed_by && (
                    <button
                      type="button"
                      className="link"
                      disabled={acting === row.token}
                      aria-label={t('inbox.release_label', { step: row.step, code: row.code })}
                      onClick={() => onRelease(row)}
                    >
                      {t('inbox.release')}
                    </button>
                  )}
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
