/**
 * File-field upload rules (spec 000 §5 "File upload", 001 §5 "File field upload"): blocked and
 * allowed extensions, the count limit (negative is unlimited) and image-only uploads.
 */

/** Extensions never accepted, whatever the field allows (spec 000 §5, 001 §5). */
export const BLOCKED_EXTENSIONS: readonly string[] = ['exe', 'bat', 'dll', 'sys', 'iso', 'img']

/**
 * Active content (issue 17): files a browser, a web server or a shell runs rather than shows — HTML
 * and SVG (script in the page), server pages, shell, PowerShell and Windows script-host files. A file
 * field refuses them unless it allows them explicitly (data.allowActiveContent).
 */
export const ACTIVE_CONTENT_EXTENSIONS: readonly string[] = [
  'html',
  'htm',
  'xhtml',
  'xht',
  'shtml',
  'mht',
  'mhtml',
  'svg',
  'svgz',
  'xsl',
  'xslt',
  'php',
  'php3',
  'php4',
  'php5',
  'php7',
  'phtml',
  'phar',
  'jsp',
  'asp',
  'aspx',
  'cgi',
  'sh',
  'bash',
  'zsh',
  'ksh',
  'csh',
  'command',
  'ps1',
  'psm1',
  'psd1',
  'ps1xml',
  'cmd',
  'com',
  'scr',
  'pif',
  'cpl',
  'msi',
  'js',
  'mjs',
  'jse',
  'vbs',
  'vbe',
  'wsf',
  'wsh',
  'hta',
]

/**
 * The lower-cased extension of a file name, '' when it has none. Only the base name counts (a browser
 * may send `C:\fakepath\x.pdf`), and trailing dots and spaces are ignored because Windows drops them:
 * `virus.exe.` would be saved as `virus.exe`.
 */
export function fileExtension(name: string): string {
  const base = String(name ?? '')
    .split(/[\\/]/)
    .pop()!
    .replace(/[. ]+$/, '')
  const dot = base.lastIndexOf('.')
  return dot === -1 ? '' : base.slice(dot + 1).toLowerCase()
}

/** Normalises an allowlist (data.ext): entries with or without a leading dot, any case, blanks ignored. */
export function normalizeExtensions(list: readonly string[] | null | undefined): string[] {
  return (list ?? [])
    .flatMap((entry) => String(entry).split(','))
    .map((entry) => entry.trim().replace(/^\.+/, '').toLowerCase())
    .filter((entry) => entry !== '')
}

/** True for an image MIME type (spec 000 §5: image upload accepts only image MIME types). */
export function isImageMime(mime: string | null | undefined): boolean {
  return typeof mime === 'string' && /^image\/[^\s/]+/.test(mime.trim().toLowerCase())
}

/** True when the limit is "unlimited": negative, or not a number at all (ref.limit defaults to -1). */
const unlimited = (limit: number) => typeof limit !== 'number' || Number.isNaN(limit) || limit < 0

/**
 * Whether another file may be added (spec 000 §5: the add button shows only below the limit; negative
 * is unlimited). A limit of 0 therefore allows none.
 */
export function canAddFile(count: number, limit: number): boolean {
  return unlimited(limit) || count < limit
}

/** Whether the file input accepts several files at once (spec 000 §5: only when limit > 1 or negative). */
export function fileInputMultiple(limit: number): boolean {
  return unlimited(limit) || limit > 1
}

export interface FileUploadRules {
  /** data.ext: allowed extensions; empty or absent allows any that is not blocked. */
  allowed?: readonly string[] | null
  /** ref.limit: the most files the field holds; negative is unlimited. */
  limit: number
  /** Files the field already holds. */
  count: number
  /** An image field: the MIME type must be image/*. */
  imagesOnly?: boolean
  /** data.allowActiveContent: the field accepts HTML, SVG and scripts (ACTIVE_CONTENT_EXTENSIONS). */
  allowActiveContent?: boolean
}

export type FileUploadRefusal =
  'blocked_extension' | 'active_content' | 'extension_not_allowed' | 'limit_reached' | 'not_an_image'

export type FileUploadCheck = { ok: true } | { ok: false; reason: FileUploadRefusal }

/**
 * Decides whether a chosen file may be uploaded to a field (spec 000 §5, 001 §5), checking in order:
 * blocked extension (always refused), active content the field does not allow, extension missing
 * from a non-empty allowlist, count already at the limit, and a non-image MIME type on an image-only
 * field.
 */
export function checkFileUpload(file: { name: string; mime?: string | null }, rules: FileUploadRules): FileUploadCheck {
  const ext = fileExtension(file.name)
  if (BLOCKED_EXTENSIONS.includes(ext)) return { ok: false, reason: 'blocked_extension' }
  if (!rules.allowActiveContent && ACTIVE_CONTENT_EXTENSIONS.includes(ext))
    return { ok: false, reason: 'active_content' }
  const allowed = normalizeExtensions(rules.allowed)
  if (allowed.length > 0 && !allowed.includes(ext)) return { ok: false, reason: 'extension_not_allowed' }
  if (!canAddFile(rules.count, rules.limit)) return { ok: false, reason: 'limit_reached' }
  if (rules.imagesOnly && !isImageMime(file.mime)) return { ok: false, reason: 'not_an_image' }
  return { ok: true }
}
