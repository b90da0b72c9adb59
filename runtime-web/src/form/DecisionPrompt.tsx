/**
 * The take-decision prompt of the approve case (spec 000 §3; issue 18): one button per decision, in its
 * colour; choosing one asks to confirm it, with a comment box when the decision takes a comment
 * (required or optional, the process says). A modal dialog: focus stays inside (Tab wraps), Escape
 * cancels, and focus goes back to what opened it. Loaded lazily with its texts
 * (core/i18n/locales/decision): the form route's initial JavaScript has no room for it.
 */
import './decision.css'
import { useEffect, useId, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { DECISION_COMMENT_MAX, textColorFor } from '@tramita/contract'
import { useAreaTexts, type AreaLoaders } from '../lib/area_texts.js'

const LOADERS: AreaLoaders = {
  es: () => import('@tramita/i18n/locales/decision/es.json'),
  en: () => import('@tramita/i18n/locales/decision/en.json'),
  zh: () => import('@tramita/i18n/locales/decision/zh.json'),
}

export interface Decision {
  id: string
  label: string
  color: string
  /** Whether a comment goes with it; absent (an older server) reads as optional, the default. */
  comment?: 'none' | 'optional' | 'required'
}

interface Props {
  decisions: Decision[]
  busy: boolean
  onChoose(decision: Decision, comment: string): void
  onClose(): void
}

const FOCUSABLE = 'button:not([disabled]), textarea:not([disabled]), input:not([disabled]), select, a[href]'

const colored = (color: string) =>
  color ? { background: color, color: textColorFor(color), borderColor: color } : undefined

export function DecisionPrompt({ decisions, busy, onChoose, onClose }: Props) {
  const { t } = useAreaTexts('decision', LOADERS)
  const page = useTranslation()
  const ids = useId()
  const dialog = useRef<HTMLDialogElement>(null)
  const commentBox = useRef<HTMLTextAreaElement>(null)
  const confirmButton = useRef<HTMLButtonElement>(null)
  const [chosen, setChosen] = useState<Decision | null>(null)
  const [comment, setComment] = useState('')
  const [missing, setMissing] = useState(false)
  const rule = chosen?.comment ?? 'optional'

  // Before the node leaves the page: close it and give focus back to the button that opened it.
  useLayoutEffect(() => {
    const node = dialog.current
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null
    if (node && !node.open) node.showModal()
    return () => {
      node?.close()
      opener?.focus()
    }
  }, [])

  // Each view starts where the person acts next: the comment, else the confirm button.
  useEffect(() => {
    if (!chosen) return
    ;(rule === 'none' ? confirmButton.current : commentBox.current)?.focus()
  }, [chosen, rule])

  /** Tab and Shift+Tab wrap inside the dialog instead of leaving for the browser's own controls. */
  function trapTab(event: KeyboardEvent<HTMLDialogElement>) {
    if (event.key !== 'Tab' || !dialog.current) return
    const focusable = Array.from(dialog.current.querySelectorAll<HTMLElement>(FOCUSABLE))
    if (focusable.length === 0) return
    const first = focusable[0]!
    const last = focusable.at(-1)!
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault()
      last.focus()
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault()
      first.focus()
    }
  }

  function confirm() {
    if (!chosen) return
    const text = rule === 'none' ? '' : comment.trim()
    if (rule === 'required' && text === '') {
      setMissing(true)
      commentBox.current?.focus()
      return
    }
    onChoose(chosen, text)
  }

  const titleId = `${ids}-title`
  const hintId = `${ids}-hint`
  const countId = `${ids}-count`
  const missingId = `${ids}-missing`
  return (
    <dialog
      ref={dialog}
      className="fdialog fdecision"
      aria-labelledby={titleId}
      aria-describedby={chosen ? hintId : undefined}
      onCancel={(event) => {
        // Escape cancels the whole prompt; React, not the browser, takes the dialog away.
        event.preventDefault()
        onClose()
      }}
      onKeyDown={trapTab}
      data-testid="decision-prompt"
      data-step={chosen ? 'confirm' : 'choose'}
    >
      {chosen === null ? (
        <>
          <h2 id={titleId}>{page.t('form_runtime.take_decision')}</h2>
          <p className="fdecision__hint">{t('decision.choose')}</p>
          <div className="fdialog__choices">
            {decisions.map((decision) => (
              <button
                key={decision.id}
                type="button"
                className="button"
                disabled={busy}
                style={colored(decision.color)}
                onClick={() => {
                  setChosen(decision)
                  setComment('')
                  setMissing(false)
                }}
              >
                {decision.label}
              </button>
            ))}
          </div>
          <button type="button" className="button button--ghost" onClick={onClose}>
            {t('decision.cancel')}
          </button>
        </>
      ) : (
        <form
          className="fdecision__confirm"
          onSubmit={(event) => {
            event.preventDefault()
            confirm()
          }}
        >
          <h2 id={titleId}>{t('decision.confirm_title', { decision: chosen.label })}</h2>
          <p id={hintId} className="fdecision__hint">
            {t('decision.confirm_hint')}
          </p>
          {rule !== 'none' && (
            <div className="fdecision__comment">
              <label htmlFor={`${ids}-comment`}>
                {t(rule === 'required' ? 'decision.comment_required' : 'decision.comment_optional')}
              </label>
              <textarea
                id={`${ids}-comment`}
                ref={commentBox}
                rows={4}
                value={comment}
                // UTF-16 units: never more code points than the server's limit.
                maxLength={DECISION_COMMENT_MAX}
                aria-required={rule === 'required'}
                aria-invalid={missing}
                aria-describedby={missing ? `${missingId} ${countId}` : countId}
                onChange={(event) => {
                  setComment(event.target.value)
                  if (event.target.value.trim() !== '') setMissing(false)
                }}
                data-testid="decision-comment"
              />
              <span id={countId} className="fdecision__count">
                {t('decision.comment_count', { count: comment.length, max: DECISION_COMMENT_MAX })}
              </span>
              {missing && (
                <span id={missingId} className="fdecision__missing" role="alert">
                  {t('decision.comment_missing')}
                </span>
              )}
            </div>
          )}
          <div className="fdialog__choices">
            <button
              ref={confirmButton}
              type="submit"
              className="button"
              disabled={busy}
              style={colored(chosen.color)}
              data-testid="decision-confirm"
            >
              {t('decision.confirm', { decision: chosen.label })}
            </button>
            <button type="button" className="button button--ghost" onClick={() => setChosen(null)}>
              {t('decision.back')}
            </button>
            <button type="button" className="button button--ghost" onClick={onClose}>
              {t('decision.cancel')}
            </button>
          </div>
        </form>
      )}
    </dialog>
  )
}
