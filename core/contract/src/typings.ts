import type { TSchema } from '@sinclair/typebox'
import { HOST_API, HOST_API_TYPINGS } from '@tramita/sandbox'
import { coreRegistry } from './core-types.js'
import type { FieldTypeRegistry } from './registry.js'
import { RESERVED_WORDS } from './schema/common.js'

/**
 * The TypeScript declarations a script of a form can see, generated from the form as it is: each
 * field by its bare name typed from its type's value schema, the process variables, and the
 * sandbox's host API. The designer gives them to Monaco for completion and type-checking.
 */

/** The process variables every script sees (spec 000 §3), with their types. */
const PROCESS_VARIABLES: Record<string, [type: string, doc: string]> = {
  code_process: ['string', 'The case code ("" before the case exists).'],
  gnrl_id: ['number', 'The case id (0 before the case exists).'],
  id_process: ['number', 'The form (process) id.'],
  this_id: ['number', 'The current task id (0 when none).'],
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/
const RESERVED = new Set(RESERVED_WORDS)

const quote = (text: string) => JSON.stringify(text)
const comment = (text: string) => text.replace(/\*\//g, '* /').replace(/\s+/g, ' ').trim()

/** A JSON Schema (TypeBox) as a TypeScript type; what it cannot say becomes `unknown`. */
export function schemaToTs(schema: TSchema | undefined, depth = 0): string {
  if (!schema || depth > 8) return 'unknown'
  if ('const' in schema) return JSON.stringify(schema.const)
  if (Array.isArray(schema.enum)) return schema.enum.map((v: unknown) => JSON.stringify(v)).join(' | ')
  const union = (schema.anyOf ?? schema.oneOf) as TSchema[] | undefined
  if (union) return [...new Set(union.map((s) => schemaToTs(s, depth + 1)))].join(' | ')
  switch (schema.type) {
    case 'string':
      return 'string'
    case 'number':
    case 'integer':
      return 'number'
    case 'boolean':
      return 'boolean'
    case 'null':
      return 'null'
    case 'array': {
      const items = schemaToTs(schema.items as TSchema | undefined, depth + 1)
      return /[|&]/.test(items) ? `(${items})[]` : `${items}[]`
    }
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, TSchema>
      const required = new Set((schema.required ?? []) as string[])
      const members = Object.entries(properties).map(
        ([key, value]) =>
          `${IDENTIFIER.test(key) ? key : quote(key)}${required.has(key) ? '' : '?'}: ${schemaToTs(value, depth + 1)}`
      )
      const rest = (Object.values(schema.patternProperties ?? {})[0] ?? schema.additionalProperties) as
        TSchema | boolean | undefined
      if (rest && typeof rest === 'object') members.push(`[key: string]: ${schemaToTs(rest, depth + 1)}`)
      return members.length > 0 ? `{ ${members.join('; ')} }` : 'Record<string, unknown>'
    }
    default:
      return 'unknown'
  }
}

interface TypedItem {
  field_name: string
  type: string
  data?: { label?: { value?: unknown } }
}

/**
 * The declarations for a form's scripts (a .d.ts text). Items of unknown types are typed `unknown`.
 * `row`: the cells of the repeating group whose cell script this is; the script then sees `row`, that
 * row's values (types/repeat.ts), beside the form's fields.
 */
export function scriptTypings(
  config: { fields?: readonly TypedItem[] },
  registry: FieldTypeRegistry = coreRegistry(),
  row?: readonly TypedItem[]
): string {
  const lines: string[] = []
  if (row) {
    const cells = row.filter((cell) => typeof cell?.field_name === 'string' && IDENTIFIER.test(cell.field_name))
    const members = cells.map(
      (cell) => `${cell.field_name}: ${schemaToTs(registry.get('field', cell.type)?.valueSchema)}`
    )
    lines.push(`/** This row's cells. */`, `declare const row: { ${members.join('; ')} }`, '')
  }
  const fields = (config.fields ?? []).filter((item) => typeof item.field_name === 'string' && item.field_name)
  const names = fields.map((f) => quote(f.field_name))
  lines.push(
    `/** The names of this form's fields. */`,
    `type FieldName = ${names.length > 0 ? names.join(' | ') : 'never'}`,
    ''
  )
  for (const item of fields) {
    const type = schemaToTs(registry.get('field', item.type)?.valueSchema)
    const label = typeof item.data?.label?.value === 'string' ? item.data.label.value : ''
    const doc = `/** ${comment(label ? `${label} (${item.type})` : item.type)} */`
    if (IDENTIFIER.test(item.field_name) && !RESERVED.has(item.field_name)) {
      lines.push(doc, `declare const ${item.field_name}: ${type}`)
    } else {
      lines.push(`${doc.slice(0, -3)}: read it with value(${quote(item.field_name)}) */`)
    }
    lines.push(`declare function value(name: ${quote(item.field_name)}): ${type}`)
  }
  lines.push('')
  for (const [name, [type, doc]] of Object.entries(PROCESS_VARIABLES)) {
    lines.push(`/** ${doc} */`, `declare const ${name}: ${type}`)
  }
  lines.push('')
  for (const name of HOST_API) lines.push(HOST_API_TYPINGS[name]!)
  return lines.join('\n') + '\n'
}
