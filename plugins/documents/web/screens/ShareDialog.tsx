/**
 * Sharing a file or folder (spec 001 §2): with people, an area or a role (read only or all
 * permissions), by e-mail, or by a public link (files); who has it now, each share's permission
 * changed or revoked. Calls the sharing routes (shared/sharing.ts); only the owner may share.
 */
import { useEffect, useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { call } from '@tramita/web/api'
import { Dialog } from '@tramita/web/Dialog'
import { toasts } from '@tramita/web/toasts'
import { errorText } from '@tramita/web/loading'
import {
  SHARE_PERMISSIONS,
  SHARING_ROUTES,
  type CreatedLink,
  type GranteeType,
  type ItemType,
  type LinkMode,
  type ShareList,
  type SharePermission,
} from '../../shared/sharing.js'

const sharePath = (id: number) => SHARING_ROUTES.update.path.replace(':id', String(id))

interface Option {
  id: number
  name: string
}

/** Users, areas and roles to pick from (the core's selector lists). */
async function grantees(): Promise<Record<GranteeType, Option[]>> {
  const [users, areas, roles] = await Promise.all([
    call<{ users: { id: number; first_name: string; last_name: string }[] }>('GET', '/data/allusers'),
    call<Record<string, { id: number; name: string }>>('GET', '/data/areas'),
    call<Record<string, { id: number; name: string }>>('GET', '/data/users/roles'),
  ])
  return {
    user: (users.data?.users ?? []).map((u) => ({ id: u.id, name: `${u.first_name} ${u.last_name}`.trim() })),
    area: Object.values(areas.data ?? {}).map((a) => ({ id: a.id, name: a.name })),
    role: Object.values(roles.data ?? {}).map((r) => ({ id: r.id, name: r.name })),
  }
}

interface Props {
  type: ItemType
  id: number
  name: string
  onClose(): void
}

export function ShareDialog({ type, id, name, onClose }: Props) {
  const { t, i18n } = useTranslation()
  const [list, setList] = useState<ShareList | null>(null)
  const [options, setOptions] = useState<Record<GranteeType, Option[]> | null>(null)
  const [granteeType, setGranteeType] = useState<GranteeType>('user')
  const [grantee, setGrantee] = useState('')
  const [permission, setPermission] = useState<SharePermission>('read')
  const [email, setEmail] = useState('')
  const [mode, setMode] = useState<LinkMode>('direct')
  const [password, setPassword] = useState('')
  const [link, setLink] = useState<string | null>(null)

  useEffect(() => {
    call<ShareList>('GET', SHARING_ROUTES.list.path, { type, id }).then(
      (body) => setList(body.data ?? null),
      (error: unknown) => toasts.error(errorText(error))
    )
    grantees().then(setOptions, () => setOptions({ user: [], area: [], role: [] }))
  }, [type, id])

  async function run(work: () => Promise<{ data?: ShareList }>) {
    try {
      const body = await work()
      if (body.data) setList(body.data)
      toasts.success(t('documents.screens.share_saved'))
    } catch (error) {
      toasts.error(errorText(error))
    }
  }

  function share(event: FormEvent) {
    event.preventDefault()
    if (!grantee) return
    void run(() =>
      call<ShareList>('POST', SHARING_ROUTES.share.path, {
        type,
        id,
        grantees: [{ type: granteeType, id: Number(grantee) }],
        permission,
      })
    )
  }

  function byEmail(event: FormEvent) {
    event.preventDefault()
    void run(() =>
      call<ShareList>('POST', SHARING_ROUTES.shareByEmail.path, {
        type,
        id,
        email: email.trim(),
        permission,
        language: i18n.language,
      })
    )
  }

  async function makeLink(event: FormEvent) {
    event.preventDefault()
    try {
      const fields: Record<string, string | number> = { file_id: id, mode }
      if (mode === 'password') fields.password = password
      const body = await call<CreatedLink>('POST', SHARING_ROUTES.createLink.path, fields)
      setLink(body.data?.url ?? null)
    } catch (error) {
      toasts.error(errorText(error))
    }
  }

  return (
    <Dialog
      className="docs-dialog"
      title={t('documents.screens.share_title', { name })}
      onClose={onClose}
      testId="docs-share-dialog"
    >
      <form className="docs-form" onSubmit={share}>
        <label>
          {t('documents.screens.share_with')}
          <select value={granteeType} onChange={(event) => setGranteeType(event.target.value as GranteeType)}>
            <option value="user">{t('documents.screens.grantee_user')}</option>
            <option value="area">{t('documents.screens.grantee_area')}</option>
            <option value="role">{t('documents.screens.grantee_role')}</option>
          </select>
        </label>
        <label>
          {t(`documents.screens.grantee_${granteeType}`)}
          <select value={grantee} onChange={(event) => setGrantee(event.target.value)} required>
            <option value="">{t('documents.screens.choose')}</option>
            {options?.[granteeType].map((option) => (
              <option key={option.id} value={option.id}>
                {option.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('documents.screens.permission')}
          <select value={permission} onChange={(event) => setPermission(event.target.value as SharePermission)}>
            {SHARE_PERMISSIONS.map((p) => (
              <option key={p} value={p}>
                {t(`documents.screens.permission_${p}`)}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="button">
          {t('documents.screens.share')}
        </button>
      </form>

      <form className="docs-form" onSubmit={byEmail}>
        <label>
          {t('documents.screens.share_email')}
          <input type="email" value={email} onChange={(event) => setEmail(event.target.value)} required />
        </label>
        <button type="submit" className="button">
          {t('documents.screens.send')}
        </button>
      </form>

      {type === 'file' && (
        <form className="docs-form" onSubmit={makeLink}>
          <label>
            {t('documents.screens.link_mode')}
            <select value={mode} onChange={(event) => setMode(event.target.value as LinkMode)}>
              <option value="direct">{t('documents.screens.link_direct')}</option>
              <option value="password">{t('documents.screens.link_password')}</option>
              <option value="visitor">{t('documents.screens.link_visitor')}</option>
            </select>
          </label>
          {mode === 'password' && (
            <label>
              {t('documents.screens.password')}
              <input
                type="password"
                value={password}
                autoComplete="new-password"
                onChange={(event) => setPassword(event.target.value)}
                required
              />
            </label>
          )}
          <button type="submit" className="button">
            {t('documents.screens.make_link')}
          </button>
          {link && (
            <label>
              {t('documents.screens.link_made')}
              <input readOnly value={link} onFocus={(event) => event.currentTarget.select()} />
            </label>
          )}
        </form>
      )}

      <h3>{t('documents.screens.who_has_it')}</h3>
      {list && list.shares.length === 0 && <p className="muted">{t('documents.screens.not_shared')}</p>}
      {list && list.shares.length > 0 && (
        <ul className="docs-shares">
          {list.shares.map((row) => (
            <li key={row.id}>
              <span>{row.name}</span>
              <select
                aria-label={t('documents.screens.permission_of', { name: row.name })}
                value={row.permission}
                onChange={(event) =>
                  void run(() => call<ShareList>('PUT', sharePath(row.id), { permission: event.target.value }))
                }
              >
                {SHARE_PERMISSIONS.map((p) => (
                  <option key={p} value={p}>
                    {t(`documents.screens.permission_${p}`)}
                  </option>
                ))}
              </select>
              <button
                type="button"
                className="link-button"
                onClick={() => void run(() => call<ShareList>('DELETE', sharePath(row.id)))}
              >
                {t('documents.screens.revoke')}
                <span className="visually-hidden"> {row.name}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </Dialog>
  )
}
