/** Numbers and integers, with the schema's bounds; an emptied box removes the key. */
import type { LeafProps } from './leaf.js'
import { parseNumber } from './values.js'
import { useDraft } from './use_draft.js'

export function NumberEditor({ node, shared, input, placeholder, commit }: LeafProps) {
  const draft = useDraft(typeof shared.value === 'number' ? String(shared.value) : '')
  return (
    <input
      {...input}
      type="number"
      inputMode={node.integer ? 'numeric' : 'decimal'}
      min={node.minimum}
      max={node.maximum}
      step={node.integer ? 1 : 'any'}
      value={draft.text}
      placeholder={placeholder}
      onChange={(event) => {
        draft.type(event.target.value)
        const value = parseNumber(event.target.value)
        // A half-typed number ('-', '1e') waits; out-of-range values are stored for the contract to flag.
        if (value === undefined || !Number.isNaN(value)) commit(value)
      }}
      onBlur={draft.done}
    />
  )
}
