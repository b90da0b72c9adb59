import { spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import { WebSocket } from 'ws'
import { PDFDocument, StandardFonts } from 'pdf-lib'
import { makeUser, resetAuthTables, tokenFor } from '../../../../core/server/tests/helpers/auth.js'
import { publishPermit, resetProcessTables } from '../../../../core/server/tests/helpers/process.js'
import { waitUntil } from '../../../../core/server/tests/helpers/wait.js'
import { DEVICES_ROUTES, type AgentRow, type MachineRow } from '../../shared/devices.js'

/** Fixtures of the devices tests: people, the agent as a real process, sockets, a form with a file field. */

export type Client = Parameters<typeof tokenFor>[0]

const REPO = fileURLToPath(new URL('../../../../', import.meta.url))
/** The core's platform, loaded at run time: its sources type-check only inside core/server's project. */
const PLATFORM = '../../../../core/server/app/services/platform.js'
type Hub = { start(): Promise<void>; attach(server: unknown): void }

/** Serves /ws and the agents' socket on this test process's HTTP server, as a served node does. */
export async function attachSockets(): Promise<void> {
  const { platform } = (await import(PLATFORM)) as { platform: () => { sockets: Hub; peers: Hub } }
  const server = (await app.container.make('server')).getNodeServer()!
  await platform().sockets.start()
  platform().sockets.attach(server)
  await platform().peers.start()
  platform().peers.attach(server)
}

export async function resetDevices(): Promise<void> {
  for (const table of ['devices_job_files', 'devices_jobs', 'devices_machine_people', 'devices_machines']) {
    await db.from(table).delete()
  }
  await db.from('devices_agents').delete()
  await db.from('plugin_settings').where('plugin', 'devices').delete()
  await db.from('usage_events').where('plugin', 'documents').delete()
  await db.from('uploads').delete()
  await resetProcessTables()
  await resetAuthTables()
}

export interface Person {
  id: number
  token: string
}

export async function person(client: Client, username: string, role = 'student'): Promise<Person> {
  const user = await makeUser({ username, role })
  return { id: user.id, token: await tokenFor(client, username) }
}

export function call(
  client: Client,
  route: { method: string; path: string },
  who: Person | null,
  fields: Record<string, unknown> = {},
  params: Record<string, string | number> = {}
) {
  const path = Object.entries(params).reduce((p, [k, v]) => p.replace(`:${k}`, String(v)), route.path)
  const method = route.method.toLowerCase() as 'get' | 'post' | 'put'
  let request = client[method](path)
  if (who) request = request.header('token', who.token)
  if (method !== 'get') {
    request = request.form(
      Object.fromEntries(
        Object.entries({ case: route.method, ...fields }).map(([k, v]) => [
          k,
          typeof v === 'string' ? v : JSON.stringify(v),
        ])
      )
    )
  }
  return request
}

/** The server's address, as the agent and a browser's socket reach it. */
export function serverUrl(): string {
  return `http://${process.env.HOST}:${process.env.PORT}`
}

export async function newAgent(client: Client, admin: Person, name: string) {
  const res = await call(client, DEVICES_ROUTES.createAgent, admin, { name })
  res.assertStatus(200)
  return res.body().data as { agent: AgentRow; token: string }
}

export async function agents(client: Client, admin: Person): Promise<AgentRow[]> {
  return (await call(client, DEVICES_ROUTES.agents, admin)).body().data.agents
}

export async function machines(client: Client, admin: Person): Promise<MachineRow[]> {
  return (await call(client, DEVICES_ROUTES.machines, admin)).body().data.machines
}

/** A running `tramita agent`, its output kept for the test's messages. */
export interface AgentProcess {
  child: ChildProcess
  output(): string
  exited: Promise<number | null>
  stop(signal?: NodeJS.Signals): Promise<number | null>
}

export function startAgent(
  token: string,
  devices: { printers?: string[]; scanners?: string[] },
  env: NodeJS.ProcessEnv = {}
): AgentProcess {
  const args = ['cli/bin/tramita.js', 'agent', '--server', serverUrl(), '--no-discover']
  for (const uri of devices.printers ?? []) args.push('--printer', uri)
  for (const device of devices.scanners ?? []) args.push('--scanner', device)
  const child = spawn(process.execPath, args, {
    cwd: REPO,
    env: { ...process.env, ...env, TRAMITA_AGENT_TOKEN: token, NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let text = ''
  child.stdout!.on('data', (chunk: Buffer) => (text += chunk.toString()))
  child.stderr!.on('data', (chunk: Buffer) => (text += chunk.toString()))
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  return {
    child,
    output: () => text,
    exited,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal)
      return exited
    },
  }
}

/** Waits until the agent shows `status` to the administrator (and, when given, reports `count` machines). */
export async function agentIs(client: Client, admin: Person, id: number, status: string, count?: number) {
  await waitUntil(
    async () => {
      const row = (await agents(client, admin)).find((a) => a.id === id)
      return row?.status === status && (count === undefined || row.machines === count)
    },
    60_000,
    `agent ${id} ${status}`
  )
}

/** A person's /ws socket with the messages it received. */
export async function personSocket(who: Person) {
  const url = `ws://${process.env.HOST}:${process.env.PORT}/ws?token=${encodeURIComponent(who.token)}`
  const ws = new WebSocket(url)
  const messages: { case: string; data: any }[] = []
  ws.on('message', (raw) => messages.push(JSON.parse(String(raw))))
  await waitUntil(() => messages.some((m) => m.case === 'init'), 10_000, 'the socket’s init')
  return {
    messages,
    of: (kind: string) => messages.filter((m) => m.case === kind).map((m) => m.data),
    close: () => ws.close(),
  }
}

/** The permit form with a file field `escaneo` the scans go to. */
export async function scanForm() {
  return publishPermit({ extraField: { field_name: 'escaneo', type: 'file', data: { label: { value: 'Escaneo' } } } })
}

/** Uploads a file into the form's `escaneo` field as `who`: its path is theirs to print. */
export async function formFile(client: Client, who: Person, formKey: string, bytes: Uint8Array, name: string) {
  const res = await client
    .post('/data/form/upload/files')
    .header('token', who.token)
    .field('case', 'POST')
    .field('data', formKey)
    .field('field', 'escaneo')
    .field('foldertype', 'files')
    .field('new_version', 'false')
    .file('file', Buffer.from(bytes), { filename: name })
  res.assertStatus(200)
  return res.body().data[0].path as string
}

export async function onePagePdf(text: string): Promise<Uint8Array> {
  const pdf = await PDFDocument.create()
  const page = pdf.addPage([612, 792])
  page.drawText(text, { x: 72, y: 700, size: 18, font: await pdf.embedFont(StandardFonts.Helvetica) })
  return pdf.save()
}

export { waitUntil, REPO }

/** A process where each submission starts a case and ends it at once (the forms of the devices' browser tests). */
export function savedOnSubmit(label: string) {
  return {
    label,
    color: '#1C1066',
    states: [
      { id: 'init', label: 'Iniciado', color: '#7f82ff' },
      { id: 'end', label: 'Finalizado', color: '#1C1066' },
    ],
    start: { step: null, state: 'end' },
  }
}
