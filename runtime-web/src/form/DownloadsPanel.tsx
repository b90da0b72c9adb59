/** The download-progress panel (spec 000 §2): each file being produced, then done or failed. */
import { useSyncExternalStore } from 'react'
import { useTranslation } from 'react-i18next'
import { useForm } from './context.js'

export function DownloadsPanel() {
  const { t } = useTranslation()
  const { store } = useForm()
  const overlays = store.overlays
  const downloads = useSyncExternalStore(overlays.subscribe, overlays.downloads)
  if (downloads.length === 0) return null
  return (
    <aside className="fdownloads" aria-label={t('form_runtime.downloads')} data-testid="form-downloads">
      <ul>
        {downloads.map((d) => (
          <li key={d.id} data-status={d.status}>
            <span className="fdownloads__name">{d.name}</span>
            <span className="fdownloads__status" role="status">
              {t(`form_runtime.download_${d.status}`)}
            </span>
            {d.status !== 'running' && (
              <button
                type="button"
                className="link-button"
                aria-label={t('form_runtime.dismiss', { name: d.name })}
                onClick={() => overlays.dismissDownload(d.id)}
              >
                ×
              </button>
            )}
          </li>
        ))}
      </ul>
    </aside>
  )
}
