import { useCallback, useEffect, useRef, useState } from 'react'
import { createPortal } from 'react-dom'
import { Link, useLocation } from 'react-router'
import { useTranslation } from 'react-i18next'
import { call, clearSession, ORIGINAL_TOKEN_KEY, ORIGINAL_USER_KEY, readSession, SESSION_KEYS } from '@tramita/web/api'
import { idlePhase, type IdlePhase } from '../lib/inactivity.js'
import { toasts } from '@tramita/web/toasts'

interface Me {
  username: string
  first_name: string
  last_name: string
  impersonator: { id: number; username: string } | null
  idle_minutes: number
  /** May administer users (the server decides from its role list). */
  admin: boolean
  /** May open the designer (the server decides from the role list its designer routes take). */
  designer: boolean
}

/** Input keeps the server session alive at most this often. */
const KEEPALIVE_EVERY_MS = 60_000
const ACTIVITY_EVENTS = ['pointerdown', 'keydown', 'wheel', 'touchstart'] as const

/**
 * For a signed-in user: the impersonation banner with its way back, and the inactivity countdown
 * that closes the session (cancel keeps it). Renders nothing without a session.
 */
export function SessionGuard() {
  const { t } = useTranslation()
  const [me, setMe] = useState<Me | null>(null)
  const [phase, setPhase] = useState<IdlePhase>({ phase: 'active' })
  const lastActivity = useRef(Date.now())
  const lastPing = useRef(Date.now())

  const location = useLocation()
  const loadedFor = useRef<string | null>(null)

  // Checked again on navigation, so signing in (which navigates) brings the bar up.
  useEffect(() => {
    const token = readSession().token ?? null
    if (token === loadedFor.current) return
    loadedFor.current = token
    if (!token) {
      setMe(null)
      return
    }
    call<Me>('GET', '/inside/session')
      .then((body) => setMe(body.data ?? null))
      .catch(() => undefined)
  }, [location.key])

  const keepAlive = useCallback(() => {
    lastActivity.current = Date.now()
    lastPing.current = Date.now()
    setPhase({ phase: 'active' })
    call('PUT', '/inside/session').catch(() => undefined)
  }, [])

  useEffect(() => {
    if (!me) return
    const idleMs = me.idle_minutes * 60_000
    const onActivity = () => {
      lastActivity.current = Date.now()
      if (Date.now() - lastPing.current > KEEPALIVE_EVERY_MS) keepAlive()
    }
    for (const name of ACTIVITY_EVENTS) window.addEventListener(name, onActivity, { passive: true })
    const timer = setInterval(() => {
      const next = idlePhase(lastActivity.current, Date.now(), idleMs)
      setPhase(next)
      if (next.phase === 'expired') {
        clearInterval(timer)
        call('DELETE', '/inside/session').catch(() => undefined)
        clearSession()
        toasts.info(t('session.closed_inactivity'))
        window.location.assign('/')
      }
    }, 1000)
    return () => {
      clearInterval(timer)
      for (const name of ACTIVITY_EVENTS) window.removeEventListener(name, onActivity)
    }
  }, [me, keepAlive, t])

  // The socket (lib/socket.ts) opens once the session is known, in a chunk of its own, shared with the
  // form's actions (a scan's or a print's answer); push_notify messages from the case's other people
  // show as a notification and a toast.
  useEffect(() => {
    const token = readSession().token
    if (!me || !token) return
    let stop: (() => void) | null = null
    let cancelled = false
    import('../lib/socket.js')
      .then(({ openSocket, shareSocket, showPushNotices, socketUrl }) => {
        if (cancelled) return
        const client = openSocket(socketUrl(window.location, token))
        const unshare = shareSocket(client)
        showPushNotices(client, { toast: (text) => toasts.info(text) })
        stop = () => {
          unshare()
          client.close()
        }
      })
      .catch(() => undefined)
    return () => {
      cancelled = true
      stop?.()
    }
  }, [me])

  async function stopImpersonating() {
    await call('DELETE', '/inside/session/impersonation').catch(() => undefined)
    const original = sessionStorage.getItem(ORIGINAL_TOKEN_KEY)
    const originalUser = sessionStorage.getItem(ORIGINAL_USER_KEY)
    if (original) {
      sessionStorage.setItem(SESSION_KEYS.token, original)
      if (originalUser) sessionStorage.setItem(SESSION_KEYS.user, originalUser)
    } else clearSession()
    sessionStorage.removeItem(ORIGINAL_TOKEN_KEY)
    sessionStorage.removeItem(ORIGINAL_USER_KEY)
    window.location.reload()
  }

  async function signOut() {
    await call('DELETE', '/inside/session').catch(() => undefined)
    clearSession()
    window.location.assign('/')
  }

  if (!me) return null
  // The header's "Designer" for the roles that may design, put in the header's navigation from here
  // because this chunk already knows the roles: the form route's shell carries no code for it. The
  // designer is another app on the same origin and session: a plain link.
  const nav = document.querySelector('.header .nav')
  return (
    <>
      {nav &&
        me.designer &&
        createPortal(
          <a className="nav__link" href="/designer/" data-testid="nav-designer">
            {t('nav.designer')}
          </a>,
          nav
        )}
      <div className="session-bar" data-testid="session-bar">
        <span>{`${me.first_name} ${me.last_name}`.trim()}</span>
        {me.admin && <Link to="/users">{t('nav.users')}</Link>}
        {me.admin && <Link to="/plugin_settings">{t('nav.plugin_settings')}</Link>}
        <button type="button" className="link" onClick={signOut}>
          {t('session.sign_out')}
        </button>
      </div>
      {me.impersonator && (
        <div className="impersonation" role="status" data-testid="impersonation-banner">
          {t('session.impersonating', { user: me.username, admin: me.impersonator.username })}{' '}
          <button type="button" className="button" onClick={stopImpersonating}>
            {t('session.stop_impersonating')}
          </button>
        </div>
      )}
      {phase.phase === 'warning' && (
        <div className="idle-warning" role="alertdialog" aria-live="assertive" data-testid="idle-warning">
          <p>{t('session.inactivity_warning', { seconds: phase.secondsLeft })}</p>
          <button type="button" className="button" onClick={keepAlive}>
            {t('session.cancel')}
          </button>
        </div>
      )}
    </>
  )
}
