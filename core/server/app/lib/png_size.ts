const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]

/**
 * A PNG's pixels (width × height) from its IHDR, always its first chunk (width at byte 16, height at
 * 20), read before anything decodes it; null when `bytes` does not start as a PNG.
 */
export function pngPixels(bytes: Uint8Array): number | null {
  if (bytes.length < 24 || SIGNATURE.some((b, i) => bytes[i] !== b)) return null
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  return view.getUint32(16) * view.getUint32(20)
}
