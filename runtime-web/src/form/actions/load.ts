/**
 * The action engine in the browser: loaded by the form store on a form's first action (or at start,
 * for onevent actions), only for forms that have actions, so the form route's first bundle never
 * carries it. It builds the engine's host over the runtime's calls, sandbox, toasts and overlays,
 * and mounts the actions' layer (progress bar, camera, reader capture) over the form.
 */
import { createElement } from 'react'
import type { i18n as I18n } from 'i18next'
import type { Json } from '@tramita/sandbox'
import type { ActionHost, ProgressBar, SignedInUser } from '@tramita/plugin-actions/web'
import { actions } from 'virtual:tramita-actions'
import { call } from '@tramita/web/api'
import { shownLanguage } from '@tramita/web/language'
import { areaTextsLoaded } from '../../lib/area_texts.js'
import type { Scripting } from '../scripts.js'
import type { FormCallContext } from '../services.js'
import type { ActionRunner, FormStore } from '../store.js'
import { ActionLayer, ActionLayerState } from './ActionLayer.js'
import { loadActionTexts } from './texts.js'

/**
 * What the form page hands the engine. Toasts and the sandbox come from the page rather than being
 * imported here: a module shared by the page and this lazy chunk would be split into chunks of its
 * own, which the page's first load would then pay for.
 */
export interface ActionsEnv {
  call: FormCallContext
  i18n: I18n
  scripting(): Promise<Scripting>
  toast(kind: 'success' | 'error', text: string): void
  reload(): void
  /** A document create_doc made: the page's doc tab shows it. */
  documentCreated(path: string): void
  /** The step being done: the task placeholders' first values. */
  task: Record<string, Json>
  /** The signed-in user (autocomplete's set_user and users origin). */
  user: SignedInUser | null
}

/** The users list, fetched once for the form (the users origin's suggestions); a failure fails the lookup. */
function allUsers(): () => Promise<SignedInUser[]> {
  let users: Promise<SignedInUser[]> | undefined
  return () => {
    users ??= call<{ users: SignedInUser[] }>('GET', '/data/allusers').then((body) => body.data?.users ?? [])
    users.catch(() => (users = undefined))
    return users
  }
}

const NO_ACTIONS: ActionRunner = {
  run: () => Promise.resolve(),
  started: () => Promise.resolve(),
  setPlaceholders: () => Promise.resolve(),
}

/** Whether the user lets the page notify; asked once, the first time a notification is wanted. */
function notify(title: string, body: string) {
  if (typeof Notification === 'undefined') return
  const show = () => void new Notification(title, { body })
  if (Notification.permission === 'granted') show()
  else if (Notification.permission === 'default') {
    void Notification.requestPermission().then((answer) => answer === 'granted' && show())
  }
}

export function buildHost(store: FormStore, env: ActionsEnv, layer: ActionLayerState): ActionHost {
  const context = { data: env.call.data, key_process: env.call.keyProcess, token: env.call.token }
  return {
    async runScript(source, vars) {
      const { runner } = await env.scripting()
      return runner.run(source, vars)
    },
    async post(path, fields) {
      return (await call('POST', path, { ...context, ...fields })).data
    },
    async upload(file, field) {
      const type = store.item(field)?.item.type
      const foldertype = type === 'image' ? 'images' : type === 'signature' ? 'signatures' : 'files'
      const body = await call<unknown[]>('POST', '/data/form/upload/files', {
        ...context,
        foldertype,
        field,
        new_version: 'false',
        file,
      })
      const entry = body.data?.[0]
      if (!entry) throw new Error('the upload stored nothing')
      return entry
    },
    reload: () => env.reload(),
    documentCreated: (path) => env.documentCreated(path),
    submit: (action, goToState) => store.requestSubmit(action, goToState),
    openUrl(url, newTab) {
      if (newTab) window.open(url, '_blank', 'noopener')
      else window.location.assign(url)
    },
    notify,
    // A key's text; a server's message (no key) as it is.
    toast: (kind, key) => env.toast(kind, env.i18n.exists(key) ? env.i18n.t(key) : key),
    takePhoto: () => layer.requestPhoto(),
    async drawCode(kind, format, text, name) {
      const [{ drawCode }, { canvasPng }] = await Promise.all([
        import('../renderers/fields/media/CodeImage.js'),
        import('../renderers/fields/media/imageCanvas.js'),
      ])
      const canvas = document.createElement('canvas')
      await drawCode(canvas, { kind, format }, text, 160)
      return canvasPng(canvas, name)
    },
    progress: (bar: ProgressBar | null) => layer.set({ progress: bar }),
    capturing: (field) => layer.set({ capture: field }),
    onKey: (listener) => layer.onKey(listener),
    wait: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    // The session bar's socket (lib/socket.ts, a chunk of its own it has loaded already once signed in).
    socketEvent: (kase, match, timeoutMs, signal) =>
      import('../../lib/socket.js').then(({ waitForMessage }) => waitForMessage(kase, match, timeoutMs, signal)),
    report(action, message) {
      store.scriptErrors.push({ field: action, message })
      console.warn(`action "${action}": ${message}`)
    },
    language: () => env.i18n.language,
  }
}

/** The engine for this store, with the enabled plugins' handlers; a no-op when the actions plugin is off. */
export async function loadActions(store: FormStore, env: ActionsEnv): Promise<ActionRunner> {
  if (!actions) return NO_ACTIONS
  void loadActionTexts(env.i18n)
  // The plugins' handlers' texts (their toasts), under `<plugin>.` as their screens have them.
  for (const { plugin, load } of actions.texts ?? []) {
    void areaTextsLoaded(env.i18n, plugin, load, shownLanguage(env.i18n.language))
  }
  const layer = new ActionLayerState()
  store.overlays.setLayer(() => createElement(ActionLayer, { state: layer }))
  const host = buildHost(store, env, layer)
  const engine = actions.engine.createActionEngine({
    form: store,
    host,
    handlers: actions.handlers,
    types: actions.types,
    task: env.task,
  })
  const rules = actions.engine.createAutocomplete({
    form: store,
    host: { runScript: host.runScript, post: host.post, report: host.report, user: env.user, users: allUsers() },
  })
  return {
    run: engine.run,
    setPlaceholders: engine.setPlaceholders,
    // The rules' first lookups go out beside the onevent actions rather than after them.
    started: () => Promise.all([engine.started(), rules.started()]).then(() => undefined),
    valuesChanged: rules.changed,
  }
}
