import { useCallback, useEffect, useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { isCoreRole } from '@tramita/contract/rules'
import { roleLabel } from '../../lib/roles.js'
import { call, type CallMethod, type Fields } from '@tramita/web/api'
import { toasts } from '@tramita/web/toasts'

export interface Area {
  id: number
  name: string
  color: string
}
export interface Role {
  id: number
  name: string
}

const DEFAULT_COLOR = '#1c1066'

/** One editable row: name (and colour for areas), save and delete. */
function Row({
  item,
  withColor,
  fixed,
  onSave,
  onDelete,
}: {
  item: { id: number; name: string; color?: string }
  withColor: boolean
  fixed: boolean
  onSave: (name: string, color?: string) => void
  onDelete: () => void
}) {
  const { t } = useTranslation()
  const [name, setName] = useState(item.name)
  const [color, setColor] = useState(item.color ?? DEFAULT_COLOR)
  const changed = name.trim() !== item.name || (withColor && color.toLowerCase() !== item.color?.toLowerCase())
  return (
    <li className="catalog__row" data-name={item.name}>
      {withColor && (
        <input
          type="color"
          aria-label={t('users.color_of', { name: item.name })}
          value={color}
          onChange={(e) => setColor(e.target.value)}
        />
      )}
      {fixed ? (
        <span className="catalog__fixed">
          {roleLabel(t, item.name)} <small>({t('users.core_role')})</small>
        </span>
      ) : (
        <input
          aria-label={t('users.name_of', { name: item.name })}
          value={name}
          onChange={(e) => setName(e.target.value)}
        />
      )}
      {!fixed && (
        <>
          <button
            type="button"
            className="link"
            disabled={!changed || !name.trim()}
            onClick={() => onSave(name.trim(), color)}
          >
            {t('users.save')}
          </button>
          <button
            type="button"
            className="link"
            onClick={() => {
              if (window.confirm(t('users.confirm_delete', { name: item.name }))) onDelete()
            }}
          >
            {t('users.delete')}
          </button>
        </>
      )}
    </li>
  )
}

/** Areas (name, colour) and roles (name) management; the spec's four roles are shown but fixed. */
export function AreasRoles() {
  const { t } = useTranslation()
  const [areas, setAreas] = useState<Area[]>([])
  const [roles, setRoles] = useState<Role[]>([])

  const load = useCallback(() => {
    call<Record<string, Area>>('GET', '/data/areas')
      .then((body) => setAreas(Object.values(body.data ?? {})))
      .catch((error: Error) => toasts.error(error.message))
    call<Record<string, Role>>('GET', '/data/users/roles')
      .then((body) => setRoles(Object.values(body.data ?? {})))
      .catch((error: Error) => toasts.error(error.message))
  }, [])
  useEffect(load, [load])

  async function run(method: CallMethod, path: string, fields: Fields = {}): Promise<boolean> {
    try {
      await call(method, path, fields)
      toasts.success(t('users.saved'))
      load()
      return true
    } catch (error) {
      toasts.error(error instanceof Error ? error.message : 'Error')
      return false
    }
  }

  async function create(event: FormEvent<HTMLFormElement>, path: string) {
    event.preventDefault()
    const form = event.currentTarget
    const fields = Object.fromEntries([...new FormData(form).entries()].map(([k, v]) => [k, String(v).trim()]))
    if (await run('POST', path, fields)) form.reset()
  }

  return (
    <div className="catalogs">
      <section data-testid="areas">
        <h2>{t('users.areas')}</h2>
        <ul className="catalog">
          {areas.map((a) => (
            <Row
              key={`${a.id}:${a.name}:${a.color}`}
              item={a}
              withColor
              fixed={false}
              onSave={(name, color) => run('PUT', `/inside/areas/${a.id}`, { name, color })}
              onDelete={() => run('DELETE', `/inside/areas/${a.id}`)}
            />
          ))}
        </ul>
        <form className="catalog__new" onSubmit={(e) => create(e, '/inside/areas')}>
          <input type="color" name="color" defaultValue={DEFAULT_COLOR} aria-label={t('users.new_area_color')} />
          <input
            name="name"
            required
            maxLength={100}
            placeholder={t('users.new_area')}
            aria-label={t('users.new_area')}
          />
          <button type="submit" className="button">
            {t('users.add')}
          </button>
        </form>
      </section>
      <section data-testid="roles">
        <h2>{t('users.roles_title')}</h2>
        <ul className="catalog">
          {roles.map((r) => (
            <Row
              key={`${r.id}:${r.name}`}
              item={r}
              withColor={false}
              fixed={isCoreRole(r.name)}
              onSave={(name) => run('PUT', `/inside/roles/${r.id}`, { name })}
              onDelete={() => run('DELETE', `/inside/roles/${r.id}`)}
            />
          ))}
        </ul>
        <form className="catalog__new" onSubmit={(e) => create(e, '/inside/roles')}>
          <input
            name="name"
            required
            maxLength={60}
            placeholder={t('users.new_role')}
            aria-label={t('users.new_role')}
          />
          <button type="submit" className="button">
            {t('users.add')}
          </button>
        </form>
      </section>
    </div>
  )
}
