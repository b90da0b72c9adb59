import { useEffect, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { withDefaults, type CaseMode } from '@tramita/contract'
import { localizeConfig } from '@tramita/contract/translations'
import { registry } from 'virtual:tramita-field-types'
import { useDevice } from '../hooks/useDevice.js'
import { FormRuntime } from '../form/FormRuntime.js'
import { createRendererRegistry } from '../form/renderers/index.js'
import { browserScripting } from '../form/scripts.js'
import { createFormServices } from '../form/services.js'
import { FormStore } from '../form/store.js'
import { shownLanguage } from '@tramita/web/language'
import type { Language } from '@tramita/i18n'

/** What the designer posts (same origin): the form as it is designed, the case, the step and values. */
export interface PreviewMessage {
  type: 'tramita:preview'
  jsonconfig: unknown
  mode: 'new' | 'enter' | 'approve' | 'see'
  /** The step shown (its show_on_task fields); `start` for case new. */
  task?: string
  values: Record<string, unknown>
  /** The language whose translations the form shows; none: the frame's own language. */
  language?: Language
}

const renderers = createRendererRegistry()

function isPreview(data: unknown): data is PreviewMessage {
  return typeof data === 'object' && data !== null && (data as { type?: unknown }).type === 'tramita:preview'
}

/**
 * Route /preview, inside the designer's frame: the real form runtime on the document the designer
 * posts, at the frame's width (so its device thresholds are the runtime's own). Nothing is saved: a
 * send shows what would be sent.
 */
export function PreviewPage() {
  const { t, i18n } = useTranslation()
  const device = useDevice()
  const [message, setMessage] = useState<PreviewMessage | null>(null)
  const [sent, setSent] = useState<string | null>(null)

  useEffect(() => {
    const receive = (event: MessageEvent) => {
      if (event.origin !== window.location.origin || event.source !== window.parent || !isPreview(event.data)) return
      setSent(null)
      setMessage(event.data)
    }
    window.addEventListener('message', receive)
    window.parent.postMessage({ type: 'tramita:preview-ready' }, window.location.origin)
    return () => window.removeEventListener('message', receive)
  }, [])

  const store = useMemo(() => {
    if (!message) return null
    try {
      const config = withDefaults(message.jsonconfig, registry)
      const made = new FormStore({
        config,
        registry,
        mode: message.mode as CaseMode,
        task: message.mode === 'new' ? 'start' : message.task,
        values: message.values,
        vars: {},
        scripting: browserScripting,
        // The designer's forms often have translations: this route loads the code that applies them.
        texts: { language: message.language ?? shownLanguage(i18n.language), localize: localizeConfig },
      })
      renderers.preload(config.fields.map((field) => field.type))
      void made.start()
      return made
    } catch {
      return null
    }
  }, [message])

  useEffect(() => {
    if (!store) return
    store.setSubmitHandler(() => setSent(JSON.stringify(store.payload(), null, 2)))
    return () => store.setSubmitHandler(undefined)
  }, [store])

  const services = useMemo(
    () =>
      createFormServices(
        { data: '', keyProcess: '', token: '' },
        () => i18n.language,
        () => undefined
      ),
    [i18n]
  )
  useEffect(() => () => services.release(), [services])
  const context = useMemo(() => (store ? { store, renderers, device, services } : null), [store, device, services])

  if (!message || !store || !context) {
    return (
      <p className="notice" role="status" data-testid="preview-waiting">
        {message ? t('preview.invalid') : t('form_runtime.loading')}
      </p>
    )
  }
  return (
    <main className="preview" data-testid="preview" data-device={device}>
      <FormRuntime
        context={context}
        vars={{}}
        docPath=""
        docPathLink=""
        decisions={[]}
        mayEditValues={message.mode === 'approve'}
        saving={false}
        onSend={() => store.requestSubmit('send')}
        onSave={() => store.requestSubmit('save')}
        onToggleEdit={() => store.setEditing(!store.isEditing())}
        onDecision={async () => {
          setSent(JSON.stringify(store.payload(), null, 2))
          return true
        }}
      />
      {sent !== null && (
        <section className="card" data-testid="preview-sent">
          <p>{t('preview.not_saved')}</p>
          <pre>{sent}</pre>
        </section>
      )}
    </main>
  )
}
