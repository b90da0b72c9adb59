/**
 * The panel's groups, in the order a designer looks for them: the common keys first (label,
 * reference, validation, state, design per device), then the type's own settings, then the rarely
 * used keys and the scripts. Every editor of an item lands in exactly one group; keys the contract
 * does not know as common (a plugin's, a new type's) are type-specific.
 */
import { EVENT_SCRIPTS, RefProps } from '@tramita/contract'
import { nodeAt, type EditorNode } from './schema_nodes.js'

export const GROUP_IDS = [
  'general',
  'label',
  'reference',
  'validation',
  'state',
  'design',
  'type',
  'advanced',
  'events',
  'logic',
] as const
export type GroupId = (typeof GROUP_IDS)[number]

export interface PanelGroup {
  id: GroupId
  /** The editors shown, each with its path inside the item. */
  nodes: EditorNode[]
  /** Open when the panel first shows it. */
  open: boolean
}

const OPEN: ReadonlySet<GroupId> = new Set(['general', 'label', 'reference', 'validation', 'state', 'type'])

const COMMON_REF_KEYS: ReadonlySet<string> = new Set(Object.keys(RefProps))
/** Type-specific ref keys shown with the common ones: a text's minimum length sits beside its maximum. */
const REFERENCE_KEYS: ReadonlySet<string> = new Set([...COMMON_REF_KEYS, 'min_length'])
const SCRIPT_KEYS: ReadonlySet<string> = new Set(['show_with_formule', 'formule', ...EVENT_SCRIPTS])
/** Shown in the panel's heading, made of other groups, or (translations) edited in each text's row. */
const NOT_EDITED: ReadonlySet<string> = new Set(['type', 'data', 'state', 'events', 'translations'])
/** The design keys shown first: the columns per device, then the size in the row. */
const DESIGN_FIRST = ['width', 'height', 'space'] as const

/** Which group an editor of `data` (its key) goes to, once label, ref, validate and design are placed. */
const dataGroup = (key: string): GroupId => (SCRIPT_KEYS.has(key) ? 'logic' : 'type')

/**
 * The groups of an item's editor tree (or of the tree several items share). `single` is false for a
 * multi-selection: the name is then not editable (names are unique).
 */
export function panelGroups(root: EditorNode, single = true): PanelGroup[] {
  const groups = new Map<GroupId, EditorNode[]>(GROUP_IDS.map((id) => [id, []]))
  const put = (id: GroupId, node: EditorNode | undefined) => node && groups.get(id)!.push(node)
  const childrenOf = (path: readonly string[]) => nodeAt(root, path)?.children ?? []

  for (const node of root.children ?? []) {
    if (node.key === 'field_name') {
      if (single) put('general', node)
    } else if (!NOT_EDITED.has(node.key)) {
      put('advanced', node)
    }
  }
  for (const node of childrenOf(['data', 'label'])) put('label', node)
  const refs = childrenOf(['data', 'ref'])
  for (const node of refs) if (REFERENCE_KEYS.has(node.key)) put('reference', node)
  for (const node of childrenOf(['data', 'validate'])) put('validation', node)
  for (const node of childrenOf(['state'])) put('state', node)

  put('design', nodeAt(root, ['data', 'design', 'responsive']))
  for (const key of DESIGN_FIRST) put('design', nodeAt(root, ['data', key]))
  for (const node of childrenOf(['data', 'design'])) if (node.key !== 'responsive') put('design', node)
  for (const node of childrenOf(['data'])) {
    const placed = ['label', 'ref', 'validate', 'design', ...DESIGN_FIRST].includes(node.key)
    // A type may redefine a common key (height, with its own default): it stays with the design keys.
    if (!placed) put(dataGroup(node.key), node)
  }
  // The type's own `ref` keys (a table's settings, a selector's attribute) after its `data` keys.
  for (const node of refs) if (!REFERENCE_KEYS.has(node.key)) put('type', node)
  for (const node of childrenOf(['events'])) put('events', node)

  return GROUP_IDS.filter((id) => groups.get(id)!.length > 0).map((id) => ({
    id,
    nodes: groups.get(id)!,
    open: OPEN.has(id),
  }))
}
