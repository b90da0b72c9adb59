import { deflateSync } from 'node:zlib'

export interface PaddedPdfOptions {
  /** Object streams (the first holds the catalog, the page tree and the page; each further one a spare dictionary). */
  streams?: number
  /** Which streams are padded: the object streams (pdf-lib inflates them as it loads), or the page's content (inflated when a page is embedded). */
  padded?: 'objects' | 'content'
  /** Hex-encode the Flate data (/Filter [/ASCIIHexDecode /FlateDecode]): no longer zlib data as stored. */
  hex?: boolean
}

/**
 * A one-page PDF whose padded streams decode to `padBytes` spaces more than their content: a few
 * hundred bytes on disk can decode to hundreds of megabytes (a "flate bomb"). Its dictionaries
 * (objects 2–4) sit in Flate object streams (objects 100…), the page's content (object 99, a line)
 * in a stream of its own. pdf-lib reads, copies and embeds it whatever the padding.
 */
export function paddedPdf(padBytes: number, options: PaddedPdfOptions = {}): Uint8Array {
  const { streams = 1, padded = 'objects', hex = false } = options
  const chunks: Buffer[] = []
  let size = 0
  const push = (part: Buffer | string) => {
    const bytes = typeof part === 'string' ? Buffer.from(part, 'latin1') : part
    chunks.push(bytes)
    size += bytes.length
  }
  /** An indirect stream object of `text` and `pad` spaces, Flate-compressed (and hex-encoded). */
  const stream = (id: number, dictionary: string, text: string, pad: number) => {
    const plain = Buffer.alloc(text.length + pad, 0x20)
    plain.write(text, 'latin1')
    const packed = deflateSync(plain, { level: 9 })
    const data = hex ? Buffer.from(`${packed.toString('hex')}>`, 'latin1') : packed
    const filter = hex ? '[/ASCIIHexDecode /FlateDecode]' : '/FlateDecode'
    push(`${id} 0 obj\n<<${dictionary}/Length ${data.length}/Filter ${filter}>>\nstream\n`)
    push(data)
    push('\nendstream\nendobj\n')
  }
  push('%PDF-1.5\n')
  stream(99, '', '0 0 m 100 100 l S', padded === 'content' ? padBytes : 0)
  let next = 2
  for (let s = 0; s < streams; s++) {
    const objects =
      s === 0
        ? [
            '<</Type/Catalog/Pages 3 0 R>>',
            '<</Type/Pages/Kids[4 0 R]/Count 1>>',
            '<</Type/Page/Parent 3 0 R/MediaBox[0 0 612 792]/Contents 99 0 R>>',
          ]
        : ['<</Spare true>>']
    let at = 0
    const header = objects.map((object) => {
      const entry = `${next++} ${at}`
      at += object.length + 1
      return entry
    })
    const head = `${header.join(' ')} `
    const pad = padded === 'objects' ? padBytes : 0
    stream(100 + s, `/Type/ObjStm/N ${objects.length}/First ${head.length}`, head + objects.join(' '), pad)
  }
  // pdf-lib reads the objects in file order: the cross-reference table need not list them.
  const xref = size
  push(`xref\n0 1\n0000000000 65535 f \ntrailer\n<</Size ${100 + streams}/Root 2 0 R>>\nstartxref\n${xref}\n%%EOF\n`)
  return new Uint8Array(Buffer.concat(chunks))
}
