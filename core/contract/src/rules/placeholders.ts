/**
 * `${name}` placeholders (spec 000 §3 "text block": markdown with ${field} placeholders replaced by
 * field values). One reading of the syntax for the runtime, generated documents and the server.
 * A name is an identifier, the same as a field_name; spaces inside the braces are allowed.
 */

const PLACEHOLDER = /\$\{\s*([A-Za-z_$][A-Za-z0-9_$]*)\s*\}/g

/** The distinct names a text refers to, in the order they first appear. */
export function placeholderNames(template: string | null | undefined): string[] {
  const names: string[] = []
  for (const match of String(template ?? '').matchAll(PLACEHOLDER)) {
    if (!names.includes(match[1]!)) names.push(match[1]!)
  }
  return names
}

/**
 * Replaces each placeholder with `lookup(name)`. A name the lookup does not know (undefined) is left
 * as written, so a typo stays visible to the designer instead of silently disappearing; a known name
 * with an empty value becomes ''.
 */
export function fillPlaceholders(
  template: string | null | undefined,
  lookup: (name: string) => string | undefined
): string {
  return String(template ?? '').replace(PLACEHOLDER, (whole, name: string) => lookup(name) ?? whole)
}
