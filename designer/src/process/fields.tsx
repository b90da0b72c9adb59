/** Small labelled inputs the process editors share; each reports a problem at its own path. */
import type { ReactNode } from 'react'
import type { ProblemIndex } from '../model/index.js'

export function Problems({ problems, path }: { problems: ProblemIndex; path: string }) {
  const here = problems.at(path)
  if (here.length === 0) return null
  return (
    <span className="process-problem" role="alert">
      {here.map((p) => p.message).join('; ')}
    </span>
  )
}

export function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <label className="process-field">
      <span>{label}</span>
      {children}
    </label>
  )
}

/** A select of ids with labels; '' is "none" when `none` is given. */
export function Choice({
  value,
  options,
  none,
  onChange,
  label,
}: {
  value: string
  options: { id: string; label: string }[]
  none?: string
  onChange: (id: string) => void
  label: string
}) {
  return (
    <Field label={label}>
      <select value={value} onChange={(e) => onChange(e.target.value)}>
        {none !== undefined && <option value="">{none}</option>}
        {options.map((o) => (
          <option key={o.id} value={o.id}>
            {o.label}
          </option>
        ))}
      </select>
    </Field>
  )
}
