/**
 * A modal dialog of the library (new folder, labels, share, emptying the bin): a native <dialog> opened
 * with showModal(), so focus stays inside, Escape closes it and the page behind is inert; focus starts
 * on its first field and goes back where it was when it closes.
 */
import { useEffect, useId, useRef, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'

interface Props {
  title: string
  onClose(): void
  children: ReactNode
  testId?: string
}

export function Dialog({ title, onClose, children, testId }: Props) {
  const { t } = useTranslation()
  const ref = useRef<HTMLDialogElement>(null)
  const titleId = useId()
  const close = useRef(onClose)
  close.current = onClose

  useEffect(() => {
    const dialog = ref.current
    if (!dialog) return
    const before = document.activeElement as HTMLElement | null
    if (!dialog.open) dialog.showModal()
    // showModal focuses the first control, the close button: the first field is where typing starts.
    dialog.querySelector<HTMLElement>('.docs-dialog__body :is(input, select, textarea)')?.focus()
    const onCancel = (event: Event) => {
      event.preventDefault()
      close.current()
    }
    dialog.addEventListener('cancel', onCancel)
    return () => {
      dialog.removeEventListener('cancel', onCancel)
      if (dialog.open) dialog.close()
      before?.focus?.()
    }
  }, [])

  return (
    <dialog ref={ref} className="docs-dialog" aria-labelledby={titleId} data-testid={testId}>
      <header className="docs-dialog__head">
        <h2 id={titleId}>{title}</h2>
        <button
          type="button"
          className="docs-icon-button"
          aria-label={t('documents.screens.close')}
          title={t('documents.screens.close')}
          onClick={onClose}
        >
          ×
        </button>
      </header>
      <div className="docs-dialog__body">{children}</div>
    </dialog>
  )
}
