/**
 * A modal dialog (the runtime's camera, signature and ID card dialogs; the plugins' dialogs): a native
 * <dialog> opened with showModal(), so focus stays inside, Escape closes it and the page behind is
 * inert. Named by its title; focus starts on its first field (else on the close button) and goes back
 * where it was when it closes. At most 600 px wide (spec 001 §9: camera and signature dialog max width).
 * Escape fires `cancel`: the owner decides (it unmounts the dialog), the browser does not close it alone.
 */
import { useEffect, useId, useRef, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import './dialog.css'

export interface DialogProps {
  title: string
  onClose(): void
  children: ReactNode
  testId?: string
  /** A class beside `dialog` on the <dialog>, for the owner's styling of its body. */
  className?: string
}

export function Dialog({ title, onClose, children, testId, className }: DialogProps) {
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
    dialog.querySelector<HTMLElement>('.dialog__body :is(input, select, textarea)')?.focus()
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
    <dialog
      ref={ref}
      className={className ? `dialog ${className}` : 'dialog'}
      aria-labelledby={titleId}
      data-testid={testId}
    >
      <header className="dialog__head">
        <h2 id={titleId}>{title}</h2>
        <button
          type="button"
          className="dialog__close"
          aria-label={t('dialog.close')}
          title={t('dialog.close')}
          onClick={onClose}
        >
          ×
        </button>
      </header>
      <div className="dialog__body">{children}</div>
    </dialog>
  )
}
