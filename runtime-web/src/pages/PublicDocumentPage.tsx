import { useTranslation } from 'react-i18next'
import { Page } from '../components/Page.js'

/** Route /static/public/:token (spec 000 §2, 001 §2): public shared-document viewer. */
export function PublicDocumentPage() {
  const { t } = useTranslation()
  return (
    <Page title={t('page.public_document.title')} testId="page-public-document">
      <p className="lead">{t('page.public_document.body')}</p>
    </Page>
  )
}
