/**
 * The missing-required list on the last page (spec 000 §2): each entry jumps to its page and focuses
 * the field. The heading is the spec's text, verbatim.
 */
import { MISSING_REQUIRED_HEADING } from '@tramita/contract'
import { useForm, useFormVersion } from './context.js'
import { inputIdOf } from './ItemView.js'

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

export function MissingRequired() {
  const { store } = useForm()
  useFormVersion(store)
  const missing = store.missing()
  if (missing.length === 0 || !store.isLastPage()) return null
  return (
    <div className="fmissing" role="alert" data-testid="missing-required">
      <p className="fmissing__heading">{MISSING_REQUIRED_HEADING}</p>
      <ul>
        {missing.map((entry) => (
          <li key={entry.field}>
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
          </li>
        ))}
      </ul>
    </div>
  )
}
