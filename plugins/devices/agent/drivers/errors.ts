import type { JobError } from '../../shared/protocol.js'

/** A device's failure as the agent reports it: `code` is what the server shows (protocol.ts), `detail` the device's words. */
export class DeviceError extends Error {
  readonly code: JobError
  readonly detail: string

  constructor(code: JobError, detail: string, options?: { cause?: unknown }) {
    super(`${code}: ${detail}`, options)
    this.name = 'DeviceError'
    this.code = code
    this.detail = detail
  }
}
