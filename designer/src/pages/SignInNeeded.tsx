import { useTranslation } from 'react-i18next'

/** No session (or an ended one): the runtime's root signs in, on the same origin and session. */
export function SignInNeeded() {
  const { t } = useTranslation()
  return (
    <p className="notice" data-testid="sign-in-needed">
      {t('sign_in_needed')} <a href="/">{t('sign_in')}</a>
    </p>
  )
}
