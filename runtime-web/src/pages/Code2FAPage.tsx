import { useEffect, useState, type FormEvent } from 'react'
import { useNavigate } from 'react-router'
import { useTranslation } from 'react-i18next'
import { Page } from '../components/Page.js'
import { call, readSession } from '@tramita/web/api'
import { toasts } from '@tramita/web/toasts'

interface Me {
  first_name: string
  last_name: string
}

/** Route /static/code2FA (spec 000 §2): a signed-in user confirms a code; Enter or the button submits. */
export function Code2FAPage() {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const [me, setMe] = useState<Me | null>(null)
  const [code, setCode] = useState('')
  const [busy, setBusy] = useState(false)

  useEffect(() => {
    if (!readSession().token) return
    call<Me>('GET', '/inside/session')
      .then((body) => setMe(body.data ?? null))
      .catch(() => undefined)
  }, [])

  async function onSubmit(event: FormEvent) {
    event.preventDefault()
    if (!code || busy) return
    setBusy(true)
    try {
      const body = await call<boolean>('PUT', '/data/users/validate/two_fa', { pin: code })
      if (body.data === true) navigate('/document_management')
      else {
        toasts.error(t('active_2fa_incorrect'))
        setCode('')
      }
    } catch (error) {
      toasts.error(error instanceof Error ? error.message : 'Error')
    } finally {
      setBusy(false)
    }
  }

  return (
    <Page title={t('page.code_2fa.title')} testId="page-code-2fa">
      {me && <p className="lead">{t('login.greeting', { name: `${me.first_name} ${me.last_name}`.trim() })}</p>}
      <form className="password-form" onSubmit={onSubmit}>
        <label>
          {t('login.code')}
          <input
            name="code"
            inputMode="numeric"
            pattern="[0-9]*"
            autoComplete="one-time-code"
            value={code}
            onChange={(e) => setCode(e.target.value.replace(/\D/g, ''))}
          />
        </label>
        <button type="submit" className="button" disabled={!code || busy}>
          {t('login.verify')}
        </button>
      </form>
    </Page>
  )
}
