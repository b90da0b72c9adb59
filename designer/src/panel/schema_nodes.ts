/**
 * A type's settings schema (TypeBox, i.e. JSON Schema) read as a tree of editor descriptors: which
 * editor each key gets, its default (the schema annotation), its bounds and choices. Pure: the panel's
 * components render these nodes, the tests check them against the real core types.
 */
import { CommonDataProps, Script, TRANSLATABLE, TYPED_ITEMS } from '@tramita/contract'

export type EditorKind =
  'text' | 'script' | 'colour' | 'number' | 'boolean' | 'select' | 'tags' | 'json' | 'object' | 'list' | 'fixed'

export type PathKey = string | number

export interface EditorNode {
  /** The key in its parent ('' for the root). */
  key: string
  /** Keys from the described root (an item, or one element of a list) to this value. */
  path: readonly string[]
  kind: EditorKind
  /** The schema's default annotation (undefined when it has none). */
  default?: unknown
  /** Absent from its parent's required keys and without a default: "not set" is a state of its own. */
  optional: boolean
  /** A key the parent object requires and that has no default (a new list entry must have it). */
  required: boolean
  integer?: boolean
  minimum?: number
  maximum?: number
  minLength?: number
  maxLength?: number
  pattern?: string
  /** The choices of a select (or the one value of a fixed key). */
  options?: readonly (string | number)[]
  /** Tags and text that hold ids: a string or a number (digits become a number). */
  ids?: boolean
  /** Words the form's reader sees: they may be given per language (the item's translations). */
  translatable?: boolean
  children?: readonly EditorNode[]
  /** A list's element, described from the element (its path starts at the element). */
  item?: EditorNode
  /** A list of fields of their own types (a repeating group's cells): each entry adds its type's keys. */
  typedItems?: boolean
}

/** The part of JSON Schema read here (TypeBox builds plain JSON Schema objects). */
export interface JsonSchema {
  type?: string | string[]
  const?: unknown
  enum?: unknown[]
  anyOf?: JsonSchema[]
  properties?: Record<string, JsonSchema>
  patternProperties?: Record<string, JsonSchema>
  required?: string[]
  items?: JsonSchema
  default?: unknown
  description?: string
  format?: string
  minimum?: number
  maximum?: number
  minLength?: number
  maxLength?: number
  pattern?: string
  translatable?: boolean
  typedItems?: boolean
}

const SCRIPT_DESCRIPTION = (Script as JsonSchema).description

/** Keys that hold a colour (the contract has no colour format yet): #rrggbb or any CSS colour. */
const COLOUR_KEYS = /^(colou?r|bgcolor|txcolor|background|header_background|header_color)$/

export function isColourKey(key: string, parentKey: string | undefined): boolean {
  return COLOUR_KEYS.test(key) || parentKey === 'colors'
}

const isPrimitiveId = (schema: JsonSchema) =>
  schema.type === 'string' || schema.type === 'number' || schema.type === 'integer'

/** The kind of editor a schema gets, from its JSON type, annotations and key. */
function kindOf(schema: JsonSchema, key: string, parentKey: string | undefined): EditorKind {
  if (schema.const !== undefined) return 'fixed'
  if (schema.anyOf) {
    if (schema.anyOf.every((member) => member.const !== undefined)) return 'select'
    if (schema.anyOf.every(isPrimitiveId)) return 'text'
    return 'json'
  }
  if (Array.isArray(schema.enum)) return 'select'
  switch (schema.type) {
    case 'string':
      if (schema.format === 'color' || isColourKey(key, parentKey)) return 'colour'
      return schema.description !== undefined && schema.description === SCRIPT_DESCRIPTION ? 'script' : 'text'
    case 'number':
    case 'integer':
      return 'number'
    case 'boolean':
      return 'boolean'
    case 'object':
      return schema.properties && !schema.patternProperties ? 'object' : 'json'
    case 'array': {
      const items = schema.items ?? {}
      if (items.type === 'object' && items.properties) return 'list'
      const primitive = isPrimitiveId(items) || (items.anyOf !== undefined && items.anyOf.every(isPrimitiveId))
      return primitive ? 'tags' : 'json'
    }
    default:
      return 'json'
  }
}

function optionsOf(schema: JsonSchema): (string | number)[] | undefined {
  if (schema.const !== undefined) return [schema.const as string | number]
  if (schema.anyOf?.every((member) => member.const !== undefined)) {
    return schema.anyOf.map((member) => member.const as string | number)
  }
  return Array.isArray(schema.enum) ? (schema.enum as (string | number)[]) : undefined
}

const holdsIds = (schema: JsonSchema) => {
  const members = schema.anyOf ?? (schema.type === 'array' ? (schema.items?.anyOf ?? []) : [])
  return members.some((m) => m.type === 'number' || m.type === 'integer') && members.some((m) => m.type === 'string')
}

/**
 * The editor tree of a schema. `path` is where the schema sits (the item's root by default);
 * `required` says whether the parent requires the key.
 */
export function describeSchema(schema: JsonSchema, path: readonly string[] = [], required = true): EditorNode {
  const key = path[path.length - 1] ?? ''
  const parentKey = path[path.length - 2]
  const kind = kindOf(schema, key, parentKey)
  const hasDefault = schema.default !== undefined
  const node: EditorNode = {
    key,
    path,
    kind,
    optional: !required && !hasDefault,
    required: required && !hasDefault,
  }
  if (hasDefault) node.default = schema.default
  if (schema.type === 'integer') node.integer = true
  for (const bound of ['minimum', 'maximum', 'minLength', 'maxLength'] as const) {
    if (typeof schema[bound] === 'number') node[bound] = schema[bound]
  }
  if (typeof schema.pattern === 'string') node.pattern = schema.pattern
  const options = optionsOf(schema)
  if (options && (kind === 'select' || kind === 'fixed')) node.options = options
  if ((kind === 'text' || kind === 'tags') && holdsIds(schema)) node.ids = true
  if (kind === 'text' && schema[TRANSLATABLE] === true) node.translatable = true
  if (kind === 'object') {
    const requiredKeys = new Set(schema.required ?? [])
    node.children = Object.entries(schema.properties ?? {}).map(([child, childSchema]) =>
      describeSchema(childSchema, [...path, child], requiredKeys.has(child))
    )
  }
  if (kind === 'list') node.item = describeSchema(schema.items ?? {}, [])
  if (kind === 'list' && schema[TYPED_ITEMS] === true) node.typedItems = true
  return node
}

/** `data` keys every field has: a typed entry shows its type's others (its choices, limits, rows...). */
const COMMON_DATA = new Set(Object.keys(CommonDataProps).filter((key) => key !== 'ref'))

/**
 * The editors of one entry of a typed list: the list's own (name, type, label, required, condition)
 * and, inside `data`, the keys of the entry's type that every field does not have.
 */
export function typedEntryNode(item: EditorNode, typeSchema: JsonSchema | undefined): EditorNode {
  const own = typeSchema?.properties?.data
  if (!own?.properties || item.kind !== 'object') return item
  const required = new Set(own.required ?? [])
  const extra = Object.entries(own.properties)
    .filter(([key]) => !COMMON_DATA.has(key))
    .map(([key, schema]) => describeSchema(schema, ['data', key], required.has(key)))
  return {
    ...item,
    children: (item.children ?? []).map((child) =>
      child.key === 'data' ? { ...child, children: [...(child.children ?? []), ...extra] } : child
    ),
  }
}

/** The node at a path below `root` (object children only), or undefined. */
export function nodeAt(root: EditorNode, path: readonly string[]): EditorNode | undefined {
  let node: EditorNode | undefined = root
  for (const key of path) {
    node = node?.children?.find((child) => child.key === key)
    if (!node) return undefined
  }
  return node
}

/** Every leaf (non-object) node below `root`, depth first, in schema order. */
export function leaves(root: EditorNode): EditorNode[] {
  if (root.kind !== 'object') return [root]
  return (root.children ?? []).flatMap(leaves)
}
