import type { HttpContext } from '@adonisjs/core/http'
import { done, fail } from '#lib/envelope'
import { field, jsonText } from '#lib/input'
import { languageOf, message } from '#lib/messages'
import { viewerOf } from '#services/process/inbox'
import { platform } from '#services/platform'
import { pluginFields, pluginPrincipal } from '#plugins/services/mount'
import {
  checkColumn,
  CODE_COLUMN,
  LIMIT_MAX,
  LookupRefusal,
  lookupRows,
  lookupSource,
  type Access,
  type LookupQuery,
} from '#services/process/lookups'

const MAX_JSON = 20_000
const MAX_COLUMNS = 50

/**
 * The lookup calls of spec 000 §7 for signed-in callers (see services/process/lookups.ts for what a
 * "database" is here). Every name the client sends is checked against the form's fields before it is
 * used, and values only ever travel as bound parameters, so nothing the client writes becomes SQL.
 *
 * `access` ({users, areas, rols}) is read as a narrowing the client asks for, never as a grant: the
 * rows are always limited to the cases the caller may see (administrators: every case of the form).
 * The spec's autocomplete sends users ['*'] with empty areas and rols, which narrows nothing; a list
 * of user ids, area ids or role ids keeps the cases started by those users or by members of them.
 */
export default class LookupsController {
  /** POST /inside/data_bases/returncolumnsdata (data: JSON {idDB, idsColumns, search, limit, order, access}) */
  async returnColumnsData(ctx: HttpContext) {
    return this.guard(ctx, async () => {
      const data = this.json(ctx, ctx.request.input('data'), 'data')
      if (typeof data !== 'object' || data === null || Array.isArray(data)) this.bad('data')
      const input = data as Record<string, unknown>
      const source = await lookupSource(input.idDB)
      const columns = this.names(input.idsColumns, 'idsColumns').map((name) => checkColumn(source, name))
      if (columns.length === 0) this.bad('idsColumns')
      return done(
        await lookupRows(await viewerOf(ctx.principal!), {
          source,
          columns,
          search: this.search(input.search),
          limit: this.limit(input.limit, 50),
          order: this.order(input.order, columns),
          where: {},
          access: this.access(input.access),
          lang: languageOf(ctx),
        })
      )
    })
  }

  /**
   * POST /inside/forms/links_modules: type select_forms (id_form, fields_select, optional jsonwhere
   * {field: value} equality, optional limit) → rows; select_indexing belongs to the documents plugin.
   */
  async linksModules(ctx: HttpContext) {
    return this.guard(ctx, async () => {
      const type = field(ctx, 'type', { max: 40 })
      if (type !== 'select_forms') return done(await this.pluginLinkModule(ctx, type))
      const source = await lookupSource(field(ctx, 'id_form', { max: 64 }))
      const columns = this.names(
        this.json(ctx, ctx.request.input('fields_select'), 'fields_select', true),
        'fields_select'
      ).map((name) => checkColumn(source, name))
      if (columns.length === 0) this.bad('fields_select')
      const rawWhere = ctx.request.input('jsonwhere')
      const where: LookupQuery['where'] = {}
      if (rawWhere !== undefined && rawWhere !== null && rawWhere !== '') {
        const parsed = this.json(ctx, rawWhere, 'jsonwhere')
        if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) this.bad('jsonwhere')
        const entries = Object.entries(parsed as Record<string, unknown>)
        if (entries.length > MAX_COLUMNS) this.bad('jsonwhere')
        for (const [name, value] of entries) {
          checkColumn(source, name, false)
          if (value !== null && !['string', 'number', 'boolean'].includes(typeof value)) this.bad('jsonwhere')
          if (typeof value === 'string' && value.length > 500) this.bad('jsonwhere')
          where[name] = value as string | number | boolean | null
        }
      }
      return done(
        await lookupRows(await viewerOf(ctx.principal!), {
          source,
          columns,
          search: '',
          limit: this.limit(ctx.request.input('limit'), 100),
          order: { column: null, dir: 'desc' },
          where,
          access: { users: '*', areas: [], rols: [] },
          lang: languageOf(ctx),
        })
      )
    })
  }

  /**
   * A type a booted plugin answers (plugin-api PluginForms: the documents plugin's select_indexing);
   * while that plugin is disabled or failed, select_indexing says the indexes are unavailable.
   */
  private async pluginLinkModule(ctx: HttpContext, type: string) {
    const services = platform().pluginServices
    const module = services?.linkModules.of(type)
    const live =
      module &&
      platform()
        .plugins.status()
        .some((p) => p.id === module.pluginId && p.state === 'booted')
    if (!module || !live) {
      fail(message(ctx, type === 'select_indexing' ? 'lookup.indexing_unavailable' : 'lookup.unknown_type', { type }))
    }
    const language = languageOf(ctx)
    const who = await pluginPrincipal(ctx.principal!, language)
    return module.answer({ ...pluginFields(ctx), language }, who)
  }

  private async guard<T>(ctx: HttpContext, work: () => Promise<T>): Promise<T> {
    try {
      return await work()
    } catch (error) {
      if (error instanceof LookupRefusal) fail(message(ctx, error.key, error.vars))
      throw error
    }
  }

  private bad(name: string): never {
    throw new LookupRefusal('lookup.bad_param', { field: name })
  }

  /** A JSON text (form-data) or an already parsed value (JSON body). */
  private json(ctx: HttpContext, raw: unknown, name: string, lenientText = false): unknown {
    if (raw === undefined || raw === null || raw === '') {
      fail(message(ctx, 'auth.field_required', { field: name }))
    }
    if (typeof raw !== 'string') return raw
    // fields_select may be sent as "a,b,c".
    if (lenientText && !/^\s*[[{"]/.test(raw)) return raw
    return jsonText(ctx, name, raw, MAX_JSON)
  }

  /** A list of field names: an array of strings, or one comma-separated string. */
  private names(raw: unknown, name: string): string[] {
    const list = typeof raw === 'string' ? raw.split(',') : raw
    if (!Array.isArray(list) || list.length > MAX_COLUMNS) this.bad(name)
    const names = (list as unknown[]).map((item) => {
      if (typeof item !== 'string' || item.trim() === '' || item.length > 100) this.bad(name)
      return (item as string).trim()
    })
    return [...new Set(names)]
  }

  private search(raw: unknown): string {
    if (raw === undefined || raw === null) return ''
    if (typeof raw !== 'string' && typeof raw !== 'number') this.bad('search')
    const text = String(raw).trim()
    if (text.length > 200) this.bad('search')
    return text
  }

  private limit(raw: unknown, fallback: number): number {
    if (raw === undefined || raw === null || raw === '') return fallback
    const n =
      typeof raw === 'number' ? raw : typeof raw === 'string' && /^\d{1,6}$/.test(raw.trim()) ? Number(raw) : NaN
    if (!Number.isInteger(n) || n < 1 || n > LIMIT_MAX) this.bad('limit')
    return n
  }

  /**
   * `order`: 'asc' or 'desc' (by case age, newest first by default), a column name optionally
   * followed by asc/desc, or {column, dir}. A column must be one of the requested ones.
   */
  private order(raw: unknown, columns: string[]): LookupQuery['order'] {
    if (raw === undefined || raw === null || raw === '') return { column: null, dir: 'desc' }
    let column: unknown = null
    let dir: unknown = 'asc'
    if (typeof raw === 'string') {
      const parts = raw.trim().split(/\s+/)
      if (parts.length === 1 && ['asc', 'desc'].includes(parts[0].toLowerCase())) {
        return { column: null, dir: parts[0].toLowerCase() as 'asc' | 'desc' }
      }
      if (parts.length > 2) this.bad('order')
      column = parts[0]
      dir = parts[1] ?? 'asc'
    } else if (typeof raw === 'object' && !Array.isArray(raw)) {
      const o = raw as Record<string, unknown>
      column = o.column ?? o.id
      dir = o.dir ?? o.direction ?? 'asc'
    } else this.bad('order')
    const direction = typeof dir === 'string' ? dir.toLowerCase() : ''
    if (typeof column !== 'string' || !(columns.includes(column) || column === CODE_COLUMN)) this.bad('order')
    if (direction !== 'asc' && direction !== 'desc') this.bad('order')
    return { column: column as string, dir: direction as 'asc' | 'desc' }
  }

  private access(raw: unknown): Access {
    if (raw === undefined || raw === null || raw === '') return { users: '*', areas: [], rols: [] }
    if (typeof raw !== 'object' || Array.isArray(raw)) this.bad('access')
    const o = raw as Record<string, unknown>
    const ids = (value: unknown, name: string, star: boolean): number[] | '*' => {
      if (value === undefined || value === null) return []
      if (!Array.isArray(value) || value.length > 500) this.bad(`access.${name}`)
      if (star && (value as unknown[]).includes('*')) return '*'
      return (value as unknown[]).map((v) => {
        const n = typeof v === 'string' && /^\d{1,10}$/.test(v) ? Number(v) : v
        if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 1) this.bad(`access.${name}`)
        return n as number
      })
    }
    const users = ids(o.users, 'users', true)
    const areas = ids(o.areas, 'areas', false) as number[]
    const rols = ids(o.rols ?? o.roles, 'rols', false) as number[]
    // Empty lists narrow nothing, like users ['*'] (anyone).
    const none = users !== '*' && users.length + areas.length + rols.length === 0
    return { users: none ? '*' : users, areas, rols }
  }
}
