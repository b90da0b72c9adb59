import { useCallback, useEffect, useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useNavigate } from 'react-router'
import { roleLabel } from '../../lib/roles.js'
import { call, ORIGINAL_TOKEN_KEY, ORIGINAL_USER_KEY, readSession, SESSION_KEYS } from '@tramita/web/api'
import { toasts } from '@tramita/web/toasts'

interface UserRow {
  id: number
  username: string
  first_name: string
  last_name: string
  email: string | null
  blocked: boolean
  api_enabled: boolean
  two_fa: boolean
  roles: { id: number; name: string }[]
}

interface Listing {
  users: UserRow[]
  total: number
  page: number
  per_page: number
}

type Role = { id: number; name: string }

const PAGE_SIZES = [10, 20, 30]

/** The users list (spec 001 §2): search, pagination, the per-user actions, creation. */
export function UserList() {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const [search, setSearch] = useState('')
  const [page, setPage] = useState(1)
  const [perPage, setPerPage] = useState(10)
  const [listing, setListing] = useState<Listing | null>(null)
  const [roles, setRoles] = useState<Role[]>([])
  const [action, setAction] = useState<{ kind: 'impersonate' | 'password'; user: UserRow } | null>(null)
  const [text, setText] = useState('')

  const load = useCallback(() => {
    call<Listing>('GET', '/inside/users', { search, page, per_page: perPage })
      .then((body) => setListing(body.data ?? null))
      .catch((error: Error) => toasts.error(error.message))
  }, [search, page, perPage])

  useEffect(load, [load])
  useEffect(() => {
    call<Record<string, Role>>('GET', '/data/users/roles')
      .then((body) => setRoles(Object.values(body.data ?? {})))
      .catch(() => undefined)
  }, [])

  async function run(method: 'PUT' | 'POST', path: string, fields: Record<string, string> = {}) {
    try {
      const body = await call<Record<string, unknown>>(method, path, fields)
      load()
      return body.data
    } catch (error) {
      toasts.error(error instanceof Error ? error.message : 'Error')
      return undefined
    }
  }

  async function confirmAction(event: FormEvent) {
    event.preventDefault()
    if (!action || !text.trim()) return
    if (action.kind === 'password') {
      if (await run('PUT', `/inside/users/${action.user.id}/password`, { password: text, confirmation: text })) {
        toasts.success(t('change_pass_correct'))
      }
    } else {
      const data = (await run('POST', `/inside/users/${action.user.id}/impersonate`, { reason: text })) as
        { token_new?: string } | undefined
      if (data?.token_new) {
        // The administrator's own token waits here for the way back (the session banner restores it).
        const own = readSession()
        sessionStorage.setItem(ORIGINAL_TOKEN_KEY, own.token ?? '')
        sessionStorage.setItem(ORIGINAL_USER_KEY, own.user ?? '')
        sessionStorage.setItem(SESSION_KEYS.token, data.token_new)
        sessionStorage.setItem(SESSION_KEYS.user, action.user.username)
        window.location.assign('/document_management')
        return
      }
    }
    setAction(null)
    setText('')
  }

  async function create(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    const fields = Object.fromEntries([...form.entries()].filter(([, v]) => v !== '').map(([k, v]) => [k, String(v)]))
    const role = fields.role
    delete fields.role
    if (role) fields.roles = JSON.stringify([Number(role)])
    const created = (await run('POST', '/inside/users', fields)) as { id?: number } | undefined
    if (created?.id) {
      toasts.success(t('users.created'))
      // Areas, the superior and the other profile fields are set on the profile.
      navigate(`/users/${created.id}`)
    }
  }

  const pages = listing ? Math.max(1, Math.ceil(listing.total / listing.per_page)) : 1

  return (
    <>
      <div className="users__bar">
        <input
          type="search"
          aria-label={t('users.search')}
          placeholder={t('users.search')}
          value={search}
          onChange={(e) => {
            setSearch(e.target.value)
            setPage(1)
          }}
        />
        <select aria-label={t('users.per_page')} value={perPage} onChange={(e) => setPerPage(Number(e.target.value))}>
          {PAGE_SIZES.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
      </div>
      <table className="users__table" data-testid="users-table">
        <thead>
          <tr>
            <th>{t('login.user')}</th>
            <th>{t('users.name')}</th>
            <th>{t('users.roles')}</th>
            <th>{t('users.state')}</th>
            <th>{t('users.actions')}</th>
          </tr>
        </thead>
        <tbody>
          {listing?.users.map((u) => (
            <tr key={u.id} data-username={u.username}>
              <td>
                <Link to={`/users/${u.id}`}>{u.username}</Link>
              </td>
              <td>{`${u.first_name} ${u.last_name}`.trim()}</td>
              <td>{u.roles.map((r) => roleLabel(t, r.name)).join(', ')}</td>
              <td>
                {u.blocked ? t('users.blocked') : t('users.active')}
                {u.api_enabled ? ` · API` : ''}
                {u.two_fa ? ' · 2FA' : ''}
              </td>
              <td className="users__actions">
                <button
                  type="button"
                  className="link"
                  onClick={() => run('PUT', `/inside/users/${u.id}/block`, { blocked: String(!u.blocked) })}
                >
                  {u.blocked ? t('users.unblock') : t('users.block')}
                </button>
                <button
                  type="button"
                  className="link"
                  onClick={() => run('PUT', `/inside/users/${u.id}/api`, { enabled: String(!u.api_enabled) })}
                >
                  {u.api_enabled ? t('users.api_off') : t('users.api_on')}
                </button>
                <button
                  type="button"
                  className="link"
                  onClick={() => run('PUT', `/inside/users/${u.id}/sessions/close`)}
                >
                  {t('users.close_sessions')}
                </button>
                {u.two_fa && (
                  <button
                    type="button"
                    className="link"
                    onClick={() => run('PUT', `/inside/users/${u.id}/two_fa/reset`)}
                  >
                    {t('users.reset_two_fa')}
                  </button>
                )}
                <button type="button" className="link" onClick={() => setAction({ kind: 'password', user: u })}>
                  {t('users.set_password')}
                </button>
                <button type="button" className="link" onClick={() => setAction({ kind: 'impersonate', user: u })}>
                  {t('users.impersonate')}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="users__pager">
        <button type="button" className="button" disabled={page <= 1} onClick={() => setPage(page - 1)}>
          ‹
        </button>
        <span>{t('users.page', { page, pages, total: listing?.total ?? 0 })}</span>
        <button type="button" className="button" disabled={page >= pages} onClick={() => setPage(page + 1)}>
          ›
        </button>
      </div>

      {action && (
        <form className="password-form users__dialog" onSubmit={confirmAction} data-testid="users-action">
          <label>
            {action.kind === 'impersonate' ? t('users.reason', { user: action.user.username }) : t('password.new')}
            <input
              name="action-text"
              type={action.kind === 'password' ? 'password' : 'text'}
              value={text}
              onChange={(e) => setText(e.target.value)}
            />
          </label>
          <button type="submit" className="button" disabled={!text.trim()}>
            {action.kind === 'impersonate' ? t('users.impersonate') : t('password.send')}
          </button>
          <button type="button" className="link" onClick={() => setAction(null)}>
            {t('session.cancel')}
          </button>
        </form>
      )}

      <h2>{t('users.create')}</h2>
      <form className="password-form" onSubmit={create} data-testid="users-create">
        <label>
          {t('login.user')}
          <input name="username" required />
        </label>
        <label>
          {t('users.first_name')}
          <input name="first_name" required />
        </label>
        <label>
          {t('users.last_name')}
          <input name="last_name" />
        </label>
        <label>
          {t('users.email')}
          <input name="email" type="email" />
        </label>
        <label>
          {t('login.password')}
          <input name="password" type="password" autoComplete="new-password" />
        </label>
        <label>
          {t('users.roles')}
          <select name="role" defaultValue="">
            <option value="">—</option>
            {roles.map((r) => (
              <option key={r.id} value={r.id}>
                {roleLabel(t, r.name)}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="button">
          {t('users.create')}
        </button>
      </form>
    </>
  )
}
