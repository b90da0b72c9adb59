/**
 * Pieces both administration screens use (beside @tramita/web's dialog-form and loading): a list's
 * states before it has rows; the status and availability badges in the spec's words; when something
 * happened, as the page's language says it; and a list's cell.
 */
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import type { AgentStatus, Availability } from '../../shared/protocol.js'

/** How often the lists are read again while shown: an agent's status and machines change by themselves. */
export const LIVE_MS = 10_000

/** The list's states before it has rows: reading, or the server's refusal with a way to try again. */
export function ListState({
  loading,
  failure,
  onRetry,
}: {
  loading: boolean
  failure: string | null
  onRetry(): void
}) {
  const { t } = useTranslation()
  if (failure) {
    return (
      <div className="notice notice--error dev-failure" role="alert">
        <p>{failure}</p>
        <button type="button" className="button" onClick={onRetry}>
          {t('devices.screens.retry')}
        </button>
      </div>
    )
  }
  return loading ? (
    <p className="muted" role="status">
      {t('devices.screens.loading')}
    </p>
  ) : null
}

/** The text keys of the spec's words: `ACTIVE` → `active`, `NO LICENSE` → `no_license`, `print only` → `print_only`. */
const keyOf = (word: string) => word.toLowerCase().replace(/ /g, '_')

const STATUS_TONE: Record<AgentStatus, string> = {
  ACTIVE: 'ok',
  INACTIVE: 'off',
  WAITING: 'info',
  CANCELLED: 'down',
  'NO LICENSE': 'warn',
}

const AVAILABILITY_TONE: Record<Availability, string> = {
  available: 'ok',
  'print only': 'info',
  'scan only': 'info',
  'not available': 'off',
}

export function StatusBadge({ status }: { status: AgentStatus }) {
  const { t } = useTranslation()
  return (
    <span className={`dev-badge dev-badge--${STATUS_TONE[status]}`} data-testid="dev-status" data-status={status}>
      {t(`devices.status.${keyOf(status)}`)}
    </span>
  )
}

export function AvailabilityBadge({ availability }: { availability: Availability }) {
  const { t } = useTranslation()
  return (
    <span
      className={`dev-badge dev-badge--${AVAILABILITY_TONE[availability]}`}
      data-testid="dev-availability"
      data-availability={availability}
    >
      {t(`devices.availability.${keyOf(availability)}`)}
    </span>
  )
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 7],
]

/**
 * When something happened: relative within a week ("2 minutes ago", "hace 2 minutos"), else the date
 * and time; the full date and time as its title. `never` when it has not happened.
 */
export function When({ iso, never }: { iso: string | null; never: string }) {
  const { i18n } = useTranslation()
  if (!iso) return <span className="muted">{never}</span>
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return <span className="muted">{never}</span>
  const full = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(date)
  let amount = Math.round((date.getTime() - Date.now()) / 1000)
  let text = full
  for (const [unit, size] of UNITS) {
    if (Math.abs(amount) < size) {
      text = new Intl.RelativeTimeFormat(i18n.language, { numeric: 'auto' }).format(amount, unit)
      break
    }
    amount = Math.round(amount / size)
  }
  return (
    <time dateTime={date.toISOString()} title={full}>
      {text}
    </time>
  )
}

/**
 * A cell of the lists: its column's name as `data-label` (a phone shows it before the value, the row
 * being a card there) and its value in one box, so the two sit side by side.
 */
export function Cell({
  label,
  className,
  testId,
  children,
}: {
  label: string
  className?: string
  testId?: string
  children: ReactNode
}) {
  return (
    <td data-label={label} className={className} data-testid={testId}>
      <span className="dev-cell">{children}</span>
    </td>
  )
}
