import { useEffect, useState, type FormEvent } from 'react'
import { Link, useNavigate, useParams } from 'react-router'
import { useTranslation } from 'react-i18next'
import { checkPassword, passwordRuleMessage, PASSWORD_RULES } from '@tramita/contract/rules'
import { Page } from '../components/Page.js'
import { call, CallError } from '@tramita/web/api'
import { toasts } from '@tramita/web/toasts'

/** Milliseconds before going home after a change (spec 000 §9). */
export const REDIRECT_AFTER_CHANGE_MS = 2000

/** Whether the link's token can still be used: asked of the server on load (it is not spent). */
type LinkState = 'checking' | 'valid' | 'invalid'

/**
 * Route /forgetpassword/:token (spec 000 §2): new password and confirmation with the live checklist
 * (the contract's checkPassword, the same rules the server enforces); send only when all hold. The
 * link is checked first, so a spent or bogus one says so before anything is typed.
 */
export function ForgetPasswordPage() {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const { token = '' } = useParams()
  const [link, setLink] = useState<LinkState>('checking')
  const [password, setPassword] = useState('')
  const [confirmation, setConfirmation] = useState('')
  const [busy, setBusy] = useState(false)
  const [serverRules, setServerRules] = useState<string[]>([])
  const check = checkPassword(password, confirmation)

  useEffect(() => {
    let live = true
    setLink('checking')
    call<{ valid: boolean }>('GET', `/data/changePassword/${encodeURIComponent(token)}`)
      .then((body) => live && setLink(body.data?.valid ? 'valid' : 'invalid'))
      .catch((error: unknown) => {
        // A refused check (rate limit, network) is not a verdict on the link: let the send say.
        if (!live) return
        toasts.error(error instanceof Error ? error.message : 'Error')
        setLink('valid')
      })
    return () => {
      live = false
    }
  }, [token])

  async function onSubmit(event: FormEvent) {
    event.preventDefault()
    if (!check.ok || busy) return
    setBusy(true)
    try {
      await call('PUT', `/data/changePassword/${encodeURIComponent(token)}`, { password, confirmation })
      toasts.success(t('change_pass_correct'))
      setTimeout(() => navigate('/'), REDIRECT_AFTER_CHANGE_MS)
    } catch (error) {
      toasts.error(error instanceof Error ? error.message : 'Error')
      const failed = error instanceof CallError ? (error.body as { failed?: string[] })?.failed : undefined
      setServerRules(failed ?? [])
      setBusy(false)
    }
  }

  if (link !== 'valid') {
    return (
      <Page title={t('page.forget_password.title')} testId="page-forget-password">
        {link === 'checking' ? (
          <p className="lead" role="status" aria-busy="true" data-testid="reset-link-checking">
            {t('page.forget_password.checking')}
          </p>
        ) : (
          <div data-testid="reset-link-invalid">
            <p className="notice notice--error" role="alert">
              {t('page.forget_password.invalid')}
            </p>
            <p>
              <Link className="button" to="/" state={{ view: 'recover' }}>
                {t('page.forget_password.ask_again')}
              </Link>
            </p>
          </div>
        )}
      </Page>
    )
  }

  return (
    <Page title={t('page.forget_password.title')} testId="page-forget-password">
      <form className="password-form" onSubmit={onSubmit}>
        <label>
          {t('password.new')}
          <input
            name="password"
            type="password"
            autoComplete="new-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </label>
        <label>
          {t('password.confirm')}
          <input
            name="confirmation"
            type="password"
            autoComplete="new-password"
            value={confirmation}
            onChange={(e) => setConfirmation(e.target.value)}
          />
        </label>
        <ul className="checklist" data-testid="password-checklist" aria-live="polite">
          {PASSWORD_RULES.map((rule) => {
            const ok = !check.failed.includes(rule)
            return (
              <li key={rule} className={ok ? 'checklist__ok' : 'checklist__no'} data-rule={rule} data-ok={ok}>
                <span aria-hidden="true">{ok ? '✓' : '✗'}</span> {t(passwordRuleMessage(rule, ok))}
              </li>
            )
          })}
          {serverRules
            .filter((rule) => rule === 'common' || rule === 'too_long')
            .map((rule) => (
              <li key={rule} className="checklist__no" data-rule={rule} data-ok="false">
                <span aria-hidden="true">✗</span> {t(`password.rules.${rule}`)}
              </li>
            ))}
        </ul>
        <button type="submit" className={`button ${check.ok ? '' : 'button--inactive'}`} disabled={!check.ok || busy}>
          {t('password.send')}
        </button>
      </form>
    </Page>
  )
}
