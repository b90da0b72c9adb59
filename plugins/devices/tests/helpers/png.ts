import { inflateSync } from 'node:zlib'

/**
 * A PNG's size and how much of it is ink (pixels darker than mid-grey), read without a library: the
 * chunks' IDAT inflated and each row's filter undone (PNG spec §9). 8-bit grey, RGB or RGBA only: what
 * pdftoppm writes.
 */
export function pngInk(bytes: Buffer): { width: number; height: number; dark: number } {
  if (bytes.readUInt32BE(0) !== 0x89504e47) throw new Error('not a PNG')
  const width = bytes.readUInt32BE(16)
  const height = bytes.readUInt32BE(20)
  const depth = bytes[24]!
  const channels = ({ 0: 1, 2: 3, 6: 4 } as Record<number, number>)[bytes[25]!]
  if (depth !== 8 || !channels) throw new Error(`unsupported PNG (depth ${depth}, colour type ${bytes[25]})`)
  const parts: Buffer[] = []
  for (let at = 8; at < bytes.length;) {
    const length = bytes.readUInt32BE(at)
    if (bytes.toString('latin1', at + 4, at + 8) === 'IDAT') parts.push(bytes.subarray(at + 8, at + 8 + length))
    at += length + 12
  }
  const raw = inflateSync(Buffer.concat(parts))
  const stride = width * channels
  let previous = Buffer.alloc(stride)
  let dark = 0
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!
    const line = Buffer.from(raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1)))
    for (let i = 0; i < stride; i++) {
      const left = i >= channels ? line[i - channels]! : 0
      const up = previous[i]!
      const corner = i >= channels ? previous[i - channels]! : 0
      const p = left + up - corner
      const pa = Math.abs(p - left)
      const pb = Math.abs(p - up)
      const pc = Math.abs(p - corner)
      const paeth = pa <= pb && pa <= pc ? left : pb <= pc ? up : corner
      const add = [0, left, up, (left + up) >> 1, paeth][filter] ?? 0
      line[i] = (line[i]! + add) & 0xff
    }
    for (let x = 0; x < width; x++) if (line[x * channels]! < 128) dark++
    previous = line
  }
  return { width, height, dark }
}
