import { test } from '@japa/runner'
import { asRunner, createSandbox, type ScriptRunner } from '@tramita/sandbox'
import { validateConfig } from '../../src/index.js'
import { importCorpusForm, loadCorpus, sourceFacts } from './corpus-source.js'
import { CORPUS_RUNS, differential } from './corpus-differential.js'

/**
 * Issue 24: real public forms (corpus/README.md) imported, and every condition and calculation the
 * importer carried compared with the source library on generated values (corpus-differential.ts).
 * The counts printed per form are those of corpus-figures.ts, which runs the same comparison.
 */

test.group('Corpus of public forms: imported, and agreeing with the source library', (group) => {
  let runner: ScriptRunner
  group.setup(async () => {
    runner = asRunner(await createSandbox())
    return () => runner.dispose()
  })

  for (const form of loadCorpus()) {
    test(`${form.library}/${form.name}`, async ({ assert }) => {
      const result = importCorpusForm(form)
      assert.deepEqual(validateConfig(result.config), [])
      const diff = await differential(form, runner, CORPUS_RUNS)
      console.log(
        `corpus ${form.library}/${form.name}: ${diff.conditionsCompared} conditions on ${diff.conditionItems} items, ` +
          `${diff.calculationsCompared} calculations, ${diff.comparisons} comparisons, ${diff.mismatches.length} mismatches`
      )
      assert.deepEqual(diff.mismatches, [])
    }).timeout(60_000)
  }
})

test('the importers carry at least 90 % of the corpus conditions outside custom types', ({ assert }) => {
  let carried = 0
  let present = 0
  for (const form of loadCorpus()) {
    const outside = sourceFacts(form, importCorpusForm(form)).conditions.filter((r) => !r.node.inCustom)
    carried += outside.filter((r) => r.carried).length
    present += outside.length
  }
  console.log(`corpus: ${carried} of ${present} conditions outside custom types carried`)
  assert.isAtLeast(present, 140)
  assert.isAtLeast(carried / present, 0.9)
})
