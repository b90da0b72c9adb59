import { useTranslation } from 'react-i18next'
import { Page } from '../components/Page.js'

/** Route / (spec 000 §2): sign-in; the login itself arrives in a later issue. */
export function LoginPage() {
  const { t } = useTranslation()
  return (
    <Page title={t('page.login.title')} testId="page-login">
      <p className="lead">{t('page.login.body')}</p>
    </Page>
  )
}
