import { open } from 'node:fs/promises'
import { fileTypeFromFile } from 'file-type'
import { checkFileUpload, fileExtension } from '@tramita/contract'
import { isEicar, scanFile } from './antivirus.js'
import { gzipProblem, pdfProblem, zipProblem } from './archive.js'
import { pngPixels } from '#lib/png_size'

/**
 * The checks an uploaded file passes before it is stored (spec 000 §5 "File upload"): the contract's
 * extension rules (blocklist, the field's allowlist, the count limit), then what the bytes really
 * are, sniffed with `file-type` — the client's name and Content-Type are never believed; active content
 * (HTML, SVG, scripts) by name or by its first bytes unless the field allows it; archives whose content
 * inflates absurdly (archive.ts); PNGs of absurd dimensions; the EICAR test file, and what ClamAV
 * finds when it is configured (antivirus.ts).
 */

export const FOLDERTYPES = ['images', 'signatures', 'files'] as const
export type Foldertype = (typeof FOLDERTYPES)[number]

/** Field types a file can be uploaded to, and the limit of the single-valued ones. */
export const UPLOAD_FIELD_TYPES = new Set(['file', 'image', 'signature'])

/** Image formats an image field may hold: the ones the contract accepts on save (no SVG: it can carry script). */
const IMAGE_EXTENSIONS = new Set(['png', 'jpg', 'jpeg', 'gif', 'webp', 'bmp'])
const SIGNATURE_MIMES = new Set(['image/png', 'image/jpeg'])

/** Sniffed kinds that are programs, installers or disk images whatever the file is called. */
const BLOCKED_KINDS = new Set([
  'exe', // PE: .exe, .dll, .sys, .scr
  'elf',
  'macho',
  'class',
  'jar',
  'apk',
  'crx',
  'xpi',
  'deb',
  'rpm',
  'dmg',
  'iso',
  'lnk',
  'reg',
  'chm',
  'swf',
  'wasm',
])

/**
 * Extensions whose files always start with a signature `file-type` knows: a file named so must be
 * sniffed as that kind (so a renamed program or a text file cannot pass as a PDF or an image). Each
 * lists the sniffed kinds it may come out as: OOXML and ODF files are zips, old Office files CFB.
 */
const MUST_SNIFF_AS: Record<string, string[]> = {
  png: ['png', 'apng'],
  jpg: ['jpg'],
  jpeg: ['jpg'],
  gif: ['gif'],
  webp: ['webp'],
  bmp: ['bmp'],
  tif: ['tif'],
  tiff: ['tif'],
  heic: ['heic'],
  avif: ['avif'],
  pdf: ['pdf'],
  zip: ['zip'],
  rar: ['rar'],
  '7z': ['7z'],
  gz: ['gz'],
  docx: ['docx', 'zip'],
  xlsx: ['xlsx', 'zip'],
  pptx: ['pptx', 'zip'],
  odt: ['odt', 'zip'],
  ods: ['ods', 'zip'],
  odp: ['odp', 'zip'],
  doc: ['cfb'],
  xls: ['cfb'],
  ppt: ['cfb'],
}

/** Sniffed kinds that are zips (OOXML, ODF and EPUB files are) and are checked for inflation bombs. */
const ZIP_KINDS = new Set(['zip', 'docx', 'xlsx', 'pptx', 'odt', 'ods', 'odp', 'epub'])

/** An image's pixels, decoded, above which it is refused (a 10,000 × 10,000 PNG of 100 bytes is 400 MB). */
const MAX_IMAGE_PIXELS = 50_000_000

/**
 * The first bytes of markup or a script, whatever the file is called: a browser or a shell would run
 * it (an HTML page, an SVG, a PHP page, a `#!` script).
 */
const ACTIVE_START =
  /^(\uFEFF)?\s*(<\?php|#!|<svg[\s>]|<!doctype\s+html|<html[\s>]|<script[\s>]|<\?xml[^>]*>\s*(<!--[\s\S]*?-->\s*)*(<!doctype\s+svg[^>]*>\s*)?<svg[\s>])/i

/** The rules of the field the file goes to (from the published form version). */
export interface UploadTarget {
  /** file, image or signature. */
  fieldType: string
  /** data.ext of a file field; empty allows anything not blocked. */
  allowed: string[]
  /** ref.limit of a file field (negative: unlimited); 1 for an image or a signature. */
  limit: number
  foldertype: Foldertype
  /** data.allowActiveContent of a file field: HTML, SVG and scripts accepted. */
  allowActiveContent?: boolean
}

export interface Refusal {
  key: string
  vars: Record<string, unknown>
  /** The HTTP status (400 unless said). */
  status?: number
}

export interface Inspected {
  /** The declared extension, lower-cased, without the dot ('' when the name has none). */
  ext: string
  /** The sniffed MIME type (application/octet-stream when the content has no known signature). */
  mime: string
  /** The extension the storage key gets: the declared one when it is plain, else the sniffed one. */
  storageExt: string
}

/** A display name safe to keep: the base name, no control characters, at most 255 characters. */
export function cleanName(clientName: string): string {
  const base = String(clientName ?? '')
    .split(/[\\/]/)
    .pop()!
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .trim()
  return [...(base || 'file')].slice(0, 255).join('')
}

/**
 * Checks one file (the `index`-th of the request) against the field's rules and its own bytes.
 * `tmpPath` is the body parser's temporary copy.
 */
export async function inspectUpload(
  file: { tmpPath: string; clientName: string; size: number },
  index: number,
  target: UploadTarget,
  maxBytes: number
): Promise<Inspected | Refusal> {
  const name = cleanName(file.clientName)
  if (file.size <= 0) return { key: 'upload.empty_file', vars: { name } }
  if (file.size > maxBytes) return { key: 'upload.over_size', vars: { name, mb: maxBytes / 1024 / 1024 } }

  const sniffed = await fileTypeFromFile(file.tmpPath)
  const mime = sniffed?.mime ?? 'application/octet-stream'
  const ext = fileExtension(name)
  const imagesOnly = target.foldertype !== 'files' || target.fieldType !== 'file'

  // The contract's rule first, so the browser and the server refuse with the same reason.
  const rule = checkFileUpload(
    { name, mime },
    {
      allowed: target.allowed,
      limit: target.limit,
      count: index,
      imagesOnly,
      allowActiveContent: target.allowActiveContent,
    }
  )
  if (!rule.ok) {
    if (rule.reason === 'blocked_extension') return { key: 'upload.blocked_extension', vars: { name } }
    if (rule.reason === 'active_content') return { key: 'upload.active_content', vars: { name } }
    if (rule.reason === 'extension_not_allowed') {
      return { key: 'upload.only_extensions_allowed', vars: { extensions: target.allowed.join(', ') } }
    }
    if (rule.reason === 'not_an_image') return { key: 'upload.not_an_image', vars: { name } }
    return { key: 'upload.limit_reached', vars: { limit: target.limit } }
  }

  if (sniffed && BLOCKED_KINDS.has(sniffed.ext)) return { key: 'upload.content_blocked', vars: { name } }
  const expected = MUST_SNIFF_AS[ext]
  if (expected && !(sniffed && expected.includes(sniffed.ext))) {
    return { key: 'upload.content_mismatch', vars: { name, ext } }
  }
  // The contract's image rule looks at the MIME type; an image field also needs a format it can show.
  if (imagesOnly && !IMAGE_EXTENSIONS.has(ext)) {
    return { key: 'upload.not_an_image', vars: { name } }
  }
  if ((target.foldertype === 'signatures' || target.fieldType === 'signature') && !SIGNATURE_MIMES.has(mime)) {
    return { key: 'upload.signature_format', vars: { name } }
  }

  const head = await firstBytes(file.tmpPath, 1024)
  if (!target.allowActiveContent && (!sniffed || sniffed.ext === 'xml') && ACTIVE_START.test(head.toString('utf8'))) {
    return { key: 'upload.active_content', vars: { name } }
  }
  if (sniffed && (ZIP_KINDS.has(sniffed.ext) || sniffed.ext === 'gz' || sniffed.ext === 'pdf')) {
    const check = sniffed.ext === 'gz' ? gzipProblem : sniffed.ext === 'pdf' ? pdfProblem : zipProblem
    const problem = await check(file.tmpPath, file.size)
    if (problem === 'not_archive') return { key: 'upload.archive_broken', vars: { name } }
    if (problem) return { key: 'upload.archive_bomb', vars: { name } }
  }
  const png = sniffed?.ext === 'png' || sniffed?.ext === 'apng'
  if (png && (pngPixels(head) ?? 0) > MAX_IMAGE_PIXELS) {
    return { key: 'upload.image_too_large', vars: { name } }
  }
  const scanned = (await isEicar(file.tmpPath, file.size))
    ? { kind: 'infected' as const, virus: 'Eicar-Test-Signature' }
    : await scanFile(file.tmpPath)
  if (scanned?.kind === 'infected') return { key: 'upload.infected', vars: { name, virus: scanned.virus } }
  if (scanned?.kind === 'unavailable') {
    console.error('antivirus', scanned.detail)
    return { key: 'upload.scan_unavailable', vars: { name }, status: 503 }
  }

  const storageExt = /^[a-z0-9]{1,10}$/.test(ext) ? ext : (sniffed?.ext.replace(/[^a-z0-9]/g, '') ?? '') || 'bin'
  return { ext, mime, storageExt }
}

export function isRefusal(result: Inspected | Refusal): result is Refusal {
  return 'key' in result
}

async function firstBytes(path: string, count: number): Promise<Buffer> {
  const handle = await open(path, 'r')
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(count), 0, count, 0)
    return buffer.subarray(0, bytesRead)
  } finally {
    await handle.close()
  }
}
