/**
 * A synchronized folder's binding over its list (spec 001 §2): its agent (on or off), the path on the
 * agent's computer, the last sync or why it failed, its recent activity (conflicts kept, files refused),
 * and "Sync now" for those who may change the folder.
 */
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useLoaded } from '@tramita/web/loading'
import { toasts } from '@tramita/web/toasts'
import { errorText } from '@tramita/web/loading'
import type { SyncEventRow } from '../../shared/sync.js'
import { syncInfo, syncNow } from '../library/sync_api.js'
import { formatDate } from '../library/format.js'
import './sync.css'

export function SyncPanel({ folderId, canWrite }: { folderId: number; canWrite: boolean }) {
  const { t, i18n } = useTranslation()
  const { value: info, reload } = useLoaded(() => syncInfo(folderId), { refreshMs: 10_000 })
  const [busy, setBusy] = useState(false)
  if (!info) return null

  async function now() {
    setBusy(true)
    try {
      await syncNow(folderId)
      toasts.success(t('documents.sync.queued'))
      reload()
    } catch (error) {
      toasts.error(errorText(error))
    } finally {
      setBusy(false)
    }
  }

  const eventText = (event: SyncEventRow) =>
    t(`documents.sync.${event.kind}`, {
      path: event.path ?? '',
      copy: event.detail ?? '',
      detail: event.detail && event.detail.startsWith('documents.') ? t(event.detail) : (event.detail ?? ''),
    })

  return (
    <section className="docs-sync" aria-label={t('documents.sync.synchronized')} data-testid="docs-sync">
      <dl>
        <div>
          <dt>{t('documents.sync.agent')}</dt>
          <dd>
            {info.agent
              ? `${info.agent.name} (${t(info.agent.online ? 'documents.sync.online' : 'documents.sync.offline')})`
              : t('documents.sync.offline')}
          </dd>
        </div>
        <div>
          <dt>{t('documents.sync.path')}</dt>
          <dd className="docs-sync__path">{info.path}</dd>
        </div>
        <div>
          <dt>{t('documents.sync.last_sync')}</dt>
          <dd>{info.synced_at ? formatDate(info.synced_at, i18n.language) : t('documents.sync.never')}</dd>
        </div>
      </dl>
      {info.error && (
        <p className="notice notice--error" role="status">
          {t(`documents.${info.error}`)}
        </p>
      )}
      {canWrite && (
        <button type="button" className="button" disabled={busy} onClick={() => void now()}>
          {t('documents.sync.sync_now')}
        </button>
      )}
      {info.events.length > 0 && (
        <details>
          <summary>{t('documents.sync.activity')}</summary>
          <ul>
            {info.events.map((event, n) => (
              <li key={n}>
                <time dateTime={event.created_at}>{formatDate(event.created_at, i18n.language)}</time>{' '}
                {eventText(event)}
              </li>
            ))}
          </ul>
        </details>
      )}
    </section>
  )
}
