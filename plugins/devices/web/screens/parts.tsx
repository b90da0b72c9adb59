/**
 * Pieces both administration screens use: a screen's data read on mount and again on `reload()`; one
 * try at a time in a dialog, the server's refusal shown in it; the end of a dialog's form; a question
 * before an action that cannot be undone; the status and availability badges in the spec's words; and
 * when something happened, as the page's language says it.
 */
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Dialog } from '@tramita/web/Dialog'
import type { AgentStatus, Availability } from '../../shared/protocol.js'

/** What a failed call says (the server's `message`), for a notice or a toast. */
export const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error))

export function useLoaded<T>(load: () => Promise<T>): { value: T | null; failure: string | null; reload(): void } {
  const [value, setValue] = useState<T | null>(null)
  const [failure, setFailure] = useState<string | null>(null)
  const [reloads, setReloads] = useState(0)
  const reload = useCallback(() => setReloads((n) => n + 1), [])
  const current = useRef(load)
  current.current = load
  useEffect(() => {
    let live = true
    current.current().then(
      (loaded) => {
        if (!live) return
        setValue(loaded)
        setFailure(null)
      },
      (error: unknown) => live && setFailure(errorText(error))
    )
    return () => {
      live = false
    }
  }, [reloads])
  return { value, failure, reload }
}

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

/** One try at a time; a refusal it throws becomes `failure`, shown by DialogActions. */
export function useAttempt() {
  const [failure, setFailure] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  async function attempt(work: () => Promise<void>) {
    if (busy) return
    setBusy(true)
    setFailure(null)
    try {
      await work()
    } catch (error) {
      setFailure(errorText(error))
    } finally {
      setBusy(false)
    }
  }
  return { failure, busy, attempt }
}

/** What the server refused last, then Cancel and the form's own action. */
export function DialogActions({
  submit,
  busy,
  failure,
  danger,
  onCancel,
}: {
  submit: string
  busy: boolean
  failure?: string | null
  danger?: boolean
  onCancel(): void
}) {
  const { t } = useTranslation()
  return (
    <>
      {failure && (
        <p className="notice notice--error" role="alert">
          {failure}
        </p>
      )}
      <div className="dev-dialog__actions">
        <button type="button" className="button dev-quiet" onClick={onCancel}>
          {t('devices.screens.cancel')}
        </button>
        <button type="submit" className={danger ? 'button dev-danger' : 'button'} disabled={busy}>
          {submit}
        </button>
      </div>
    </>
  )
}

/** Asks before an action that cannot be undone; a refusal is shown in it and it stays open. */
export function ConfirmDialog({
  title,
  question,
  action,
  testId,
  onClose,
  onConfirm,
}: {
  title: string
  question: string
  action: string
  testId?: string
  onClose(): void
  onConfirm(): Promise<void>
}) {
  const { failure, busy, attempt } = useAttempt()
  return (
    <Dialog className="dev-dialog" title={title} onClose={onClose} testId={testId}>
      <form
        className="dev-form"
        onSubmit={(event) => {
          event.preventDefault()
          void attempt(onConfirm)
        }}
      >
        <p>{question}</p>
        <DialogActions submit={action} busy={busy} failure={failure} danger onCancel={onClose} />
      </form>
    </Dialog>
  )
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
