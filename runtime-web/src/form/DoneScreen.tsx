/**
 * The done screen of a new case (spec 000 §2: the form replaced by a done card with a redo button),
 * with the case's code, which the applicant needs to consult it: a copy button (Clipboard API, the
 * result said beside it) and, when the process allows external consultation, the link to the public
 * consultation page (/consult?data=<form key>). Loaded with the first send, not with the form: the
 * form route's initial JavaScript has no room for it (its styles are in form.css: CSS is not counted,
 * and a chunk of its own would add to the route's preload list). Texts: core/i18n/locales/form_done.
 */
import { useState } from 'react'
import { useAreaTexts, type AreaLoaders } from '../lib/area_texts.js'

const LOADERS: AreaLoaders = {
  es: () => import('@tramita/i18n/locales/form_done/es.json'),
  en: () => import('@tramita/i18n/locales/form_done/en.json'),
  zh: () => import('@tramita/i18n/locales/form_done/zh.json'),
}

/** What a save answers (FormProcessController.saved), as far as the done screen reads it. */
export interface Saved {
  /** The new case's code (CODE_PROCESS). */
  code_process?: string
  /** Whether the process may be consulted from outside, and the form key its consultation page takes. */
  external_consultation?: boolean
  id_form?: string
}

export interface DoneScreenProps {
  saved: Saved
  onRedo(): void
}

export function DoneScreen({ saved, onRedo }: DoneScreenProps) {
  const { t } = useAreaTexts('form_done', LOADERS)
  const code = saved.code_process ?? ''
  const consultHref =
    saved.external_consultation && saved.id_form ? `/consult?data=${encodeURIComponent(saved.id_form)}` : null
  const [copied, setCopied] = useState<'no' | 'yes' | 'failed'>('no')

  const copy = () => {
    // writeText needs a secure context and the page's focus; either missing, the code stays selectable.
    const written = navigator.clipboard?.writeText(code) ?? Promise.reject(new Error('no clipboard'))
    written.then(
      () => setCopied('yes'),
      () => setCopied('failed')
    )
  }

  return (
    <div className="card fcard fdone" data-testid="form-done">
      <p role="status">{t('form_runtime.done')}</p>
      {code && (
        <div className="fdone__case">
          <span className="fdone__label">{t('form_done.code_label')}</span>
          <div className="fdone__row">
            <code className="fdone__code" data-testid="form-done-code">
              {code}
            </code>
            <button type="button" className="button button--ghost" onClick={copy} data-testid="form-done-copy">
              {t('form_done.copy')}
            </button>
          </div>
          <p className="fdone__copied" aria-live="polite" data-testid="form-done-copied">
            {copied === 'yes' ? t('form_done.copied') : copied === 'failed' ? t('form_done.copy_failed') : ''}
          </p>
          {consultHref && (
            <>
              <p className="fdone__hint">{t('form_done.code_hint')}</p>
              <a className="button button--ghost" href={consultHref} data-testid="form-done-consult">
                {t('form_done.consult')}
              </a>
            </>
          )}
        </div>
      )}
      <button type="button" className="button button--primary" onClick={onRedo} data-testid="form-done-redo">
        {t('form_runtime.redo')}
      </button>
    </div>
  )
}
