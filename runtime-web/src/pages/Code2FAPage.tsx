import { useTranslation } from 'react-i18next'
import { Page } from '../components/Page.js'

/** Route /static/code2FA (spec 000 §2): two-factor code entry. */
export function Code2FAPage() {
  const { t } = useTranslation()
  return (
    <Page title={t('page.code_2fa.title')} testId="page-code-2fa">
      <p className="lead">{t('page.code_2fa.body')}</p>
    </Page>
  )
}
