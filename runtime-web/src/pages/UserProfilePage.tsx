import { useCallback, useEffect, useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useParams } from 'react-router'
import { Page } from '../components/Page.js'
import type { Area, Role } from '../components/users/AreasRoles.js'
import { call } from '@tramita/web/api'
import { toasts } from '@tramita/web/toasts'
import { flattenTree, type TreeNode } from '../lib/user_tree.js'
import { roleLabel } from '../lib/roles.js'

/** A user's profile as GET /inside/users/:id answers it (spec 001 §3). */
interface Profile {
  id: number
  username: string
  email: string | null
  first_name: string
  last_name: string
  document_type: string | null
  document_number: string | null
  mobile: string | null
  gender: string | null
  birth_date: string | null
  birth_place: string | null
  residence: string | null
  stratum: number | null
  profession: string | null
  parent_id: number | null
  enabled: boolean
  blocked: boolean
  api_enabled: boolean
  required_tfa: boolean
  two_fa: boolean
  auth_source: 'local' | 'ldap'
  last_login_at: string | null
  areas: number[]
  roles: Role[]
}

type Person = Omit<TreeNode, 'children'>

/** The free-text profile fields, in the order the form shows them, with their input types. */
const TEXT_FIELDS = [
  ['first_name', 'text'],
  ['last_name', 'text'],
  ['document_type', 'text'],
  ['document_number', 'text'],
  ['mobile', 'tel'],
  ['email', 'email'],
  ['birth_date', 'date'],
  ['birth_place', 'text'],
  ['residence', 'text'],
  ['stratum', 'number'],
  ['profession', 'text'],
] as const

const DOCUMENT_TYPES = ['CC', 'TI', 'CE', 'PA', 'RC', 'NIT', 'PEP']
const GENDERS = ['female', 'male', 'other', 'unspecified']

const personName = (p: { first_name: string; last_name: string }) => `${p.first_name} ${p.last_name}`.trim()

/** Profile of one user: every spec 001 §3 field, shown and (for administrators) edited, with areas and roles. */
export function UserProfilePage() {
  const { t } = useTranslation()
  const { id } = useParams()
  const [profile, setProfile] = useState<Profile | null>(null)
  const [missing, setMissing] = useState(false)
  const [areas, setAreas] = useState<Area[]>([])
  const [roles, setRoles] = useState<Role[]>([])
  const [people, setPeople] = useState<Person[]>([])
  const [editing, setEditing] = useState(false)
  const [busy, setBusy] = useState(false)

  const load = useCallback(() => {
    call<Profile>('GET', `/inside/users/${id}`)
      .then((body) => setProfile(body.data ?? null))
      .catch((error: Error) => {
        setMissing(true)
        toasts.error(error.message)
      })
  }, [id])

  useEffect(load, [load])
  useEffect(() => {
    call<Record<string, Area>>('GET', '/data/areas')
      .then((body) => setAreas(Object.values(body.data ?? {})))
      .catch(() => undefined)
    call<Record<string, Role>>('GET', '/data/users/roles')
      .then((body) => setRoles(Object.values(body.data ?? {})))
      .catch(() => undefined)
    // Every user, disabled ones too, so a disabled superior stays selected (the selector list skips them).
    call<TreeNode[]>('GET', '/inside/users/tree')
      .then((body) =>
        setPeople(flattenTree(body.data ?? []).sort((a, b) => personName(a).localeCompare(personName(b))))
      )
      .catch(() => undefined)
  }, [])

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    if (!profile) return
    const form = new FormData(event.currentTarget)
    const fields: Record<string, string> = {}
    for (const [name] of TEXT_FIELDS) fields[name] = String(form.get(name) ?? '').trim()
    fields.gender = String(form.get('gender') ?? '')
    fields.parent_id = String(form.get('parent_id') ?? '')
    fields.auth_source = String(form.get('auth_source') ?? 'local')
    fields.required_tfa = String(form.get('required_tfa') === 'on')
    fields.enabled = String(form.get('enabled') === 'on')
    fields.areas = JSON.stringify(form.getAll('areas').map(Number))
    fields.roles = JSON.stringify(form.getAll('roles').map(Number))
    setBusy(true)
    try {
      const body = await call<Profile>('PUT', `/inside/users/${profile.id}`, fields)
      if (body.data) setProfile(body.data)
      setEditing(false)
      toasts.success(t('users.saved'))
    } catch (error) {
      toasts.error(error instanceof Error ? error.message : 'Error')
    } finally {
      setBusy(false)
    }
  }

  if (!profile) {
    return (
      <Page title={t('users.profile')} testId="page-user-profile">
        {missing && <Link to="/users">{t('users.back')}</Link>}
      </Page>
    )
  }

  const superior = people.find((p) => p.id === profile.parent_id)
  const shown = (value: string | number | null) => (value === null || value === '' ? '—' : String(value))
  const userRoles = new Set(profile.roles.map((r) => r.id))
  const userAreas = new Set(profile.areas)

  return (
    <Page title={`${t('users.profile')}: ${profile.username}`} testId="page-user-profile">
      <p>
        <Link to="/users">{t('users.back')}</Link>
      </p>
      {!editing ? (
        <div data-testid="profile-view">
          <dl className="profile">
            {TEXT_FIELDS.map(([name]) => (
              <div key={name} className="profile__item">
                <dt>{t(`users.field.${name}`)}</dt>
                <dd data-field={name}>{shown(profile[name])}</dd>
              </div>
            ))}
            <div className="profile__item">
              <dt>{t('users.field.gender')}</dt>
              <dd data-field="gender">{profile.gender ? t(`users.gender.${profile.gender}`, profile.gender) : '—'}</dd>
            </div>
            <div className="profile__item">
              <dt>{t('users.field.parent_id')}</dt>
              <dd data-field="parent_id">
                {superior ? <Link to={`/users/${superior.id}`}>{personName(superior)}</Link> : '—'}
              </dd>
            </div>
            <div className="profile__item">
              <dt>{t('users.roles')}</dt>
              <dd data-field="roles">{profile.roles.map((r) => roleLabel(t, r.name)).join(', ') || '—'}</dd>
            </div>
            <div className="profile__item">
              <dt>{t('users.areas')}</dt>
              <dd data-field="areas">
                {areas
                  .filter((a) => userAreas.has(a.id))
                  .map((a) => (
                    <span key={a.id} className="chip" style={{ borderColor: a.color }}>
                      {a.name}
                    </span>
                  ))}
                {userAreas.size === 0 && '—'}
              </dd>
            </div>
            <div className="profile__item">
              <dt>{t('users.state')}</dt>
              <dd data-field="state">
                {[
                  profile.blocked ? t('users.blocked') : t('users.active'),
                  profile.enabled ? null : t('users.disabled'),
                  profile.api_enabled ? 'API' : null,
                  profile.two_fa ? '2FA' : profile.required_tfa ? t('users.field.required_tfa') : null,
                  profile.auth_source === 'ldap' ? 'LDAP' : null,
                ]
                  .filter(Boolean)
                  .join(' · ')}
              </dd>
            </div>
            <div className="profile__item">
              <dt>{t('users.last_login')}</dt>
              <dd>{profile.last_login_at ? new Date(profile.last_login_at).toLocaleString() : '—'}</dd>
            </div>
          </dl>
          <button type="button" className="button" onClick={() => setEditing(true)}>
            {t('users.edit')}
          </button>
        </div>
      ) : (
        <form className="profile-form" onSubmit={save} data-testid="profile-edit">
          <datalist id="document-types">
            {DOCUMENT_TYPES.map((d) => (
              <option key={d} value={d} />
            ))}
          </datalist>
          {TEXT_FIELDS.map(([name, type]) => (
            <label key={name}>
              {t(`users.field.${name}`)}
              <input
                name={name}
                type={type}
                defaultValue={profile[name] ?? ''}
                required={name === 'first_name'}
                list={name === 'document_type' ? 'document-types' : undefined}
                min={name === 'stratum' ? 0 : undefined}
                max={name === 'stratum' ? 9 : undefined}
              />
            </label>
          ))}
          <label>
            {t('users.field.gender')}
            <select name="gender" defaultValue={profile.gender ?? ''}>
              <option value="">—</option>
              {GENDERS.map((g) => (
                <option key={g} value={g}>
                  {t(`users.gender.${g}`)}
                </option>
              ))}
            </select>
          </label>
          <label>
            {t('users.field.parent_id')}
            <select name="parent_id" defaultValue={profile.parent_id ?? ''}>
              <option value="">—</option>
              {people
                .filter((p) => p.id !== profile.id)
                .map((p) => (
                  <option key={p.id} value={p.id}>
                    {`${personName(p)} (@${p.username})`}
                  </option>
                ))}
            </select>
          </label>
          <label>
            {t('users.field.auth_source')}
            <select name="auth_source" defaultValue={profile.auth_source}>
              <option value="local">{t('users.auth_local')}</option>
              <option value="ldap">LDAP</option>
            </select>
          </label>
          <label className="check">
            <input type="checkbox" name="required_tfa" defaultChecked={profile.required_tfa} />
            {t('users.field.required_tfa')}
          </label>
          <label className="check">
            <input type="checkbox" name="enabled" defaultChecked={profile.enabled} />
            {t('users.field.enabled')}
          </label>
          <fieldset>
            <legend>{t('users.roles')}</legend>
            {roles.map((r) => (
              <label key={r.id} className="check">
                <input type="checkbox" name="roles" value={r.id} defaultChecked={userRoles.has(r.id)} />
                {roleLabel(t, r.name)}
              </label>
            ))}
          </fieldset>
          <fieldset>
            <legend>{t('users.areas')}</legend>
            {areas.map((a) => (
              <label key={a.id} className="check">
                <input type="checkbox" name="areas" value={a.id} defaultChecked={userAreas.has(a.id)} />
                <span className="swatch" style={{ background: a.color }} aria-hidden="true" />
                {a.name}
              </label>
            ))}
            {areas.length === 0 && <p>{t('users.no_areas')}</p>}
          </fieldset>
          <div className="profile-form__buttons">
            <button type="submit" className="button" disabled={busy}>
              {t('users.save')}
            </button>
            <button type="button" className="link" onClick={() => setEditing(false)}>
              {t('session.cancel')}
            </button>
          </div>
        </form>
      )}
    </Page>
  )
}
