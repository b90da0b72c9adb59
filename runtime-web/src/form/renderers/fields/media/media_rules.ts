/**
 * Pure helpers of the media renderers (file, image, signature, camera, table): names, dates,
 * refusal messages, table paging and search. No React and no DOM, so they are unit-tested as they are.
 */
import type { FileUploadRefusal } from '@tramita/contract'

const pad = (n: number, width = 2) => String(n).padStart(width, '0')

/** The name of a camera photo: `foto_YYYYMMDD_HHmmss.jpg` (spec 000 §9: a timestamped name). */
export function photoFileName(at: Date): string {
  const day = `${pad(at.getFullYear(), 4)}${pad(at.getMonth() + 1)}${pad(at.getDate())}`
  return `foto_${day}_${pad(at.getHours())}${pad(at.getMinutes())}${pad(at.getSeconds())}.jpg`
}

/** The date a signature carries (YYYY/MM/DD HH:mm:ss, the consultation's format), in local time. */
export function signatureDate(at: Date): string {
  const day = `${pad(at.getFullYear(), 4)}/${pad(at.getMonth() + 1)}/${pad(at.getDate())}`
  return `${day} ${pad(at.getHours())}:${pad(at.getMinutes())}:${pad(at.getSeconds())}`
}

/** The i18n key and values telling why a file was refused (checkFileUpload's reasons). */
export function refusalMessage(
  reason: FileUploadRefusal,
  file: string,
  allowed: readonly string[]
): { key: string; vars: Record<string, string> } {
  switch (reason) {
    case 'blocked_extension':
      return { key: 'media_ui.refused.blocked', vars: { file } }
    case 'active_content':
      return { key: 'media_ui.refused.active', vars: { file } }
    case 'extension_not_allowed':
      return { key: 'media_ui.refused.extension', vars: { file, extensions: allowed.join(', ') } }
    case 'limit_reached':
      return { key: 'media_ui.refused.limit', vars: { file } }
    case 'not_an_image':
      return { key: 'media_ui.refused.not_image', vars: { file } }
  }
}

/**
 * The longest side an uploaded image keeps when the field allows resizing (configControl.resize):
 * a phone photo of 4000 px is scaled down before it leaves the browser.
 */
export const MAX_IMAGE_SIDE = 1600

/** Width and height that fit `max` on the longest side, keeping the ratio; never enlarged. */
export function fitWithin(width: number, height: number, max: number): { width: number; height: number } {
  const longest = Math.max(width, height)
  if (longest <= max || longest <= 0) return { width, height }
  const scale = max / longest
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) }
}
