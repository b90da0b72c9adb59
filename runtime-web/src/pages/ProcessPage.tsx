import { useTranslation } from 'react-i18next'
import { Page } from '../components/Page.js'

/** Route /process (spec 000 §2): process screen (external consultation by code). */
export function ProcessPage() {
  const { t } = useTranslation()
  return (
    <Page title={t('page.process.title')} testId="page-process">
      <p className="lead">{t('page.process.body')}</p>
    </Page>
  )
}
