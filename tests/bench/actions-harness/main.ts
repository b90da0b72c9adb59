/**
 * The action-chain benchmark's page (tests/bench/actions.bench.mjs): a form store with the action
 * engine, its scripts in the browser's QuickJS worker as in the runtime. `window.__bench.chain()` runs
 * a chain of CHAIN actions (each: a condition, a formula step, a start_action of the next, awaited);
 * `window.__bench.floor()` makes the same sandbox calls straight to the worker, one after another:
 * the round trips no engine can avoid.
 */
import { coreRegistry, withDefaults } from '@tramita/contract'
import { createWorkerSandbox } from '@tramita/sandbox/browser'
import {
  coreActionHandlers,
  createActionEngine,
  createActionHandlerRegistry,
  type ActionHost,
} from '@tramita/plugin-actions/web'
import { FormStore } from '../../../runtime-web/src/form/store.js'

const CHAIN = 50
const runner = createWorkerSandbox()

const actions = Array.from({ length: CHAIN }, (_, i) => ({
  name: `a${i}`,
  conditions: { active: true, code: `n >= ${i}` },
  actions: [
    { type: 'set_value', config: { field: 'n', formula: 'n + 1' } },
    ...(i + 1 < CHAIN ? [{ type: 'start_action', config: { action: `a${i + 1}` } }] : []),
  ],
}))
const config = withDefaults({
  form: { pages: [{ name: 'Uno', layout: [['n']] }] },
  fields: [{ field_name: 'n', type: 'number', data: {} }],
  validations: { actions },
})

const unused = () => {
  throw new Error('not in this benchmark')
}
const host: ActionHost = {
  runScript: (source, vars) => runner.run(source, vars),
  post: unused,
  upload: unused,
  reload: unused,
  documentCreated: unused,
  submit: unused,
  openUrl: unused,
  notify: unused,
  toast: unused,
  takePhoto: unused,
  drawCode: unused,
  progress: unused,
  capturing: unused,
  onKey: unused,
  wait: unused,
  socketEvent: unused,
  report: (action, message) => {
    throw new Error(`${action}: ${message}`)
  },
  language: () => 'es',
}

const registry = coreRegistry()
const handlers = createActionHandlerRegistry(coreActionHandlers)

async function chain(): Promise<number> {
  const store = new FormStore({
    config,
    registry,
    mode: 'new',
    values: { n: 0 },
    actions: async (form) => createActionEngine({ form, host, handlers }),
  })
  await store.runAction('a0', {}) // loads nothing new after the first run; warms this store's engine
  store.setValue('n', 0)
  const started = performance.now()
  await store.runAction('a0')
  const ms = performance.now() - started
  if (store.value('n') !== CHAIN) throw new Error(`the chain ended at n = ${String(store.value('n'))}`)
  return ms
}

async function floor(): Promise<number> {
  const started = performance.now()
  let n = 0
  for (let i = 0; i < CHAIN; i++) {
    const condition = await runner.run(`n >= ${i}`, { n })
    const next = await runner.run('n + 1', { n })
    if (!condition.ok || !next.ok) throw new Error('floor script failed')
    n = next.value as number
  }
  return performance.now() - started
}

declare global {
  interface Window {
    __bench: { chain(): Promise<number>; floor(): Promise<number>; chainLength: number }
  }
}
window.__bench = { chain, floor, chainLength: CHAIN }
