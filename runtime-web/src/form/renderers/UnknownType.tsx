import { useTranslation } from 'react-i18next'

/** A type no renderer knows (a plugin that is not enabled): said plainly instead of failing the form. */
export function UnknownType({ type }: { type: string }) {
  const { t } = useTranslation()
  return (
    <p className="notice" data-testid="unknown-type">
      {t('form_runtime.unknown_type', { type })}
    </p>
  )
}
