/**
 * A list of objects (options, level shapes, table columns and buttons): each entry its own fieldset
 * with move up, move down and remove; "add" appends an entry with its required keys. A list not
 * stored shows its default entries: the first change stores the whole list.
 */
import type { LeafEditorProps } from './LeafEditor.js'
import { keyLabel } from './labels.js'
import { listProblems } from './problems.js'
import { entrySource, shownList } from './source.js'
import { moveEntry, newListEntry } from './values.js'
import { usePanel, useTexts } from './panel_context.js'
import { Collapsible } from './Collapsible.js'
import { ProblemList } from './ProblemList.js'
import { ResetButton } from './ResetButton.js'
import { ListEntry } from './ListEntry.js'
import { RowCellsContext } from './row_context.js'
import type { ScriptCell } from '../scripts/ScriptEditor.js'

export function ListEditor({ node, source, at, abs }: LeafEditorProps) {
  const texts = useTexts()
  const { problems, multi } = usePanel()
  const title = keyLabel(texts, abs)
  const shared = source.read(at)
  const list = shownList(shared, node.default)
  const write = (next: unknown[]) => source.write(at, next)
  const note = shared.mixed ? 'panel.list_mixed' : !shared.set && list.length > 0 ? 'panel.list_default' : undefined
  return (
    <Collapsible
      title={`${title} (${list.length})`}
      className="panel-list"
      actions={shared.set ? <ResetButton name={title} onReset={() => source.write(at, undefined)} /> : null}
    >
      {note ? <p className="panel-note">{texts.t(note)}</p> : null}
      <ProblemList problems={listProblems(problems, node, abs, list.length)} multi={multi} />
      <RowCellsContext.Provider value={node.typedItems ? (list as ScriptCell[]) : undefined}>
        <ol className="panel-entries">
          {list.map((entry, index) => (
            <ListEntry
              key={index}
              node={node}
              entry={entry}
              index={index}
              count={list.length}
              source={entrySource(source, at, list, index)}
              abs={[...abs, index]}
              onMove={(to) => write(moveEntry(list, index, to))}
              onRemove={() => write(list.filter((_, i) => i !== index))}
            />
          ))}
        </ol>
      </RowCellsContext.Provider>
      <button type="button" className="panel-add" onClick={() => write([...list, newListEntry(node.item!, list)])}>
        {texts.tv('panel.add_to', { name: title })}
      </button>
    </Collapsible>
  )
}
