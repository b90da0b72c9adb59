import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import { Page } from '../components/Page.js'
import { refreshHealth, useHealth } from '../hooks/useHealth.js'
import { HEALTH_CHECKS } from '../lib/health.js'

/** Route /status: the server's GET /health, check by check. */
export function StatusPage() {
  const { t, i18n } = useTranslation()
  const { status, summary, checkedAt, refresh } = useHealth()

  // Fresh numbers whenever the page is opened, not the header's last poll.
  useEffect(() => {
    void refreshHealth()
  }, [])

  const time = checkedAt
    ? new Intl.DateTimeFormat(i18n.language, { dateStyle: 'short', timeStyle: 'medium' }).format(checkedAt)
    : null
  const overallOk = status === 'ready' && summary?.ok === true

  return (
    <Page title={t('page.status.title')} testId="page-status">
      <p className="lead">{t('page.status.body')}</p>
      {status === 'idle' || status === 'loading' ? (
        <p className="muted" role="status">
          {t('health.loading')}
        </p>
      ) : (
        <>
          <div className="health-overall" data-testid="health-overall" data-ok={String(overallOk)}>
            <span className="health-overall__label">{t('health.overall')}</span>
            <strong className={`pill ${overallOk ? 'pill--ok' : 'pill--down'}`}>
              {status === 'unreachable'
                ? t('health.unreachable')
                : t(overallOk ? 'health.summary_ok' : 'health.summary_degraded')}
            </strong>
          </div>
          {summary && (
            <ul className="health-list">
              {HEALTH_CHECKS.map((name) => {
                const check = summary.checks[name]
                return (
                  <li key={name} className="health-item" data-testid={`health-${name}`} data-ok={String(check.ok)}>
                    <span className={`health-item__dot ${check.ok ? 'is-ok' : 'is-down'}`} aria-hidden="true" />
                    <span className="health-item__name">{t(`health.${name}`)}</span>
                    {check.driver && (
                      <span className="health-item__driver">{t('health.driver', { driver: check.driver })}</span>
                    )}
                    <span className={`pill ${check.ok ? 'pill--ok' : 'pill--down'}`}>
                      {t(check.ok ? 'health.ok' : 'health.down')}
                    </span>
                  </li>
                )
              })}
            </ul>
          )}
        </>
      )}
      <p className="status-actions">
        <button type="button" className="button" onClick={() => void refresh()} disabled={status === 'loading'}>
          {t('health.refresh')}
        </button>
        {time && <span className="muted">{t('health.checked_at', { time })}</span>}
      </p>
    </Page>
  )
}
