/**
 * pdf.js's own data files, bundled by Vite (hashed under assets/, fetched only when a PDF needs them;
 * never from a CDN): the wasm image decoders (JPEG 2000 and JBIG2, common in scanned documents), the
 * standard fonts a PDF may name without embedding, and the CMaps of CJK text.
 */
const urls = (files: Record<string, string>) =>
  new Map(Object.entries(files).map(([path, url]) => [path.slice(path.lastIndexOf('/') + 1), url]))

// Globs must be literal; node_modules here is the workspace root's, where npm hoists pdfjs-dist.
// no-inline: a small CMap would otherwise be pasted into the viewer's chunk as a data URL.
const ASSETS: Record<string, Map<string, string>> = {
  wasmUrl: urls(
    import.meta.glob('../../../../node_modules/pdfjs-dist/wasm/{jbig2,openjpeg}.wasm', {
      query: '?url&no-inline',
      import: 'default',
      eager: true,
    })
  ),
  standardFontDataUrl: urls(
    import.meta.glob('../../../../node_modules/pdfjs-dist/standard_fonts/*.{pfb,ttf}', {
      query: '?url&no-inline',
      import: 'default',
      eager: true,
    })
  ),
  cMapUrl: urls(
    import.meta.glob('../../../../node_modules/pdfjs-dist/cmaps/*.bcmap', {
      query: '?url&no-inline',
      import: 'default',
      eager: true,
    })
  ),
}

/**
 * pdf.js's `BinaryDataFactory` option: the worker asks for a file by kind and name, and gets it from
 * the bundle (pdf.js's default would need one folder URL per kind, which hashed assets do not have).
 */
export class BundledPdfData {
  async fetch({ kind, filename }: { kind: string; filename: string }): Promise<Uint8Array> {
    const url = ASSETS[kind]?.get(filename)
    if (!url) throw new Error(`pdf.js data not bundled: ${kind} ${filename}`)
    const res = await fetch(url)
    if (!res.ok) throw new Error(`pdf.js data ${filename}: HTTP ${res.status}`)
    return new Uint8Array(await res.arrayBuffer())
  }
}
