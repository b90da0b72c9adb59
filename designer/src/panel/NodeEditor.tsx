/** The editor a node's kind asks for: a fieldset for an object, a list editor, or one value's row. */
import type { LeafEditorProps } from './LeafEditor.js'
import { LeafEditor } from './LeafEditor.js'
import { ObjectEditor } from './ObjectEditor.js'
import { ListEditor } from './ListEditor.js'
import { TranslatedLeaf } from './TranslatedLeaf.js'
import { usePanel } from './panel_context.js'

export function NodeEditor(props: LeafEditorProps) {
  const { translation } = usePanel()
  if (props.node.kind === 'object') return <ObjectEditor {...props} />
  if (props.node.kind === 'list') return <ListEditor {...props} />
  // Translations name texts inside the item's data (translations.ts in the contract).
  if (translation && props.node.translatable && props.abs[0] === 'data') {
    return <TranslatedLeaf {...props} translation={translation} />
  }
  return <LeafEditor {...props} />
}
