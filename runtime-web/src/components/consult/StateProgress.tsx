import { useTranslation } from 'react-i18next'
import './path.css'
import type { ProgressStep } from '../../lib/consultation.js'

/**
 * The path the case took (issue 18): each state it entered, in order, as a circle with an arrow to the
 * next and when it entered it; the last is where it is now (highlighted, aria-current). An open case
 * trails a dashed line (it goes on); an ended one stops at its last state. No state it did not enter.
 */
export function StateProgress({ steps, ended }: { steps: ProgressStep[]; ended: boolean }) {
  const { t } = useTranslation()
  return (
    <div className="consult-path">
      <ol
        className="consult-progress"
        aria-label={t('consultation.states')}
        data-testid="consult-progress"
        data-ended={ended ? 'true' : 'false'}
      >
        {steps.map((step, index) => (
          <li
            key={index}
            className={`consult-progress__step${step.current ? ' is-current' : ''}`}
            aria-current={step.current ? 'step' : undefined}
            data-state={step.id}
          >
            <span
              className="consult-progress__dot"
              aria-hidden="true"
              // The current state is filled with its colour; the others show it as their ring.
              style={
                step.color
                  ? { borderColor: step.color, ...(step.current ? { background: step.color } : {}) }
                  : undefined
              }
            />
            <span className="consult-progress__text">
              <span className="consult-progress__label">{step.label}</span>
              {step.date && <span className="consult-progress__date">{step.date}</span>}
            </span>
            {!step.last && <span className="consult-progress__arrow" aria-hidden="true" />}
            {step.last && !ended && <span className="consult-progress__more" aria-hidden="true" />}
          </li>
        ))}
      </ol>
      <p className={`consult-path__status${ended ? ' is-ended' : ''}`} data-testid="consult-case-status">
        {t(ended ? 'consultation.case_ended' : 'consultation.case_open')}
      </p>
    </div>
  )
}
