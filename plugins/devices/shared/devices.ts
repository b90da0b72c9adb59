/**
 * The devices plugin's routes and answers, read by its server and web halves (issue 21; spec 000 §7,
 * 001 §7). The agent's own calls are in protocol.ts.
 */
import type { AgentStatus, Availability, JobError } from './protocol.js'

const SPEC = '/inside/forms/create/search_endpoint'

export const DEVICES_ROUTES = {
  // Forms (spec 000 §7): signed in; a machine is used only by the people assigned to it.
  allMachines: { method: 'POST', path: `${SPEC}/all_machines` },
  scan: { method: 'POST', path: `${SPEC}/scan` },
  print: { method: 'POST', path: `${SPEC}/print` },
  // A signature from a signing app or pad (spec 000 §7 signing flow): the request, then the template and upload.
  openSignature: { method: 'POST', path: '/api/devices/signatures' },
  signatureTemplate: { method: 'GET', path: '/static/plantillas/plantilla_firma.pdf' },
  uploadSignature: { method: 'POST', path: '/inside/forms/create/document/external/upload_signature/:file' },
  // Administration (superuser).
  agents: { method: 'GET', path: '/api/devices/agents' },
  createAgent: { method: 'POST', path: '/api/devices/agents' },
  updateAgent: { method: 'PUT', path: '/api/devices/agents/:id' },
  revokeAgent: { method: 'POST', path: '/api/devices/agents/:id/revoke' },
  machines: { method: 'GET', path: '/api/devices/machines' },
  updateMachine: { method: 'PUT', path: '/api/devices/machines/:id' },
} as const

export type DevicesRouteName = keyof typeof DEVICES_ROUTES

/** Socket events (spec 000 §7): a scan's file, a print's progress. */
export const SCAN_EVENT = 'scanforms_upload'
export const PRINT_EVENT = 'print_forms'
/** A signed PDF arrived for a signature request and its box is staged as the person's PNG (spec 000 §7). */
export const SIGNATURE_EVENT = 'signature_upload_finish'

/** Where a signing app sends the signed PDF of the signature request `token` (spec 000 §7). */
export function signatureUploadPath(token: string): string {
  return DEVICES_ROUTES.uploadSignature.path.replace(':file', `${token}.pdf`)
}

/** A machine as a form's picker and actions see it (spec 000 §3 "Machine"). */
export interface MachineOption {
  token: string
  name: string
  ubication: string
  model: string
  ip: string
  trays: { name: string }[]
  availability: Availability
  /** Its agent is on and drives a signing pad (a sign command): beyond the spec's fields, for the signature dialog. */
  can_sign: boolean
}

export interface AgentRow {
  id: number
  name: string
  status: AgentStatus
  machines: number
  last_seen_at: string | null
  hostname: string | null
  version: string | null
  /** The token's first characters (the whole token is shown once, when made). */
  token_hint: string | null
}

export interface MachineRow {
  id: number
  agent_id: number | null
  agent_name: string | null
  name: string
  brand: string
  model: string
  location: string
  ip: string
  token: string
  availability: Availability
  trays: string[]
  people: { id: number; name: string }[]
}

/** The scan's answer through the socket (spec 000 §7 scanforms_upload). */
export interface ScanEvent {
  token_form: string
  status: 'good' | 'fail'
  ext?: string
  ip?: string
  path?: string
  real_name?: string
  message?: string
  error?: JobError
}

/** A print's progress through the socket (spec 001 §5: sent, finished ok, failed). */
export interface PrintEvent {
  status: 'sent' | 'done' | 'failed'
  data: { job: string; token_form: string | null }
  message: string
}

/** A signature request as its opener gets it: the token is the request's only key (shown once). */
export interface SignatureOpened {
  token: string
  template: string
  upload: string
  /** When the upload address stops taking a PDF (ISO). */
  expires_at: string
}

/** The signature's answer through the socket (spec 000 §7 signature_upload_finish). */
export interface SignatureEvent {
  token: string
  status: 'good' | 'fail'
  path?: string
  ip?: string
  ext?: string
  real_name?: string
  message?: string
}
