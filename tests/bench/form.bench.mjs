/**
 * Issue 5 (a), `BENCH_ONLY=form`: the generated 500-question, 20-page form with 100 visibleIf
 * conditions (tests/bench/form-survey.ts), rendered by Tramita's FormRuntime from the jsonconfig
 * importForm makes of it and by SurveyJS (survey-react-ui 3.0.0) from the SurveyJS JSON itself, in
 * headless Chromium, in the same run, runs interleaved. Pages: tests/bench/form-harness.
 *
 * Every page gets the same probe (an init script, installed before any of the page's scripts):
 * - controls on screen: the first frame (performance.now(), from navigation start) after the DOM holds
 *   a control for every question of page 1 the conditions show.
 * - first page ready: the same, once the DOM also holds none of the questions they hide. Tramita
 *   hides conditioned fields until the sandbox worker has run their conditions.
 * - time to interactive (TTI): when page 1 is ready the probe focuses a plain text question of it
 *   and the bench presses a key; TTI is the first frame after that input event was handled.
 * - keystrokes: 'x' and Backspace alternate in page 1's driver (text), which shows and hides five
 *   questions of page 1. From the keydown event's timeStamp (when the browser took the key, so time
 *   the key waited for the page's main thread counts) to (1) the first frame with the input's new
 *   value, (2) the DOM mutation (MutationObserver) after which every dependent has its new visibility
 *   and (3) the first frame after it. A frame is the performance.now() of a requestAnimationFrame
 *   callback: the start of the frame that draws the change. Tramita's conditions run in the QuickJS
 *   worker: (2) and (3) include that round trip, and a run's first key may find the worker still
 *   loading (reported apart too). Every key counts; the next waits 50 ms after both are seen. Also
 *   counted: the keystrokes whose dependents were drawn in the same frame as the input's new value
 *   (the callbacks of one frame share their timestamp argument).
 * - floor: the same probe on floor.html, page 1's questions as bare inputs whose dependents a worker
 *   that does nothing shows and hides. Its dependents' frame is what a round trip to any worker costs
 *   here before any work is done: Chromium draws the frame of a key's input event before it runs a
 *   task that event queued (a worker's answer, even a setTimeout(0)), and the next frame comes on the
 *   display's 16.7 ms clock.
 * Every run has a fresh browser context (cold caches). The importForm conversion is design-time
 * work (the jsonconfig is what a server stores and serves) and is not timed.
 */
/* global window, document, requestAnimationFrame, MutationObserver, addEventListener -- the probe runs in the page */
import { spawnSync } from 'node:child_process'
import { createServer } from 'node:http'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { extname, join, normalize, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { target } from './targets.ts'

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)))
const HARNESS = join(ROOT, 'tests', 'bench', 'form-harness')
const RUNS = Number(process.env.BENCH_FORM_RUNS ?? 7)
const KEYS = Number(process.env.BENCH_FORM_KEYS ?? 30)
const PAUSE_MS = 50
const LIBRARIES = ['tramita', 'surveyjs', 'floor']
const TYPES = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
}

/** The probe, run in the page before its scripts (see the header); `spec` names the questions. */
function probe(spec) {
  const question = (name) => (spec.lib === 'tramita' ? `.ffield[data-field="${name}"]` : `[data-name="${name}"]`)
  const CONTROL = 'input, textarea, select, button, [role="combobox"], [tabindex]'
  const hasControl = (name) => document.querySelector(`${question(name)} :is(${CONTROL})`) !== null
  const present = (name) => document.querySelector(question(name)) !== null
  // fn(now, frame time): the frame time is shared by every callback of one frame.
  const frame = (fn) => requestAnimationFrame((at) => fn(performance.now(), at))
  const signal = () => {
    let resolve
    const promise = new Promise((r) => (resolve = r))
    return { promise, resolve }
  }
  const ready = signal()
  const interactive = signal()
  const bench = { controls: null, ready: ready.promise, interactive: interactive.promise, key: null }
  window.__bench = bench

  let seen = false
  const firstPage = new MutationObserver(() => {
    if (!spec.shown.every(hasControl)) return
    if (!seen) {
      seen = true
      frame((t) => (bench.controls = t))
    }
    if (spec.hidden.some(present)) return
    firstPage.disconnect()
    // Focused here, at once, for both libraries: the bench's key then goes straight to the field.
    document.querySelector(`${question(spec.ttiField)} input`).focus()
    frame(ready.resolve)
  })
  firstPage.observe(document, { childList: true, subtree: true })

  // The keystroke of the time to interactive.
  let typed = false
  addEventListener(
    'input',
    (event) => {
      if (typed || !event.target.closest?.(question(spec.ttiField))) return
      typed = true
      frame(interactive.resolve)
    },
    true
  )

  // Keystrokes in the driver: `arm` before each key says what to expect and gives when it is seen.
  bench.arm = (expectValue, expectShown) => {
    const done = signal()
    const key = {
      expectValue,
      expectShown,
      down: null,
      value: null,
      dom: null,
      visible: null,
      valueFrame: null,
      visibleFrame: null,
    }
    const check = () => key.value !== null && key.visible !== null && done.resolve(key)
    key.check = check
    bench.key = key
    return done.promise
  }
  bench.focus = (name) => document.querySelector(`${question(name)} input`).focus()
  addEventListener(
    'keydown',
    (event) => {
      if (bench.key && bench.key.down === null) bench.key.down = event.timeStamp
    },
    true
  )
  addEventListener(
    'input',
    (event) => {
      const key = bench.key
      if (!key || key.down === null || !event.target.closest?.(question(spec.driver))) return
      frame((t, at) => {
        if (key.value !== null || event.target.value !== key.expectValue) return
        key.value = t
        key.valueFrame = at
        key.check()
      })
    },
    true
  )
  new MutationObserver(() => {
    const key = bench.key
    if (!key || key.down === null || key.dom !== null) return
    if (!spec.dependents.every((name) => hasControl(name) === key.expectShown)) return
    key.dom = performance.now()
    frame((t, at) => {
      key.visible = t
      key.visibleFrame = at
      key.check()
    })
  }).observe(document, { childList: true, subtree: true })
}

/** The form in both formats, from the generator run through ts-run (the contract is TypeScript). */
export function generate() {
  const run = spawnSync(
    join(ROOT, 'node_modules', '.bin', 'node'),
    ['--import', '@tramita/ts-run', join(ROOT, 'tests', 'bench', 'form-survey.ts')],
    { cwd: join(ROOT, 'core', 'server'), maxBuffer: 64 * 1024 * 1024, encoding: 'utf8' }
  )
  if (run.status !== 0) throw new Error(`form-survey.ts failed:\n${run.stderr}`)
  return JSON.parse(run.stdout)
}

/** Serves `dir` on 127.0.0.1 at a free port. */
export async function serve(dir) {
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

/** One load of `page` (drawn by `lib`): first page ready, TTI, then KEYS keystrokes in the driver. */
export async function run(browser, origin, lib, form, page = lib) {
  const context = await browser.newContext()
  const tab = await context.newPage()
  const workers = []
  tab.on('worker', (worker) => workers.push(worker))
  const spec = { lib, ...form.firstPage, ttiField: form.ttiField, driver: form.driver, dependents: form.dependents }
  await tab.addInitScript(probe, spec)
  // Promises the probe resolves: no polling from here while the page loads.
  const within = (ms, what) => (promise) =>
    Promise.race([promise, new Promise((_, reject) => setTimeout(() => reject(new Error(`${page}: no ${what}`)), ms))])
  try {
    await tab.goto(`${origin}/${page}.html`, { waitUntil: 'commit' })
    const ready = await within(30_000, 'first page')(tab.evaluate(() => window.__bench.ready))
    await tab.keyboard.press('a')
    const interactive = await within(30_000, 'keystroke')(tab.evaluate(() => window.__bench.interactive))
    const controls = await tab.evaluate(() => window.__bench.controls)

    await tab.evaluate((name) => window.__bench.focus(name), form.driver)
    const keys = []
    for (let i = 0; i < KEYS; i++) {
      const typing = i % 2 === 0
      // Armed (and its promise held by the page) before the key is sent.
      await tab.evaluate(
        ([value, shown]) => void (window.__pending = window.__bench.arm(value, shown)),
        [typing ? 'x' : '', typing]
      )
      await tab.keyboard.press(typing ? 'x' : 'Backspace')
      const key = await within(10_000, `update after keystroke ${i}`)(tab.evaluate(() => window.__pending))
      keys.push({
        value: key.value - key.down,
        dom: key.dom - key.down,
        visible: key.visible - key.down,
        sameFrame: key.visibleFrame === key.valueFrame,
      })
      await tab.waitForTimeout(PAUSE_MS)
    }
    // What the page and its workers fetched (compressed sizes as served: this server does not compress).
    const sizes = () => performance.getEntriesByType('resource').reduce((sum, e) => sum + e.encodedBodySize, 0)
    let bytes =
      (await tab.evaluate(sizes)) +
      (await tab.evaluate(() => performance.getEntriesByType('navigation')[0].encodedBodySize))
    for (const worker of workers) bytes += await worker.evaluate(sizes).catch(() => 0)
    return { controls, ready, interactive, keys, bytes }
  } finally {
    await context.close()
  }
}

/** Medians of the runs' times and percentiles of their pooled keystrokes, printed under `name`. */
export function summarize(name, runs) {
  const keys = runs.flatMap((r) => r.keys)
  const series = (field) => keys.map((k) => k[field])
  const pair = (field) => [percentile(series(field), 0.5), percentile(series(field), 0.95)]
  const later = runs.flatMap((r) => r.keys.slice(1).map((k) => k.visible))
  const s = {
    controls: median(runs.map((r) => r.controls)),
    ready: median(runs.map((r) => r.ready)),
    tti: median(runs.map((r) => r.interactive)),
    value: pair('value'),
    dom: pair('dom'),
    visible: pair('visible'),
    // A run's first keystroke in the driver may come before Tramita's worker is ready.
    first: median(runs.map((r) => r.keys[0].visible)),
    // The same p95 over the keys after each run's first: what a keystroke costs once the worker is up.
    later: percentile(later, 0.95),
    sameFrame: keys.filter((k) => k.sameFrame).length,
  }
  const ms = (n) => `${n.toFixed(0)} ms`
  const p = ([p50, p95]) => `p50 ${p50.toFixed(1)} / p95 ${p95.toFixed(1)} ms`
  console.log(
    `${name.padEnd(9)} ${(runs[0].bytes / 1024).toFixed(0)} KiB fetched (uncompressed); medians: controls on screen ${ms(s.controls)},` +
      ` first page ready ${ms(s.ready)}, TTI ${ms(s.tti)} (runs: ${runs.map((r) => r.interactive.toFixed(0)).join(', ')})`
  )
  console.log(
    `${''.padEnd(9)} ${keys.length} keystrokes: own value frame ${p(s.value)}; dependents in DOM ${p(s.dom)};` +
      ` their frame ${p(s.visible)}; a run's first keystroke to their frame: median ${s.first.toFixed(1)} ms` +
      ` (p95 of the others ${s.later.toFixed(1)} ms);` +
      ` dependents in the input's own frame: ${s.sameFrame} of ${keys.length}`
  )
  return s
}

/** The floor page's keystrokes (its loading times mean nothing), printed under `name`. */
function summarizeFloor(name, runs) {
  const keys = runs.flatMap((r) => r.keys)
  const series = (field) => keys.map((k) => k[field])
  const pair = (field) => [percentile(series(field), 0.5), percentile(series(field), 0.95)]
  const s = { value: pair('value'), dom: pair('dom'), visible: pair('visible') }
  const p = ([p50, p95]) => `p50 ${p50.toFixed(1)} / p95 ${p95.toFixed(1)} ms`
  console.log(
    `${name.padEnd(9)} ${keys.length} keystrokes answered by a worker that does nothing: own value frame ${p(s.value)};` +
      ` dependents in DOM ${p(s.dom)}; their frame ${p(s.visible)};` +
      ` in the input's own frame: ${keys.filter((k) => k.sameFrame).length} of ${keys.length}`
  )
  return s
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
      define: {
        __BENCH_SURVEY__: JSON.stringify(form.survey),
        __BENCH_CONFIG__: JSON.stringify(form.config),
        __BENCH_FLOOR__: JSON.stringify({
          shown: form.firstPage.shown,
          driver: form.driver,
          dependents: form.dependents,
        }),
      },
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

    console.log(`500 questions, 20 pages, 100 conditions; ${RUNS} runs each (fresh context), ${KEYS} keystrokes a run`)
    const ours = summarize('tramita', results.tramita)
    const base = summarize('surveyjs', results.surveyjs)
    const floor = summarizeFloor('floor', results.floor)
    const ratio = (a, b) => (a / b).toFixed(2)
    console.log(
      `form TTI ratio (tramita / surveyjs): ${ratio(ours.tti, base.tti)}  (target ≤ 0.50: ${target(ours.tti / base.tti <= 0.5)})`
    )
    console.log(`form first page ready ratio (tramita / surveyjs): ${ratio(ours.ready, base.ready)}`)
    console.log(
      `form keystroke → dependents' frame p95 ratio (tramita / surveyjs): ${ratio(ours.visible[1], base.visible[1])}` +
        `  (tramita p95 ${ours.visible[1].toFixed(1)} ms, target ≤ 16 ms: ${target(ours.visible[1] <= 16)})`
    )
    console.log(
      `form keystroke → own value frame p95 ratio (tramita / surveyjs): ${ratio(ours.value[1], base.value[1])}`
    )
    console.log(
      `form keystroke → dependents' frame p95 ratio (tramita / floor of a worker round trip): ${ratio(ours.visible[1], floor.visible[1])}` +
        `  (floor p95 ${floor.visible[1].toFixed(1)} ms)`
    )
  } finally {
    await browser?.close()
    server?.close()
    rmSync(out, { recursive: true, force: true })
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await formBench()
