/**
 * The differential over the corpus (issue 24): for each form, generated values for its fields (per
 * kind, unanswered included, with the literals its own rules compare against), the source library's
 * results (@formio/js's checkCondition and evaluate, survey-core's Model) and Tramita's (evaluateForm
 * of the imported form) for every condition and calculation the importer carried. Values are given to
 * each side as it really holds them, as in formio.differential / surveyjs.differential: select boxes
 * are an object of every option in Form.io, a list of ids in Tramita; a Form.io empty number is null
 * (see inputOf); a SurveyJS unanswered question is
 * absent, a yes / no answer the text 'true' / 'false' in Tramita.
 *
 * What is compared is what each side shows: an imported field's visibility is the AND of its own and
 * its containers' conditions (the importer flattens containers), so for every imported item that
 * stands for a source element, the source's results of the conditions on that element and its
 * containers are ANDed and compared with Tramita's condition of the item. An item is compared only
 * when every condition on that chain was carried; cells of tables (datagrid, matrices, dynamic panels)
 * have no item of their own and are not compared. Items are found by name (the importer names a field
 * after its source key, names.ts); a name two elements would share is left out.
 */
import fc from 'fast-check'
import { Utils } from '@formio/js/utils'
import { Model } from 'survey-core'
import type { ScriptRunner } from '@tramita/sandbox'
import { coreRegistry, evaluateForm, initialValues, withDefaults, type FormConfig } from '../../src/index.js'
import { toIdentifier } from '../../src/importers/names.js'
import { importCorpusForm, sourceFacts, type CorpusForm, type Rule, type SourceNode } from './corpus-source.js'

type Json = Record<string, any>
type Item = FormConfig['fields'][number] | FormConfig['elements'][number]

/** The corpus test's and the figures' runs: a fixed seed, and runs that keep the whole file under a minute. */
export const CORPUS_RUNS = { runs: 100, seed: 20261201 }

export interface DiffResult {
  /** Items whose visibility was compared (their chain has a condition, all carried). */
  conditionItems: number
  /** Carried conditions that some compared item depends on. */
  conditionsCompared: number
  /** Carried calculations whose result was compared. */
  calculationsCompared: number
  comparisons: number
  mismatches: string[]
}

/** The item that stands for each source element, by name, when no other element claims that name. */
function itemsByNode(nodes: SourceNode[], config: FormConfig, library: CorpusForm['library']) {
  const items = new Map<string, Item>()
  for (const item of [...config.fields, ...config.elements]) items.set(item.field_name, item)
  const wanted = new Map<string, SourceNode[]>()
  const want = (id: string, n: SourceNode) => wanted.set(id, [...(wanted.get(id) ?? []), n])
  for (const n of nodes) {
    if (!n.key || n.inTable) continue
    want(toIdentifier(n.key), n)
  }
  const found = new Map<SourceNode, Item[]>()
  for (const [id, claimants] of wanted) {
    const item = items.get(id)
    if (!item || claimants.length > 1 || items.has(`${id}_2`)) continue
    found.set(claimants[0]!, [item])
  }
  // A SurveyJS matrix row or multiple-text item is its own field, named question_row (surveyjs-matrix.ts).
  if (library === 'surveyjs') {
    for (const n of nodes) {
      const parts = n.node.type === 'matrix' ? n.node.rows : n.node.type === 'multipletext' ? n.node.items : undefined
      if (!n.key || n.inTable || !Array.isArray(parts)) continue
      const subs = parts
        .map((p: unknown) => (typeof p === 'object' && p !== null ? ((p as Json).value ?? (p as Json).name) : p))
        .map((id: unknown) => ({ id: String(id), item: items.get(toIdentifier(`${n.key}_${String(id)}`)) }))
      if (subs.every((s: { item?: Item }) => s.item))
        found.set(
          n,
          subs.map((s: { item?: Item }) => s.item!)
        )
    }
  }
  return found
}

/** Texts and numbers the form's own rules compare against, so that generated values meet them. */
function literalsOf(rules: Rule[]): { texts: string[]; numbers: number[] } {
  const texts = new Set<string>()
  const numbers = new Set<number>()
  // Code and expressions give their quoted texts and numbers; a Form.io conditional its values themselves.
  const scan = (value: unknown, code: boolean): void => {
    if (typeof value === 'string' && code) {
      for (const m of value.matchAll(/'([^'\\]{0,40})'|"([^"\\]{0,40})"/g)) texts.add(m[1] ?? m[2]!)
      for (const m of value.matchAll(/(?<![\w.])-?\d+(\.\d+)?(?![\w.])/g)) numbers.add(Number(m[0]))
    } else if (typeof value === 'string' && value.length <= 40) texts.add(value)
    else if (typeof value === 'number') numbers.add(value)
    else if (Array.isArray(value)) value.forEach((v) => scan(v, code))
    else if (typeof value === 'object' && value !== null) Object.values(value).forEach((v) => scan(v, code))
  }
  for (const r of rules) {
    const c = r.node.node
    for (const key of ['customConditional', 'calculateValue', 'visibleIf', 'expression']) scan(c[key], true)
    scan(c.conditional, false)
  }
  return { texts: [...texts].slice(0, 24), numbers: [...numbers].filter(Number.isFinite).slice(0, 12) }
}

interface Input {
  /** Sets the generated value on each side. */
  arbitrary: fc.Arbitrary<{ source: [string[], unknown][]; tramita: [string, unknown][] }>
}

const optionIds = (item: Item): unknown[] =>
  Array.isArray(item.data.options) ? (item.data.options as { id: unknown }[]).map((o) => o.id) : []

/** The generator of one source field, or undefined for kinds no rule here reads the same on both sides. */
function inputOf(
  form: CorpusForm,
  n: SourceNode,
  items: Item[],
  pools: { texts: string[]; numbers: number[] }
): Input | undefined {
  const item = items[0]!
  const name = item.field_name
  const path = [...n.dataPrefix, n.key!]
  const one = <T>(arb: fc.Arbitrary<T>, source: (v: T) => unknown, tramita: (v: T) => unknown) => ({
    arbitrary: arb.map((v) => ({
      source: [[path, source(v)]] as [string[], unknown][],
      tramita: [[name, tramita(v)]] as [string, unknown][],
    })),
  })
  const texts = fc.constantFrom('', 'a', '0', '3', ...pools.texts)
  const numbers = fc.constantFrom<number | null>(null, 0, 1, 3, -2, 100, ...pools.numbers)
  const type = String(n.node.type)
  const multiple = item.data.multiple === true
  const ids = optionIds(item)
  if (form.library === 'formio') {
    // A select fed from a URL keeps the chosen item, {value, label} ({} when none), where Tramita keeps
    // its value (Nav's country picker; the items' labels are not in the form, so the value stands in).
    if (holdsItem(n.node))
      return one(
        texts,
        (v) => (v === '' ? {} : { value: v, label: v }),
        (v) => v
      )
    switch (item.type) {
      case 'text':
      case 'textarea':
      case 'email':
        return one(
          texts,
          (v) => v,
          (v) => v
        )
      case 'number':
      case 'money':
        // An empty number: Form.io's emptyValue (null), which a live form writes into its data once it is
        // no longer pristine; before that the key is absent, and a script doing arithmetic on it gets NaN
        // where the imported formula gets 0 (reported with the figures, not hidden: see corpus/README.md).
        return one(
          numbers,
          (v) => v,
          (v) => v
        )
      case 'checkbox':
        return one(
          fc.boolean(),
          (v) => v,
          (v) => v
        )
      case 'select':
      case 'radios':
        if (multiple)
          return one(
            fc.subarray(ids),
            (v) => v,
            (v) => v
          )
        return one(
          fc.constantFrom<unknown>('', ...ids),
          (v) => v,
          (v) => v
        )
      case 'list':
        // Select boxes: Form.io an object of every option, true or false; Tramita the ids chosen.
        return one(
          fc.subarray(ids),
          (v) => Object.fromEntries(ids.map((id) => [String(id), v.includes(id)])),
          (v) => v
        )
      default:
        return undefined
    }
  }
  // SurveyJS: an unanswered question is absent; the imported field starts from its blank.
  const answer = <T>(arb: fc.Arbitrary<T>, tramita: (v: T | undefined) => unknown) =>
    one(fc.option(arb, { nil: undefined }), (v) => v, tramita)
  if (type === 'matrix' || type === 'multipletext') {
    const parts: unknown[] = type === 'matrix' ? n.node.rows : n.node.items
    const ids2 = parts.map((p) =>
      String(typeof p === 'object' && p !== null ? ((p as Json).value ?? (p as Json).name) : p)
    )
    const cell = type === 'matrix' ? fc.constantFrom<unknown>(...optionIds(item)) : texts.filter((t) => t !== '')
    return {
      arbitrary: fc.tuple(...ids2.map(() => fc.option(cell, { nil: undefined }))).map((cells) => {
        const given = Object.fromEntries(ids2.flatMap((id, i) => (cells[i] === undefined ? [] : [[id, cells[i]]])))
        return {
          source: Object.keys(given).length === 0 ? [] : [[[n.key!], given]],
          tramita: ids2.map((_, i) => [items[i]!.field_name, cells[i] ?? null]),
        }
      }),
    }
  }
  switch (item.type) {
    case 'text':
    case 'textarea':
    case 'email':
      return answer(
        texts.filter((t) => t !== ''),
        (v) => v ?? ''
      )
    case 'number':
      return answer(
        numbers.filter((v) => v !== null),
        (v) => v ?? null
      )
    case 'level':
      return answer(fc.integer({ min: 1, max: Number(item.data.levels) }), (v) => v ?? -1)
    case 'select':
    case 'radios':
    case 'list':
      if (type === 'boolean') return answer(fc.boolean(), (v) => (v === undefined ? '' : String(v)))
      if (multiple) return answer(fc.subarray(ids, { minLength: 1 }), (v) => v ?? [])
      return answer(fc.constantFrom<unknown>(...ids), (v) => v ?? '')
    default:
      return undefined
  }
}

function setAt(target: Json, path: string[], value: unknown): void {
  let at = target
  for (const key of path.slice(0, -1)) at = (at[key] ??= {}) as Json
  at[path[path.length - 1]!] = value
}

const getAt = (target: Json, path: string[]): unknown =>
  path.reduce<unknown>((at, key) => (typeof at === 'object' && at !== null ? (at as Json)[key] : undefined), target)

/** As each stores it: JSON, where NaN and ±Infinity are null and nothing is undefined. */
const stored = (value: unknown) => JSON.parse(JSON.stringify({ value: value ?? null })).value as unknown

/**
 * A live Form.io form holds every input's empty value in its data before anything is typed (a hidden
 * or text field '', a checkbox false, select boxes every option false, a grid []), and scripts read
 * those; the generated values are set over them. An empty number stays undefined, as in the
 * differential tests.
 */
/** Form.io holds the URL's chosen item itself: a select from a URL that names no valueProperty. */
const holdsItem = (c: Json) => c.dataSrc === 'url' && !c.valueProperty && c.multiple !== true

function formioEmpty(nodes: SourceNode[]): Json {
  const data: Json = {}
  for (const n of nodes) {
    if (!n.key || n.inTable) continue
    const c = n.node
    const empty =
      c.type === 'container' || holdsItem(c)
        ? {}
        : ['datagrid', 'editgrid', 'file'].includes(c.type) || (c.type === 'select' && c.multiple === true)
          ? []
          : c.type === 'checkbox'
            ? false
            : c.type === 'selectboxes'
              ? Object.fromEntries((Array.isArray(c.values) ? c.values : []).map((v: Json) => [String(v.value), false]))
              : ['number', 'currency'].includes(c.type) || !n.isField
                ? undefined
                : ''
    if (empty !== undefined && getAt(data, [...n.dataPrefix, n.key]) === undefined)
      setAt(data, [...n.dataPrefix, n.key], empty)
  }
  return data
}

/** The visibility conditions on an element and the elements it is inside. */
function chainOf(n: SourceNode, byNode: Map<SourceNode, Rule>): Rule[] {
  const chain: Rule[] = []
  for (let at: SourceNode | undefined = n; at; at = at.parent) {
    const rule = byNode.get(at)
    if (rule) chain.push(rule)
  }
  return chain
}

export async function differential(
  form: CorpusForm,
  runner: ScriptRunner,
  options: { runs: number; seed: number }
): Promise<DiffResult> {
  const result = importCorpusForm(form)
  const config = withDefaults(result.config)
  const facts = sourceFacts(form, result)
  const visibility = facts.conditions.filter((r) => !['logic', 'enableIf'].includes(r.kind))
  const byNode = new Map(visibility.map((r) => [r.node, r]))
  const found = itemsByNode(facts.nodes, config, form.library)

  // Items compared: a chain with conditions, every one carried.
  const compared: { node: SourceNode; items: Item[]; chain: Rule[] }[] = []
  for (const [node, items] of found) {
    const chain = chainOf(node, byNode)
    if (chain.length > 0 && chain.every((r) => r.carried)) compared.push({ node, items, chain })
  }
  const calcs = facts.calculations.filter((r) => r.carried)
  const calcComparisons = calcs.flatMap((r) => {
    const items = r.node.path.startsWith('/calculatedValues/')
      ? [config.fields.find((f) => f.field_name === toIdentifier(r.node.key ?? ''))].filter((x) => x !== undefined)
      : found.get(r.node)
    return items && items.length === 1 ? [{ rule: r, item: items[0]! }] : []
  })
  // A SurveyJS condition reading a calculation that is not carried reads a value Tramita does not compute.
  const lost = new Set(facts.calculations.filter((r) => !r.carried && r.node.key).map((r) => r.node.key!.toLowerCase()))
  const readsLost = (chain: Rule[]) =>
    form.library === 'surveyjs' &&
    chain.some((r) =>
      [...String(r.node.node[r.kind]).matchAll(/\{([^}]+)\}/g)].some((m) =>
        lost.has(m[1]!.split('.')[0]!.trim().toLowerCase())
      )
    )
  const conditionItems = compared.filter((c) => !readsLost(c.chain))

  // Inputs: every mapped field, except the targets of carried calculations (Form.io's non-carried ones are typed in, as in Tramita).
  const calculated = new Set(calcs.map((r) => r.node))
  const pools = literalsOf([...facts.conditions, ...facts.calculations])
  const inputs: Input[] = []
  for (const [node, items] of found) {
    if (!node.isField || calculated.has(node)) continue
    const input = inputOf(form, node, items, pools)
    if (input) inputs.push(input)
  }
  // Nothing carried to compare: no run (the import itself is checked by the test).
  const runs = conditionItems.length + calcComparisons.length === 0 ? 0 : options.runs
  const rows =
    runs === 0 ? [] : fc.sample(fc.tuple(...inputs.map((i) => i.arbitrary)), { numRuns: runs, seed: options.seed })

  const mismatches: string[] = []
  let comparisons = 0
  for (const row of rows) {
    const source: Json = form.library === 'formio' ? formioEmpty(facts.nodes) : {}
    const tramita: Record<string, unknown> = {}
    for (const part of row) {
      for (const [path, value] of part.source) setAt(source, path, value)
      for (const [name, value] of part.tramita) tramita[name] = value
    }
    const run = await evaluateForm(config, initialValues(config, coreRegistry(), tramita), { runner })
    const expectedShown = new Map<SourceNode, boolean>()
    const expectedValue = new Map<Rule, unknown>()
    if (form.library === 'formio') {
      // Form.io recalculates on every change: each carried calculation in order, until nothing changes.
      for (let pass = 0; pass <= calcComparisons.length; pass++) {
        let changed = false
        for (const { rule } of calcComparisons) {
          const n = rule.node
          const row = (getAt(source, n.dataPrefix) ?? source) as Json
          const value = Utils.evaluate(n.node.calculateValue, { data: source, row }, 'value', false)
          if (!Object.is(stored(value), stored(getAt(source, [...n.dataPrefix, n.key!])))) changed = true
          setAt(source, [...n.dataPrefix, n.key!], value)
        }
        if (!changed) break
      }
      for (const { rule } of calcComparisons)
        expectedValue.set(rule, getAt(source, [...rule.node.dataPrefix, rule.node.key!]))
      for (const { node, chain } of conditionItems) {
        // Typed for live components; a definition is what it reads (formio.differential.importers.spec.ts).
        const shown = chain.every((r) => {
          const row = (getAt(source, r.node.dataPrefix) ?? source) as Json
          return Boolean(Utils.checkCondition(r.node.node as never, row, source, form.json as never, null))
        })
        expectedShown.set(node, shown)
      }
    } else {
      const survey = new Model(form.json)
      survey.data = source
      for (const { node, chain } of conditionItems) {
        const shown = chain.every((r) => {
          const e = r.node
          // Pages often have no name: found by their place.
          if (e.parent?.path === '' && e.path.startsWith('/pages/'))
            return survey.pages[Number(e.path.split('/')[2])]?.visible ?? true
          if (e.node.type === 'panel') return survey.getPanelByName(e.key!)?.visible ?? true
          return survey.getQuestionByName(e.key!)?.isVisible ?? true
        })
        expectedShown.set(node, shown)
      }
      for (const { rule } of calcComparisons) {
        const value = rule.node.path.startsWith('/calculatedValues/')
          ? survey.calculatedValues.find((c) => c.name === rule.node.key)?.value
          : survey.getQuestionByName(rule.node.key!)?.value
        expectedValue.set(rule, value)
      }
    }
    for (const { node, items } of conditionItems) {
      for (const item of items) {
        comparisons++
        const expected = expectedShown.get(node)!
        const actual = run.conditions.get(item.field_name) ?? true
        if (actual !== expected && mismatches.length < 20)
          mismatches.push(
            `${form.name} ${node.path} (${item.field_name}) on ${JSON.stringify(source)}: ${form.library} ${expected}, Tramita ${actual}` +
              ` (${String(item.data.show_with_formule)})`
          )
      }
    }
    for (const { rule, item } of calcComparisons) {
      comparisons++
      let expected = stored(expectedValue.get(rule))
      // A SurveyJS expression shown as text is imported as its text (surveyjs-fields.ts).
      if (form.library === 'surveyjs' && item.type === 'text')
        expected = expected === null ? '' : String(expected as string)
      const actual = stored(run.values[item.field_name])
      if (!Object.is(actual, expected) && JSON.stringify(actual) !== JSON.stringify(expected) && mismatches.length < 20)
        mismatches.push(
          `${form.name} ${rule.node.path} (${item.field_name}) on ${JSON.stringify(source)}: ${form.library} ${JSON.stringify(expected)}, Tramita ${JSON.stringify(actual)}` +
            ` (${String(item.data.formule)})`
        )
    }
  }
  const conditionsCompared = new Set(conditionItems.flatMap((c) => c.chain)).size
  return {
    conditionItems: conditionItems.reduce((sum, c) => sum + c.items.length, 0),
    conditionsCompared,
    calculationsCompared: calcComparisons.length,
    comparisons,
    mismatches,
  }
}
