/**
 * What the server and an agent say to each other (issue 21). An agent is a separate process on the
 * computer that has the printers and scanners (`tramita agent --server URL --token T`). It holds one
 * WebSocket to the server at AGENT_SOCKET_PATH (the token in the `token` header) carrying JSON messages
 * of the shapes below; files go over HTTP beside it (the agent downloads what it prints and uploads
 * what it scans), with the same token.
 *
 * Delivery is at least once in both directions and every handler is idempotent: the server keeps each
 * job in its table until the agent's result arrives, and sends the agent its unfinished jobs on every
 * `hello`; the agent keeps each result until the server acknowledges it, and resends them on every
 * connection. A printer is asked for a job only once: the agent names each IPP job after its job id
 * and looks for that name on the printer before printing (a job resent after a crash is not printed twice).
 */

export const AGENT_SOCKET_PATH = '/api/devices/agent/socket'
/** GET: the bytes to print of one file of a print job (`:n` from 0). */
export const AGENT_FILE_PATH = '/api/devices/agent/jobs/:id/files/:n'
/** POST multipart `file`: a scan job's result. */
export const AGENT_RESULT_PATH = '/api/devices/agent/jobs/:id/result'

/** Bumped when a message changes shape; the server refuses agents of another version. */
export const PROTOCOL_VERSION = 1

/**
 * Header of the socket's upgrade request: a random id of the agent process, new at each start. The
 * same process reconnecting (after a server restart) takes its connection over at once; another
 * process with the same token is refused while the first is connected.
 */
export const INSTANCE_HEADER = 'agent-instance'

/** How often an agent reports (its heartbeat); the server counts it gone after AGENT_STALE_MS of silence. */
export const AGENT_HEARTBEAT_MS = 30_000
export const AGENT_STALE_MS = 90_000

/** Close codes the server uses; an agent stops retrying on the first two. */
export const CLOSE_REVOKED = 4401
export const CLOSE_UNSUPPORTED = 4426
/** Another process holds this token's connection (two agents with one token): retry later. */
export const CLOSE_IN_USE = 4409

/** Agent and licence status (spec 001 §5). */
export const AGENT_STATUSES = ['ACTIVE', 'INACTIVE', 'WAITING', 'CANCELLED', 'NO LICENSE'] as const
export type AgentStatus = (typeof AGENT_STATUSES)[number]

/** Machine availability (spec 001 §5). */
export const AVAILABILITIES = ['not available', 'print only', 'scan only', 'available'] as const
export type Availability = (typeof AVAILABILITIES)[number]

/** A device as the agent sees it: a printer (IPP), a scanner (SANE) or both in one box. */
export interface MachineReport {
  /** Stable on this agent: the printer's IPP URI, the scanner's SANE device name, or both joined by ' + '. */
  uid: string
  name: string
  brand: string
  model: string
  /** The device's address when it has one ('' for a USB scanner). */
  ip: string
  /** Each side's reach now: null when the device has no such side. */
  printer: { uri: string; ready: boolean; trays: string[]; duplex: boolean; color: boolean } | null
  scanner: { device: string; ready: boolean; sources: string[] } | null
}

/** Paper sizes a print or scan may ask for (spec 001 §9): letter or legal. */
export const MEDIA = ['letter', 'legal'] as const
export type Media = (typeof MEDIA)[number]

export interface PrintOrder {
  kind: 'print'
  id: string
  machineUid: string
  /** One IPP job per file, in order; the agent downloads each from AGENT_FILE_PATH. */
  files: { n: number; name: string; mime: string; size: number }[]
  copies: number
  bothSides: boolean
  color: boolean
  /** 1-based tray number (spec: tray default 1). */
  tray: number
  media: Media
}

export interface ScanOrder {
  kind: 'scan'
  id: string
  machineUid: string
  duplex: boolean
  color: boolean
  dpi: number
  /** Scan area in centimetres (spec: height 22, width 28). */
  heightCm: number
  widthCm: number
  /** SANE's source name (spec: Platen). */
  source: string
  format: 'pdf' | 'png' | 'jpeg'
}

export type JobOrder = PrintOrder | ScanOrder

/**
 * A signature on the agent's signing pad (spec 000 §7 signing flow): the agent fetches `template`, has
 * its sign command fill it, and sends the PDF to `upload` (multipart `file`; the path's token is the
 * only key, good once and for minutes, so the order is not kept or sent again: a new request is).
 * Both are paths on the server.
 */
export interface SignOrder {
  type: 'sign'
  token: string
  template: string
  upload: string
}

/**
 * Why a job failed, as the agent knows it; the server shows the spec's message for each (001 §8).
 * `no_paper`: no paper in the tray; `not_detected`: the document to scan was not detected;
 * `no_storage`: insufficient storage; `print_error` / `scan_error`: anything else on that side;
 * `unknown_machine`: the machine is not (or no longer) on this agent.
 */
export const JOB_ERRORS = [
  'no_paper',
  'not_detected',
  'no_storage',
  'print_error',
  'scan_error',
  'unknown_machine',
] as const
export type JobError = (typeof JOB_ERRORS)[number]

/** A job's failure as the server records it: the agent's reason, or the agent gone (revoked, or off too long). */
export type JobFailure = JobError | 'agent_off'

/** Agent → server. */
export type AgentMessage =
  /** `sign`: started with a sign command, so its machines may take sign orders (absent: false). */
  | { type: 'hello'; protocol: number; version: string; hostname: string; machines: MachineReport[]; sign?: boolean }
  /** The heartbeat, also sent at once when a device appears, goes or changes. */
  | { type: 'machines'; machines: MachineReport[] }
  /** A print job's outcome (a scan's success arrives as its upload; its failure comes here). */
  | { type: 'result'; id: string; status: 'done' | 'failed'; error?: JobError; detail?: string }
  /** A sign order that ended without an upload (the pad's program failed or timed out). */
  | { type: 'sign_failed'; token: string; detail: string }
  /** Something changed under a watched root (files.ts; debounced on the agent). */
  | { type: 'files_changed'; root: string }

/** Server → agent. */
export type ServerMessage =
  | { type: 'welcome'; agentId: number; name: string; status: AgentStatus }
  /** Jobs to do: every unfinished one after a hello, then each new one. Doing one twice is the agent's to avoid. */
  | { type: 'jobs'; jobs: JobOrder[] }
  /** The server has this job's result: the agent may forget it. */
  | { type: 'ack'; id: string }
  /** A job the agent should drop (cancelled, or finished elsewhere). */
  | { type: 'cancel'; id: string }
  | { type: 'status'; status: AgentStatus }
  | SignOrder
  | FilesOrder
  /** The roots of synchronized folders on this agent: it watches them and tells files_changed. */
  | { type: 'watch'; roots: string[] }

/**
 * A file call on a root the server bound (a synchronized folder's path, devices.files capability): the
 * agent answers it over HTTP at AGENT_FILES_PATH with the call's id (fields `error`, `entry`, `files`
 * as JSON; a read's bytes as `file`), and fetches a write's bytes there first. `path` is relative to
 * `root` with `/`; the agent refuses one that leaves it (.., absolute, through a symlink).
 */
export interface FilesOrder {
  type: 'files'
  id: string
  op: FilesOp
  root: string
  path?: string
  maxBytes?: number
}
export const FILES_OPS = ['check', 'list', 'read', 'write', 'remove'] as const
export type FilesOp = (typeof FILES_OPS)[number]
/** GET: a write's bytes; POST multipart: a file call's answer. */
export const AGENT_FILES_PATH = '/api/devices/agent/files/:id'
/** How long the server waits for an agent's answer to a file call (a read or write of a large file: more). */
export const FILES_CALL_MS = 30_000
export const FILES_TRANSFER_MS = 10 * 60_000

/** Largest message either side sends (a hello with many machines fits easily). */
export const MAX_MESSAGE_BYTES = 256 * 1024
