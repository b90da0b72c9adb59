/** One group of the panel (Label, Reference, Validation...): its editors in a collapsible fieldset. */
import type { PanelGroup as Group } from './groups.js'
import type { ValueSource } from './source.js'
import { useTexts } from './panel_context.js'
import { Collapsible } from './Collapsible.js'
import { NodeEditor } from './NodeEditor.js'

export function PanelGroup({ group, source }: { group: Group; source: ValueSource }) {
  const texts = useTexts()
  return (
    <Collapsible
      title={texts.t(`panel.groups.${group.id}`)}
      defaultOpen={group.open}
      className={`panel-group panel-group-${group.id}`}
    >
      {group.nodes.map((node) => (
        <NodeEditor key={node.path.join('/')} node={node} source={source} at={node.path} abs={node.path} />
      ))}
    </Collapsible>
  )
}
