#!/usr/bin/env node
/**
 * `npm run test:reliability [part ...]`: the reliability suite of issue 22, in named parts. Each part is a
 * file tests/reliability/parts/<name>.mjs exporting `run({ bounded, log })`, resolving with
 * `{ passed, failed, skipped? }`; a new part is a new file there (this runner finds it). Without names,
 * every part runs, one after the other (they share the machine's two cores and its MariaDB).
 * TRAMITA_RELIABILITY_BOUNDED=1 (or --bounded) is the short form CI runs through `npm test`.
 * Ends with `N passed, N failed`; exits non-zero on any failure.
 */
import { readdirSync, writeFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const PARTS_DIR = fileURLToPath(new URL('./parts/', import.meta.url))
const args = process.argv.slice(2)
const bounded = args.includes('--bounded') || process.env.TRAMITA_RELIABILITY_BOUNDED === '1'
const available = readdirSync(PARTS_DIR)
  .filter((f) => f.endsWith('.mjs'))
  .map((f) => basename(f, '.mjs'))
  .sort()
const wanted = args.filter((a) => !a.startsWith('--'))
const unknown = wanted.filter((name) => !available.includes(name))
if (unknown.length > 0) {
  console.error(`unknown part(s) ${unknown.join(', ')}; parts: ${available.join(', ')}`)
  process.exit(2)
}

const results = []
const started = Date.now()
for (const name of wanted.length > 0 ? wanted : available) {
  const partStarted = Date.now()
  console.log(`\n━━ reliability: ${name}${bounded ? ' (bounded)' : ''} ━━`)
  let result
  try {
    const part = await import(pathToFileURL(join(PARTS_DIR, `${name}.mjs`)).href)
    result = await part.run({ bounded, log: (line) => console.log(`[${name}] ${line}`) })
  } catch (error) {
    console.error(`[${name}] crashed: ${error?.stack ?? error}`)
    result = { passed: 0, failed: 1 }
  }
  results.push({ name, ...result, ms: Date.now() - partStarted })
}

console.log('\n━━ reliability summary ━━')
for (const r of results) {
  console.log(
    `${r.name.padEnd(12)} ${String(r.passed).padStart(4)} passed ${String(r.failed).padStart(3)} failed  ${(r.ms / 1000).toFixed(1)} s`
  )
}
const passed = results.reduce((n, r) => n + r.passed, 0)
const failed = results.reduce((n, r) => n + r.failed, 0)
const skipped = results.reduce((n, r) => n + (r.skipped ?? 0), 0)
console.log(`wall time ${((Date.now() - started) / 1000).toFixed(1)} s`)
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`)
// npm test (tests/run.mjs) counts these checks rather than the step as one.
if (process.env.TRAMITA_TEST_SUMMARY)
  writeFileSync(process.env.TRAMITA_TEST_SUMMARY, JSON.stringify({ passed, failed, skipped }))
process.exit(failed > 0 || results.length === 0 ? 1 : 0)
