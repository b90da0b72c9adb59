import { JOB_ERRORS, type AgentMessage, type JobError, type MachineReport } from '../../shared/protocol.js'

/**
 * An agent's message checked before anything reads it: an agent is another computer, so its messages
 * are input like a request's. Anything out of shape throws, and the core closes the connection.
 */

const MAX_MACHINES = 200
const MAX_TRAYS = 20

class BadMessage extends Error {}

function text(value: unknown, max: number, what: string): string {
  if (typeof value !== 'string' || value.length > max) throw new BadMessage(`${what} must be text of at most ${max}`)
  return value
}

function flag(value: unknown, what: string): boolean {
  if (typeof value !== 'boolean') throw new BadMessage(`${what} must be true or false`)
  return value
}

function list(value: unknown, max: number, what: string): unknown[] {
  if (!Array.isArray(value) || value.length > max) throw new BadMessage(`${what} must be a list of at most ${max}`)
  return value
}

function record(value: unknown, what: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new BadMessage(`${what} must be an object`)
  return value as Record<string, unknown>
}

function machine(value: unknown): MachineReport {
  const m = record(value, 'machine')
  const printer = m.printer === null ? null : record(m.printer, 'printer')
  const scanner = m.scanner === null ? null : record(m.scanner, 'scanner')
  if (!printer && !scanner) throw new BadMessage('a machine prints or scans')
  return {
    uid: text(m.uid, 400, 'uid'),
    name: text(m.name, 150, 'name'),
    brand: text(m.brand, 100, 'brand'),
    model: text(m.model, 100, 'model'),
    ip: text(m.ip, 64, 'ip'),
    printer: printer && {
      uri: text(printer.uri, 400, 'printer uri'),
      ready: flag(printer.ready, 'printer ready'),
      trays: list(printer.trays, MAX_TRAYS, 'trays').map((t) => text(t, 100, 'tray')),
      duplex: flag(printer.duplex, 'duplex'),
      color: flag(printer.color, 'color'),
    },
    scanner: scanner && {
      device: text(scanner.device, 400, 'scanner device'),
      ready: flag(scanner.ready, 'scanner ready'),
      sources: list(scanner.sources, MAX_TRAYS, 'sources').map((s) => text(s, 100, 'source')),
    },
  }
}

export function parseAgentMessage(raw: unknown): AgentMessage {
  const m = record(raw, 'message')
  switch (m.type) {
    case 'hello':
      if (typeof m.protocol !== 'number') throw new BadMessage('protocol must be a number')
      return {
        type: 'hello',
        protocol: m.protocol,
        version: text(m.version, 40, 'version'),
        hostname: text(m.hostname, 255, 'hostname'),
        machines: list(m.machines, MAX_MACHINES, 'machines').map(machine),
        sign: m.sign === undefined ? false : flag(m.sign, 'sign'),
      }
    case 'machines':
      return { type: 'machines', machines: list(m.machines, MAX_MACHINES, 'machines').map(machine) }
    case 'result': {
      if (m.status !== 'done' && m.status !== 'failed') throw new BadMessage('status must be done or failed')
      const error = m.error === undefined ? undefined : text(m.error, 30, 'error')
      if (error !== undefined && !(JOB_ERRORS as readonly string[]).includes(error))
        throw new BadMessage('unknown error')
      return {
        type: 'result',
        id: text(m.id, 36, 'id'),
        status: m.status,
        ...(error ? { error: error as JobError } : {}),
        ...(m.detail === undefined ? {} : { detail: text(m.detail, 500, 'detail') }),
      }
    }
    case 'sign_failed':
      return { type: 'sign_failed', token: text(m.token, 100, 'token'), detail: text(m.detail, 500, 'detail') }
    case 'files_changed':
      return { type: 'files_changed', root: text(m.root, 1000, 'root') }
    default:
      throw new BadMessage('unknown message type')
  }
}
