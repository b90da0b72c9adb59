/**
 * Names on their way into the library (import) and out to a file system (export). A library name has no
 * `/`, `\`, control characters or `..`, is not `.` and is at most 255 characters; a name the export
 * writes is also safe on Windows file systems and never a path.
 */

const NAME_MAX = 255
// eslint-disable-next-line no-control-regex
const UNSAFE_IN_LIBRARY = /[/\\\u0000-\u001f\u007f]/g
// What Windows refuses too, so an export can be copied anywhere.
// eslint-disable-next-line no-control-regex
const UNSAFE_ON_DISK = /[/\\:*?"<>|\u0000-\u001f\u007f]/g
const RESERVED_ON_WINDOWS = /^(con|prn|aux|nul|com\d|lpt\d)(\..*)?$/i

/** Cuts a name to `max` characters, keeping its extension when it has a short one. */
function fit(name: string, max = NAME_MAX): string {
  const chars = Array.from(name)
  if (chars.length <= max) return name
  const dot = name.lastIndexOf('.')
  const extension = dot > 0 && name.length - dot <= 21 ? name.slice(dot) : ''
  return Array.from(name.slice(0, name.length - extension.length))
    .slice(0, max - Array.from(extension).length)
    .join('')
    .concat(extension)
}

/** The name an imported file or folder gets in the library, or null when nothing usable is left. */
export function libraryName(raw: string): string | null {
  // `..` anywhere is refused by the library's own name rule: a run of dots becomes one.
  const cleaned = fit(
    raw
      .normalize('NFC')
      .replace(UNSAFE_IN_LIBRARY, '_')
      .replace(/\.{2,}/g, '.')
      .trim()
  )
  if (cleaned === '' || cleaned === '.' || cleaned === '..') return null
  return cleaned
}

/** The name a library item gets on disk: never a path, never `.`/`..`, never empty. */
export function diskName(raw: string, fallback: string): string {
  let cleaned = raw.normalize('NFC').replace(UNSAFE_ON_DISK, '_').trim()
  // Trailing dots and spaces vanish on Windows; a leading dot hides a file (and `..` climbs).
  cleaned = cleaned.replace(/[. ]+$/, '').replace(/^\.+/, '_')
  if (cleaned === '') cleaned = fallback
  if (RESERVED_ON_WINDOWS.test(cleaned)) cleaned = `_${cleaned}`
  return fit(cleaned)
}

/** `name (2).ext`, `name (3).ext`, … : the n-th candidate for a name already taken. */
export function numbered(name: string, n: number): string {
  if (n <= 1) return name
  const dot = name.lastIndexOf('.')
  const [stem, extension] = dot > 0 && name.length - dot <= 21 ? [name.slice(0, dot), name.slice(dot)] : [name, '']
  const suffix = ` (${n})`
  return `${fit(stem, NAME_MAX - suffix.length - extension.length)}${suffix}${extension}`
}

/** The extension the library keeps: lower case, without the dot, '' when none. */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.')
  return dot > 0
    ? name
        .slice(dot + 1)
        .toLowerCase()
        .slice(0, 20)
    : ''
}
