import { useTranslation } from 'react-i18next'
import { Page } from '../components/Page.js'

/** Route /document_management (spec 000 §2): destination after login. */
export function DocumentManagementPage() {
  const { t } = useTranslation()
  return (
    <Page title={t('page.document_management.title')} testId="page-document-management">
      <p className="lead">{t('page.document_management.body')}</p>
    </Page>
  )
}
