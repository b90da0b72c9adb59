/**
 * The form's modal (spec 000 §2): a URL in an iframe, or a page of the form (a section page too)
 * drawn with the same renderers. A cross-site page keeps its own origin in a sandboxed frame; a page
 * of this site gets no scripts, so it cannot reach the signed-in session.
 */
import { useEffect, useRef, useSyncExternalStore } from 'react'
import { useTranslation } from 'react-i18next'
import { useForm } from './context.js'
import { safeModalUrl } from './modal_url.js'
import type { Rows as PageRows } from './PageView.js'

/** `Rows` comes from the caller: imported here, PageView would split off the form route into a chunk of its own. */
export function FormModal({ Rows }: { Rows: typeof PageRows }) {
  const { t } = useTranslation()
  const { store } = useForm()
  const overlays = store.overlays
  const modal = useSyncExternalStore(overlays.subscribe, overlays.modal)
  const dialog = useRef<HTMLDialogElement>(null)
  useEffect(() => {
    const node = dialog.current
    if (modal && node && !node.open) node.showModal()
    if (!modal && node?.open) node.close()
  }, [modal])
  if (!modal) return null
  const pages = store.config.form.pages
  const page =
    modal.type === 'pages'
      ? typeof modal.page === 'number'
        ? pages[modal.page]
        : (pages.find((p) => p.name === modal.page) ?? store.sectionPage(modal.page))
      : undefined
  const url = modal.type === 'url' ? safeModalUrl(modal.url, window.location.origin) : null
  const sameSite = url?.origin === window.location.origin
  return (
    <dialog
      ref={dialog}
      className="fdialog fmodal"
      aria-label={modal.title || page?.name || t('form_runtime.modal')}
      onCancel={() => overlays.closeModal()}
      data-testid="form-modal"
    >
      <div className="fmodal__bar">
        <strong>{modal.title || page?.name || ''}</strong>
        <button type="button" className="button button--ghost" onClick={() => overlays.closeModal()}>
          {t('form_runtime.close')}
        </button>
      </div>
      {modal.type === 'url' &&
        (url ? (
          <iframe
            className="fmodal__frame"
            title={modal.title || url.hostname}
            src={url.href}
            sandbox={sameSite ? 'allow-forms allow-popups' : 'allow-scripts allow-forms allow-popups allow-same-origin'}
          />
        ) : (
          <p className="notice notice--error">{t('form_runtime.bad_url')}</p>
        ))}
      {modal.type === 'pages' && page && (
        <div className="fmodal__page">
          <Rows page={page} />
        </div>
      )}
    </dialog>
  )
}
