/**
 * Issue 5 (a), `BENCH_ONLY=form`: the generated 500-question, 20-page form with 100 visibleIf
 * conditions (tests/bench/form-survey.ts), rendered by Tramita's FormRuntime from the jsonconfig
 * importForm makes of it and by SurveyJS (survey-react-ui 3.0.0) from the SurveyJS JSON itself, in
 * headless Chromium, in the same run, runs interleaved. Pages: tests/bench/form-harness.
 *
 * Both pages get the same probe (an init script, installed before any of the page's scripts):
 * - first page ready: performance.now() (from navigation start) at the first frame after the DOM holds
 *   a control for every question of page 1 the conditions show, and none of those they hide. Tramita
 *   shows conditioned fields until the sandbox worker has run the conditions, so this waits for it.
 * - time to interactive (TTI): once ready, a key is pressed in a plain text question of page 1; TTI is
 *   the first frame after that input event was handled, from navigation start.
 * - keystrokes: 'x' and Backspace alternate in page 1's driver (text), which shows and hides five
 *   questions of page 1. From performance.now() in a capture keydown listener to (1) the first frame
 *   with the input's new value, (2) the DOM mutation (MutationObserver) after which every dependent
 *   has its new visibility and (3) the first frame after it. Tramita's conditions run in the QuickJS
 *   worker: (2) and (3) include that round trip. The next key waits 50 ms after both are seen.
 * Every run has a fresh browser context (cold caches). The importForm conversion is design-time
 * work (the jsonconfig is what a server stores and serves) and is not timed.
 */
import { spawnSync } from 'node:child_process'
import { createServer } from 'node:http'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { extname, join, normalize, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)))
const HARNESS = join(ROOT, 'tests', 'bench', 'form-harness')
const RUNS = Number(process.env.BENCH_FORM_RUNS ?? 7)
const KEYS = Number(process.env.BENCH_FORM_KEYS ?? 30)
/** Keystrokes at the start of each run that are not counted (the first crossing warms the worker). */
const WARMUP_KEYS = 2
const PAUSE_MS = 50
const LIBRARIES = ['tramita', 'surveyjs']
const TYPES = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
}

/** The probe, run in the page before its scripts (see the header); `spec` names the questions. */
function probe(spec) {
  const question = (name) =>
    spec.lib === 'tramita' ? `.ffield[data-field="${name}"]` : `[data-name="${name}"]`
  const CONTROL = 'input, textarea, select, button, [role="combobox"], [tabindex]'
  const hasControl = (name) => document.querySelector(`${question(name)} :is(${CONTROL})`) !== null
  const present = (name) => document.querySelector(question(name)) !== null
  const frame = (fn) => requestAnimationFrame(() => fn(performance.now()))
  const bench = { ready: null, readyDom: null, interactive: null, key: null }
  window.__bench = bench

  const firstPage = new MutationObserver(() => {
    if (bench.readyDom !== null) return
    if (!spec.shown.every(hasControl) || spec.hidden.some(present)) return
    bench.readyDom = performance.now()
    firstPage.disconnect()
    frame((t) => (bench.ready = t))
  })
  firstPage.observe(document, { childList: true, subtree: true })

  // The keystroke of the time to interactive.
  addEventListener(
    'input',
    (event) => {
      if (bench.interactive !== null || !event.target.closest?.(question(spec.ttiField))) return
      frame((t) => (bench.interactive = t))
    },
    true
  )

  // Keystrokes in the driver: `arm` before each key says what to expect.
  bench.arm = (expectValue, expectShown) => {
    bench.key = { expectValue, expectShown, down: null, value: null, dom: null, visible: null }
  }
  addEventListener(
    'keydown',
    () => {
      if (bench.key && bench.key.down === null) bench.key.down = performance.now()
    },
    true
  )
  addEventListener(
    'input',
    (event) => {
      const key = bench.key
      if (!key || key.down === null || !event.target.closest?.(question(spec.driver))) return
      frame((t) => {
        if (key.value === null && event.target.value === key.expectValue) key.value = t
      })
    },
    true
  )
  new MutationObserver(() => {
    const key = bench.key
    if (!key || key.down === null || key.dom !== null) return
    if (!spec.dependents.every((name) => hasControl(name) === key.expectShown)) return
    key.dom = performance.now()
    frame((t) => (key.visible = t))
  }).observe(document, { childList: true, subtree: true })
}

/** The form in both formats, from the generator run through ts-exec (the contract is TypeScript). */
function generate() {
  const run = spawnSync(
    join(ROOT, 'node_modules', '.bin', 'node'),
    ['--import', '@poppinss/ts-exec', join(ROOT, 'tests', 'bench', 'form-survey.ts')],
    { cwd: join(ROOT, 'core', 'server'), maxBuffer: 64 * 1024 * 1024, encoding: 'utf8' }
  )
  if (run.status !== 0) throw new Error(`form-survey.ts failed:\n${run.stderr}`)
  return JSON.parse(run.stdout)
}

/** Serves `dir` on 127.0.0.1 at a free port. */
async function serve(dir) {
  const server = createServer((req, res) => {
    const path = normalize(new URL(req.url ?? '/', 'http://x').pathname).replace(/^\/+/, '')
    try {
      const body = readFileSync(join(dir, path))
      res.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'application/octet-stream' }).end(body)
    } catch {
      res.writeHead(404).end()
    }
  })
  await new Promise((r) => server.listen(0, '127.0.0.1', r))
  return { server, origin: `http://127.0.0.1:${server.address().port}` }
}

const percentile = (list, p) => {
  const sorted = [...list].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * p) - 1)]
}
const median = (list) => percentile(list, 0.5)

/** One page load: first page ready, TTI, then KEYS keystrokes in the driver. */
async function run(browser, origin, lib, form) {
  const context = await browser.newContext()
  const page = await context.newPage()
  let bytes = 0
  page.on('response', (response) => {
    void response.body().then(
      (body) => (bytes += body.length),
      () => undefined
    )
  })
  const spec = { lib, ...form.firstPage, ttiField: form.ttiField, driver: form.driver, dependents: form.dependents }
  await page.addInitScript(probe, spec)
  try {
    await page.goto(`${origin}/${lib}.html`, { waitUntil: 'commit' })
    await page.waitForFunction(() => window.__bench.ready !== null, undefined, { timeout: 30_000 })
    const inputOf = (name) =>
      lib === 'tramita' ? `.ffield[data-field="${name}"] input` : `[data-name="${name}"] input`
    await page.focus(inputOf(form.ttiField))
    await page.keyboard.press('a')
    await page.waitForFunction(() => window.__bench.interactive !== null, undefined, { timeout: 30_000 })
    const { ready, readyDom, interactive } = await page.evaluate(() => window.__bench)

    await page.focus(inputOf(form.driver))
    const keys = []
    for (let i = 0; i < WARMUP_KEYS + KEYS; i++) {
      const typing = i % 2 === 0
      await page.evaluate(([value, shown]) => window.__bench.arm(value, shown), [typing ? 'x' : '', typing])
      await page.keyboard.press(typing ? 'x' : 'Backspace')
      await page.waitForFunction(() => window.__bench.key.value !== null && window.__bench.key.visible !== null, undefined, {
        timeout: 10_000,
      })
      const key = await page.evaluate(() => window.__bench.key)
      if (i >= WARMUP_KEYS)
        keys.push({ value: key.value - key.down, dom: key.dom - key.down, visible: key.visible - key.down })
      await page.waitForTimeout(PAUSE_MS)
    }
    return { ready, readyDom, interactive, keys, bytes }
  } finally {
    await context.close()
  }
}

export async function formBench() {
  console.log('━━ form in the browser: Tramita beside SurveyJS ━━')
  if (!existsSync(join(ROOT, 'node_modules', 'survey-react-ui', 'package.json'))) {
    console.log('skipped: survey-react-ui is not installed (npm install at the repository root)')
    return
  }
  const { build } = await import('vite')
  const { launchChromium } = await import('../e2e/chromium.ts')
  const form = generate()
  if (form.unmapped.length > 0) throw new Error(`importForm left out: ${JSON.stringify(form.unmapped)}`)
  const out = mkdtempSync(join(tmpdir(), 'tramita-form-bench-'))
  let server
  let browser
  try {
    await build({
      configFile: join(HARNESS, 'vite.config.ts'),
      logLevel: 'error',
      define: { __BENCH_SURVEY__: JSON.stringify(form.survey), __BENCH_CONFIG__: JSON.stringify(form.config) },
      build: { outDir: out },
    })
    const served = await serve(out)
    server = served.server
    const { origin } = served
    browser = await launchChromium()
    const results = Object.fromEntries(LIBRARIES.map((lib) => [lib, []]))
    for (let i = 0; i < RUNS; i++) {
      for (const lib of LIBRARIES) results[lib].push(await run(browser, origin, lib, form))
    }

    console.log(
      `500 questions, 20 pages, 100 conditions; ${RUNS} runs each (fresh context), ${KEYS} keystrokes a run`
    )
    const summary = {}
    for (const lib of LIBRARIES) {
      const runs = results[lib]
      const keys = runs.flatMap((r) => r.keys)
      const s = {
        ready: median(runs.map((r) => r.ready)),
        tti: median(runs.map((r) => r.interactive)),
        ttis: runs.map((r) => r.interactive),
        kb: runs[0].bytes / 1024,
        value: [percentile(keys.map((k) => k.value), 0.5), percentile(keys.map((k) => k.value), 0.95)],
        dom: [percentile(keys.map((k) => k.dom), 0.5), percentile(keys.map((k) => k.dom), 0.95)],
        visible: [percentile(keys.map((k) => k.visible), 0.5), percentile(keys.map((k) => k.visible), 0.95)],
        count: keys.length,
      }
      summary[lib] = s
      const ms = (n) => `${n.toFixed(1)} ms`
      const pair = ([p50, p95]) => `p50 ${p50.toFixed(1)} / p95 ${p95.toFixed(1)} ms`
      console.log(
        `${lib.padEnd(9)} loaded ${s.kb.toFixed(0)} KiB  first page ready ${ms(s.ready)}  TTI median ${ms(s.tti)}` +
          `  (runs: ${s.ttis.map((t) => t.toFixed(0)).join(', ')})`
      )
      console.log(
        `${''.padEnd(9)} ${s.count} keystrokes: own value frame ${pair(s.value)}; dependents in DOM ${pair(s.dom)};` +
          ` their frame ${pair(s.visible)}`
      )
    }
    const ours = summary.tramita
    const base = summary.surveyjs
    console.log(`form TTI ratio (tramita / surveyjs): ${(ours.tti / base.tti).toFixed(2)}  (target ≤ 0.50)`)
    console.log(`form first page ready ratio (tramita / surveyjs): ${(ours.ready / base.ready).toFixed(2)}`)
    console.log(
      `form keystroke → dependents' frame p95 ratio (tramita / surveyjs): ${(ours.visible[1] / base.visible[1]).toFixed(2)}` +
        `  (tramita p95 ${ours.visible[1].toFixed(1)} ms, target ≤ 16 ms)`
    )
    console.log(
      `form keystroke → own value frame p95 ratio (tramita / surveyjs): ${(ours.value[1] / base.value[1]).toFixed(2)}`
    )
  } finally {
    await browser?.close()
    server?.close()
    rmSync(out, { recursive: true, force: true })
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await formBench()
