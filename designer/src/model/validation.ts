/**
 * The document checked by the contract, with each problem at its JSON Pointer in the document
 * (`/jsonconfig/...`, `/process/...`: the same paths the draft route answers), and looked up the ways
 * the UI flags them: at a value's path, under a part (a page, the process), or by item name with
 * paths inside the item (a property panel knows its item's name, not its index).
 */
import {
  coreRegistry,
  validateConfig,
  validateProcess,
  withDefaults,
  type ActionTypeRegistry,
  type FieldTypeRegistry,
} from '@tramita/contract'
import type { DesignDocument } from './document.js'
import { pathKeys, toPointer, type Path } from './paths.js'

export interface Problem {
  /** JSON Pointer into the document, e.g. /jsonconfig/fields/3/data/ref/limit. */
  path: string
  message: string
}

/** Every problem of the document; an empty list means it can be published. */
export function validateDocument(
  doc: DesignDocument,
  registry: FieldTypeRegistry = coreRegistry(),
  actionTypes?: ActionTypeRegistry
): Problem[] {
  const problems: Problem[] = []
  if (doc.name.trim() === '') problems.push({ path: '/name', message: 'is required' })
  for (const p of validateConfig(doc.jsonconfig, registry, actionTypes))
    problems.push({ ...p, path: `/jsonconfig${p.path}` })
  // The process names the form's fields: checked against the form as the engine reads it.
  const form = withDefaults(doc.jsonconfig, registry)
  for (const p of validateProcess(doc.process, form)) problems.push({ ...p, path: `/process${p.path}` })
  return problems
}

export interface ProblemIndex {
  readonly all: readonly Problem[]
  /** Problems at exactly this path. */
  at(path: Path): Problem[]
  /** Problems at this path or inside it (a page, a row, the process). */
  under(path: Path): Problem[]
  /** An item's problems, with paths inside the item (`/data/ref/limit`), by its name. */
  ofItem(name: string): Problem[]
}

/** Indexes problems found on `doc` (item indices in their paths are read against that same document). */
export function indexProblems(doc: DesignDocument, problems: readonly Problem[]): ProblemIndex {
  const byItem = new Map<string, Problem[]>()
  for (const problem of problems) {
    const [root, list, index, ...rest] = pathKeys(problem.path)
    if (root !== 'jsonconfig' || (list !== 'fields' && list !== 'elements')) continue
    const item = doc.jsonconfig[list][Number(index)]
    if (!item) continue
    const own = byItem.get(item.field_name) ?? []
    own.push({ path: toPointer(rest), message: problem.message })
    byItem.set(item.field_name, own)
  }
  const pointer = (path: Path) => toPointer(pathKeys(path))
  return {
    all: problems,
    at: (path) => problems.filter((p) => p.path === pointer(path)),
    under(path) {
      const prefix = pointer(path)
      return problems.filter((p) => p.path === prefix || p.path.startsWith(prefix + '/') || prefix === '')
    },
    ofItem: (name) => byItem.get(name) ?? [],
  }
}
