import vine from '@vinejs/vine'

/**
 * An image the login screen shows: a path on this server or an http(s) URL. Quotes, brackets,
 * backslashes and spaces are refused because the value ends up inside a CSS `url("…")`.
 * An empty string clears the setting.
 */
const imageRef = vine
  .string()
  .trim()
  .maxLength(500)
  .regex(/^(?:$|\/(?!\/)|https?:\/\/)[^\s"'()\\<>]*$/)
  .optional()

export const institutionValidator = vine.compile(
  vine.object({
    name: vine.string().trim().minLength(1).maxLength(200).optional(),
    logo: imageRef,
    login_background: imageRef,
    login_panel: imageRef,
  })
)
