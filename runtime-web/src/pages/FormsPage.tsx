import { useParams } from 'react-router'
import { useTranslation } from 'react-i18next'
import { Page } from '../components/Page.js'

/** The form cases of spec 000 §2. */
export const FORM_CASES = ['new', 'enter', 'approve', 'see', 'edit'] as const
export type FormCase = (typeof FORM_CASES)[number]

function isFormCase(value: string | undefined): value is FormCase {
  return (FORM_CASES as readonly string[]).includes(value ?? '')
}

/** Route /forms/:case (spec 000 §2): the form screen in one of its five cases. */
export function FormsPage() {
  const { t } = useTranslation()
  const { case: formCase } = useParams()
  if (!isFormCase(formCase)) {
    return (
      <Page title={t('page.forms.title')} testId="page-forms">
        <p className="notice notice--error" data-testid="forms-unknown-case">
          {t('page.forms.unknown_case', { value: formCase ?? '' })}
        </p>
      </Page>
    )
  }
  return (
    <Page title={t('page.forms.title')} testId="page-forms">
      <p className="badge" data-testid="forms-case" data-case={formCase}>
        {t('page.forms.mode', { mode: t(`page.forms.case.${formCase}`) })}
      </p>
      <p className="lead">{t('page.forms.body')}</p>
    </Page>
  )
}
