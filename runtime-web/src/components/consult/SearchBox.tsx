import { useId } from 'react'

/** A labelled search input (the label is for screen readers; the placeholder says the same). */
export function SearchBox({
  label,
  value,
  onChange,
  testId,
}: {
  label: string
  value: string
  onChange: (value: string) => void
  testId?: string
}) {
  const id = useId()
  return (
    <div className="consult-search">
      <label htmlFor={id} className="visually-hidden">
        {label}
      </label>
      <input
        id={id}
        type="search"
        value={value}
        placeholder={label}
        autoComplete="off"
        data-testid={testId}
        onChange={(event) => onChange(event.target.value)}
      />
    </div>
  )
}
