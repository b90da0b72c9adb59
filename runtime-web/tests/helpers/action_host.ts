/** An action host for the engine's tests: it records what handlers asked of the browser; scripts run in the real sandbox. */
import { coreRegistry, type FormConfig } from '@tramita/contract'
import { evaluateChange, evaluateForm } from '@tramita/contract/evaluate'
import type { ScriptRunner } from '@tramita/sandbox'
import {
  coreActionHandlers,
  createActionEngine,
  createActionHandlerRegistry,
  type ActionHost,
} from '@tramita/plugin-actions/web'
import { FormStore } from '../../src/form/store.js'

export function fakeHost(runner: ScriptRunner) {
  const calls: { op: string; args: unknown[] }[] = []
  const reports: string[] = []
  const keyListeners = new Set<(key: string) => void>()
  const record =
    (op: string) =>
    (...args: unknown[]) => {
      calls.push({ op, args })
    }
  const host: ActionHost & { photo: File | null; answer: unknown } = {
    photo: null,
    answer: null,
    runScript: (source, vars) => runner.run(source, vars),
    async post(path, fields) {
      calls.push({ op: 'post', args: [path, fields] })
      return host.answer
    },
    async upload(file, field) {
      calls.push({ op: 'upload', args: [file.name, field] })
      return { path: `/data/files/${file.name}`, real_name: file.name }
    },
    reload: record('reload'),
    documentCreated: record('documentCreated'),
    submit: record('submit'),
    openUrl: record('openUrl'),
    notify: record('notify'),
    toast: record('toast'),
    takePhoto: async () => host.photo,
    async drawCode(kind, format, text, name) {
      calls.push({ op: 'drawCode', args: [kind, format, text] })
      return new File(['png'], name, { type: 'image/png' })
    },
    progress: record('progress'),
    capturing: record('capturing'),
    onKey(listener) {
      keyListeners.add(listener)
      return () => keyListeners.delete(listener)
    },
    async wait(ms) {
      calls.push({ op: 'wait', args: [ms] })
      // The delay step's own wait, as the browser host waits: the action under test takes this long.
      // eslint-disable-next-line no-restricted-syntax -- not a test waiting for something
      await new Promise((resolve) => setTimeout(resolve, ms))
    },
    async socketEvent(kase) {
      calls.push({ op: 'socketEvent', args: [kase] })
      throw new Error(`no "${kase}" message in these tests`)
    },
    report: (action, message) => void reports.push(`${action}: ${message}`),
    language: () => 'es',
  }
  const press = (keys: string[]) => keys.forEach((key) => [...keyListeners].forEach((l) => l(key)))
  const ops = () => calls.map((c) => c.op)
  return { host, calls, reports, press, ops, listening: () => keyListeners.size }
}

/** A new case's store with the real sandbox and action engine, started (its on-load actions run). */
export async function startedWithActions(config: FormConfig, runner: ScriptRunner): Promise<FormStore> {
  const store = new FormStore({
    config,
    registry: coreRegistry(),
    mode: 'new',
    task: 'start',
    values: {},
    scripting: async () => ({ runner, evaluateChange, evaluateForm }),
    actions: async (form) =>
      createActionEngine({
        form,
        host: fakeHost(runner).host,
        handlers: createActionHandlerRegistry(coreActionHandlers),
      }),
  })
  await store.start()
  return store
}
