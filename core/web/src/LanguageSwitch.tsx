import { useTranslation } from 'react-i18next'
import { isLanguage, type Language } from '@tramita/i18n'
import { AUTONYMS, LANGUAGES, rememberLanguage } from './language.js'

/** es / en / zh; the choice is remembered in localStorage and set on <html lang>. */
export function LanguageSwitch() {
  const { t, i18n } = useTranslation()
  const current: Language = isLanguage(i18n.language) ? i18n.language : 'es'
  return (
    // Named by aria-label alone: a wrapping <label> and hidden text would say it twice.
    <select
      className="lang-switch"
      data-testid="lang-switch"
      value={current}
      aria-label={t('language.label')}
      onChange={(event) => {
        const next = event.target.value
        if (!isLanguage(next)) return
        rememberLanguage(next)
        void i18n.changeLanguage(next)
      }}
    >
      {LANGUAGES.map((lang) => (
        <option key={lang} value={lang} lang={lang} title={t(`language.${lang}`)}>
          {AUTONYMS[lang]}
        </option>
      ))}
    </select>
  )
}
