/** The forms a designer can open (GET /inside/designer/forms), and a new one, blank or from a template. */
import { useState, type FormEvent } from 'react'
import { Link, useNavigate } from 'react-router'
import { useTranslation } from 'react-i18next'
import { designerApi } from '../lib/designer_api.js'
import { useCall } from '../lib/use_call.js'
import { Failure } from './Failure.js'

export function FormsPage() {
  const { t, i18n } = useTranslation()
  const loaded = useCall((signal) => designerApi.forms(signal), [])
  const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString(i18n.language) : t('never'))
  if (loaded.state === 'loading') return <p aria-busy="true">{t('loading')}</p>
  if (loaded.state === 'failed') return <Failure error={loaded.error} />
  const { forms } = loaded.data
  return (
    <section>
      <h1>{t('forms')}</h1>
      <NewForm />
      {forms.length === 0 ? (
        <p>{t('no_forms')}</p>
      ) : (
        <table className="forms" data-testid="forms">
          <thead>
            <tr>
              <th>{t('name')}</th>
              <th>{t('key')}</th>
              <th>{t('versions')}</th>
              <th>{t('latest_version')}</th>
              <th>{t('draft_updated_at')}</th>
            </tr>
          </thead>
          <tbody>
            {forms.map((form) => (
              <tr key={form.id}>
                <td>
                  <Link to={`/forms/${form.id}`}>{form.name}</Link>
                </td>
                <td>
                  <code>{form.key}</code>
                </td>
                <td>{form.versions}</td>
                <td>{form.latest_version ?? t('never')}</td>
                <td>{when(form.draft_updated_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  )
}

/** A new form: its name and a template (blank: one empty page); it opens in the editor once created. */
function NewForm() {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const templates = useCall((signal) => designerApi.templates(signal), [])
  const [name, setName] = useState('')
  const [template, setTemplate] = useState('')
  const [failed, setFailed] = useState<string>()
  const [busy, setBusy] = useState(false)
  const create = async (event: FormEvent) => {
    event.preventDefault()
    setBusy(true)
    try {
      const { id } = await designerApi.create(name.trim(), template || undefined)
      navigate(`/forms/${id}`)
    } catch (error) {
      setFailed(error instanceof Error ? error.message : String(error))
      setBusy(false)
    }
  }
  return (
    <form className="new-form" aria-label={t('new_form')} onSubmit={(event) => void create(event)}>
      <label>
        {t('new_form_name')}{' '}
        <input value={name} onChange={(event) => setName(event.target.value)} required maxLength={200} />
      </label>{' '}
      <label>
        {t('new_form_template')}{' '}
        <select value={template} onChange={(event) => setTemplate(event.target.value)}>
          <option value="">{t('new_form_blank')}</option>
          {templates.state === 'done' &&
            templates.data.templates.map((one) => (
              <option key={one.id} value={one.id}>
                {one.name}
              </option>
            ))}
        </select>
      </label>{' '}
      <button type="submit" disabled={busy || name.trim() === ''}>
        {t('new_form_create')}
      </button>
      {failed && (
        <p className="notice notice--error" role="alert">
          {failed}
        </p>
      )}
    </form>
  )
}
