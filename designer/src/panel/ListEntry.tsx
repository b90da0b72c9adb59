/** One entry of a list: named by its label, name or id, with its keys and its move and remove buttons. */
import { typedEntryNode, type EditorNode, type JsonSchema, type PathKey } from './schema_nodes.js'
import type { ValueSource } from './source.js'
import { keyLabel } from './labels.js'
import { readAt } from './values.js'
import { usePanel, useTexts } from './panel_context.js'
import { Collapsible } from './Collapsible.js'
import { NodeEditor } from './NodeEditor.js'

export interface ListEntryProps {
  node: EditorNode
  entry: unknown
  index: number
  count: number
  source: ValueSource
  abs: readonly PathKey[]
  onMove(to: number): void
  onRemove(): void
}

const NAMING_KEYS = ['label', 'name', 'text', 'id', 'action', 'symbol', 'field_name'] as const

/** What an entry is called in its legend: its first non-empty naming key, else "<list> <n>". */
export function entryTitle(entry: unknown, fallback: string): string {
  for (const key of NAMING_KEYS) {
    const value = readAt(entry, [key])
    if ((typeof value === 'string' && value.trim() !== '') || typeof value === 'number') return String(value)
  }
  return fallback
}

export function ListEntry({ node, entry, index, count, source, abs, onMove, onRemove }: ListEntryProps) {
  const texts = useTexts()
  const { registry } = usePanel()
  const type = readAt(entry, ['type'])
  // A group's cell: its type's own keys too (a select's options, a number's limits).
  const fields =
    node.typedItems && node.item && typeof type === 'string'
      ? typedEntryNode(node.item, registry?.get('field', type)?.schema as JsonSchema | undefined)
      : node.item
  const title = entryTitle(entry, `${keyLabel(texts, abs.slice(0, -1))} ${index + 1}`)
  const actions = (
    <span className="panel-entry-actions">
      <button
        type="button"
        disabled={index === 0}
        onClick={() => onMove(index - 1)}
        aria-label={texts.tv('panel.move_up', { name: title })}
      >
        ↑
      </button>
      <button
        type="button"
        disabled={index === count - 1}
        onClick={() => onMove(index + 1)}
        aria-label={texts.tv('panel.move_down', { name: title })}
      >
        ↓
      </button>
      <button type="button" onClick={onRemove} aria-label={texts.tv('panel.remove', { name: title })}>
        ✕
      </button>
    </span>
  )
  return (
    <li>
      <Collapsible title={title} actions={actions} defaultOpen={count <= 3} className="panel-entry">
        {(fields?.children ?? []).map((child) => (
          <NodeEditor key={child.key} node={child} source={source} at={child.path} abs={[...abs, ...child.path]} />
        ))}
      </Collapsible>
    </li>
  )
}
