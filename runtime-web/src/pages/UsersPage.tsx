import { useTranslation } from 'react-i18next'
import { useSearchParams } from 'react-router'
import { Page } from '../components/Page.js'
import { AreasRoles } from '../components/users/AreasRoles.js'
import { UserList } from '../components/users/UserList.js'
import { UserTree } from '../components/users/UserTree.js'

const VIEWS = ['list', 'tree', 'areas'] as const
type View = (typeof VIEWS)[number]

/** Users administration (spec 001 §2): the list, the hierarchical tree, areas and roles; `?view=` picks one. */
export function UsersPage() {
  const { t } = useTranslation()
  const [params, setParams] = useSearchParams()
  const wanted = params.get('view')
  const view: View = VIEWS.includes(wanted as View) ? (wanted as View) : 'list'
  return (
    <Page title={t('users.title')} testId="page-users">
      <div className="tabs" role="tablist" aria-label={t('users.title')}>
        {VIEWS.map((v) => (
          <button
            key={v}
            type="button"
            role="tab"
            aria-selected={view === v}
            className={view === v ? 'tabs__tab tabs__tab--on' : 'tabs__tab'}
            onClick={() => setParams(v === 'list' ? {} : { view: v })}
          >
            {t(`users.view_${v}`)}
          </button>
        ))}
      </div>
      <div role="tabpanel">
        {view === 'list' && <UserList />}
        {view === 'tree' && <UserTree />}
        {view === 'areas' && <AreasRoles />}
      </div>
    </Page>
  )
}
