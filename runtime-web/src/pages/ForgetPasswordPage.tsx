import { useTranslation } from 'react-i18next'
import { Page } from '../components/Page.js'

/** Route /forgetpassword/:token (spec 000 §2): password recovery and change. */
export function ForgetPasswordPage() {
  const { t } = useTranslation()
  return (
    <Page title={t('page.forget_password.title')} testId="page-forget-password">
      <p className="lead">{t('page.forget_password.body')}</p>
    </Page>
  )
}
