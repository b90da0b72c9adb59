/** The hierarchical user tree as GET /inside/users/tree answers it, and its search. */
export interface TreeNode {
  id: number
  username: string
  first_name: string
  last_name: string
  children: TreeNode[]
}

/** The nodes that match `text` (name or user name), with the ancestors that lead to them. */
export function filterTree(nodes: TreeNode[], text: string): TreeNode[] {
  const needle = text.trim().toLowerCase()
  if (!needle) return nodes
  const out: TreeNode[] = []
  for (const node of nodes) {
    const hay = `${node.username} ${node.first_name} ${node.last_name}`.toLowerCase()
    const children = filterTree(node.children, needle)
    if (hay.includes(needle)) out.push(node)
    else if (children.length > 0) out.push({ ...node, children })
  }
  return out
}

/** Every user in the tree, depth first, without the children lists. */
export function flattenTree(nodes: TreeNode[]): Omit<TreeNode, 'children'>[] {
  return nodes.flatMap(({ children, ...person }) => [person, ...flattenTree(children)])
}
