import { Link } from 'react-router'
import { useTranslation } from 'react-i18next'
import { Page } from '../components/Page.js'

/** Any path the shell does not know. */
export function NotFoundPage() {
  const { t } = useTranslation()
  return (
    <Page title={t('page.not_found.title')} testId="not-found">
      <p className="lead">{t('page.not_found.body')}</p>
      <p>
        <Link to="/" className="button">
          {t('page.not_found.back')}
        </Link>
      </p>
    </Page>
  )
}
