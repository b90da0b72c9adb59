/**
 * The modal shell of the camera and signature dialogs: a native <dialog> opened with showModal(), so
 * the browser keeps focus inside, Escape closes it and the page behind is inert. At most 600 px wide
 * (spec 001 §9: camera and signature dialog max width 600 px).
 */
import { useEffect, useId, useRef, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import './media.css'

interface Props {
  title: string
  onClose(): void
  children: ReactNode
  testId?: string
}

export function MediaDialog({ title, onClose, children, testId }: Props) {
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
    // Escape fires `cancel`: the owner decides (it unmounts us), the browser does not close on its own.
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
    <dialog ref={ref} className="media-dialog" aria-labelledby={titleId} data-testid={testId}>
      <header className="media-dialog__head">
        <h2 id={titleId}>{title}</h2>
        <button
          type="button"
          className="media-icon-button"
          aria-label={t('media_ui.close')}
          title={t('media_ui.close')}
          onClick={onClose}
        >
          ×
        </button>
      </header>
      <div className="media-dialog__body">{children}</div>
    </dialog>
  )
}
