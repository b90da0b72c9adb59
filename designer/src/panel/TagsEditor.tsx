/** A list of words or ids typed separated by commas (extensions, reduce lists, suggestions). */
import type { LeafProps } from './leaf.js'
import { formatTags, parseTags, sameValue } from './values.js'
import { useDraft } from './use_draft.js'

export function TagsEditor({ node, shared, input, placeholder, commit }: LeafProps) {
  const draft = useDraft(formatTags(shared.value))
  return (
    <input
      {...input}
      type="text"
      value={draft.text}
      placeholder={placeholder}
      onChange={(event) => {
        draft.type(event.target.value)
        const tags = parseTags(event.target.value, node.ids)
        commit(tags.length === 0 && sameValue(node.default, []) ? undefined : tags)
      }}
      onBlur={draft.done}
    />
  )
}
