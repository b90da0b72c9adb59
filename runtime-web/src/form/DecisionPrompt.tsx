/** The take-decision prompt of the approve case: one button per decision, in its colour (spec 000 §3). */
import { useEffect, useRef } from 'react'
import { useTranslation } from 'react-i18next'
import { textColorFor } from '@tramita/contract'

export interface Decision {
  id: string
  label: string
  color: string
}

interface Props {
  decisions: Decision[]
  busy: boolean
  onChoose(decision: Decision): void
  onClose(): void
}

export function DecisionPrompt({ decisions, busy, onChoose, onClose }: Props) {
  const { t } = useTranslation()
  const dialog = useRef<HTMLDialogElement>(null)
  useEffect(() => {
    const node = dialog.current
    if (node && !node.open) node.showModal()
    return () => node?.close()
  }, [])
  return (
    <dialog
      ref={dialog}
      className="fdialog"
      aria-labelledby="fdecision-title"
      onCancel={onClose}
      data-testid="decision-prompt"
    >
      <h2 id="fdecision-title">{t('form_runtime.take_decision')}</h2>
      <div className="fdialog__choices">
        {decisions.map((decision) => (
          <button
            key={decision.id}
            type="button"
            className="button"
            disabled={busy}
            style={
              decision.color
                ? { background: decision.color, color: textColorFor(decision.color), borderColor: decision.color }
                : undefined
            }
            onClick={() => onChoose(decision)}
          >
            {decision.label}
          </button>
        ))}
      </div>
      <button type="button" className="button button--ghost" onClick={onClose}>
        {t('form_runtime.cancel')}
      </button>
    </dialog>
  )
}
