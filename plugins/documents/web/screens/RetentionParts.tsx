/** Pieces the retention screens share: a list of facts (term, value) and a schedule's labels. */
import { useTranslation } from 'react-i18next'
import type { RetentionLabel } from '../../shared/retention.js'

export function Facts({ facts, testId }: { facts: readonly (readonly [string, string])[]; testId?: string }) {
  return (
    <dl className="retention__list" data-testid={testId}>
      {facts.map(([term, value]) => (
        <div key={term}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  )
}

/** Labels with their colours (a dot of the colour beside the name, read in the text's own colour). */
export function LabelChips({ labels }: { labels: readonly RetentionLabel[] }) {
  const { t } = useTranslation()
  return (
    <ul className="retention__labels" aria-label={t('documents.retention.labels')}>
      {labels.map((label) => (
        <li key={label.name} className="docs-label" style={{ borderColor: label.color }}>
          <span className="docs-label__dot" style={{ background: label.color }} aria-hidden="true" />
          {label.name}
        </li>
      ))}
    </ul>
  )
}
