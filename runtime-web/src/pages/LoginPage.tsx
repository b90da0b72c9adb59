import { useEffect, useRef, useState, type CSSProperties, type FormEvent } from 'react'
import { Navigate, useLocation, useNavigate } from 'react-router'
import { useTranslation } from 'react-i18next'
import { call, CallError, readSession } from '@tramita/web/api'
import {
  afterLoginUrl,
  encryptForDirectory,
  prehash,
  sessionStorageWorks,
  solveCaptcha,
  writeSession,
  type CaptchaChallenge,
} from '../lib/auth.js'
import { toasts } from '@tramita/web/toasts'
import './login.css'

/** The four views of the login screen (spec 000 §2). */
type View = 'sign_in' | 'recover' | 'two_fa' | 'sent'

interface SecondFactor {
  id: number
  ticket: string
  name: string
  username: string
  /** Base32 seed and QR image when the user must enrol first. */
  secret: string | null
  qr: string | null
  max: number
}

interface LoginAnswer {
  id: number
  username: string
  name?: string
  two_fa: boolean
  required_tfa: boolean
  token_new: string | null
  ticket?: string
  secret_code?: string | null
  enrol?: { uri: string; qr: string } | null
  /** Wrong codes already counted against this sign-in's second step (the server's count). */
  attempts?: number
  attempts_max?: number
  message?: string
}

interface Company {
  company: string
  url_img: string
  login_background: string
  login_panel: string
  principal_host: string | null
}

/** The settings' images as the CSS variables the login styles read; unset ones keep the defaults. */
function loginImages(company: Company | null): CSSProperties {
  const style: Record<string, string> = {}
  // The server only stores paths and http(s) URLs without quotes or brackets, so url("…") holds them.
  const image = (ref: string, color: string) => `url("${ref}") center / cover no-repeat ${color}`
  if (company?.login_background) style['--login-background'] = image(company.login_background, '#1c1066')
  if (company?.login_panel) style['--login-panel'] = image(company.login_panel, 'var(--surface)')
  return style as CSSProperties
}

/** sessionStorage flag: the server asked for a captcha (spec 000 §4 keeps the flag on the client too). */
const CAPTCHA_FLAG = 'tramita.captcha'

function captchaFlag(): boolean {
  try {
    return sessionStorage.getItem(CAPTCHA_FLAG) === 'true'
  } catch {
    return false
  }
}

function setCaptchaFlag(on: boolean) {
  try {
    if (on) sessionStorage.setItem(CAPTCHA_FLAG, 'true')
    else sessionStorage.removeItem(CAPTCHA_FLAG)
  } catch {}
}

/** Where a signed-in user opening / goes: the home of spec 000 §2's destination after login. */
export const HOME_PATH = '/document_management'

/**
 * Route /: sign-in, recovery, second factor and the e-mail-sent confirmation. A signed-in user has
 * nothing to do here and is sent home. Another page may open the recovery view (`state.view`).
 */
export function LoginPage() {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const location = useLocation()
  const [signedIn] = useState(() => Boolean(readSession().token))
  const [view, setView] = useState<View>(() =>
    (location.state as { view?: unknown } | null)?.view === 'recover' ? 'recover' : 'sign_in'
  )
  const [company, setCompany] = useState<Company | null>(null)
  const [user, setUser] = useState('')
  const [password, setPassword] = useState('')
  const [showPassword, setShowPassword] = useState(false)
  const [captchaNeeded, setCaptchaNeeded] = useState(captchaFlag)
  const [captcha, setCaptcha] = useState<string | null>(null)
  const [solving, setSolving] = useState(false)
  const [busy, setBusy] = useState(false)
  const [recoverUser, setRecoverUser] = useState('')
  const [second, setSecond] = useState<SecondFactor | null>(null)
  const [code, setCode] = useState('')
  const [attempts, setAttempts] = useState(0)
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null)
  const [storageWorks] = useState(sessionStorageWorks)
  /** The password as sent (hash or ciphertext), kept only for the retry after the second factor. */
  const sentPassword = useRef('')

  useEffect(() => {
    document.title = `${t('page.login.title')} · ${t('app.name')}`
  }, [t])

  useEffect(() => {
    call<Company>('GET', '/data/config/infocompany')
      .then((body) => setCompany(body.data ?? null))
      .catch(() => undefined)
  }, [])

  const canSignIn = user.trim() !== '' && password !== '' && (!captchaNeeded || captcha !== null) && !busy

  async function runCaptcha() {
    setSolving(true)
    try {
      const body = await call<CaptchaChallenge>('GET', '/data/captcha')
      setCaptcha(body.data ? await solveCaptcha(body.data) : null)
    } catch (error) {
      toasts.error(error instanceof Error ? error.message : 'Error')
    } finally {
      setSolving(false)
    }
  }

  function requireCaptcha() {
    setCaptchaNeeded(true)
    setCaptchaFlag(true)
    setCaptcha(null)
  }

  async function finish(answer: LoginAnswer) {
    if (!answer.token_new) return
    writeSession(answer.token_new, answer.username)
    setCaptchaFlag(false)
    sentPassword.current = ''
    toasts.success(t('login_correct'))
    const target = afterLoginUrl(answer.token_new, company?.principal_host)
    if (target.startsWith('/')) navigate(target)
    else window.location.assign(target)
  }

  async function signIn(extra: Record<string, string> = {}) {
    const body = await call<LoginAnswer>('PUT', '/data/login', {
      user: user.trim(),
      password: sentPassword.current,
      side_login: 'admin',
      type_login: 'normal',
      ...(captcha ? { captcha } : {}),
      ...extra,
    })
    return body.data!
  }

  async function onSignIn(event: FormEvent) {
    event.preventDefault()
    if (!canSignIn) return
    setBusy(true)
    try {
      const ldap = await call<{ public_key: string } | false>('POST', '/inside/users/validate/ldap', {
        name_user: user.trim(),
      })
      sentPassword.current = ldap.data
        ? await encryptForDirectory(ldap.data.public_key, password)
        : await prehash(password)
      const answer = await signIn()
      if (answer.two_fa && answer.ticket) {
        setSecond({
          id: answer.id,
          ticket: answer.ticket,
          name: answer.name || answer.username,
          username: answer.username,
          secret: answer.secret_code ?? null,
          qr: answer.enrol?.qr ?? null,
          max: answer.attempts_max ?? 3,
        })
        // A new sign-in continues the count of wrong codes still in its window.
        setAttempts(answer.attempts ?? 0)
        setCode('')
        setView('two_fa')
        return
      }
      await finish(answer)
    } catch (error) {
      const body = error instanceof CallError ? (error.body as { captcha_required?: boolean } | undefined) : undefined
      toasts.error(error instanceof Error ? error.message : 'Error')
      if (body?.captcha_required) requireCaptcha()
      else setCaptcha(null)
    } finally {
      setBusy(false)
    }
  }

  /** Back to sign-in: the password is always cleared (spec 000 §4), the user name too when asked. */
  function backToSignIn(clearUser: boolean) {
    if (clearUser) setUser('')
    setPassword('')
    sentPassword.current = ''
    setSecond(null)
    setRecoveryCodes(null)
    setView('sign_in')
  }

  async function onCode(event: FormEvent) {
    event.preventDefault()
    if (!second || code.trim() === '' || busy) return
    setBusy(true)
    try {
      const body = await call<boolean>('PUT', '/data/users/validate/two_fa', {
        id: second.id,
        ticket: second.ticket,
        pin: code.trim(),
      })
      if (body.data === true) {
        const codes = body.recovery_codes as string[] | null
        if (codes?.length) {
          setRecoveryCodes(codes)
          return
        }
        await finish(await signIn({ two_factor: second.ticket }))
        return
      }
      setAttempts(Number(body.attempts ?? attempts + 1))
      setCode('')
      toasts.error(t('active_2fa_incorrect'))
    } catch (error) {
      toasts.error(error instanceof Error ? error.message : 'Error')
      const failure =
        error instanceof CallError ? (error.body as { restart?: boolean; captcha_required?: boolean }) : undefined
      if (failure?.restart) {
        if (failure.captcha_required) requireCaptcha()
        backToSignIn(false)
      }
    } finally {
      setBusy(false)
    }
  }

  async function continueAfterCodes() {
    if (!second) return
    setBusy(true)
    try {
      await finish(await signIn({ two_factor: second.ticket }))
    } catch (error) {
      toasts.error(error instanceof Error ? error.message : 'Error')
      backToSignIn(false)
    } finally {
      setBusy(false)
    }
  }

  async function onRecover(event: FormEvent) {
    event.preventDefault()
    if (!recoverUser.trim() || busy) return
    setBusy(true)
    try {
      await call('PUT', `/data/forgetPassword/${encodeURIComponent(recoverUser.trim())}`)
      setView('sent')
    } catch (error) {
      toasts.error(error instanceof Error ? error.message : 'Error')
    } finally {
      setBusy(false)
    }
  }

  if (signedIn) return <Navigate to={HOME_PATH} replace />

  const name = company?.company || t('app.name')
  return (
    <section className="login" data-testid="page-login" style={loginImages(company)}>
      {/* The wide layout's left half: the settings' background image, or else the product's mark. */}
      {!company?.login_background && (
        <div className="login__aside" data-testid="login-aside" aria-hidden="true">
          {company?.url_img ? (
            <img className="login__aside-logo" src={company.url_img} alt="" />
          ) : (
            <span className="login__aside-mark">{name.charAt(0).toUpperCase()}</span>
          )}
          <span className="login__aside-name">{name}</span>
          <span className="login__aside-tagline">{t('app.tagline')}</span>
        </div>
      )}
      <div className="login__panel">
        {company?.url_img ? (
          <img className="login__logo" src={company.url_img} alt={company.company} />
        ) : (
          <div className="login__logo login__logo--text">{company?.company ?? t('app.name')}</div>
        )}

        {view === 'sign_in' && (
          <form className="login__form" onSubmit={onSignIn} data-testid="login-sign-in" noValidate>
            <h1>{t('page.login.title')}</h1>
            {!storageWorks && (
              <p className="notice notice--error" role="alert" data-testid="no-session-storage">
                {t('no_session_storage')}
              </p>
            )}
            <label>
              {t('login.user')}
              <input
                name="user"
                autoComplete="username"
                value={user}
                onChange={(e) => setUser(e.target.value)}
                required
              />
            </label>
            <label>
              {t('login.password')}
              <span className="login__password">
                <input
                  name="password"
                  type={showPassword ? 'text' : 'password'}
                  autoComplete="current-password"
                  value={password}
                  onChange={(e) => setPassword(e.target.value)}
                  required
                />
                <button
                  type="button"
                  className="login__eye"
                  onClick={() => setShowPassword((s) => !s)}
                  aria-pressed={showPassword}
                >
                  {showPassword ? t('login.hide_password') : t('login.show_password')}
                </button>
              </span>
            </label>
            {captchaNeeded && (
              <div className="login__captcha" data-testid="captcha">
                <label>
                  <input
                    type="checkbox"
                    checked={captcha !== null}
                    disabled={solving || captcha !== null}
                    onChange={runCaptcha}
                  />{' '}
                  {solving ? t('login.captcha_working') : captcha ? t('login.captcha_done') : t('login.captcha')}
                </label>
              </div>
            )}
            <button type="submit" className={`button ${canSignIn ? '' : 'button--inactive'}`} disabled={!canSignIn}>
              {t('login.sign_in')}
            </button>
            <button type="button" className="link" onClick={() => setView('recover')}>
              {t('login.forgot_password')}
            </button>
          </form>
        )}

        {view === 'recover' && (
          <form className="login__form" onSubmit={onRecover} data-testid="login-recover">
            <h1>{t('page.forget_password.title')}</h1>
            <label>
              {t('login.user_or_email')}
              <input name="recover" value={recoverUser} onChange={(e) => setRecoverUser(e.target.value)} required />
            </label>
            <button type="submit" className="button" disabled={!recoverUser.trim() || busy}>
              {t('login.recover')}
            </button>
            <button type="button" className="link" onClick={() => backToSignIn(false)}>
              {t('login.back_to_sign_in')}
            </button>
          </form>
        )}

        {view === 'two_fa' && second && !recoveryCodes && (
          <form className="login__form" onSubmit={onCode} data-testid="login-two-fa">
            <h1>{t('login.code')}</h1>
            <p>{t('login.two_fa_info', { user: second.name })}</p>
            {second.secret && (
              <div className="login__enrol" data-testid="enrol">
                <p>{t('login.enrol_info')}</p>
                {second.qr && <img src={second.qr} alt={t('login.enrol_qr')} width={220} height={220} />}
                <code data-testid="enrol-secret">{second.secret}</code>
              </div>
            )}
            <label>
              {t('login.code')}
              <input
                name="code"
                inputMode="numeric"
                autoComplete="one-time-code"
                value={code}
                onChange={(e) => setCode(e.target.value)}
              />
            </label>
            <p className="login__attempts" data-testid="attempts">
              {t('login.attempts', { count: attempts, max: second.max })}
            </p>
            <button type="submit" className="button" disabled={!code.trim() || busy}>
              {t('login.verify')}
            </button>
            <button type="button" className="link" onClick={() => backToSignIn(false)}>
              {t('login.back_to_sign_in')}
            </button>
          </form>
        )}

        {view === 'two_fa' && recoveryCodes && (
          <div className="login__form" data-testid="recovery-codes">
            <h1>{t('login.recovery_codes')}</h1>
            <p>{t('login.recovery_codes_info')}</p>
            <ul className="login__codes">
              {recoveryCodes.map((c) => (
                <li key={c}>
                  <code>{c}</code>
                </li>
              ))}
            </ul>
            <button type="button" className="button" onClick={continueAfterCodes} disabled={busy}>
              {t('login.continue')}
            </button>
          </div>
        )}

        {view === 'sent' && (
          <div className="login__form" data-testid="login-sent">
            <h1>{t('email_sended_correct')}</h1>
            <p>{t('login.email_sent')}</p>
            <button type="button" className="button" onClick={() => backToSignIn(true)}>
              {t('login.back_to_sign_in')}
            </button>
          </div>
        )}
      </div>
    </section>
  )
}
