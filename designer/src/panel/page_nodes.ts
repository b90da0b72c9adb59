/**
 * The page panel's editors and problems, read from the contract's Page schema like an item's are
 * from its type's: every key but `layout` (rows are edited on the canvas). Editors sit under a
 * `form_page` prefix, so a key's name can differ for a page (`panel.keys.form_page_section_id`) and problems
 * are found at the same prefixed paths. Pure.
 */
import { Page } from '@tramita/contract'
import type { Problem } from '../model/index.js'
import { describeSchema, type EditorNode, type JsonSchema } from './schema_nodes.js'
import type { ShownProblem } from './problems.js'

/** The first key of every page editor's path (for labels and problems). */
export const PAGE_PREFIX = 'form_page'

let nodes: EditorNode[] | undefined

/** The page's editors, in the schema's order (name, section, section_id, style_from_body, style, app_info). */
export function pageNodes(): readonly EditorNode[] {
  nodes ??= (describeSchema(Page as JsonSchema).children ?? []).filter((node) => node.key !== 'layout')
  return nodes
}

/**
 * The document's problems on page `index` (paths `/jsonconfig/form/pages/<index>/...`), at the page
 * editors' paths (`/form_page/...`), named by the page.
 */
export function pageProblems(problems: readonly Problem[], index: number, name: string): ShownProblem[] {
  const prefix = `/jsonconfig/form/pages/${index}`
  return problems.flatMap((problem) =>
    problem.path === prefix || problem.path.startsWith(prefix + '/')
      ? [{ path: `/${PAGE_PREFIX}${problem.path.slice(prefix.length)}`, message: problem.message, item: name }]
      : []
  )
}
