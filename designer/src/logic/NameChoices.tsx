/**
 * Config keys that name something of the form (a field, several fields, an action, a page) as
 * choices among what the form has, each row with its label and the contract's problems at its path.
 */
import { useId, type ReactNode } from 'react'
import type { ShownProblem } from '../panel/problems.js'
import { ProblemList } from '../panel/ProblemList.js'
import type { NameOption } from './logic_context.js'

export function Row({
  label,
  problems,
  children,
  id,
}: {
  label: string
  problems: readonly ShownProblem[]
  children: (input: { id: string; 'aria-invalid'?: boolean; 'aria-describedby'?: string }) => ReactNode
  id?: string
}) {
  const own = useId()
  const inputId = id ?? own
  const problemsId = problems.length > 0 ? `${inputId}-problems` : undefined
  return (
    <div className={`panel-row${problems.length ? ' panel-invalid' : ''}`}>
      <label htmlFor={inputId}>{label}</label>
      {children({ id: inputId, 'aria-invalid': problems.length > 0 || undefined, 'aria-describedby': problemsId })}
      <span className="panel-state" />
      <ProblemList id={problemsId} problems={problems} multi={false} />
    </div>
  )
}

/** One name among `options`; '' (none chosen) removes the key. A stored name the form lacks stays shown. */
export function NameSelect({
  label,
  value,
  options,
  none,
  problems,
  onChange,
  testId,
}: {
  label: string
  value: unknown
  options: readonly NameOption[]
  none: string
  problems: readonly ShownProblem[]
  onChange: (name: string | undefined) => void
  testId?: string
}) {
  const current = value === undefined || value === null ? '' : String(value)
  const missing = current !== '' && !options.some((o) => o.id === current)
  return (
    <Row label={label} problems={problems}>
      {(input) => (
        <select {...input} value={current} data-testid={testId} onChange={(e) => onChange(e.target.value || undefined)}>
          <option value="">{none}</option>
          {missing && <option value={current}>{current}</option>}
          {options.map((o) => (
            <option key={o.id} value={o.id}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    </Row>
  )
}

/** Several names, each a checkbox; an empty choice removes the key. */
export function NameChecks({
  label,
  value,
  options,
  problems,
  onChange,
}: {
  label: string
  value: unknown
  options: readonly NameOption[]
  problems: readonly ShownProblem[]
  onChange: (names: string[] | undefined) => void
}) {
  const chosen = Array.isArray(value) ? value.map(String) : []
  const shown = [
    ...options,
    ...chosen.filter((n) => !options.some((o) => o.id === n)).map((n) => ({ id: n, label: n })),
  ]
  return (
    <Row label={label} problems={problems}>
      {(input) => (
        <div role="group" aria-label={label} className="logic-checks" id={input.id}>
          {shown.map((o) => (
            <label key={o.id}>
              <input
                type="checkbox"
                checked={chosen.includes(o.id)}
                onChange={(e) => {
                  const next = e.target.checked ? [...chosen, o.id] : chosen.filter((n) => n !== o.id)
                  onChange(next.length > 0 ? next : undefined)
                }}
              />{' '}
              {o.label}
            </label>
          ))}
        </div>
      )}
    </Row>
  )
}
