/**
 * Text (one line; words a reader sees wrap in a growing box) and scripts (several, monospaced). A box
 * emptied where the default is empty removes the key.
 */
import type { LeafProps } from './leaf.js'
import { parseId } from './values.js'
import { useDraft } from './use_draft.js'

/** Names are renamed with their references: committed when the box is left, not per letter. */
const ON_LEAVE = new Set(['field_name'])

export function TextEditor({ node, shared, input, placeholder, commit }: LeafProps) {
  const stored = typeof shared.value === 'string' || typeof shared.value === 'number' ? String(shared.value) : ''
  const draft = useDraft(stored)
  const store = (text: string) => commit(text === '' && node.default === '' ? undefined : parseId(text, node.ids))
  const onLeave = ON_LEAVE.has(node.key)
  const common = {
    ...input,
    value: draft.text,
    placeholder,
    minLength: node.minLength,
    maxLength: node.maxLength,
    onChange: (event: { target: { value: string } }) => {
      draft.type(event.target.value)
      if (!onLeave) store(event.target.value)
    },
    onBlur: () => {
      if (onLeave && draft.text !== stored) store(draft.text)
      draft.done()
    },
  }
  if (node.kind === 'script') return <textarea {...common} rows={3} spellCheck={false} className="panel-code" />
  // Words the reader sees (labels, texts, tooltips) can be long: a box that wraps and grows with them.
  if (node.translatable) return <textarea {...common} rows={1} className="panel-words" />
  return (
    <input
      {...common}
      type="text"
      onKeyDown={(event) => {
        if (onLeave && event.key === 'Enter') event.currentTarget.blur()
      }}
    />
  )
}
