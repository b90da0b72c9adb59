/**
 * The missing-required list on the last page (spec 000 §2): each entry jumps to its page and focuses
 * the field. The heading is the spec's text, verbatim.
 */
import { MISSING_REQUIRED_HEADING, type MissingField } from '@tramita/contract'
import { useForm, useFormSnapshot } from './context.js'
import { inputIdOf } from './ItemView.js'
import type { FormStore } from './store.js'

/** Focuses a field's control once its page has rendered. */
export function focusField(name: string) {
  requestAnimationFrame(() => {
    const control = document.getElementById(inputIdOf(name))
    const target =
      control && control.matches('input,select,textarea,button,[tabindex]')
        ? control
        : control?.querySelector<HTMLElement>('input,select,textarea,button,[tabindex]')
    ;(target ?? control)?.focus()
    ;(target ?? control)?.scrollIntoView({ block: 'center' })
  })
}

const NONE: readonly MissingField[] = []

/** The list only shows on the last page: elsewhere the required check (every field) is not even run. */
const shownMissing = (store: FormStore): readonly MissingField[] => {
  if (!store.isLastPage()) return NONE
  const missing = store.missing()
  // store.missing() keeps its list while nothing changes; an empty answer may be a new array.
  return missing.length === 0 ? NONE : missing
}

export function MissingRequired() {
  const { store } = useForm()
  const missing = useFormSnapshot(store, shownMissing)
  if (missing.length === 0) return null
  return (
    <div className="fmissing" role="alert" data-testid="missing-required">
      <p className="fmissing__heading">{MISSING_REQUIRED_HEADING}</p>
      <ul>
        {missing.map((entry) => (
          <li key={entry.field}>
            {/* A bullet of its own, on the entry's first line (a list marker sits on a wrapped button's last). */}
            <span className="fmissing__dot" aria-hidden="true">
              •
            </span>
            <span className="fmissing__entry">
              <button
                type="button"
                className="link-button"
                data-field={entry.field}
                onClick={() => {
                  store.goToPage(entry.page)
                  focusField(entry.field)
                }}
              >
                {entry.label}
              </button>
              {/* The designer's required message, when the form words one. */}
              {entry.message && <span className="fmissing__message">{entry.message}</span>}
            </span>
          </li>
        ))}
      </ul>
    </div>
  )
}
