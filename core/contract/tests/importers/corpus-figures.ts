/**
 * The corpus's figures (issue 24) as a Markdown table: one row per form and a total. Run from the
 * repository root with Node 24:
 *   node --import @tramita/ts-run core/contract/tests/importers/corpus-figures.ts
 * What each column counts is decided in corpus-source.ts; the mismatches come from the same
 * comparison the corpus test runs (corpus-differential.ts, same seed and runs).
 */
import { asRunner, createSandbox } from '@tramita/sandbox'
import { CORPUS_RUNS, differential } from './corpus-differential.js'
import { importCorpusForm, loadCorpus, sourceFacts } from './corpus-source.js'

const COLUMNS = [
  'form',
  'fields (imported)',
  'conditions carried / present',
  'calculations carried / present',
  'required carried / present',
  'custom types',
  '% conditions carried outside custom types',
  'compared: conditions / items / calculations',
  'mismatches',
]

const percent = (part: number, whole: number) => (whole === 0 ? '—' : `${((100 * part) / whole).toFixed(1)} %`)

const runner = asRunner(await createSandbox())
const rows: string[][] = []
const total = {
  fields: 0,
  imported: 0,
  cond: [0, 0],
  calc: [0, 0],
  req: [0, 0],
  custom: 0,
  outside: [0, 0],
  cmp: [0, 0, 0],
  mis: 0,
}
const reasons = new Map<string, number>()
let readsCustom = 0
try {
  for (const form of loadCorpus()) {
    const result = importCorpusForm(form)
    const facts = sourceFacts(form, result)
    const diff = await differential(form, runner, CORPUS_RUNS)
    const carried = (list: { carried: boolean }[]) => list.filter((r) => r.carried).length
    const fields = facts.nodes.filter((n) => n.isField).length
    const outside = facts.conditions.filter((r) => !r.node.inCustom)
    const types = [...new Set(facts.customTypes)]
    rows.push([
      `${form.library}/${form.name}`,
      `${fields} (${result.config.fields?.length ?? 0})`,
      `${carried(facts.conditions)} / ${facts.conditions.length}`,
      `${carried(facts.calculations)} / ${facts.calculations.length}`,
      `${carried(facts.required)} / ${facts.required.length}`,
      types.length === 0 ? '0' : `${facts.customTypes.length} (${types.join(', ')})`,
      percent(carried(outside), outside.length),
      `${diff.conditionsCompared} / ${diff.conditionItems} / ${diff.calculationsCompared}`,
      String(diff.mismatches.length),
    ])
    total.fields += fields
    total.imported += result.config.fields?.length ?? 0
    total.cond[0]! += carried(facts.conditions)
    total.cond[1]! += facts.conditions.length
    total.calc[0]! += carried(facts.calculations)
    total.calc[1]! += facts.calculations.length
    total.req[0]! += carried(facts.required)
    total.req[1]! += facts.required.length
    total.custom += facts.customTypes.length
    total.outside[0]! += carried(outside)
    total.outside[1]! += outside.length
    total.cmp[0]! += diff.conditionsCompared
    total.cmp[1]! += diff.conditionItems
    total.cmp[2]! += diff.calculationsCompared
    total.mis += diff.mismatches.length
    // Why the conditions outside custom types were not carried: the importer's reasons, grouped; a
    // condition reading a field of a custom type is told apart, as it waits on that type, not on the rule.
    const customKeys = new Set(facts.nodes.filter((n) => n.inCustom && n.key).map((n) => n.key!))
    for (const rule of outside.filter((r) => !r.carried)) {
      const entry =
        result.unmapped.find((u) => rule.paths.some((p) => u.path === p || u.path.startsWith(`${p}/`))) ??
        result.unmapped.find((u) => rule.node.path === u.path || rule.node.path.startsWith(`${u.path}/`))
      const read = /^(?:not translated: )?"?(?:data\.)?([\w.-]+?)"? is not a field of the form/.exec(
        entry?.reason ?? ''
      )
      const reason =
        read && customKeys.has(read[1]!.split('.').pop()!)
          ? 'reads a field of a custom type'
          : (entry?.reason ?? 'no reason listed')
              .replace(/\(.*\)$/s, '')
              .replace(/"[^"]*"/g, '"…"')
              .trim()
      if (reason === 'reads a field of a custom type') readsCustom++
      const key = `${form.library} ${rule.kind}: ${reason}`
      reasons.set(key, (reasons.get(key) ?? 0) + 1)
    }
  }
} finally {
  runner.dispose()
}
rows.push([
  '**total**',
  `${total.fields} (${total.imported})`,
  `${total.cond[0]} / ${total.cond[1]}`,
  `${total.calc[0]} / ${total.calc[1]}`,
  `${total.req[0]} / ${total.req[1]}`,
  String(total.custom),
  percent(total.outside[0]!, total.outside[1]!),
  `${total.cmp[0]} / ${total.cmp[1]} / ${total.cmp[2]}`,
  String(total.mis),
])
console.log(`| ${COLUMNS.join(' | ')} |`)
console.log(`|${COLUMNS.map(() => ' --- ').join('|')}|`)
for (const row of rows) console.log(`| ${row.join(' | ')} |`)
const own = total.outside[1]! - readsCustom
console.log(
  `\nConditions carried neither on nor reading a custom type: ${total.outside[0]} / ${own} (${percent(total.outside[0]!, own)})`
)
console.log('\nConditions outside custom types not carried, by reason:\n')
for (const [reason, count] of [...reasons].sort((a, b) => b[1] - a[1])) console.log(`- ${count} × ${reason}`)
