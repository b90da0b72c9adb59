/**
 * Autocomplete rules (validations.autocomplete, spec 000 §3, §6, §7, §8): each fills its field
 * `id_field` from a lookup. It loads with the action engine (runtime-web/src/form/actions/load.ts),
 * so a form without rules never downloads it. See plugins/actions/README.md for the semantics.
 *
 * A failed lookup (network, a 'fail' answer, an unexpected shape) is ignored: the field keeps its
 * value; the failure goes to the designer's report only.
 */
import { fillPlaceholders } from '@tramita/contract'
import type { Json, ScriptResult } from '@tramita/sandbox'
import type { ActionForm } from './types.js'

/** A rule as withDefaults resolves it (contract schema/validations.ts). */
export interface AutocompleteRuleConfig {
  id_field: string
  action: 'now' | 'value' | 'autocomplete' | 'set_user'
  origin: 'databases' | 'indexing' | 'process' | 'users' | 'formula' | 'javascript' | 'python'
  type?: string
  refers?: string
  query?: {
    condition?: string
    id_db?: string | number
    id_ind?: string | number
    id_sub?: string | number
    id?: string | number
    get_columns?: string[]
    limit?: number
    order?: string
    /** The search text, with ${field} placeholders (databases search, users filter). */
    pattern?: string
  }
}

export interface SignedInUser {
  id: number
  username: string
  first_name?: string
  last_name?: string
}

export interface AutocompleteHost {
  runScript(source: string, vars: Record<string, Json>): Promise<ScriptResult>
  /** A spec call; resolves the answer's data, rejects on a 'fail' status or a network error. */
  post(path: string, fields: Record<string, string>): Promise<unknown>
  report(rule: string, message: string): void
  user: SignedInUser | null
  /** The users the signed-in user may pick (the users origin's suggestions). */
  users(): Promise<SignedInUser[]>
}

export type AutocompleteForm = Pick<
  ActionForm,
  'config' | 'vars' | 'item' | 'valuesNow' | 'setValue' | 'setText' | 'applyEffects' | 'scriptsIdle'
>

export interface AutocompleteRunner {
  /** The form started: `now`, `set_user` and `autocomplete` rules run once. */
  started(): Promise<void>
  /** Fields changed: the `value` and `autocomplete` rules whose query reads one of them run again. */
  changed(names: readonly string[]): Promise<void>
}

/** The code column every lookup row has (core/server lookups.ts). */
export const CODE_COLUMN = 'CODE_PROCESS'
export const PROCESS_PATH = '/inside/forms/links_modules'
export const DATABASES_PATH = '/inside/data_bases/returncolumnsdata'
/** What the spec's autocomplete sends (§6): a narrowing that narrows nothing. */
const ALL_ACCESS = { users: ['*'], areas: [], rols: [] }

class LookupFailure extends Error {}

function escaped(name: string): string {
  return name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/**
 * Field names the rule's condition mentions as a whole identifier, or its pattern as a placeholder:
 * the fields whose changes re-run it.
 */
function readsOf(rule: AutocompleteRuleConfig, names: readonly string[]): Set<string> {
  const source = `${rule.query?.condition ?? ''} ${rule.query?.pattern ?? ''}`
  return new Set(names.filter((name) => new RegExp(`(^|[^\\w$])${escaped(name)}(?![\\w$])`).test(source)))
}

/** The rule's pattern with its ${field} placeholders filled from the form's values ('' without one). */
function patternText(rule: AutocompleteRuleConfig, values: Record<string, unknown>): string {
  return fillPlaceholders(rule.query?.pattern ?? '', (name) => {
    const value = values[name]
    return value === undefined || value === null || typeof value === 'object' ? '' : String(value)
  }).trim()
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** The column whose text becomes the value: `refers`, else the first of get_columns, else the case code. */
export function valueColumn(rule: AutocompleteRuleConfig): string {
  return rule.refers?.trim() || rule.query?.get_columns?.find((c) => c.trim() !== '') || CODE_COLUMN
}

function rowsOf(data: unknown): Record<string, unknown>[] {
  if (!Array.isArray(data) || !data.every(isRecord)) throw new LookupFailure('the lookup answered an unexpected shape')
  return data
}

function texts(rows: Record<string, unknown>[], column: string): string[] {
  return rows
    .map((row) => row[column])
    .filter((v): v is string => typeof v === 'string' || typeof v === 'number')
    .map(String)
}

function userLabel(user: SignedInUser): string {
  return [user.first_name, user.last_name].filter(Boolean).join(' ').trim() || user.username
}

export function createAutocomplete(options: { form: AutocompleteForm; host: AutocompleteHost }): AutocompleteRunner {
  const { form, host } = options
  const rules = (form.config.validations?.autocomplete ?? []) as AutocompleteRuleConfig[]
  const names = form.config.fields.map((f) => f.field_name)
  const reads = rules.map((rule) => readsOf(rule, names))
  /** Per rule, the newest run: an older lookup answering late is dropped. */
  const latest = rules.map(() => 0)
  const label = (rule: AutocompleteRuleConfig) => `autocomplete ${rule.id_field}`

  async function lookup(rule: AutocompleteRuleConfig, result: Json): Promise<string[]> {
    const query = rule.query ?? {}
    const column = valueColumn(rule)
    const limit = String(Math.max(1, Math.min(500, Number(query.limit) || 10)))
    const columns = [...new Set([column, ...(query.get_columns ?? []).filter((c) => c.trim() !== '')])]
    switch (rule.origin) {
      case 'formula':
      case 'javascript':
        if (Array.isArray(result) && rule.origin === 'javascript') return result.filter((v) => v !== null).map(String)
        if (typeof result === 'object') throw new LookupFailure(`the ${rule.origin} gave no text`)
        return [String(result)]
      case 'process': {
        // A truthy object is the equality filter {column: value}; anything else filters nothing.
        const where = isRecord(result) ? result : {}
        const data = await host.post(PROCESS_PATH, {
          type: 'select_forms',
          id_form: String(query.id ?? ''),
          fields_select: JSON.stringify(columns),
          jsonwhere: JSON.stringify(where),
          limit,
        })
        return texts(rowsOf(data), column)
      }
      case 'databases': {
        // returncolumnsdata has no equality filter: the rows are searched by the first wanted value
        // and the equality is checked here, on the filter's columns read along.
        const filter = isRecord(result) ? result : {}
        const wanted = Object.entries(filter).map(([key, value]) => [key, String(value)] as const)
        const search = isRecord(result)
          ? (wanted[0]?.[1] ?? '')
          : typeof result === 'string'
            ? result
            : patternText(rule, form.valuesNow())
        const data = await host.post(DATABASES_PATH, {
          data: JSON.stringify({
            idDB: query.id_db ?? query.id,
            idsColumns: [...new Set([...columns, ...wanted.map(([key]) => key)])],
            search,
            limit: Number(limit),
            ...(query.order ? { order: query.order } : {}),
            access: ALL_ACCESS,
          }),
        })
        const rows = rowsOf(data).filter((row) => wanted.every(([key, value]) => String(row[key]) === value))
        return texts(rows, column)
      }
      case 'indexing': {
        // The documents plugin's lookup; refused while that plugin does not answer it (a failed lookup).
        const data = await host.post(PROCESS_PATH, {
          type: 'select_indexing',
          type_indexing: query.id_sub !== undefined ? 'sub' : 'indexing',
          id: String(query.id_sub ?? query.id_ind ?? ''),
          fields_select: JSON.stringify(columns),
          ...(isRecord(result) ? { jsonwhere: JSON.stringify(result) } : {}),
        })
        return texts(rowsOf(data), column)
      }
      case 'users': {
        // Suggestions: the users whose name contains the pattern's text (all of them without one).
        const wanted = patternText(rule, form.valuesNow()).toLocaleLowerCase()
        const names = (await host.users()).map(userLabel)
        return names.filter((name) => name.toLocaleLowerCase().includes(wanted)).slice(0, Number(limit))
      }
      default:
        throw new LookupFailure(`origin "${rule.origin}" is not run`)
    }
  }

  /** The signed-in user into a users field (its value is the list of chosen options), or its name as text. */
  function putUser(rule: AutocompleteRuleConfig) {
    const user = host.user
    if (!user) return
    if (form.item(rule.id_field)?.item.type === 'users') {
      form.setValue(rule.id_field, [{ code: user.id, label: userLabel(user) }])
    } else form.setText(rule.id_field, userLabel(user))
  }

  async function run(index: number): Promise<void> {
    const rule = rules[index]!
    if (rule.origin === 'python') return
    if (!form.item(rule.id_field)) return
    const run = ++latest[index]!
    if (rule.action === 'set_user' || (rule.origin === 'users' && rule.action !== 'autocomplete')) {
      putUser(rule)
      return
    }
    let result: Json = true
    const code = (rule.query?.condition ?? '').trim()
    if (code !== '') {
      // The condition reads the values after the formulas the last change started.
      await form.scriptsIdle()
      const answer = await host.runScript(code, { ...form.vars, ...(form.valuesNow() as Record<string, Json>) })
      if (!answer.ok) {
        host.report(label(rule), `condition: ${answer.error.message}`)
        return
      }
      result = answer.value
    }
    if (result === false || result === null || result === undefined) return
    let found: string[]
    try {
      found = await lookup(rule, result)
    } catch (error) {
      host.report(label(rule), `lookup failed, field kept: ${error instanceof Error ? error.message : String(error)}`)
      return
    }
    if (run !== latest[index]) return
    if (rule.action === 'autocomplete') {
      const list = [...new Set(found.filter((text) => text !== ''))]
      form.applyEffects([{ op: 'setOptions', field: rule.id_field, options: list }])
    } else if (found.length > 0) form.setText(rule.id_field, found[0]!)
  }

  for (const rule of rules) {
    if (rule.origin === 'python')
      host.report(label(rule), 'Python rules are not run (only JavaScript runs in the sandbox): rule skipped')
  }

  return {
    async started() {
      const first = rules.flatMap((rule, i) => (rule.action === 'value' ? [] : [i]))
      await Promise.all(first.map(run))
    },
    async changed(changedNames) {
      const due = rules.flatMap((rule, i) => {
        if (rule.action !== 'value' && rule.action !== 'autocomplete') return []
        // A value rule never re-runs on its own field: filling it would start it again.
        const relevant = changedNames.filter((name) => rule.action === 'autocomplete' || name !== rule.id_field)
        return relevant.some((name) => reads[i]!.has(name)) ? [i] : []
      })
      await Promise.all(due.map(run))
    },
  }
}
