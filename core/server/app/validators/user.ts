import vine from '@vinejs/vine'

/**
 * A user as administrators create and edit it (spec 001 §3). Lists (areas, roles) may come as JSON
 * text in form-data; the optional profile fields are nullable, and the controller turns an empty
 * string into null for them, so a form can clear what it once set. Usernames are letters, digits and . _ - @ so they fit an LDAP DN and a URL.
 */
const idList = vine.array(vine.number().withoutDecimals().positive()).maxLength(200).optional()

/** Profile fields an administrator may clear (nullable columns). */
export const CLEARABLE_FIELDS = [
  'email',
  'document_type',
  'document_number',
  'mobile',
  'gender',
  'birth_date',
  'birth_place',
  'residence',
  'stratum',
  'profession',
  'parent_id',
] as const

const fields = {
  email: vine.string().trim().email().maxLength(254).nullable().optional(),
  first_name: vine.string().trim().minLength(1).maxLength(100),
  last_name: vine.string().trim().maxLength(100).optional(),
  document_type: vine.string().trim().maxLength(20).nullable().optional(),
  document_number: vine.string().trim().maxLength(40).nullable().optional(),
  mobile: vine.string().trim().maxLength(30).nullable().optional(),
  gender: vine.string().trim().maxLength(20).nullable().optional(),
  birth_date: vine
    .date({ formats: ['YYYY-MM-DD'] })
    .nullable()
    .optional(),
  birth_place: vine.string().trim().maxLength(150).nullable().optional(),
  residence: vine.string().trim().maxLength(200).nullable().optional(),
  stratum: vine.number().withoutDecimals().range([0, 9]).nullable().optional(),
  profession: vine.string().trim().maxLength(150).nullable().optional(),
  parent_id: vine.number().withoutDecimals().positive().nullable().optional(),
  required_tfa: vine.boolean().optional(),
  enabled: vine.boolean().optional(),
  auth_source: vine.enum(['local', 'ldap'] as const).optional(),
  areas: idList,
  roles: idList,
}

export const createUserValidator = vine.compile(
  vine.object({
    username: vine
      .string()
      .trim()
      .minLength(2)
      .maxLength(100)
      .regex(/^[\p{L}\p{N}._@-]+$/u),
    password: vine.string().maxLength(1024).optional(),
    ...fields,
  })
)

export const updateUserValidator = vine.compile(
  vine.object({
    ...fields,
    first_name: vine.string().trim().minLength(1).maxLength(100).optional(),
  })
)

export const areaValidator = vine.compile(
  vine.object({
    name: vine.string().trim().minLength(1).maxLength(100),
    color: vine
      .string()
      .trim()
      .regex(/^#[0-9a-fA-F]{6}$/)
      .optional(),
  })
)

export const roleValidator = vine.compile(
  vine.object({
    name: vine
      .string()
      .trim()
      .minLength(2)
      .maxLength(60)
      .regex(/^[\p{L}\p{N}_ -]+$/u),
  })
)
