import { useTranslation } from 'react-i18next'
import type { ProgressStep } from '../../lib/consultation.js'

/** Every state as a circle, init first and end last without an arrow; the current one highlighted. */
export function StateProgress({ steps }: { steps: ProgressStep[] }) {
  const { t } = useTranslation()
  return (
    <ol className="consult-progress" aria-label={t('consultation.states')} data-testid="consult-progress">
      {steps.map((step) => (
        <li
          key={step.id}
          className={`consult-progress__step${step.current ? ' is-current' : ''}`}
          aria-current={step.current ? 'step' : undefined}
          data-state={step.id}
        >
          <span
            className="consult-progress__dot"
            aria-hidden="true"
            // The current state is filled with its colour; the others show it as their ring.
            style={
              step.color ? { borderColor: step.color, ...(step.current ? { background: step.color } : {}) } : undefined
            }
          />
          <span className="consult-progress__label">{step.label}</span>
          {!step.last && <span className="consult-progress__arrow" aria-hidden="true" />}
        </li>
      ))}
    </ol>
  )
}
