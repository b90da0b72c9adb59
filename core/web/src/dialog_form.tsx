/**
 * The end of a dialog's form in the plugins' screens: what the server refused last (its message, kept
 * until the next try), then Cancel and the form's own action; the state of such a try; and a dialog that
 * asks before an action that cannot be undone. Classes: `dialog-form` and `dialog__actions` (dialog.css),
 * `button--quiet` and `button--danger` (screens.css).
 */
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Dialog } from './Dialog.js'
import { errorText } from './loading.js'
import './screens.css'

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

/** What the server refused last, if anything. */
export function Refusal({ failure }: { failure?: string | null }) {
  return failure ? (
    <p className="notice notice--error" role="alert">
      {failure}
    </p>
  ) : null
}

export interface DialogActionsProps {
  /** The submit button's text. */
  submit: string
  busy: boolean
  failure?: string | null
  /** The action deletes or revokes: the danger colour. */
  danger?: boolean
  onCancel(): void
}

/** What the server refused last, then Cancel and the form's own action (its submit button). */
export function DialogActions({ submit, busy, failure, danger, onCancel }: DialogActionsProps) {
  const { t } = useTranslation()
  return (
    <>
      <Refusal failure={failure} />
      <div className="dialog__actions">
        <button type="button" className="button button--quiet" onClick={onCancel}>
          {t('dialog.cancel')}
        </button>
        <button type="submit" className={danger ? 'button button--danger' : 'button'} disabled={busy}>
          {submit}
        </button>
      </div>
    </>
  )
}

/**
 * Asks before an action that cannot be undone (deleting, revoking): its question, then Cancel and the
 * action; a refusal is shown in it and it stays open. The owner closes it when `onConfirm` succeeds.
 */
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
    <Dialog title={title} onClose={onClose} testId={testId}>
      <form
        className="dialog-form"
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
