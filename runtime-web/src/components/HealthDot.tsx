import { Link } from 'react-router'
import { useTranslation } from 'react-i18next'
import { useHealth } from '../hooks/useHealth.js'

/** The server's health in the header: a dot linking to /status. */
export function HealthDot() {
  const { t } = useTranslation()
  const { status, summary } = useHealth()
  const ok = status === 'ready' && summary?.ok === true
  const label =
    status === 'ready'
      ? t(ok ? 'health.summary_ok' : 'health.summary_degraded')
      : status === 'unreachable'
        ? t('health.unreachable')
        : t('health.loading')
  return (
    <Link
      to="/status"
      className="health-dot"
      data-testid="health-dot"
      data-ok={String(ok)}
      data-state={status}
      title={label}
      aria-label={label}
    />
  )
}
