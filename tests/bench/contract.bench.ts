/**
 * Benchmarks of the form contract and the sandbox (issue 3), each printed beside a baseline measured
 * in the same run. Run by `npm run bench` (tests/bench/run.mjs) through ts-run.
 *
 * (a) condition throughput: 100 cached conditions evaluated in one crossing per batch, against the
 *     same expressions compiled as native JS functions;
 * (b) validateSubmission on a generated 500-field, 20-page form with 100 conditions, against one JSON
 *     round trip of the same submission (what reading the request body costs anyway);
 * (c) after one field change, how many scripts re-run, against the number of scripts that read it.
 */
import { createSandbox, asRunner } from '@tramita/sandbox'
import { buildGraph, evaluateChange, validateSubmission, withDefaults } from '@tramita/contract'
import { generateForm } from '../../core/contract/tests/generate-form.ts'
import { target } from './targets.ts'

const SECONDS = Number(process.env.BENCH_SECONDS ?? 2)

/** Runs `fn` repeatedly for about SECONDS (after a short warm-up); returns calls per second. */
async function rate(fn: () => unknown | Promise<unknown>): Promise<number> {
  const warm = performance.now()
  while (performance.now() - warm < 200) await fn()
  let calls = 0
  const started = performance.now()
  while (performance.now() - started < SECONDS * 1000) {
    await fn()
    calls++
  }
  return calls / ((performance.now() - started) / 1000)
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US')

// (a) ------------------------------------------------------------------------------------------------
const expressions = Array.from({ length: 100 }, (_, i) =>
  i % 3 === 0
    ? `edad > ${i % 40} && ciudad == 'Cali'`
    : i % 3 === 1
      ? `monto * ${i} >= 5000 || activo`
      : `tipo != 'b${i}'`
)
const vars = { edad: 30, ciudad: 'Cali', monto: 120, activo: false, tipo: 'a' }
const sandbox = await createSandbox()
const calls = expressions.map((source) => ({ source }))
const batchesPerSecond = await rate(() => sandbox.runBatch(calls, vars))
// The native baseline: the same expressions as plain functions.
const natives = expressions.map((source) => new Function(...Object.keys(vars), `return (${source})`))
const args = Object.values(vars)
const nativePerSecond = await rate(() => natives.map((f) => f(...args)))
const evalRate = batchesPerSecond * expressions.length
const nativeRate = nativePerSecond * expressions.length
console.log(
  `(a) conditions in the sandbox, batches of ${expressions.length}: ${fmt(evalRate)} evaluations/s (target >= 100,000: ${target(evalRate >= 100_000)})`
)
console.log(`    native JS functions, same expressions:   ${fmt(nativeRate)} evaluations/s`)
console.log(`    ratio sandbox / native: ${(evalRate / nativeRate).toFixed(4)}`)

// (b) ------------------------------------------------------------------------------------------------
const { config, values, conditionReads } = generateForm(20, 25, 100)
const runner = asRunner(sandbox)
const check = await validateSubmission(config, values, { case: 'new', runner })
if (!check.ok) throw new Error(`the generated submission should pass: ${JSON.stringify(check.errors.slice(0, 3))}`)
const validations = await rate(() => validateSubmission(config, values, { case: 'new', runner }))
const roundTrips = await rate(() => JSON.parse(JSON.stringify(values)))
const msPerCall = 1000 / validations
console.log(
  `(b) validateSubmission, ${config.fields!.length} fields, 20 pages, ${conditionReads.size} conditions: ${msPerCall.toFixed(2)} ms per call (target <= 20 ms: ${target(msPerCall <= 20)})`
)
console.log(`    baseline, one JSON round trip of the submission: ${(1000 / roundTrips).toFixed(3)} ms`)
console.log(`    ratio validateSubmission / JSON round trip: ${(roundTrips / validations).toFixed(1)}`)

// (c) ------------------------------------------------------------------------------------------------
const resolved = withDefaults(config)
const graph = buildGraph(resolved)
const field = 'f1'
const dependents = [...conditionReads.values()].filter((read) => read === field).length
const change = await evaluateChange(resolved, field, values, { runner })
const total = graph.conditions.length + graph.formulaLevels.flat().length
console.log(
  `(c) after a change to ${field}: ${change.ran} scripts re-run; ${dependents} read it; ${total} scripts in the form`
)
console.log(
  `    ratio re-run / dependents: ${(change.ran / dependents).toFixed(2)} (must be 1.00: ${target(change.ran === dependents)})`
)

await runner.dispose()
