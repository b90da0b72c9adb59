/** Small pieces the core type definitions share. */
import * as Type from '../schema/type.js'

export const isBlank = (value: unknown): boolean =>
  value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0)

/** JSON text of a value for value_simple; blank values serialise to ''. */
export const serialise = (value: unknown): string => (isBlank(value) ? '' : JSON.stringify(value))

/** An uploaded file as the upload route answers it (spec 000 §3 "Uploaded file entry"). */
export const FileEntry = Type.Object(
  {
    ext: Type.String(),
    ip: Type.String({ default: '' }),
    path: Type.String({ minLength: 1 }),
    real_name: Type.String(),
    status: Type.String({ default: 'good' }),
  },
  { additionalProperties: false }
)

/** A value that may be left empty: the type's shape or ''. */
export const OrBlank = <T extends import('@sinclair/typebox').TSchema>(schema: T) =>
  Type.Union([schema, Type.Literal('')])
