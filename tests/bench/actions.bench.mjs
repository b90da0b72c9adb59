/**
 * Issue 7, `BENCH_ONLY=actions`: a chain of 50 actions with conditions in headless Chromium. Each
 * action's condition runs in the browser's QuickJS worker, then a set_value formula, then a
 * start_action of the next (awaited): 100 sandbox calls through the real FormStore and engine
 * (page: tests/bench/actions-harness). Target: the chain completes in ≤ 100 ms.
 * Baseline, same page, same run: the same 100 scripts sent straight to the worker one after another
 * (the round trips any engine pays). Median of RUNS runs after a warm-up, fresh page per run.
 */
/* global window -- the evaluated functions run in the page */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { serve } from './form.bench.mjs'
import { target } from './targets.ts'

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)))
const HARNESS = join(ROOT, 'tests', 'bench', 'actions-harness')
const RUNS = Number(process.env.BENCH_ACTIONS_RUNS ?? 9)
const TARGET_MS = 100

const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]

export async function actionsBench() {
  console.log('━━ action chain in the browser ━━')
  const { build } = await import('vite')
  const { launchChromium } = await import('../e2e/chromium.ts')
  const out = mkdtempSync(join(tmpdir(), 'tramita-actions-bench-'))
  let server
  let browser
  try {
    await build({
      root: HARNESS,
      base: './',
      configFile: false,
      logLevel: 'error',
      // As runtime-web: the sandbox worker loads QuickJS lazily, which only module workers can hold.
      worker: { format: 'es' },
      build: { outDir: out, emptyOutDir: true, chunkSizeWarningLimit: 2000 },
    })
    const served = await serve(out)
    server = served.server
    browser = await launchChromium()
    const chains = []
    const floors = []
    let length = 0
    for (let i = 0; i < RUNS; i++) {
      const page = await browser.newPage()
      const errors = []
      page.on('pageerror', (error) => errors.push(error.message))
      await page.goto(`${served.origin}/index.html`)
      await page.waitForFunction(() => window.__bench !== undefined)
      // Warm-up: QuickJS loads, both paths' code is compiled once.
      await page.evaluate(() => window.__bench.floor())
      await page.evaluate(() => window.__bench.chain())
      // Interleaved, so a slow moment of the machine hits both.
      floors.push(await page.evaluate(() => window.__bench.floor()))
      chains.push(await page.evaluate(() => window.__bench.chain()))
      length = await page.evaluate(() => window.__bench.chainLength)
      if (errors.length > 0) throw new Error(errors.join('\n'))
      await page.close()
    }
    const chain = median(chains)
    const floor = median(floors)
    console.log(`${length} actions, each a condition + a formula + start_action (awaited); ${RUNS} runs, median`)
    console.log(
      `action chain: ${chain.toFixed(1)} ms  target ≤ ${TARGET_MS} ms: ${target(chain <= TARGET_MS)}` +
        `  (runs ${chains.map((t) => t.toFixed(0)).join(' ')})`
    )
    console.log(`  baseline, the same ${length * 2} scripts straight to the worker: ${floor.toFixed(1)} ms`)
    console.log(`action chain ratio (engine / bare sandbox calls): ${(chain / floor).toFixed(2)}`)
    return { chain, floor }
  } finally {
    await browser?.close()
    server?.close()
    rmSync(out, { recursive: true, force: true })
  }
}
