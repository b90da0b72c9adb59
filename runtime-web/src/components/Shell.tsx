import { lazy, Suspense, useCallback } from 'react'
import { Outlet } from 'react-router'
import { useTranslation } from 'react-i18next'
import { Header } from '@tramita/web/Header'
import { LanguageSwitch } from '@tramita/web/LanguageSwitch'
import { toasts } from '@tramita/web/toasts'
import { Toasts } from '@tramita/web/Toasts'
import { useOnline, type OnlineState } from '../hooks/useOnline.js'
import { OnlineIndicator } from './OnlineIndicator.js'

/**
 * The session bar (impersonation banner, inactivity countdown) loads on its own: it shows nothing
 * until the server has answered /inside/session, so a page's first paint need not wait for it.
 */
const SessionGuard = lazy(() => import('./SessionGuard.js').then((m) => ({ default: m.SessionGuard })))

/** The server's health dot, likewise: it has nothing to show before /health answers. */
const HealthDot = lazy(() => import('./HealthDot.js').then((m) => ({ default: m.HealthDot })))

/**
 * The home is /document_management (where sign-in lands; / sends a signed-in user there, and the
 * brand links to /), so no separate "Home" entry leads to the same page or to the sign-in form.
 */
const NAV = [
  { to: '/document_management', key: 'nav.document_management', end: false },
  { to: '/process', key: 'nav.process', end: false },
  { to: '/status', key: 'nav.status', end: false },
] as const

/** Header (product, navigation, health, online state, language), the page, and the toasts. */
export function Shell() {
  const { t } = useTranslation()
  const onChange = useCallback(
    (state: OnlineState) => {
      if (state === 'offline') toasts.error(t('online.lost'))
      else toasts.success(t('online.back'))
    },
    [t]
  )
  const online = useOnline(onChange)

  return (
    <div className="shell">
      <a className="skip-link" href="#content">
        {t('app.skip_to_content')}
      </a>
      <Header brand={t('app.name')} items={NAV}>
        <Suspense fallback={null}>
          <HealthDot />
        </Suspense>
        <OnlineIndicator state={online} />
        <LanguageSwitch />
      </Header>
      <Suspense fallback={null}>
        <SessionGuard />
      </Suspense>
      <main id="content" className="content">
        <Outlet />
      </main>
      <footer className="footer">{t('app.tagline')}</footer>
      <Toasts />
    </div>
  )
}
