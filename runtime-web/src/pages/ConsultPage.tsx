import { useEffect, useState } from 'react'
import { useSearchParams } from 'react-router'
import { Page } from '../components/Page.js'
import { useAreaTexts, type AreaLoaders } from '../lib/area_texts.js'
import { ConsultForm } from '../components/consult/ConsultForm.js'
import { ConsultHeader } from '../components/consult/ConsultHeader.js'
import { ConsultResult } from '../components/consult/ConsultResult.js'
import { FilePreview } from '../components/FilePreview.js'
import { call, CallError, GENERIC_ERROR } from '@tramita/web/api'
import type { ActivityEntry, BasicForm, CompanyInfo, FileLink, FormByFlow } from '../lib/consultation.js'
import { toasts } from '@tramita/web/toasts'

// The page's texts come with it (core/i18n/locales/consultation), not with every page's language file.
const LOADERS: AreaLoaders = {
  es: () => import('@tramita/i18n/locales/consultation/es.json'),
  en: () => import('@tramita/i18n/locales/consultation/en.json'),
  zh: () => import('@tramita/i18n/locales/consultation/zh.json'),
}

type Loaded =
  | { status: 'loading' }
  | { status: 'ready'; form: BasicForm }
  /** The form cannot be consulted: the message key to show instead of the inputs. */
  | { status: 'closed'; messageKey: 'this_form_dont_have_external' | 'process_not_external' }
  | { status: 'unreachable' }

interface Consulted {
  /** The signed case id the lookup answered; it also opens the case's shown files. */
  idFlow: string
  info: FormByFlow
  activities: ActivityEntry[] | null
}

/**
 * Route /consult?data=<form key>: the public consultation of a process by its code (spec 000 §2, §7,
 * §8). No session needed. The server answers every failed lookup the same way (consulta_incorrecta).
 */
export function ConsultPage() {
  const { t } = useAreaTexts('consultation', LOADERS)
  const [params] = useSearchParams()
  const formKey = params.get('data')?.trim() ?? ''
  const [company, setCompany] = useState<CompanyInfo | null>(null)
  const [loaded, setLoaded] = useState<Loaded>({ status: 'loading' })
  const [sending, setSending] = useState(false)
  const [result, setResult] = useState<Consulted | null>(null)
  const [preview, setPreview] = useState<FileLink | null>(null)

  useEffect(() => {
    const abort = new AbortController()
    call<CompanyInfo>('GET', '/data/config/infocompany', {}, { signal: abort.signal })
      .then((body) => setCompany(body.data ?? null))
      .catch(() => undefined)
    if (!formKey) {
      setLoaded({ status: 'closed', messageKey: 'this_form_dont_have_external' })
      return () => abort.abort()
    }
    setLoaded({ status: 'loading' })
    call<BasicForm>('POST', '/inside/forms/info_basicform', { data: formKey }, { signal: abort.signal })
      .then((body) => {
        const form = body.data!
        setLoaded(
          form.external_consultation?.enable === false
            ? { status: 'closed', messageKey: 'process_not_external' }
            : { status: 'ready', form }
        )
      })
      .catch((error: unknown) => {
        if (abort.signal.aborted) return
        // A refusal from the server (unknown form, no external view) reads as "no external view";
        // a network failure is said as such, since trying again later may work.
        const refused = error instanceof CallError && error.message !== GENERIC_ERROR
        setLoaded(
          refused ? { status: 'closed', messageKey: 'this_form_dont_have_external' } : { status: 'unreachable' }
        )
      })
    return () => abort.abort()
  }, [formKey])

  async function consult(form: BasicForm, code: string, verification: string) {
    setSending(true)
    setResult(null)
    setPreview(null)
    try {
      const flow = await call<{ idflow: string }>('POST', '/inside/forms/validation_flow', {
        idform: form.id_form,
        code_process: code,
        dynamic: verification,
      })
      const ids = { id_form: form.id_form, id_flow: flow.data!.idflow }
      const [info, record] = await Promise.all([
        call<FormByFlow>('POST', '/inside/forms/info_formxflow', ids),
        form.external_consultation.activity_register
          ? call<ActivityEntry[]>('POST', '/data/forms/record_info', ids)
          : null,
      ])
      setResult({ idFlow: ids.id_flow, info: info.data!, activities: record ? (record.data ?? []) : null })
      toasts.success(t('consulta_correcta'))
    } catch (error) {
      const message = error instanceof Error ? error.message : ''
      if (message === t('process_not_external')) {
        setLoaded({ status: 'closed', messageKey: 'process_not_external' })
        return
      }
      // The server's refusal is consulta_incorrecta (or "too many requests", which is worth saying);
      // without an answer from it, consulta_incorrecta too.
      const refused = error instanceof CallError && message !== GENERIC_ERROR
      toasts.error(refused ? message : t('consulta_incorrecta'))
    } finally {
      setSending(false)
    }
  }

  const form = loaded.status === 'ready' ? loaded.form : null
  const settings = form?.external_consultation
  return (
    <Page title={t('consultation.title')} testId="page-consult">
      <ConsultHeader company={company} form={form} />
      {loaded.status === 'loading' && <p className="muted">{t('app.loading')}</p>}
      {loaded.status === 'closed' && (
        <p className="notice notice--error" role="alert" data-testid="consult-closed">
          {t(loaded.messageKey)}
        </p>
      )}
      {loaded.status === 'unreachable' && (
        <p className="notice notice--error" role="alert">
          {t('error.network')}
        </p>
      )}
      {form && settings && !result && (
        <ConsultForm
          verificationLabel={
            settings.select_restrinct_consult
              ? settings.label_restrinct_consult || t('consultation.verification')
              : null
          }
          sending={sending}
          onConsult={(code, verification) => void consult(form, code, verification)}
        />
      )}
      {form && result && (
        <ConsultResult
          idFlow={result.idFlow}
          info={result.info}
          states={form.estados}
          activities={result.activities}
          onPreview={setPreview}
        />
      )}
      {preview && <FilePreview key={preview.url} file={preview} onClose={() => setPreview(null)} />}
    </Page>
  )
}
