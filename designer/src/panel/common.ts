/**
 * Multi-select: the editors the selected items have in common. Two items share a key when both types
 * have it with the same kind of editor (and, for lists, the same kind of entries); a default they do
 * not share is dropped, so no placeholder claims a value one of them would not take.
 */
import type { FieldTypeRegistry, ItemKind } from '@tramita/contract'
import { describeSchema, type EditorNode, type JsonSchema } from './schema_nodes.js'
import { sameValue } from './values.js'

/** A selected field or element as the document stores it (sparse), with its name and kind. */
export interface PanelItem {
  name: string
  kind: ItemKind
  item: { field_name: string; type: string; [key: string]: unknown }
}

function sameShape(a: EditorNode, b: EditorNode): boolean {
  if (a.kind !== b.kind || a.key !== b.key) return false
  if (a.kind === 'select' || a.kind === 'fixed') return sameValue(a.options, b.options)
  if (a.kind === 'list') return !!a.item && !!b.item && common([a.item, b.item]) !== undefined
  return true
}

/** The node the given nodes share, or undefined when they are not the same kind of value. */
export function common(nodes: readonly EditorNode[]): EditorNode | undefined {
  const [first, ...rest] = nodes
  if (!first) return undefined
  if (rest.length === 0) return first
  if (!rest.every((node) => sameShape(first, node))) return undefined
  const shared: EditorNode = { ...first }
  if (!rest.every((node) => sameValue(node.default, first.default))) delete shared.default
  for (const bound of ['minimum', 'maximum', 'minLength', 'maxLength'] as const) {
    if (!rest.every((node) => node[bound] === first[bound])) delete shared[bound]
  }
  shared.optional = nodes.some((node) => node.optional)
  shared.required = nodes.every((node) => node.required)
  if (first.kind === 'object') {
    shared.children = (first.children ?? []).flatMap((child) => {
      const others = rest.map((node) => node.children?.find((c) => c.key === child.key))
      if (others.some((other) => other === undefined)) return []
      const joined = common([child, ...(others as EditorNode[])])
      return joined ? [joined] : []
    })
  }
  return shared
}

/** The editor tree of one item's type (undefined when the type is not registered). */
export function itemNode(registry: FieldTypeRegistry, item: PanelItem): EditorNode | undefined {
  const fieldType = registry.get(item.kind, item.item.type)
  return fieldType ? describeSchema(fieldType.schema as JsonSchema) : undefined
}

/** The editors every selected item has (one item: all of its type's). */
export function commonNode(registry: FieldTypeRegistry, items: readonly PanelItem[]): EditorNode | undefined {
  const nodes = items.map((item) => itemNode(registry, item))
  if (nodes.some((node) => node === undefined)) return undefined
  return common(nodes as EditorNode[])
}
