import { useId, useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'

interface Props {
  /** The verification input's label from the server, or null when the process asks for none. */
  verificationLabel: string | null
  sending: boolean
  onConsult: (code: string, verification: string) => void
}

/** Process code (required) and the optional verification value (required when asked for). */
export function ConsultForm({ verificationLabel, sending, onConsult }: Props) {
  const { t } = useTranslation()
  const codeId = useId()
  const verificationId = useId()
  const [code, setCode] = useState('')
  const [verification, setVerification] = useState('')
  // Forgiving code typing (case, hyphens, O/0) is the server's job; here only blanks are trimmed.
  const allowed = code.trim() !== '' && (verificationLabel === null || verification.trim() !== '') && !sending

  function submit(event: FormEvent) {
    event.preventDefault()
    if (allowed) onConsult(code.trim(), verificationLabel === null ? '' : verification.trim())
  }

  return (
    <form className="consult-form" onSubmit={submit} aria-busy={sending} data-testid="consult-form">
      <div className="consult-form__field">
        <label htmlFor={codeId}>{t('consultation.process_code')}</label>
        <input
          id={codeId}
          name="code_process"
          value={code}
          required
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          placeholder={t('consultation.code_placeholder')}
          onChange={(event) => setCode(event.target.value)}
        />
      </div>
      {verificationLabel !== null && (
        <div className="consult-form__field">
          <label htmlFor={verificationId}>{verificationLabel}</label>
          <input
            id={verificationId}
            name="dynamic"
            value={verification}
            required
            autoComplete="off"
            onChange={(event) => setVerification(event.target.value)}
          />
        </div>
      )}
      <button type="submit" className="button consult-form__submit" disabled={!allowed}>
        {sending && <span className="consult-spinner" aria-hidden="true" />}
        {sending ? t('consultation.consulting') : t('consultation.consult')}
      </button>
    </form>
  )
}
