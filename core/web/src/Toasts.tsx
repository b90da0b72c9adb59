import { useSyncExternalStore } from 'react'
import { useTranslation } from 'react-i18next'
import { toasts as store } from './toasts.js'

/** The toast stack (bottom right): 7 s each, fading during the last second. Add toasts through `toasts` (toasts.ts). */
export function Toasts() {
  const { t } = useTranslation()
  const toasts = useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot)
  return (
    <div className="toasts" data-testid="toasts" role="region" aria-label={t('toast.region')} aria-live="polite">
      {toasts.map((toast) => (
        <div
          key={toast.id}
          className={`toast toast--${toast.type}${toast.phase === 'fading' ? ' toast--fading' : ''}`}
          data-type={toast.type}
          data-phase={toast.phase}
          role={toast.type === 'error' ? 'alert' : 'status'}
        >
          <span className="toast__kind">{t(`toast.${toast.type}`)}</span>
          <span className="toast__message">{toast.message}</span>
          <button
            type="button"
            className="toast__close"
            aria-label={t('toast.close')}
            onClick={() => store.dismiss(toast.id)}
          >
            ×
          </button>
        </div>
      ))}
    </div>
  )
}
