/** The forms a designer can open (GET /inside/designer/forms). */
import { Link } from 'react-router'
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
