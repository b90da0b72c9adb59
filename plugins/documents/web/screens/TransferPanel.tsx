/** The progress panel (spec 001 §2): uploads and downloads, each with its bar, gone 2 s after finishing. */
import { useTranslation } from 'react-i18next'
import { useTransfers } from '../library/transfers.js'

export function TransferPanel() {
  const { t } = useTranslation()
  const items = useTransfers()
  if (items.length === 0) return null
  return (
    <section className="docs-transfers" aria-label={t('documents.screens.transfers')} data-testid="docs-transfers">
      <ul>
        {items.map((item) => {
          const percent = item.total ? Math.min(100, Math.round((item.loaded / item.total) * 100)) : null
          return (
            <li key={item.id} data-state={item.state} data-direction={item.direction}>
              <span className="docs-transfers__name">
                {item.direction === 'up' ? '↑' : '↓'} {item.name}
              </span>
              <progress
                max={100}
                value={item.state === 'done' ? 100 : (percent ?? undefined)}
                aria-label={t(`documents.screens.transfer_${item.direction}`, { name: item.name })}
              />
              <span className="docs-transfers__state" role="status">
                {item.state === 'running'
                  ? `${percent ?? 0} %`
                  : t(item.state === 'done' ? 'documents.screens.transfer_done' : 'documents.screens.transfer_failed')}
              </span>
            </li>
          )
        })}
      </ul>
    </section>
  )
}
