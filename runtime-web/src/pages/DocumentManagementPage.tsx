import { useCallback, useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { Page } from '../components/Page.js'
import { PendingTable } from '../components/inbox/PendingTable.js'
import { useClaim } from '../hooks/useClaim.js'
import { call, readSession } from '@tramita/web/api'
import type { NavEntry, Summary } from '../lib/inbox.js'

interface Me {
  first_name: string
  last_name: string
  username: string
}

/** The counts shown, each linking to the work list's tab it summarises. */
const COUNTS = [
  { key: 'pending', label: 'home.count_pending', to: '/process' },
  { key: 'to_fill', label: 'home.count_to_fill', to: '/process' },
  { key: 'to_approve', label: 'home.count_to_approve', to: '/process' },
  { key: 'claimed_by_me', label: 'home.count_claimed', to: '/process' },
  { key: 'started_open', label: 'home.count_open', to: '/process?view=started' },
  { key: 'started_ended', label: 'home.count_ended', to: '/process?view=started' },
  { key: 'startable', label: 'home.count_startable', to: '/process?view=start' },
] as const

/**
 * Route /document_management (spec 000 §2), where sign-in lands and where / sends a signed-in user:
 * the home, titled as its tab. What the user can open (GET /inside/navigation: the core's screens and
 * those of plugins that ship them, by role), the counts of their work and the first steps waiting for
 * them. Language switch and sign-out live in the Shell's header and session bar.
 */
export function DocumentManagementPage() {
  const { t, i18n } = useTranslation()
  const signedIn = Boolean(readSession().token)
  const [me, setMe] = useState<Me | null>(null)
  const [nav, setNav] = useState<NavEntry[] | null>(null)
  const [summary, setSummary] = useState<Summary | null>(null)
  const [reloads, setReloads] = useState(0)
  const reload = useCallback(() => setReloads((n) => n + 1), [])
  const { acting, claim, release } = useClaim(reload)

  useEffect(() => {
    if (!signedIn) return
    call<Me>('GET', '/inside/session')
      .then((body) => setMe(body.data ?? null))
      .catch(() => undefined)
    call<{ entries: NavEntry[] }>('GET', '/inside/navigation')
      .then(async (body) => {
        const entries = body.data?.entries ?? []
        // A plugin's links are named by its own texts, which load with its screens' list.
        const plugins = [...new Set(entries.map((entry) => entry.plugin))].filter((id) => id !== 'core')
        if (plugins.length) {
          await import('../components/PluginScreens.js')
            .then((m) => m.pluginTextsLoaded(i18n, plugins))
            .catch(() => undefined)
        }
        setNav(entries)
      })
      .catch(() => setNav([]))
  }, [signedIn, i18n])

  useEffect(() => {
    if (!signedIn) return
    call<Summary>('GET', '/inside/inbox/summary')
      .then((body) => setSummary(body.data ?? null))
      .catch(() => undefined)
  }, [signedIn, reloads])

  if (!signedIn) {
    return (
      <Page title={t('page.document_management.title')} testId="page-document-management">
        <p className="lead">{t('home.sign_in_first')}</p>
        <Link className="button" to="/">
          {t('home.sign_in')}
        </Link>
      </Page>
    )
  }

  const name = me ? `${me.first_name} ${me.last_name}`.trim() || me.username : ''
  return (
    <Page title={t('page.document_management.title')} testId="page-document-management">
      <p className="lead">{name ? `${t('home.greeting', { name })} · ${t('home.lead')}` : t('home.lead')}</p>

      <nav className="home__nav" aria-labelledby="home-nav-title" data-testid="home-nav">
        <h2 id="home-nav-title">{t('home.nav_title')}</h2>
        <ul>
          {nav?.map((entry) => (
            <li key={`${entry.plugin}:${entry.path}`}>
              <Link to={entry.path} data-plugin={entry.plugin}>
                {t(entry.label)}
              </Link>
            </li>
          ))}
        </ul>
      </nav>

      <section aria-labelledby="home-summary-title" data-testid="home-summary" aria-busy={summary === null}>
        <h2 id="home-summary-title">{t('home.summary_title')}</h2>
        <ul className="home__counts">
          {COUNTS.map((c) => (
            <li key={c.key}>
              <Link to={c.to} className="home__count" data-testid={`home-count-${c.key}`}>
                <span className="home__count-value">{summary ? summary.counts[c.key] : '–'}</span>
                <span className="home__count-label">{t(c.label)}</span>
              </Link>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="home-pending-title" data-testid="home-pending">
        <h2 id="home-pending-title">{t('home.first_pending')}</h2>
        {summary && (
          <PendingTable
            rows={summary.pending}
            busy={false}
            acting={acting}
            onClaim={claim}
            onRelease={release}
            compact
          />
        )}
        <p>
          <Link to="/process">{t('home.see_all')}</Link>
        </p>
      </section>
    </Page>
  )
}
