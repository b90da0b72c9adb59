/**
 * The contract's problems where the editors are: each selected item's problems come with paths
 * inside the item (`/data/ref/limit`, the model's `ProblemIndex.ofItem`); an editor shows those at
 * its path, a list those inside it that no entry's editor shows, and the panel the rest.
 */
import type { EditorKind, EditorNode, PathKey } from './schema_nodes.js'

export interface ItemProblem {
  /** JSON Pointer inside the item. */
  path: string
  message: string
}

/** A problem as the panel shows it: with the item's name when several items are selected. */
export interface ShownProblem {
  path: string
  message: string
  item: string
}

/** The JSON Pointer of a list of keys (RFC 6901). */
export const pointer = (keys: readonly PathKey[]): string =>
  keys.map((key) => '/' + String(key).replace(/~/g, '~0').replace(/\//g, '~1')).join('')

/** Every selected item's problems, labelled with the item's name. */
export function gatherProblems(
  names: readonly string[],
  problemsOf: (name: string) => readonly ItemProblem[]
): ShownProblem[] {
  return names.flatMap((item) => problemsOf(item).map((p) => ({ path: p.path, message: p.message, item })))
}

/** Problems at exactly this path. */
export const problemsAt = (problems: readonly ShownProblem[], keys: readonly PathKey[]): ShownProblem[] => {
  const at = pointer(keys)
  return problems.filter((p) => p.path === at)
}

/** Problems at this path or below it. */
export const problemsUnder = (problems: readonly ShownProblem[], keys: readonly PathKey[]): ShownProblem[] => {
  const at = pointer(keys)
  return problems.filter((p) => p.path === at || p.path.startsWith(at + '/'))
}

/**
 * Problems no editor shows: not at any editor's path, nor under a list or a JSON editor (those show
 * what is inside them). `shown` are the editors' paths, `containers` those of lists and JSON editors.
 */
export function unplacedProblems(
  problems: readonly ShownProblem[],
  shown: readonly (readonly PathKey[])[],
  containers: readonly (readonly PathKey[])[]
): ShownProblem[] {
  const exact = new Set(shown.map(pointer))
  const prefixes = containers.map(pointer)
  return problems.filter((p) => !exact.has(p.path) && !prefixes.some((at) => p.path.startsWith(at + '/')))
}

const CONTAINERS: ReadonlySet<EditorKind> = new Set(['list', 'json', 'tags'])

/** Whether an editor of this kind shows the problems inside its value too (a list's, a JSON value's). */
export const showsInside = (kind: EditorKind) => CONTAINERS.has(kind)

/** The paths the editors of `nodes` show problems at: exactly, and (lists, JSON, tags) below. */
export function editorPaths(
  nodes: readonly EditorNode[],
  prefix: readonly PathKey[] = []
): { exact: PathKey[][]; containers: PathKey[][] } {
  const exact: PathKey[][] = []
  const containers: PathKey[][] = []
  const walk = (node: EditorNode) => {
    const path = [...prefix, ...node.path]
    exact.push(path)
    if (showsInside(node.kind)) containers.push(path)
    for (const child of node.children ?? []) walk(child)
  }
  nodes.forEach(walk)
  return { exact, containers }
}

/** A list's own problems: those under it that no editor of its entries shows. */
export function listProblems(
  problems: readonly ShownProblem[],
  list: EditorNode,
  at: readonly PathKey[],
  entries: number
): ShownProblem[] {
  const under = problemsUnder(problems, at)
  if (!list.item) return under
  const exact: PathKey[][] = []
  const containers: PathKey[][] = []
  for (let i = 0; i < entries; i++) {
    const paths = editorPaths(list.item.children ?? [], [...at, i])
    exact.push(...paths.exact)
    containers.push(...paths.containers)
  }
  return unplacedProblems(under, exact, containers)
}
