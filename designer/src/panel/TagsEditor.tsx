/** A list of words or ids typed separated by commas (extensions, reduce lists, suggestions). */
import type { LeafProps } from './leaf.js'
import { formatTags, parseTags, sameValue } from './values.js'
import { useDraft } from './use_draft.js'
import { usePanel } from './panel_context.js'
import { ActionNamesEditor } from './ActionNamesEditor.js'

/** A field's events (`events.on_change`...) choose among the form's actions when the panel knows them. */
export function TagsEditor(props: LeafProps) {
  const { actionNames } = usePanel()
  if (actionNames && props.node.path[0] === 'events') return <ActionNamesEditor {...props} names={actionNames} />
  return <TypedTags {...props} />
}

function TypedTags({ node, shared, input, placeholder, commit }: LeafProps) {
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
