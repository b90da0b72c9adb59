import { parentPort, workerData } from 'node:worker_threads'
import { idCardPdf, type Face } from './idcard.js'

/**
 * The ID card's PDF in a worker thread (idCardPdfBounded): pdf-lib decodes a PNG face and parses a
 * PDF face on the thread that calls it. A face it cannot read fails the worker, and the caller says so.
 */
const { front, back, enlarged } = workerData as { front: Face; back: Face; enlarged: boolean }
parentPort!.postMessage(await idCardPdf(front, back, enlarged))
