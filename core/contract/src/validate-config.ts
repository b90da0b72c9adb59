/**
 * `validateConfig(config)`: every problem of a jsonconfig with its JSON path (JSON Pointer). The
 * frame is checked against the form schema, each field and element against its own type's schema
 * from the registry, then the references between them (layouts, sections, sets,
 * autocomplete rules, actions, script syntax and formula cycles).
 */
import type { TSchema } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import { ValueErrorType, type ValueError } from '@sinclair/typebox/errors'
import { SANDBOX_GLOBALS, analyzeScript } from '@tramita/sandbox'
import { FormConfigBase } from './schema/form.js'
import { documentProblems } from './documents.js'
import { EVENT_SCRIPTS } from './schema/common.js'
import { coreRegistry } from './core-types.js'
import { withDefaults } from './defaults.js'
import { sectionPages } from './layout.js'
import { buildGraph } from './graph.js'
import { textLimit, textMinLength } from './rules/text.js'
import { cellType, isCell, repeatCells, REPEAT_TYPE } from './types/repeat.js'
import type { FieldTypeRegistry } from './registry.js'
import { actionConfigWithDefaults, configReferences, configRole, coreActionRegistry } from './actions.js'
import type { ActionTypeRegistry } from './actions.js'
import type { FormConfig } from './config.js'

export interface ConfigProblem {
  /** JSON Pointer into the config, e.g. /fields/3/data/ref/limit. */
  path: string
  message: string
}

/**
 * A value against a schema, as problems: unions collapsed to one "must be one of" line, a missing
 * key on its own path. TypeBox's interpreter checks it, never generated code: the designer and the
 * runtime run under a Content-Security-Policy without 'unsafe-eval' (ajv compiles with `new Function`).
 * The messages keep JSON Schema's usual wording ("must be number").
 */
export function schemaProblems(schema: TSchema, value: unknown, prefix = ''): ConfigProblem[] {
  if (Value.Check(schema, value)) return []
  const errors = [...Value.Errors(schema, value)]
  // A missing key is also visited as undefined (a second, type error): the "is required" says it.
  const missing = new Set(errors.filter((e) => e.type === ValueErrorType.ObjectRequiredProperty).map((e) => e.path))
  return errors
    .filter((e) => e.type === ValueErrorType.ObjectRequiredProperty || !missing.has(e.path))
    .map((e) => ({ path: prefix + e.path, message: describe(e) }))
}

function describe(error: ValueError): string {
  const schema = error.schema as Record<string, unknown> & { anyOf?: { const?: unknown }[] }
  switch (error.type) {
    case ValueErrorType.ObjectRequiredProperty:
      return 'is required'
    case ValueErrorType.ObjectAdditionalProperties:
      return 'is not a known key'
    case ValueErrorType.Union: {
      const consts = (schema.anyOf ?? []).map((s) => s.const)
      if (consts.length > 0 && consts.every((c) => c !== undefined)) {
        return `must be one of: ${consts.map((c) => JSON.stringify(c)).join(', ')}`
      }
      return 'does not have any of the accepted shapes'
    }
    case ValueErrorType.Literal:
      return 'must be equal to constant'
    case ValueErrorType.StringPattern:
      return `must match pattern "${String(schema.pattern)}"`
    case ValueErrorType.StringMinLength:
      return `must NOT have fewer than ${String(schema.minLength)} characters`
    case ValueErrorType.StringMaxLength:
      return `must NOT have more than ${String(schema.maxLength)} characters`
    case ValueErrorType.NumberMinimum:
    case ValueErrorType.IntegerMinimum:
      return `must be >= ${String(schema.minimum)}`
    case ValueErrorType.NumberMaximum:
    case ValueErrorType.IntegerMaximum:
      return `must be <= ${String(schema.maximum)}`
    case ValueErrorType.NumberExclusiveMinimum:
    case ValueErrorType.IntegerExclusiveMinimum:
      return `must be > ${String(schema.exclusiveMinimum)}`
    case ValueErrorType.NumberExclusiveMaximum:
    case ValueErrorType.IntegerExclusiveMaximum:
      return `must be < ${String(schema.exclusiveMaximum)}`
    case ValueErrorType.NumberMultipleOf:
    case ValueErrorType.IntegerMultipleOf:
      return `must be multiple of ${String(schema.multipleOf)}`
    case ValueErrorType.ArrayMinItems:
      return `must NOT have fewer than ${String(schema.minItems)} items`
    case ValueErrorType.ArrayMaxItems:
      return `must NOT have more than ${String(schema.maxItems)} items`
    case ValueErrorType.ArrayUniqueItems:
      return 'must NOT have duplicate items'
    case ValueErrorType.ObjectMinProperties:
      return `must NOT have fewer than ${String(schema.minProperties)} properties`
    case ValueErrorType.ObjectMaxProperties:
      return `must NOT have more than ${String(schema.maxProperties)} properties`
    default:
      return TYPE_NAMES[error.type] ? `must be ${TYPE_NAMES[error.type]}` : error.message
  }
}

const TYPE_NAMES: Partial<Record<ValueErrorType, string>> = {
  [ValueErrorType.Number]: 'number',
  [ValueErrorType.Integer]: 'integer',
  [ValueErrorType.String]: 'string',
  [ValueErrorType.Boolean]: 'boolean',
  [ValueErrorType.Array]: 'array',
  [ValueErrorType.Object]: 'object',
  [ValueErrorType.Null]: 'null',
}

/** Every problem of the config; an empty list means it is valid. */
export function validateConfig(
  config: unknown,
  registry: FieldTypeRegistry = coreRegistry(),
  actionTypes: ActionTypeRegistry = coreActionRegistry()
): ConfigProblem[] {
  if (typeof config !== 'object' || config === null || Array.isArray(config)) {
    return [{ path: '', message: 'the form configuration must be an object' }]
  }
  const resolved = withDefaults(config, registry)
  const problems = schemaProblems(FormConfigBase, resolved)
  if (problems.length > 0) return problems
  for (const kind of ['field', 'element'] as const) {
    const key = kind === 'field' ? 'fields' : 'elements'
    resolved[key].forEach((item, index) => {
      const fieldType = registry.get(kind, item.type)
      if (!fieldType) {
        problems.push({ path: `/${key}/${index}/type`, message: `"${item.type}" is not a known ${kind} type` })
      } else {
        problems.push(...schemaProblems(fieldType.schema, item, `/${key}/${index}`))
        if (kind === 'field') problems.push(...cellProblems(item, `/${key}/${index}`))
      }
    })
  }
  problems.push(...actionStepProblems(resolved, actionTypes))
  if (problems.length > 0) return problems
  return [
    ...referenceProblems(resolved, actionTypes),
    ...templateProblems(resolved),
    ...lengthProblems(resolved),
    ...scriptProblems(resolved, actionTypes),
  ]
}

/** A text whose minimum length is above its maximum could never be filled in. */
function lengthProblems(config: FormConfig): ConfigProblem[] {
  const problems: ConfigProblem[] = []
  config.fields.forEach((item, index) => {
    const ref = item.data.ref as { limit: number; mask: string; min_length?: number }
    const min = textMinLength({ minLength: ref.min_length })
    const max = textLimit(ref)
    if (min !== null && max !== null && min > max) {
      problems.push({
        path: `/fields/${index}/data/ref/min_length`,
        message: `the minimum length (${min}) is above the maximum length (${max})`,
      })
    }
  })
  return problems
}

/** A cell's keys that a repeating group does not run: what the runtime would silently ignore. */
const CELL_UNSUPPORTED = EVENT_SCRIPTS

/**
 * A repeating group's cells (types/repeat.ts): each against its own type's schema, names unique in the
 * group, no formulas, events or sets; and rows that can be both at least min and at most max.
 */
function cellProblems(item: FormConfig['fields'][number], at: string): ConfigProblem[] {
  const problems: ConfigProblem[] = []
  const { min_rows: min, max_rows: max } = item.data as { min_rows?: number; max_rows?: number }
  if (typeof min === 'number' && typeof max === 'number' && max >= 0 && min > max) {
    problems.push({ path: `${at}/data/max_rows`, message: `must be -1 (no limit) or at least min_rows (${min})` })
  }
  if (String(item.data.formule).trim() !== '' && repeatCells(item).some((c) => String(c.data.formule).trim() !== '')) {
    problems.push({
      path: `${at}/data/formule`,
      message: 'a group whose cells have formulas has no formula of its own',
    })
  }
  const seen = new Set<string>()
  // By position in the raw list: an entry that is no cell is the schema's problem, at its own index.
  const entries: unknown[] = item.type === REPEAT_TYPE && Array.isArray(item.data.cells) ? item.data.cells : []
  entries.forEach((cell, c) => {
    const here = `${at}/data/cells/${c}`
    const type = isCell(cell) ? cellType(cell.type) : undefined
    if (!type || !isCell(cell)) return
    const own = schemaProblems(type.schema, cell, here)
    problems.push(...own)
    if (own.length > 0) return
    if (seen.has(cell.field_name)) {
      problems.push({ path: `${here}/field_name`, message: `"${cell.field_name}" is already a cell of this group` })
    }
    seen.add(cell.field_name)
    if (cell.isSet) problems.push({ path: `${here}/isSet`, message: 'a cell cannot be a set' })
    for (const key of CELL_UNSUPPORTED) {
      if (String(cell.data[key]).trim() !== '') {
        problems.push({ path: `${here}/data/${key}`, message: 'a cell has no event scripts' })
      }
    }
    const events = cell.events as Record<string, unknown[] | undefined>
    for (const [event, names] of Object.entries(events)) {
      if (names?.length) problems.push({ path: `${here}/events/${event}`, message: 'a cell runs no actions' })
    }
  })
  return problems
}

/** Each step of each action against its type's config schema (defaults applied, as the engine reads it). */
function actionStepProblems(config: FormConfig, actionTypes: ActionTypeRegistry): ConfigProblem[] {
  const problems: ConfigProblem[] = []
  config.validations.actions.forEach((action, a) =>
    action.actions.forEach((step, s) => {
      const at = `/validations/actions/${a}/actions/${s}`
      const actionType = actionTypes.get(step.type)
      if (!actionType) problems.push({ path: `${at}/type`, message: `"${step.type}" is not a known action type` })
      else
        problems.push(...schemaProblems(actionType.schema, actionConfigWithDefaults(step, actionTypes), `${at}/config`))
    })
  )
  return problems
}

/** Names, layouts, sections, sets, autocomplete rules and actions that point at something that exists. */
function referenceProblems(config: FormConfig, actionTypes: ActionTypeRegistry): ConfigProblem[] {
  const problems: ConfigProblem[] = []
  const pageExists = (page: unknown) =>
    typeof page === 'number' ? page < config.form.pages.length : config.form.pages.some((p) => p.name === page)
  const names = new Map<string, string>()
  for (const key of ['fields', 'elements'] as const) {
    config[key].forEach((item, index) => {
      const here = `/${key}/${index}/field_name`
      const first = names.get(item.field_name)
      if (first) problems.push({ path: here, message: `"${item.field_name}" is already used at ${first}` })
      else names.set(item.field_name, here)
      // A field named like a sandbox global (Math, value, now...) could not be read by its name.
      if (SANDBOX_GLOBALS.has(item.field_name)) {
        problems.push({ path: here, message: `"${item.field_name}" is a name scripts already use; choose another` })
      }
    })
  }
  const sections = sectionPages(config)
  const placed = new Set<string>()
  config.form.pages.forEach((page, p) => {
    if (page.section && !page.section_id) {
      problems.push({ path: `/form/pages/${p}/section_id`, message: 'a section page needs a section_id' })
    }
    page.layout.forEach((row, r) =>
      row.forEach((name, c) => {
        const path = `/form/pages/${p}/layout/${r}/${c}`
        if (!names.has(name)) problems.push({ path, message: `"${name}" is not a field or element of this form` })
        else if (placed.has(name)) problems.push({ path, message: `"${name}" is already on a layout` })
        placed.add(name)
      })
    )
    for (const part of ['navbar', 'lateralMenu'] as const) {
      const { enable, section } = page.app_info[part]
      if (enable && !sections.has(section)) {
        problems.push({ path: `/form/pages/${p}/app_info/${part}/section`, message: `no section "${section}"` })
      }
    }
  })
  config.elements.forEach((item, index) => {
    if (item.type === 'section' && !sections.has(String(item.data.section_id))) {
      problems.push({ path: `/elements/${index}/data/section_id`, message: `no section "${item.data.section_id}"` })
    }
  })
  config.fields.forEach((item, index) => {
    if (!item.isSet) return
    const driving = config.fields.find((field) => field.field_name === item.set)
    if (!driving) {
      problems.push({ path: `/fields/${index}/set`, message: `"${item.set}" is not a field of this form` })
    } else if (driving.isSet) {
      // Also refuses a field repeating over itself: the repetitions come from a plain field's value.
      problems.push({ path: `/fields/${index}/set`, message: `"${item.set}" is itself repeated` })
    }
  })
  config.validations.autocomplete.forEach((rule, index) => {
    if (!names.has(rule.id_field)) {
      problems.push({
        path: `/validations/autocomplete/${index}/id_field`,
        message: `"${rule.id_field}" is not a field`,
      })
    }
  })
  const actionNames = new Set<string>()
  config.validations.actions.forEach((action, index) => {
    if (actionNames.has(action.name)) {
      problems.push({
        path: `/validations/actions/${index}/name`,
        message: `the action "${action.name}" is defined twice`,
      })
    }
    actionNames.add(action.name)
    const { active, page } = action.start_page
    if (active && !pageExists(page)) {
      problems.push({
        path: `/validations/actions/${index}/start_page/page`,
        message: `no page ${JSON.stringify(page)}`,
      })
    }
  })
  config.validations.actions.forEach((action, a) =>
    action.actions.forEach((step, s) => {
      const actionType = actionTypes.require(step.type)
      for (const ref of configReferences(actionType, actionConfigWithDefaults(step, actionTypes))) {
        const path = `/validations/actions/${a}/actions/${s}/config/${ref.path.join('/')}`
        if (ref.role === 'field' && !names.has(String(ref.value))) {
          problems.push({ path, message: `"${ref.value}" is not a field or element of this form` })
        } else if (ref.role === 'action' && !actionNames.has(String(ref.value))) {
          problems.push({ path, message: `no action named "${ref.value}"` })
        } else if (ref.role === 'page' && !pageExists(ref.value)) {
          problems.push({ path, message: `no page ${JSON.stringify(ref.value)}` })
        }
      }
    })
  )
  for (const key of ['fields', 'elements'] as const) {
    config[key].forEach((item, index) => {
      for (const [event, actions] of Object.entries(item.events)) {
        for (const name of actions ?? []) {
          if (!config.validations.actions.some((a) => a.name === name)) {
            problems.push({ path: `/${key}/${index}/events/${event}`, message: `no action named "${name}"` })
          }
        }
      }
    })
  }
  return problems
}

/** Document templates: placeholders naming fields, no file or URL resources; create_doc steps naming one. */
function templateProblems(config: FormConfig): ConfigProblem[] {
  const problems = documentProblems(config.documents, new Set(config.fields.map((f) => f.field_name)))
  config.validations.actions.forEach((action, a) =>
    action.actions.forEach((step, s) => {
      const template = step.type === 'create_doc' ? (step.config as { template?: unknown }).template : undefined
      if (typeof template === 'string' && !Object.hasOwn(config.documents ?? {}, template)) {
        problems.push({
          path: `/validations/actions/${a}/actions/${s}/config/template`,
          message: `no document template named "${template}"`,
        })
      }
    })
  )
  return problems
}

/** Scripts that do not parse, and formulas that depend on themselves. */
function scriptProblems(config: FormConfig, actionTypes: ActionTypeRegistry): ConfigProblem[] {
  const problems: ConfigProblem[] = []
  const check = (path: string, source: unknown) => {
    if (typeof source !== 'string' || source.trim() === '') return
    const { error } = analyzeScript(source)
    if (error) problems.push({ path, message: `the script does not parse: ${error}` })
  }
  for (const key of ['fields', 'elements'] as const) {
    config[key].forEach((item, index) => {
      for (const script of ['show_with_formule', 'formule', ...EVENT_SCRIPTS] as const) {
        check(`/${key}/${index}/data/${script}`, item.data[script])
      }
      const cells: unknown[] = item.type === REPEAT_TYPE && Array.isArray(item.data.cells) ? item.data.cells : []
      cells.forEach(
        (cell, c) =>
          isCell(cell) &&
          (['show_with_formule', 'formule'] as const).forEach((script) =>
            check(`/${key}/${index}/data/cells/${c}/data/${script}`, cell.data[script])
          )
      )
      const { table } = item.data.ref as { table?: { columns: { formule: string; buttons: { formule: string }[] }[] } }
      table?.columns.forEach((column, c) => {
        check(`/${key}/${index}/data/ref/table/columns/${c}/formule`, column.formule)
        column.buttons.forEach((button, b) =>
          check(`/${key}/${index}/data/ref/table/columns/${c}/buttons/${b}/formule`, button.formule)
        )
      })
    })
  }
  config.validations.actions.forEach((action, index) => {
    check(`/validations/actions/${index}/conditions/code`, action.conditions.code)
    action.actions.forEach((step, s) => {
      const properties = actionTypes.require(step.type).schema.properties as Record<string, TSchema>
      for (const [key, schema] of Object.entries(properties)) {
        if (configRole(schema) === 'script')
          check(`/validations/actions/${index}/actions/${s}/config/${key}`, step.config[key])
      }
    })
  })
  config.validations.autocomplete.forEach((rule, index) =>
    check(`/validations/autocomplete/${index}/query/condition`, rule.query.condition)
  )
  for (const cycle of buildGraph(config).cycles) {
    const index = config.fields.findIndex((f) => f.field_name === cycle[0])
    problems.push({
      path: `/fields/${index}/data/formule`,
      message: `the formulas depend on each other: ${cycle.join(' → ')}`,
    })
  }
  return problems
}
