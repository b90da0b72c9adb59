import http from 'node:http'
import https from 'node:https'
import ipp from 'ipp'
import { DeviceError } from './errors.js'

/**
 * One IPP request over HTTP, bounded in time. The `ipp` package encodes and decodes the messages; the
 * transport is ours because its own has no timeout and logs to the console.
 */

export type IppAttributes = Record<string, unknown>

export interface IppCall {
  operation: string
  /** Operation attributes after the printer's URI (job-name, job-id, requested-attributes…). */
  attributes?: IppAttributes
  /** Job template attributes (copies, sides…). */
  job?: IppAttributes
  /** The document, for Print-Job. */
  data?: Uint8Array
}

export interface IppReply {
  status: string
  printer: IppAttributes
  /** Every job-attributes group of the answer (one per job for Get-Jobs). */
  jobs: IppAttributes[]
}

export interface CallOptions {
  timeoutMs: number
  signal?: AbortSignal
}

/** Always the same user: printers show job names only to their owner, and printFile finds its jobs by name. */
export const IPP_USER = 'tramita'
/** Largest answer read (a Get-Jobs of a busy printer is a few kB). */
const MAX_REPLY_BYTES = 4 * 1024 * 1024

// The parser prints a line to stdout for each attribute without a value (date-time-at-completed of a
// pending job); such attributes carry nothing the drivers read.
ipp.parse.handleUnknownTag = (_tag, _name, length, read) => (length ? read(length) : undefined)

export async function ippCall(uri: string, call: IppCall, options: CallOptions): Promise<IppReply> {
  const body = ipp.serialize({
    version: '2.0',
    operation: call.operation,
    'operation-attributes-tag': {
      'attributes-charset': 'utf-8',
      'attributes-natural-language': 'en',
      'printer-uri': uri,
      'requesting-user-name': IPP_USER,
      ...call.attributes,
    },
    ...(call.job ? { 'job-attributes-tag': call.job } : {}),
    ...(call.data ? { data: Buffer.from(call.data.buffer, call.data.byteOffset, call.data.byteLength) } : {}),
  })
  const answer = await post(uri, body, call.operation, options)
  let reply
  try {
    reply = ipp.parse(answer)
  } catch (error) {
    throw new DeviceError('print_error', `${uri} sent an answer to ${call.operation} that is not IPP`, { cause: error })
  }
  const status = reply.statusCode ?? 'unknown'
  if (!status.startsWith('successful')) throw new IppRefused(`${uri} refused ${call.operation}: ${status}`, status)
  return { status, printer: group(reply['printer-attributes-tag'])[0] ?? {}, jobs: group(reply['job-attributes-tag']) }
}

/** The printer answered, with an error status (client-error-not-found, server-error-busy…). */
export class IppRefused extends DeviceError {
  readonly status: string

  constructor(detail: string, status: string) {
    super('print_error', detail)
    this.status = status
  }
}

/** A single-valued set comes back as a scalar: the drivers read every set through this. */
export function list(value: unknown): string[] {
  if (value === undefined || value === null) return []
  return (Array.isArray(value) ? value : [value]).map(String)
}

function group(value: IppAttributes | IppAttributes[] | undefined): IppAttributes[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value]
}

function post(uri: string, body: Buffer, operation: string, { timeoutMs, signal }: CallOptions): Promise<Buffer> {
  const url = new URL(uri)
  const secure = url.protocol === 'ipps:' || url.protocol === 'https:'
  const limit = AbortSignal.timeout(Math.max(1, timeoutMs))
  const abort = signal ? AbortSignal.any([limit, signal]) : limit
  return new Promise((resolve, reject) => {
    const fail = (error: Error, answered?: string) => {
      const detail = answered
        ? answered
        : limit.aborted
          ? `${uri} did not answer ${operation} within ${timeoutMs} ms`
          : signal?.aborted
            ? `${operation} to ${uri} was cancelled`
            : `cannot reach ${uri}: ${(error as NodeJS.ErrnoException).code ?? error.message}`
      reject(new DeviceError('print_error', detail, { cause: error }))
    }
    const request = (secure ? https : http).request(
      {
        host: url.hostname.replace(/^\[|\]$/g, ''),
        port: url.port || 631,
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        headers: { 'content-type': 'application/ipp', 'content-length': body.length },
        // One connection per call: the agent talks to a printer now and then, and leaves no socket behind.
        agent: false,
        signal: abort,
        // Printers serve IPPS with self-signed certificates: the channel is encrypted, the printer not authenticated.
        ...(secure ? { rejectUnauthorized: false } : {}),
      },
      (response) => {
        if (response.statusCode !== 200) {
          response.resume()
          const answered = `${uri} answered ${operation} with HTTP ${response.statusCode}`
          return fail(new Error(answered), answered)
        }
        const chunks: Buffer[] = []
        let size = 0
        response.on('data', (chunk: Buffer) => {
          size += chunk.length
          if (size > MAX_REPLY_BYTES) request.destroy(new Error(`answer larger than ${MAX_REPLY_BYTES} bytes`))
          else chunks.push(chunk)
        })
        response.on('end', () => resolve(Buffer.concat(chunks)))
        response.on('error', fail)
      }
    )
    request.on('error', fail)
    request.end(body)
  })
}
