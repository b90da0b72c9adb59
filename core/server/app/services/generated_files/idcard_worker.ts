import { parentPort, workerData } from 'node:worker_threads'
import { limitDecodedStreams } from '@tramita/plugin-api/pdf-limits'
import { idCardPdf, type Face } from './idcard.js'

/** Throws when a stream of a PDF face decoded past its limits (a face is size-capped, its streams are not). */
const withinDecodeLimits = limitDecodedStreams()

/**
 * The ID card's PDF in a worker thread (idCardPdfBounded): pdf-lib decodes a PNG face and parses a
 * PDF face on the thread that calls it. A face it cannot read, or that inflates past the limits, fails
 * the worker, and the caller says so.
 */
const { front, back, enlarged } = workerData as { front: Face; back: Face; enlarged: boolean }
const pdf = await idCardPdf(front, back, enlarged)
withinDecodeLimits()
parentPort!.postMessage(pdf)
