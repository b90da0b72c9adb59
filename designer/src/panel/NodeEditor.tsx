/** The editor a node's kind asks for: a fieldset for an object, a list editor, or one value's row. */
import type { LeafEditorProps } from './LeafEditor.js'
import { LeafEditor } from './LeafEditor.js'
import { ObjectEditor } from './ObjectEditor.js'
import { ListEditor } from './ListEditor.js'

export function NodeEditor(props: LeafEditorProps) {
  if (props.node.kind === 'object') return <ObjectEditor {...props} />
  if (props.node.kind === 'list') return <ListEditor {...props} />
  return <LeafEditor {...props} />
}
