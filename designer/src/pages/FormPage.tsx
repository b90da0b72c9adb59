/**
 * One form's draft in the editor (canvas/Editor.tsx): opened through the model, changed only by its
 * commands, and saved back as it is designed.
 */
import { useMemo } from 'react'
import { Link, useParams } from 'react-router'
import { useTranslation } from 'react-i18next'
// The core's types and the enabled plugins' (their `./types`, listed at build time by the Vite config).
import { registry } from 'virtual:tramita-field-types'
import { actionTypes } from 'virtual:tramita-action-types'
import { openDocument, validateDocument } from '../model/index.js'
import { designerApi, type FormDetail } from '../lib/designer_api.js'
import { useCall } from '../lib/use_call.js'
import { Editor } from '../canvas/Editor.js'
import { Failure } from './Failure.js'

export function FormPage() {
  const { t } = useTranslation()
  const id = Number(useParams().id)
  const loaded = useCall((signal) => designerApi.form(id, signal), [id])
  if (loaded.state === 'loading') return <p aria-busy="true">{t('loading')}</p>
  if (loaded.state === 'failed') return <Failure error={loaded.error} />
  return <FormView form={loaded.data} />
}

function FormView({ form }: { form: FormDetail }) {
  const { t } = useTranslation()
  const { doc, problems } = useMemo(() => {
    const doc = openDocument({
      name: form.name,
      jsonconfig: form.draft?.jsonconfig ?? { form: { pages: [] } },
      process: form.draft?.process ?? {},
    })
    return { doc, problems: validateDocument(doc, registry, actionTypes).length }
  }, [form])
  return (
    <section data-testid="form-view">
      <p>
        <Link to="/">← {t('back')}</Link>
      </p>
      <Editor
        key={form.id}
        formId={form.id}
        initial={doc}
        problems={problems}
        registry={registry}
        actionTypes={actionTypes}
        versions={form.versions.map((v) => v.version)}
      />
    </section>
  )
}
