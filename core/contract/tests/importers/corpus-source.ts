/**
 * The corpus of public Form.io and SurveyJS forms (corpus/README.md) read as the importers read it:
 * each form, its elements with their JSON pointers, and what each holds (conditions, calculations,
 * required rules), with whether the importer carried it (not listed in `unmapped`). Shared by the
 * corpus test and the figures script, so that both count the same things.
 *
 * What counts (decided here, once):
 * - a condition: Form.io: one per component with a customConditional, a simple conditional (`when`),
 *   a newer one (`conditions` with a field and an operator) or JSON Logic (`conditional.json`), in
 *   that order as Form.io checks only the first; plus one per entry of `logic` (a trigger with
 *   actions). SurveyJS: every visibleIf and every enableIf of a page, panel, question, dynamic-panel
 *   question or matrix column.
 * - a calculation: Form.io calculateValue; SurveyJS an expression question or matrix column, an
 *   entry of calculatedValues, a setValueExpression.
 * - a required rule: Form.io validate.required; SurveyJS isRequired or requiredIf.
 * - a field: Form.io a component with input: true other than a button; SurveyJS a question other
 *   than panel, html and image (in pages, panels and dynamic panels).
 * - a custom type: an element the importer reports as having no equivalent ("no equivalent for the
 *   ..."); whatever is inside it is "in a custom type".
 * - carried: the importer lists nothing at the rule's own path (nor below it), at the element's
 *   path, or at the path of an element it is inside.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { importFormio, importSurveyJs, type ImportResult } from '../../src/importers/index.js'

export type Library = 'formio' | 'surveyjs'
type Json = Record<string, any>

export interface CorpusForm {
  library: Library
  /** The file's name without .json. */
  name: string
  /** The definition the importer takes (a {form, submission} fixture gives its form). */
  json: Json
}

const ROOT = join(import.meta.dirname, 'corpus')

/** A Form.io fixture may be a bare component list or a {form, submission} pair; the form is what is imported. */
function definitionOf(library: Library, raw: unknown): Json {
  if (library === 'formio') {
    if (Array.isArray(raw)) return { components: raw }
    const json = raw as Json
    if (json.form && Array.isArray(json.form.components)) return json.form as Json
  }
  return raw as Json
}

export function loadCorpus(): CorpusForm[] {
  return (['formio', 'surveyjs'] as const).flatMap((library) =>
    readdirSync(join(ROOT, library))
      .filter((file) => file.endsWith('.json'))
      .sort()
      .map((file) => ({
        library,
        name: file.slice(0, -'.json'.length),
        json: definitionOf(library, JSON.parse(readFileSync(join(ROOT, library, file), 'utf8'))),
      }))
  )
}

export function importCorpusForm(form: CorpusForm): ImportResult {
  // A copy: the importers never change their input, and the source libraries get the original.
  const copy = JSON.parse(JSON.stringify(form.json)) as unknown
  return form.library === 'formio' ? importFormio(copy) : importSurveyJs(copy)
}

export type ConditionKind = 'customConditional' | 'simple' | 'newer' | 'json' | 'logic' | 'visibleIf' | 'enableIf'

/** One rule of the source: where it is and the paths under which the importer reports losing it. */
export interface Rule {
  node: SourceNode
  kind: string
  /** Paths the importer writes when it does not carry this rule. */
  paths: string[]
  carried: boolean
}

export interface SourceNode {
  path: string
  node: Json
  parent?: SourceNode
  /** The element's key (Form.io) or name (SurveyJS). */
  key?: string
  /** Inside a Form.io datagrid / editgrid or a SurveyJS matrix or dynamic panel: a cell of a table. */
  inTable: boolean
  isField: boolean
  /** The Form.io data path of its container (`container` components nest their data). */
  dataPrefix: string[]
  custom: boolean
  inCustom: boolean
}

export interface SourceFacts {
  nodes: SourceNode[]
  conditions: Rule[]
  calculations: Rule[]
  required: Rule[]
  customTypes: string[]
}

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)
const text = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v : undefined)

/** Form.io's children of a component: components, columns' and table cells' components. */
function formioChildren(c: Json, path: string): [Json, string][] {
  const out: [Json, string][] = []
  const add = (list: unknown, at: string) =>
    Array.isArray(list) && list.forEach((child, i) => isObject(child) && out.push([child, `${at}/${i}`]))
  add(c.components, `${path}/components`)
  if (Array.isArray(c.columns))
    c.columns.forEach(
      (col: unknown, i: number) => isObject(col) && add(col.components, `${path}/columns/${i}/components`)
    )
  if (Array.isArray(c.rows))
    c.rows.forEach((row: unknown, r: number) =>
      Array.isArray(row)
        ? row.forEach((cell: unknown, i: number) =>
            isObject(cell) ? add(cell.components, `${path}/rows/${r}/${i}/components`) : undefined
          )
        : undefined
    )
  return out
}

/** SurveyJS's children: pages, elements / questions, a dynamic panel's templateElements, matrix columns. */
function surveyChildren(e: Json, path: string): [Json, string][] {
  const out: [Json, string][] = []
  for (const key of ['pages', 'elements', 'questions', 'templateElements', 'columns']) {
    // A plain matrix's columns are its answers, not questions.
    if (key === 'columns' && !['matrixdropdown', 'matrixdynamic'].includes(e.type)) continue
    if (Array.isArray(e[key]))
      e[key].forEach((child: unknown, i: number) => isObject(child) && out.push([child, `${path}/${key}/${i}`]))
  }
  return out
}

const TABLES = ['datagrid', 'editgrid', 'matrixdropdown', 'matrixdynamic', 'paneldynamic']
const NOT_FIELDS = ['panel', 'html', 'image', 'page']

function walk(form: CorpusForm): SourceNode[] {
  const nodes: SourceNode[] = []
  const visit = (node: Json, path: string, parent: SourceNode | undefined, isColumn: boolean) => {
    const formio = form.library === 'formio'
    const key = formio ? text(node.key) : text(node.name)
    const inTable = Boolean(parent && (parent.inTable || TABLES.includes(parent.node.type)))
    const isPage = !formio && parent?.path === '' && path.startsWith('/pages/')
    const isField = formio
      ? node.input === true && node.type !== 'button'
      : !isPage && !isColumn && typeof node.type === 'string' && !NOT_FIELDS.includes(node.type)
    const dataPrefix =
      parent && formio && parent.node.type === 'container' && parent.key
        ? [...parent.dataPrefix, parent.key]
        : (parent?.dataPrefix ?? [])
    const self: SourceNode = { path, node, parent, key, inTable, isField, dataPrefix, custom: false, inCustom: false }
    if (path !== '') nodes.push(self)
    const children = formio ? formioChildren(node, path) : surveyChildren(node, path)
    for (const [child, at] of children) visit(child, at, self, at.includes('/columns/') && !formio)
  }
  visit(form.json, '', undefined, false)
  return nodes
}

/**
 * Not carried: the importer lists something at one of the rule's paths (or below), or at the element or
 * one it is inside. A custom type read as another (`mapped`) is carried as that type.
 */
function isCarried(result: ImportResult, node: SourceNode, paths: string[]): boolean {
  return !result.unmapped.some(
    (u) =>
      u.mapped === undefined &&
      (paths.some((p) => u.path === p || u.path.startsWith(`${p}/`)) ||
        node.path === u.path ||
        node.path.startsWith(`${u.path}/`))
  )
}

const NO_EQUIVALENT = /^no equivalent for the (Form\.io component|SurveyJS question)/

export function sourceFacts(form: CorpusForm, result: ImportResult): SourceFacts {
  const nodes = walk(form)
  const custom = new Set(result.unmapped.filter((u) => NO_EQUIVALENT.test(u.reason)).map((u) => u.path))
  for (const n of nodes) {
    n.custom = custom.has(n.path)
    n.inCustom = n.custom || Boolean(n.parent?.inCustom)
  }
  const rule = (node: SourceNode, kind: string, paths: string[]): Rule => ({
    node,
    kind,
    paths,
    carried: isCarried(result, node, paths),
  })
  const conditions: Rule[] = []
  const calculations: Rule[] = []
  const required: Rule[] = []
  for (const n of nodes) {
    const c = n.node
    const at = (key: string) => `${n.path}/${key}`
    if (form.library === 'formio') {
      const cond = isObject(c.conditional) ? c.conditional : {}
      const newer = Array.isArray(cond.conditions)
        ? cond.conditions.some((x: unknown) => isObject(x) && text(x.component) && x.operator)
        : false
      const kind = text(c.customConditional)
        ? 'customConditional'
        : text(cond.when)
          ? 'simple'
          : newer
            ? 'newer'
            : cond.json
              ? 'json'
              : undefined
      if (kind)
        conditions.push(rule(n, kind, [kind === 'customConditional' ? at('customConditional') : at('conditional')]))
      if (Array.isArray(c.logic)) for (const _ of c.logic) conditions.push(rule(n, 'logic', [at('logic')]))
      if (text(c.calculateValue) || isObject(c.calculateValue) || Array.isArray(c.calculateValue))
        calculations.push(rule(n, 'calculateValue', [at('calculateValue')]))
      if (isObject(c.validate) && c.validate.required === true)
        required.push(rule(n, 'required', [at('validate/required')]))
    } else {
      for (const key of ['visibleIf', 'enableIf']) if (text(c[key])) conditions.push(rule(n, key, [at(key)]))
      if ((c.type === 'expression' || c.cellType === 'expression') && text(c.expression))
        calculations.push(rule(n, 'expression', [at('expression')]))
      if (text(c.setValueExpression)) calculations.push(rule(n, 'setValueExpression', [at('setValueExpression')]))
      if (c.isRequired === true) required.push(rule(n, 'isRequired', [at('isRequired')]))
      if (text(c.requiredIf)) required.push(rule(n, 'requiredIf', [at('requiredIf')]))
    }
  }
  if (form.library === 'surveyjs' && Array.isArray(form.json.calculatedValues)) {
    form.json.calculatedValues.forEach((entry: unknown, i: number) => {
      const node: SourceNode = {
        path: `/calculatedValues/${i}`,
        node: isObject(entry) ? entry : {},
        key: isObject(entry) ? text(entry.name) : undefined,
        inTable: false,
        isField: false,
        dataPrefix: [],
        custom: false,
        inCustom: false,
      }
      calculations.push(rule(node, 'calculatedValue', [node.path]))
    })
  }
  const customTypes = nodes.filter((n) => n.custom).map((n) => String(n.node.type))
  return { nodes, conditions, calculations, required, customTypes }
}
