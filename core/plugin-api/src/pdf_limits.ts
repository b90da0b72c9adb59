import DecodeStreamModule from 'pdf-lib/cjs/core/streams/DecodeStream.js'

/**
 * How much pdf-lib may inflate in one worker: one stream's decoded bytes, and the buffers all streams
 * allocate together. A PDF is size-capped before it reaches a worker, but its compressed streams are
 * not: a 200 KB file can hold an object stream of 200 MB, and a 32 MB one tens of gigabytes. The
 * worker's heap limit does not count them (typed arrays live outside V8's heap), so without these a
 * hostile PDF could take the server's memory. Real object and cross-reference streams are a few
 * megabytes at most.
 *
 * Here, not in one plugin, because the core reads users' PDFs with pdf-lib too (the ID card's faces):
 * `@tramita/plugin-api/pdf-limits`, imported by worker scripts only.
 */
export const DECODE_LIMITS = { streamBytes: 64 * 1024 * 1024, totalBytes: 512 * 1024 * 1024 }

/** A stream decoded past DECODE_LIMITS: the worker answers as for a PDF it cannot read. */
export class DecodedTooLarge extends Error {
  constructor(limit: 'stream' | 'total') {
    super(`a PDF stream decodes past the ${limit} limit`)
  }
}

type Growable = { buffer: Uint8Array; ensureBuffer(requested: number): Uint8Array }

/**
 * Caps every stream pdf-lib decodes in this thread (Flate, LZW, RunLength, ASCII85 and ASCIIHex all
 * grow their output through DecodeStream.ensureBuffer). Called once at the top of each PDF worker,
 * never in the server's own thread; pdf-lib is pinned (1.17.1), and the tests run the real workers
 * (the documents plugin's pdf_decode_limits.spec, the ID card's in generated_files.spec). pdf-lib's
 * parser passes over an object it cannot read, so a refused stream would only leave objects out: the
 * returned check, called after each load, throws the first refusal, and the worker answers as for a
 * file it cannot read.
 */
export function limitDecodedStreams(limits = DECODE_LIMITS): () => void {
  const prototype = (DecodeStreamModule as unknown as { default: { prototype: Growable } }).default.prototype
  const grow = prototype.ensureBuffer
  let total = 0
  let refused: DecodedTooLarge | null = null
  const refuse = (limit: 'stream' | 'total') => {
    refused ??= new DecodedTooLarge(limit)
    return refused
  }
  prototype.ensureBuffer = function (this: Growable, requested: number) {
    if (requested > limits.streamBytes) throw refuse('stream')
    const before = this.buffer.byteLength
    const buffer = grow.call(this, requested)
    // What was allocated (buffers grow by doubling): past the total, the new buffer is left to the GC.
    total += buffer.byteLength - before
    if (total > limits.totalBytes) throw refuse('total')
    return buffer
  }
  return () => {
    if (refused) throw refused
  }
}
