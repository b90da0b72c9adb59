import { useTranslation } from 'react-i18next'

/**
 * A work-list table's header row, one column per text key. The explicit roles keep the table's
 * semantics when a phone draws its rows as cards (cards.css sets display: block).
 */
export function ColumnHeaders({ keys }: { keys: string[] }) {
  const { t } = useTranslation()
  return (
    <thead role="rowgroup">
      <tr role="row">
        {keys.map((key) => (
          <th key={key} scope="col" role="columnheader">
            {t(key)}
          </th>
        ))}
      </tr>
    </thead>
  )
}
