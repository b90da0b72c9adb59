import { useCallback, useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useSearchParams } from 'react-router'
import { Page } from '../components/Page.js'
import { InboxFilters } from '../components/inbox/InboxFilters.js'
import { Pager } from '../components/inbox/Pager.js'
import { PendingTable } from '../components/inbox/PendingTable.js'
import { StartableList } from '../components/inbox/StartableList.js'
import { StartedTable } from '../components/inbox/StartedTable.js'
import { useClaim } from '../hooks/useClaim.js'
import { call, readSession } from '@tramita/web/api'
import {
  listingFields,
  NO_FILTERS,
  type FilterOptions,
  type Filters,
  type Listing,
  type PendingRow,
  type StartableProcess,
  type StartedRow,
} from '../lib/inbox.js'

const VIEWS = ['pending', 'started', 'start'] as const
type View = (typeof VIEWS)[number]

/** Typing in the search box waits this long before asking the server. */
const SEARCH_DELAY_MS = 250

/**
 * Route /process: the signed-in user's work list. Steps pending for them (claim and release of role
 * and area steps, a link that opens each), the cases they started, and the processes they may start;
 * `?view=` picks the tab. Search and filters apply to the first two; the search also to the third.
 */
export function ProcessPage() {
  const { t } = useTranslation()
  const [params, setParams] = useSearchParams()
  const wanted = params.get('view')
  const view: View = VIEWS.includes(wanted as View) ? (wanted as View) : 'pending'
  const signedIn = Boolean(readSession().token)

  const [filters, setFilters] = useState<Filters>(NO_FILTERS)
  const [page, setPage] = useState(1)
  const [perPage, setPerPage] = useState(10)
  const [options, setOptions] = useState<FilterOptions | null>(null)
  const [pending, setPending] = useState<Listing<PendingRow> | null>(null)
  const [started, setStarted] = useState<Listing<StartedRow> | null>(null)
  const [startable, setStartable] = useState<StartableProcess[] | null>(null)
  const [busy, setBusy] = useState(false)
  const [problem, setProblem] = useState<string | null>(null)
  const [reloads, setReloads] = useState(0)
  const reload = useCallback(() => setReloads((n) => n + 1), [])
  const { acting, claim, release } = useClaim(reload)

  useEffect(() => {
    if (!signedIn) return
    call<FilterOptions>('GET', '/inside/inbox/filters')
      .then((body) => setOptions(body.data ?? null))
      .catch(() => undefined)
  }, [signedIn, reloads])

  useEffect(() => {
    if (!signedIn) return
    const controller = new AbortController()
    const load = async () => {
      setBusy(true)
      try {
        if (view === 'start') {
          const fields = filters.search.trim() ? { search: filters.search.trim() } : {}
          const body = await call<{ processes: StartableProcess[] }>('GET', '/inside/inbox/startable', fields, {
            signal: controller.signal,
          })
          setStartable(body.data?.processes ?? [])
        } else {
          const path = view === 'pending' ? '/inside/inbox/pending' : '/inside/inbox/started'
          const body = await call<Listing<never>>('GET', path, listingFields(filters, page, perPage), {
            signal: controller.signal,
          })
          if (view === 'pending') setPending((body.data as Listing<PendingRow>) ?? null)
          else setStarted((body.data as Listing<StartedRow>) ?? null)
        }
        setProblem(null)
      } catch (error) {
        if (!controller.signal.aborted) setProblem(error instanceof Error ? error.message : 'Error')
      } finally {
        if (!controller.signal.aborted) setBusy(false)
      }
    }
    const timer = setTimeout(() => void load(), filters.search ? SEARCH_DELAY_MS : 0)
    return () => {
      clearTimeout(timer)
      controller.abort()
    }
  }, [signedIn, view, filters, page, perPage, reloads])

  const changeFilters = (next: Filters) => {
    setFilters(next)
    setPage(1)
  }
  const changePerPage = (next: number) => {
    setPerPage(next)
    setPage(1)
  }
  const listing = view === 'pending' ? pending : view === 'started' ? started : null

  if (!signedIn) {
    return (
      <Page title={t('inbox.title')} testId="page-process">
        <p className="lead">{t('home.sign_in_first')}</p>
        <Link className="button" to="/">
          {t('home.sign_in')}
        </Link>
      </Page>
    )
  }

  return (
    <Page title={t('inbox.title')} testId="page-process">
      <p className="lead">{t('inbox.lead')}</p>
      <div className="tabs" role="tablist" aria-label={t('inbox.title')} data-testid="inbox-tabs">
        {VIEWS.map((v) => (
          <button
            key={v}
            id={`inbox-tab-${v}`}
            type="button"
            role="tab"
            aria-selected={view === v}
            aria-controls="inbox-panel"
            className={view === v ? 'tabs__tab tabs__tab--on' : 'tabs__tab'}
            onClick={() => setParams(v === 'pending' ? {} : { view: v })}
          >
            {t(`inbox.tab_${v}`)}
          </button>
        ))}
      </div>
      <div role="tabpanel" id="inbox-panel" aria-labelledby={`inbox-tab-${view}`}>
        {view === 'start' ? (
          <label className="inbox__search inbox__search--alone">
            <span className="visually-hidden">{t('inbox.search_process')}</span>
            <input
              type="search"
              name="search"
              placeholder={t('inbox.search_process')}
              value={filters.search}
              maxLength={100}
              onChange={(e) => changeFilters({ ...filters, search: e.target.value })}
            />
          </label>
        ) : (
          <InboxFilters value={filters} options={options} onChange={changeFilters} />
        )}
        {problem && (
          <p className="notice notice--error" role="alert" data-testid="inbox-problem">
            {problem}
          </p>
        )}
        {view === 'pending' && (
          <PendingTable
            rows={pending?.rows ?? []}
            busy={busy || pending === null}
            acting={acting}
            onClaim={claim}
            onRelease={release}
          />
        )}
        {view === 'started' && <StartedTable rows={started?.rows ?? []} busy={busy || started === null} />}
        {view === 'start' && <StartableList processes={startable ?? []} busy={busy || startable === null} />}
        {listing && listing.total > 0 && (
          <Pager page={page} perPage={perPage} total={listing.total} onPage={setPage} onPerPage={changePerPage} />
        )}
      </div>
    </Page>
  )
}
