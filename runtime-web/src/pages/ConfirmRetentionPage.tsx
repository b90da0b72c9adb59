import { useTranslation } from 'react-i18next'
import { Page } from '../components/Page.js'

/** Route /confirmretention?code&user (spec 000 §2, 001 §2): retention confirmation, delete or archive. */
export function ConfirmRetentionPage() {
  const { t } = useTranslation()
  return (
    <Page title={t('page.confirm_retention.title')} testId="page-confirm-retention">
      <p className="lead">{t('page.confirm_retention.body')}</p>
    </Page>
  )
}
