/**
 * Issue 5 (a), `BENCH_ONLY=form`: the generated 500-question, 20-page form with 100 visibleIf
 * conditions (tests/bench/form-survey.ts), rendered by Tramita's FormRuntime from the jsonconfig
 * importForm makes of it and by SurveyJS (survey-react-ui 3.0.0) from the SurveyJS JSON itself, in
 * headless Chromium, in the same run, runs interleaved. Pages: tests/bench/form-harness.
 *
 * Every page gets the same probe (an init script, installed before any of the page's scripts):
 * - controls on screen: the first frame (performance.now(), from navigation start) after the DOM holds
 *   a control for every question of page 1 the conditions show.
 * - first page drawn: the same, once the DOM also holds none of the questions they hide. Tramita
 *   hides conditioned fields until their conditions have run.
 * - interactive (issue 23): page 1 drawn *and* its conditions evaluated, so a dependent reacts. As soon
 *   as page 1 is drawn the bench types 'x' in page 1's driver (text), which shows (or, in the variant
 *   whose conditions are true at load, hides) five questions of page 1; interactive is the frame that
 *   draws them changed, from navigation and from the model's creation (a `bench:model` mark each page
 *   sets where it creates its model). Bytes until interactive: what the page and its workers fetched
 *   (resource timing) whose response ended by then.
 * - keystrokes: 'x' and Backspace alternate in the driver. From the keydown event's timeStamp (when the
 *   browser took the key, so time the key waited for the page's main thread counts) to (1) the first
 *   frame with the input's new value, (2) the DOM mutation (MutationObserver) after which every
 *   dependent has its new visibility and (3) the first frame after it. A frame is the performance.now()
 *   of a requestAnimationFrame callback: the start of the frame that draws the change. A run's first key
 *   is the cold one (reported apart); the percentiles pool the others. The next key waits 50 ms after
 *   both are seen. Also counted: the keystrokes whose dependents were drawn in the same frame as the
 *   input's new value (the callbacks of one frame share their timestamp argument).
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
  const bench = { controls: null, ready: ready.promise, key: null }
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
    // Focused here, at once, for both libraries: the bench's first key then goes straight to the driver.
    document.querySelector(`${question(spec.driver)} input`).focus()
    // The first key is armed here rather than by a round trip from the bench: it is sent as soon as
    // `ready` reaches the bench, so only the key's own delivery adds to the interactive time.
    bench.first = bench.arm('x', !spec.shownAtLoad)
    frame(ready.resolve)
  })
  firstPage.observe(document, { childList: true, subtree: true })

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
export function generate(trueAtLoad = false) {
  const run = spawnSync(
    join(ROOT, 'node_modules', '.bin', 'node'),
    [
      '--import',
      '@tramita/ts-run',
      join(ROOT, 'tests', 'bench', 'form-survey.ts'),
      ...(trueAtLoad ? ['--true-at-load'] : []),
    ],
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
  const spec = {
    lib,
    ...form.firstPage,
    driver: form.driver,
    dependents: form.dependents,
    shownAtLoad: form.shownAtLoad,
  }
  await tab.addInitScript(probe, spec)
  // Promises the probe resolves: no polling from here while the page loads.
  const within = (ms, what) => (promise) =>
    Promise.race([promise, new Promise((_, reject) => setTimeout(() => reject(new Error(`${page}: no ${what}`)), ms))])
  try {
    await tab.goto(`${origin}/${page}.html`, { waitUntil: 'commit' })
    const ready = await within(30_000, 'first page')(tab.evaluate(() => window.__bench.ready))
    // The first key goes to the driver as soon as page 1 is drawn (the probe focused it): the page is
    // interactive once that key's dependents have changed (drawn, and its conditions evaluated).
    const keys = []
    let interactive = 0
    for (let i = 0; i < KEYS; i++) {
      const typing = i % 2 === 0
      // Armed (and its promise held by the page) before the key is sent; the first by the probe itself.
      if (i > 0) {
        await tab.evaluate(
          ([value, shown]) => void (window.__pending = window.__bench.arm(value, shown)),
          [typing ? 'x' : '', typing !== form.shownAtLoad]
        )
      }
      await tab.keyboard.press(typing ? 'x' : 'Backspace')
      const pending = () => window.__pending ?? window.__bench.first
      const key = await within(30_000, `update after keystroke ${i}`)(tab.evaluate(pending))
      if (i === 0) interactive = key.visible
      keys.push({
        value: key.value - key.down,
        dom: key.dom - key.down,
        visible: key.visible - key.down,
        sameFrame: key.visibleFrame === key.valueFrame,
      })
      await tab.waitForTimeout(PAUSE_MS)
    }
    const controls = await tab.evaluate(() => window.__bench.controls)
    const model = await tab.evaluate(() => performance.getEntriesByName('bench:model')[0]?.startTime ?? 0)
    // What the page and its workers fetched, all of it and until interactive, on the page's clock (a
    // worker's entries are moved there by the two time origins). Sizes as served: this server does not
    // compress, so they are uncompressed sizes.
    const pageOrigin = await tab.evaluate(() => performance.timeOrigin)
    const fetched = ([until, shift]) =>
      [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')].reduce(
        (sum, e) => (e.responseEnd + performance.timeOrigin - shift <= until ? sum + e.encodedBodySize : sum),
        0
      )
    let bytes = await tab.evaluate(fetched, [Infinity, pageOrigin])
    let bytesUntil = await tab.evaluate(fetched, [interactive, pageOrigin])
    for (const worker of workers) {
      bytes += await worker.evaluate(fetched, [Infinity, pageOrigin]).catch(() => 0)
      bytesUntil += await worker.evaluate(fetched, [interactive, pageOrigin]).catch(() => 0)
    }
    return { controls, ready, interactive, fromModel: interactive - model, keys, bytes, bytesUntil }
  } finally {
    await context.close()
  }
}

/** Medians of the runs' times and percentiles of their pooled keystrokes, printed under `name`. */
export function summarize(name, runs) {
  // A run's first keystroke is the cold one (it makes the page interactive): reported apart.
  const later = runs.flatMap((r) => r.keys.slice(1))
  const series = (field) => later.map((k) => k[field])
  const pair = (field) => [percentile(series(field), 0.5), percentile(series(field), 0.95)]
  const s = {
    controls: median(runs.map((r) => r.controls)),
    ready: median(runs.map((r) => r.ready)),
    interactive: median(runs.map((r) => r.interactive)),
    fromModel: median(runs.map((r) => r.fromModel)),
    bytesUntil: median(runs.map((r) => r.bytesUntil)),
    bytes: median(runs.map((r) => r.bytes)),
    value: pair('value'),
    dom: pair('dom'),
    visible: pair('visible'),
    // p95 over the keys of (their dependents' frame − their own value's frame): 0 when drawn together.
    lag: percentile(
      later.map((k) => k.visible - k.value),
      0.95
    ),
    first: median(runs.map((r) => r.keys[0].visible)),
    sameFrame: later.filter((k) => k.sameFrame).length,
  }
  const ms = (n) => `${n.toFixed(0)} ms`
  const kib = (n) => `${(n / 1024).toFixed(0)} KiB`
  const p = ([p50, p95]) => `p50 ${p50.toFixed(1)} / p95 ${p95.toFixed(1)} ms`
  console.log(
    `${name.padEnd(9)} fetched ${kib(s.bytes)}, ${kib(s.bytesUntil)} of it until interactive (uncompressed); medians:` +
      ` controls on screen ${ms(s.controls)}, first page drawn ${ms(s.ready)}, interactive ${ms(s.interactive)} from` +
      ` navigation (runs: ${runs.map((r) => r.interactive.toFixed(0)).join(', ')}), ${ms(s.fromModel)} from the model's creation`
  )
  console.log(
    `${''.padEnd(9)} the cold first keystroke to its dependents' frame: median ${s.first.toFixed(1)} ms;` +
      ` ${later.length} later keystrokes: own value frame ${p(s.value)}; dependents in DOM ${p(s.dom)};` +
      ` their frame ${p(s.visible)}; in the input's own frame: ${s.sameFrame} of ${later.length}` +
      ` (p95 of the gap ${s.lag.toFixed(1)} ms)`
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
  // The form as generated (every condition false at load), then its variant whose conditions are true.
  for (const trueAtLoad of [false, true]) await formVariant(trueAtLoad)
}

async function formVariant(trueAtLoad) {
  const { build } = await import('vite')
  const { launchChromium } = await import('../e2e/chromium.ts')
  const form = generate(trueAtLoad)
  if (form.unmapped.length > 0) throw new Error(`importForm left out: ${JSON.stringify(form.unmapped)}`)
  const out = mkdtempSync(join(tmpdir(), 'tramita-form-bench-'))
  let server
  let browser
  try {
    for (const mode of ['tramita', 'surveyjs'])
      await build({
        configFile: join(HARNESS, 'vite.config.ts'),
        mode,
        logLevel: 'error',
        define: {
          __BENCH_SURVEY__: JSON.stringify(form.survey),
          __BENCH_CONFIG__: JSON.stringify(form.config),
          __BENCH_INITIAL__: JSON.stringify(form.initial),
          __BENCH_FLOOR__: JSON.stringify({
            shown: form.firstPage.shown,
            driver: form.driver,
            dependents: form.dependents,
            shownAtLoad: form.shownAtLoad,
          }),
        },
        // One directory for both builds: the second keeps what the first wrote.
        build: { outDir: out, emptyOutDir: mode === 'tramita' },
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
    const variant = form.shownAtLoad ? ' (conditions true at load)' : ''
    console.log(
      `form interactive ratio${variant} (tramita / surveyjs), from navigation: ${ratio(ours.interactive, base.interactive)}` +
        `  (target ≤ 0.50: ${target(ours.interactive / base.interactive <= 0.5)}); from the model's creation:` +
        ` ${ratio(ours.fromModel, base.fromModel)}`
    )
    console.log(
      `form bytes until interactive ratio${variant} (tramita / surveyjs): ${ratio(ours.bytesUntil, base.bytesUntil)}` +
        `  (target ≤ 0.60: ${target(ours.bytesUntil / base.bytesUntil <= 0.6)})`
    )
    console.log(`form first page drawn ratio${variant} (tramita / surveyjs): ${ratio(ours.ready, base.ready)}`)
    console.log(
      `form keystroke → dependents' frame p95 ratio${variant} (tramita / surveyjs): ${ratio(ours.visible[1], base.visible[1])}` +
        `  (target ≤ 0.50: ${target(ours.visible[1] / base.visible[1] <= 0.5)}); within one frame of the input's own:` +
        ` p95 gap ${ours.lag.toFixed(1)} ms (target ≤ 16.7: ${target(ours.lag <= 16.7)})`
    )
    console.log(
      `form cold first keystroke → dependents' frame ratio${variant} (tramita / surveyjs): ${ratio(ours.first, base.first)}`
    )
    console.log(
      `form keystroke → own value frame p95 ratio${variant} (tramita / surveyjs): ${ratio(ours.value[1], base.value[1])}`
    )
    console.log(
      `form keystroke → dependents' frame p95 ratio${variant} (tramita / floor of a worker round trip): ${ratio(ours.visible[1], floor.visible[1])}` +
        `  (floor p95 ${floor.visible[1].toFixed(1)} ms)`
    )
  } finally {
    await browser?.close()
    server?.close()
    rmSync(out, { recursive: true, force: true })
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await formBench()
