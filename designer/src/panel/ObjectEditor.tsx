/** An object's keys in a fieldset named by its key; "reset" removes the whole object (all defaults). */
import type { LeafEditorProps } from './LeafEditor.js'
import { keyLabel } from './labels.js'
import { problemsAt } from './problems.js'
import { usePanel, useTexts } from './panel_context.js'
import { Collapsible } from './Collapsible.js'
import { ProblemList } from './ProblemList.js'
import { ResetButton } from './ResetButton.js'
import { NodeEditor } from './NodeEditor.js'

export function ObjectEditor({ node, source, at, abs }: LeafEditorProps) {
  const texts = useTexts()
  const { problems, multi } = usePanel()
  const title = keyLabel(texts, abs)
  const shared = source.read(at)
  return (
    <Collapsible
      title={title}
      className="panel-object"
      actions={shared.set ? <ResetButton name={title} onReset={() => source.write(at, undefined)} /> : null}
    >
      <ProblemList problems={problemsAt(problems, abs)} multi={multi} />
      {(node.children ?? []).map((child) => (
        <NodeEditor key={child.key} node={child} source={source} at={[...at, child.key]} abs={[...abs, child.key]} />
      ))}
    </Collapsible>
  )
}
