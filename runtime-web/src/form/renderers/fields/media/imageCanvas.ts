/**
 * Canvas work on pictures before they are uploaded: scaling a large photo down (configControl.resize)
 * and turning one a quarter (configControl.rotate). Each gives a new File; the original is untouched.
 */
import { fitWithin, MAX_IMAGE_SIDE } from './media_rules.js'

/** Types a canvas writes back the same; others (gif, svg, ...) are uploaded as they are. */
const REENCODED = new Set(['image/jpeg', 'image/png', 'image/webp'])
/** JPEG/WebP quality, the spec's photo quality (000 §9). */
export const IMAGE_QUALITY = 0.9

function toFile(canvas: HTMLCanvasElement, name: string, type: string): Promise<File> {
  return new Promise((resolve, reject) =>
    canvas.toBlob(
      (blob) => (blob ? resolve(new File([blob], name, { type })) : reject(new Error('canvas gave no image'))),
      type,
      IMAGE_QUALITY
    )
  )
}

/** The file scaled to MAX_IMAGE_SIDE on its longest side, or the same file when it already fits. */
export async function shrinkImage(file: File): Promise<File> {
  if (!REENCODED.has(file.type)) return file
  const bitmap = await createImageBitmap(file)
  try {
    const size = fitWithin(bitmap.width, bitmap.height, MAX_IMAGE_SIDE)
    if (size.width === bitmap.width && size.height === bitmap.height) return file
    const canvas = document.createElement('canvas')
    canvas.width = size.width
    canvas.height = size.height
    canvas.getContext('2d')!.drawImage(bitmap, 0, 0, size.width, size.height)
    return await toFile(canvas, file.name, file.type)
  } finally {
    bitmap.close()
  }
}

/** The picture at `url` turned 90° clockwise (or counter-clockwise), as a file named `name`. */
export async function rotateImage(url: string, name: string, clockwise: boolean): Promise<File> {
  const response = await fetch(url, { credentials: 'same-origin' })
  if (!response.ok) throw new Error(`HTTP ${response.status}`)
  const blob = await response.blob()
  const type = REENCODED.has(blob.type) ? blob.type : 'image/png'
  const bitmap = await createImageBitmap(blob)
  try {
    const canvas = document.createElement('canvas')
    canvas.width = bitmap.height
    canvas.height = bitmap.width
    const context = canvas.getContext('2d')!
    context.translate(canvas.width / 2, canvas.height / 2)
    context.rotate(((clockwise ? 1 : -1) * Math.PI) / 2)
    context.drawImage(bitmap, -bitmap.width / 2, -bitmap.height / 2)
    // A gif or svg comes back as PNG: its name says so, or the server's content check would refuse it.
    const named = type === blob.type ? name : name.replace(/(\.[^.]*)?$/, '.png')
    return await toFile(canvas, named, type)
  } finally {
    bitmap.close()
  }
}

/** A canvas as a PNG file (signatures, generated codes). */
export function canvasPng(canvas: HTMLCanvasElement, name: string): Promise<File> {
  return toFile(canvas, name, 'image/png')
}

/** A canvas as a JPEG file at the spec's quality 0.9 (camera photos). */
export function canvasJpeg(canvas: HTMLCanvasElement, name: string): Promise<File> {
  return toFile(canvas, name, 'image/jpeg')
}
