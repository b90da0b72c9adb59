import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import type { StartableProcess } from '../../lib/inbox.js'

/** The processes the user may start, one card each, linking to /forms/new?data=<form key>. */
export function StartableList({ processes, busy }: { processes: StartableProcess[]; busy: boolean }) {
  const { t } = useTranslation()
  if (processes.length === 0 && !busy) {
    return (
      <p className="muted" data-testid="inbox-startable-empty">
        {t('inbox.none_startable')}
      </p>
    )
  }
  return (
    <ul className="inbox__cards" data-testid="inbox-startable" aria-busy={busy}>
      {processes.map((p) => (
        <li key={p.key} className="inbox__card" style={{ borderTopColor: p.color }} data-key={p.key}>
          <h3>{p.name}</h3>
          {p.label !== p.name && <p className="muted">{p.label}</p>}
          <Link className="button" to={p.link} aria-label={t('inbox.start_label', { name: p.name })}>
            {t('inbox.start')}
          </Link>
        </li>
      ))}
    </ul>
  )
}
