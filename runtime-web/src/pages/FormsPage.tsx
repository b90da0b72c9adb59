import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { useParams, useSearchParams } from 'react-router'
import { useTranslation } from 'react-i18next'
import { withDefaults, type CaseMode, type InitialState } from '@tramita/contract'
import { registry } from 'virtual:tramita-field-types'
import type { Json } from '@tramita/sandbox'
import { Page } from '../components/Page.js'
import { useDevice } from '../hooks/useDevice.js'
import { call, CallError } from '@tramita/web/api'
import { toasts } from '@tramita/web/toasts'
import { FormRuntime } from '../form/FormRuntime.js'
import type { Decision } from '../form/DecisionPrompt.js'
import { clearLocalEdits, localEditsKey, readFormParams, readLocalEdits, writeLocalEdits } from '../form/params.js'
import { createRendererRegistry } from '../form/renderers/index.js'
import { browserScripting, startScripting } from '../form/scripts.js'
import { createFormServices } from '../form/services.js'
import { FormStore, type FormStoreInit } from '../form/store.js'
import { formTexts } from '../form/texts.js'
import type { ActionsEnv } from '../form/actions/load.js'
import type { Saved } from '../form/DoneScreen.js'
import { shownLanguage } from '@tramita/web/language'

/** The form cases of spec 000 §2. */
export const FORM_CASES = ['new', 'enter', 'approve', 'see', 'edit'] as const
export type FormCase = (typeof FORM_CASES)[number]

function isFormCase(value: string | undefined): value is FormCase {
  return (FORM_CASES as readonly string[]).includes(value ?? '')
}

/** The answer of POST /data/form/info/user/token (spec 000 §3 "Server info for a form"). */
interface FormInfo {
  infouser: { id: number; username: string; first_name: string; last_name: string }[]
  key_process: string
  token: string
  /** The case's version: sent back with a save, which is refused if the case changed since. */
  version: number
  /** Whether "edit values" is offered (the server's rule, the same its save route applies). */
  may_edit_values: boolean
  estados_label: string
  values_params: string
  status_task: 'pending' | 'done'
  step: { id: string; label: string; kind: string } | null
  jsonconfig: unknown
  values_init: Record<string, unknown>
  /** The server's first evaluation of values_init and values_params (null: the form has real scripts). */
  initial?: InitialState | null
  doc_path: string
  doc_path_link: string
  decisions: Decision[]
  form: { id: number; name: string; version: number }
}

/** Where each case saves (spec 000 §7). */
const SAVE_ROUTES: Record<FormCase, string> = {
  new: '/data/form/flows/process',
  enter: '/data/form/asignar/process/info',
  approve: '/data/form/decision/process/info',
  see: '/data/form/flows/process/edit',
  edit: '/data/form/flows/process/edit',
}

type Phase =
  | { name: 'loading' }
  | { name: 'failed'; message: string }
  | { name: 'task_done' }
  | { name: 'ready'; info: FormInfo; store: FormStore }
  /** A new case sent: what the save answered (its code, whether it may be consulted). */
  | { name: 'done'; info: FormInfo; store: FormStore; saved: Saved }

// The preview panel comes with the first file a user opens.
const FilePreview = lazy(() => import('../components/FilePreview.js').then((m) => ({ default: m.FilePreview })))
// The done screen comes with the first send (fetched while a new case is filled in).
const loadDone = () => import('../form/DoneScreen.js').then((m) => ({ default: m.DoneScreen }))
const DoneScreen = lazy(loadDone)

const renderers = createRendererRegistry()

function parseVars(text: string): Record<string, Json> {
  try {
    const parsed: unknown = JSON.parse(text || '{}')
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, Json>) : {}
  } catch {
    return {}
  }
}

function storage(): Storage | null {
  try {
    return window.localStorage
  } catch {
    return null
  }
}

/** Builds the live form from the server's answer, the URL's presets and any unsaved local edits. */
function buildStore(
  mode: FormCase,
  info: FormInfo,
  params: ReturnType<typeof readFormParams>,
  texts: FormStoreInit['texts'],
  env: Omit<ActionsEnv, 'call' | 'task' | 'user'>
): FormStore {
  const config = withDefaults(info.jsonconfig, registry)
  const call = {
    data: params.data,
    keyProcess: info.key_process || params.keyProcess,
    token: info.token || params.token,
  }
  const task = { ...info.step, status: info.status_task }
  const local =
    storage() && (mode === 'see' || mode === 'approve') ? readLocalEdits(storage()!, localEditsKey(params)) : null
  // The server evaluated the values and variables it sent: true only when the store starts from those alone.
  const asServed = !local && Object.keys(params.presets).length === 0 && Object.keys(params.vars).length === 0
  const store = new FormStore({
    config,
    registry,
    mode: mode as CaseMode,
    task: mode === 'new' ? 'start' : mode === 'enter' || mode === 'approve' ? info.step?.id : undefined,
    values: info.values_init ?? {},
    vars: { ...parseVars(info.values_params), ...params.vars },
    scripting: browserScripting,
    initial: asServed ? info.initial : null,
    invisible: params.invisible,
    texts,
    // The action engine loads with the form's first action, and only for a form that has actions or
    // autocomplete rules (these run with it).
    actions:
      config.validations.actions.length > 0 || config.validations.autocomplete.length > 0
        ? (store) =>
            import('../form/actions/load.js').then((m) =>
              m.loadActions(store, { ...env, call, task, user: info.infouser[0] ?? null })
            )
        : undefined,
  })
  for (const [name, preset] of Object.entries(params.presets)) {
    if (typeof preset === 'string') store.setText(name, preset)
    else if (preset !== null && preset !== undefined) store.setValue(name, preset)
  }
  if (local) {
    store.setEditing(true)
    for (const [name, value] of Object.entries(local)) store.setValue(name, value)
  }
  return store
}

/** Route /forms/:case (spec 000 §2): the form screen in one of its five cases. */
export function FormsPage() {
  const { t, i18n } = useTranslation()
  const { case: formCase } = useParams()
  const [search] = useSearchParams()
  const query = search.toString()
  const params = useMemo(() => readFormParams(query), [query])
  const device = useDevice()
  const [phase, setPhase] = useState<Phase>({ name: 'loading' })
  /** The form's name, kept while the case reloads after a save (and once its task is done). */
  const [formName, setFormName] = useState<string>()
  const [saving, setSaving] = useState(false)
  /** Another save changed the case after it was loaded: this one was refused and a reload is offered. */
  const [caseChanged, setCaseChanged] = useState(false)
  const [reloadCount, setReloadCount] = useState(0)
  /** The newest document an action generated (create_doc): the doc tab shows it before any reload. */
  const [createdDoc, setCreatedDoc] = useState<string>()
  const [preview, setPreview] = useState<{ path: string; real_name: string; url: string } | null>(null)
  const savingRef = useRef(false)
  // react-i18next hands out a new `i18n` on a language switch; the loaded case must not follow it.
  const i18nRef = useRef(i18n)
  i18nRef.current = i18n

  useEffect(() => {
    if (!isFormCase(formCase)) return
    const abort = new AbortController()
    setPhase({ name: 'loading' })
    setCaseChanged(false)
    setCreatedDoc(undefined)
    if (params.presetsInvalid) toasts.error(i18nRef.current.t('form_runtime.bad_presets'))
    call<FormInfo>(
      'POST',
      '/data/form/info/user/token',
      { type: formCase, data: params.data, key_process: params.keyProcess, token: params.token },
      { signal: abort.signal, firstLoad: true }
    )
      .then(async (body) => {
        const info = body.data!
        setFormName(info.form.name)
        if (formCase === 'new') void loadDone()
        if ((formCase === 'enter' || formCase === 'approve') && info.status_task !== 'pending') {
          setPhase({ name: 'task_done' })
          return
        }
        await startScripting(info.jsonconfig)
        const texts = await formTexts(info.jsonconfig, shownLanguage(i18nRef.current.language))
        if (abort.signal.aborted) return
        const store = buildStore(formCase, info, params, texts, {
          i18n: i18nRef.current,
          reload: () => setReloadCount((n) => n + 1),
          documentCreated: setCreatedDoc,
          scripting: browserScripting,
          toast: (kind, text) => toasts[kind](text),
        })
        renderers.preload(store.config.fields.map((field) => field.type))
        void store.start()
        setPhase({ name: 'ready', info, store })
      })
      .catch((error: unknown) => {
        if (abort.signal.aborted) return
        setPhase({ name: 'failed', message: error instanceof Error ? error.message : String(error) })
      })
    return () => abort.abort()
    // Not on a language switch: reloading would drop what the user typed.
  }, [formCase, params, reloadCount])

  const ready = phase.name === 'ready' ? phase : null
  // A language switch shows the form's own translations; the values typed stay (the views remount).
  const language = shownLanguage(i18n.language)
  ready?.store.localize(language)
  // Services live as long as the case shown: a resize or a language switch keeps them and their files.
  const services = useMemo(() => {
    if (!ready) return null
    const { info } = ready
    const made = createFormServices(
      { data: params.data, keyProcess: info.key_process || params.keyProcess, token: info.token || params.token },
      () => i18nRef.current.language,
      (file) => {
        void made.fileSrc(file.path).then(
          (url) => setPreview({ ...file, url }),
          () => toasts.error(i18nRef.current.t('error.generic'))
        )
      }
    )
    return made
  }, [ready, params])
  // Files fetched for this case are let go with it.
  useEffect(() => () => services?.release(), [services])
  const context = useMemo(
    () => (ready && services ? { store: ready.store, renderers, device, services } : null),
    [ready, services, device]
  )
  const editKey = localEditsKey(params)

  /** One save through the case's route; what happens after follows spec 000 §4. */
  const save = useCallback(
    /** True when the save went through or its screen must change (the case changed meanwhile). */
    async (
      options: { decision?: Decision; comment?: string; suppress?: boolean; goToState?: string } = {}
    ): Promise<boolean> => {
      if (!ready || !isFormCase(formCase) || savingRef.current) return false
      const { store, info } = ready
      await store.idle()
      const editing = store.isEditing()
      const route = formCase === 'see' || (editing && formCase !== 'approve') ? SAVE_ROUTES.edit : SAVE_ROUTES[formCase]
      const fields: Record<string, string> = {
        data: params.data,
        key_process: info.key_process || params.keyProcess,
        token: info.token || params.token,
      }
      if (formCase === 'approve' && options.decision) {
        fields.decision = JSON.stringify({ id: options.decision.id })
        if (options.comment) fields.comment = options.comment
        // An approver who edited values sends them with the decision; the server takes what the step may edit.
        if (editing) fields.flow_values = JSON.stringify(store.payload())
      } else {
        fields.flow_values = JSON.stringify(store.payload())
      }
      if (formCase === 'new' && Object.keys(params.vars).length > 0) fields.params = JSON.stringify(params.vars)
      if (formCase !== 'new') fields.version = String(info.version)
      if (options.goToState) fields.go_to_state = options.goToState
      savingRef.current = true
      setSaving(true)
      try {
        const answer = (await call<Saved>('POST', route, fields)).data ?? {}
        toasts.success(t('info_sent_success'))
        // A save that named the state to move to (a save action's go_to_state) says it moved.
        if (options.goToState) toasts.success(t('estado_actualizado_exito'))
        const local = storage()
        if (local) clearLocalEdits(local, editKey)
        if (formCase === 'new') {
          if (!options.suppress) setPhase({ name: 'done', info, store, saved: answer })
        } else if (!params.invisible && !options.suppress) {
          setReloadCount((n) => n + 1)
        }
        return true
      } catch (error) {
        // A failed POST also clears the uploads still pending (spec 000 §8).
        services?.clearPendingUploads()
        if (error instanceof CallError && (error.body as { reason?: unknown } | undefined)?.reason === 'case_changed') {
          setCaseChanged(true)
          return true
        }
        toasts.error(error instanceof CallError ? error.message : t('error.generic'))
        return false
      } finally {
        savingRef.current = false
        setSaving(false)
      }
    },
    [ready, formCase, params, editKey, t, services]
  )

  // The send and save elements (and, later, the save and send actions) submit through the store.
  useEffect(() => {
    if (!ready) return
    const { store } = ready
    store.setSubmitHandler((action, goToState) => {
      if (!store.mayProceed(action)) {
        store.goToLastPage()
        return
      }
      void save({ goToState })
    })
    return () => store.setSubmitHandler(undefined)
  }, [ready, save])

  // Edits of "edit values" are kept in the browser until saved (spec 000 §5).
  useEffect(() => {
    if (!ready || !(formCase === 'see' || formCase === 'approve')) return
    const { store } = ready
    return store.subscribe(() => {
      const local = storage()
      if (local && store.isEditing()) writeLocalEdits(local, editKey, store.payload())
    })
  }, [ready, formCase, editKey])

  // Invisible mode saves by itself once the scripts (and, with the devices plugin, the scans) are done.
  useEffect(() => {
    if (!ready || !params.invisible) return
    let cancelled = false
    void ready.store.idle().then(() => {
      if (!cancelled) void save()
    })
    return () => {
      cancelled = true
    }
  }, [ready, params.invisible, save])

  if (!isFormCase(formCase)) {
    return (
      <Page title={t('page.forms.title')} testId="page-forms">
        <p className="notice notice--error" data-testid="forms-unknown-case">
          {t('page.forms.unknown_case', { value: formCase ?? '' })}
        </p>
      </Page>
    )
  }
  const title = formName ?? t('page.forms.title')
  return (
    <Page title={title} testId="page-forms" variant="form">
      <p className="badge" data-testid="forms-case" data-case={formCase}>
        {t('page.forms.mode', { mode: t(`page.forms.case.${formCase}`) })}
        {ready?.info.step && ` · ${ready.info.step.label}`}
      </p>
      {phase.name === 'loading' && (
        <div className="card fcard" role="status" aria-busy="true" data-testid="form-loading">
          {t('form_runtime.loading')}
        </div>
      )}
      {phase.name === 'failed' && (
        <p className="notice notice--error" role="alert" data-testid="form-error">
          {phase.message}
        </p>
      )}
      {phase.name === 'task_done' && (
        <p className="notice" role="status" data-testid="form-task-done">
          {t('tarea_realizada')}
        </p>
      )}
      {phase.name === 'done' && (
        <Suspense fallback={<div className="card fcard" aria-busy="true" />}>
          <DoneScreen
            saved={phase.saved}
            onRedo={() => {
              phase.store.reset(params.presets)
              setPhase({ name: 'ready', info: phase.info, store: phase.store })
            }}
          />
        </Suspense>
      )}
      {ready && params.invisible && (
        <div className="card fcard" role="status" aria-busy={saving} data-testid="form-invisible">
          {saving ? t('form_runtime.sending') : t('form_runtime.loading')}
        </div>
      )}
      {ready && caseChanged && (
        <div className="notice notice--error" role="alert" data-testid="form-case-changed">
          <p>{t('form_runtime.case_changed')}</p>
          <button
            type="button"
            className="button button--primary"
            onClick={() => {
              // The kept edits were made on the old values: reapplying them would overwrite the newer ones.
              const local = storage()
              if (local) clearLocalEdits(local, editKey)
              setReloadCount((n) => n + 1)
            }}
          >
            {t('form_runtime.reload')}
          </button>
        </div>
      )}
      {ready && !params.invisible && context && (
        <FormRuntime
          key={language}
          context={context}
          vars={parseVars(ready.info.values_params)}
          docPath={createdDoc ?? ready.info.doc_path}
          docPathLink={ready.info.doc_path_link}
          decisions={ready.info.decisions}
          mayEditValues={ready.info.may_edit_values}
          saving={saving}
          onSend={() => ready.store.requestSubmit('send')}
          onSave={() => ready.store.requestSubmit('save')}
          onToggleEdit={() => {
            const { store } = ready
            if (store.isEditing()) {
              const local = storage()
              if (local) clearLocalEdits(local, editKey)
              store.setEditing(false, ready.info.values_init)
            } else store.setEditing(true)
          }}
          onDecision={(decision, comment) => save({ decision, comment })}
        />
      )}
      {preview && (
        <Suspense fallback={null}>
          <FilePreview
            key={preview.path}
            file={{ name: preview.real_name, url: preview.url }}
            onClose={() => setPreview(null)}
          />
        </Suspense>
      )}
    </Page>
  )
}
