import { useTranslation } from 'react-i18next'
import type { FieldRow } from '../../lib/consultation.js'

/** Non-file fields: label (or name, or type) on the left, the shown value on the right, a dash if empty. */
export function InformationList({ rows }: { rows: readonly FieldRow[] }) {
  const { t } = useTranslation()
  if (rows.length === 0) return <p className="muted">{t('consultation.no_results')}</p>
  return (
    <dl className="consult-fields">
      {rows.map((row) => (
        <div key={row.name} className="consult-fields__row" data-field={row.name}>
          <dt>{row.label}</dt>
          <dd>{row.text || '—'}</dd>
        </div>
      ))}
    </dl>
  )
}
