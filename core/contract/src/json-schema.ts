/**
 * The whole jsonconfig as one JSON Schema document, for editors and the designer's JSON view: the
 * frame with each field and element as one of its registered types' schemas (all defaults annotated).
 */
import type { TSchema } from '@sinclair/typebox'
import * as Type from './schema/type.js'
import { FormConfigBase } from './schema/form.js'
import { coreRegistry } from './core-types.js'
import type { FieldTypeRegistry } from './registry.js'

export function configJsonSchema(registry: FieldTypeRegistry = coreRegistry()): TSchema {
  const itemsOf = (kind: 'field' | 'element') =>
    Type.Array(Type.Union(registry.list(kind).map((t) => t.schema)), { default: [] })
  return Type.Object(
    { ...FormConfigBase.properties, fields: itemsOf('field'), elements: itemsOf('element') },
    { additionalProperties: false, $schema: 'http://json-schema.org/draft-07/schema#', title: 'Tramita jsonconfig' }
  )
}
