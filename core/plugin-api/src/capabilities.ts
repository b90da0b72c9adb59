/**
 * Services plugins offer each other by name (issue 21: a scan OCR'd by the documents plugin's engine),
 * since a plugin never imports another. The provider offers one in `register`; a user asks for it from
 * `boot` on and gets undefined while the provider is disabled or failed, so it must cope without it.
 * The shapes of the services offered live here, beside the name they are offered under.
 */

export interface PluginCapabilities {
  /** Offers `service` as `<this plugin>.<name>` (in `register`). */
  provide<T extends object>(name: string, service: T): void
  /** Another plugin's offer by its full name (`documents.ocr`), or undefined when it is not there now. */
  use<T extends object>(fullName: string): T | undefined
}

/** `documents.ocr`: a file made searchable by the documents plugin's OCR engine, each page billed once. */
export const OCR_CAPABILITY = 'documents.ocr'

export interface OcrCapability {
  /**
   * OCRs a PDF or image (JPEG, PNG, TIFF) at `input` into a searchable PDF at `output`, in the
   * institution's OCR languages, within the engine's time limits. Each page OCR'd is billed once under
   * `billingKey` + `:p<n>` (a second call with the same key bills nothing). Answers each page's state
   * (ocr: text found; scan: none) and the text, or why it could not: the engine is not installed on this
   * node, the file cannot be read, or the engine failed on it.
   */
  searchablePdf(
    input: { path: string; mime: string },
    output: string,
    opts: { billingKey: string; userId?: number; signal?: AbortSignal }
  ): Promise<
    { pages: ('ocr' | 'scan' | 'skip')[]; text: string } | { error: 'engine_missing' | 'unreadable' | 'failed' }
  >
}
