/**
 * The scene of the ownership table (ownership_table.ts): the callers (the demo's four people, a second
 * supervisor and teacher, two devices agents) and one person's objects, made through app node A as the
 * screens make them: the teacher's documents, labels, index, link, shares, API token, staged upload, a
 * case of a form the teacher's area fills, and agent B's machine, jobs and file calls.
 */
import { createHash, randomUUID } from 'node:crypto'
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3'
import type { Cluster, Node } from './cluster.ts'
import { type Answer, call, expect, publishForm, signIn } from './cluster_checks.ts'

/** Who calls: the demo's four people, and a second teacher and supervisor made for the check. */
export const PEOPLE = ['admin', 'supervisor', 'supervisor2', 'teacher', 'teacher2', 'student'] as const
/** And two devices agents, whose tokens are sent where a session goes. */
export const CALLERS = [...PEOPLE, 'agentA', 'agentB'] as const
export type Who = (typeof CALLERS)[number]
export type Person = (typeof PEOPLE)[number]

export interface Call {
  path: string
  fields?: Record<string, string>
  /** A file sent with the fields. */
  upload?: { field: string; bytes: Buffer }
}

export interface Scene {
  tokens: Record<Who, string>
  ids: Record<Person, number>
  /** The teacher's: a file with two versions, a comment, a label, an index it is filed under, a link. */
  file: number
  folder: number
  label: number
  index: number
  link: number
  /** A share of the teacher's second file with the student (read). */
  share: number
  /** The teacher's API token. */
  apiToken: number
  /** A form upload of the teacher's, still staged. */
  staged: string
  /** A published form whose one step the Académica area (the teacher, the supervisor) fills. */
  formKey: string
  /** A case of it the student started, and its pending step's token. */
  caseKey: string
  taskToken: string
  /** Agent B's machine, assigned to the teacher. */
  machineToken: string
  /** Agent B's print job, scan job and a synchronized folder's write and list calls (agent A must not reach them). */
  printJob: string
  scanJob: string
  writeCall: string
  listCall: string
  fresh: Record<string, string | number>
}

export const COLUMNS = JSON.stringify([{ name: 'expediente', type: 'text' }])
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex')
export const pdf = (tag: string) =>
  Buffer.from(`%PDF-1.4\n% ${tag} ${randomUUID()}\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n`)

export const NEW_PASSWORD = 'Nueva#Clave2026'

export async function signInWith(node: Node, user: string, password: string): Promise<string> {
  const answer = await send(node, 'PUT', { path: '/data/login', fields: { user, password: sha256(password) } })
  expect(answer.body?.status === 'done', `${user} signs in`, answer)
  return answer.body.data.token_new as string
}

/** A call as the web client makes it, the method named in `case` too. */
export function send(node: Node, method: string, request: Call, token?: string): Promise<Answer> {
  const { path, fields, upload } = request
  const file = upload && { field: upload.field, name: 'documento.pdf', bytes: upload.bytes }
  return call(node, method, path, { token, fields: { case: method, ...fields }, file })
}

export async function done(node: Node, method: string, call: Call, token: string, what: string) {
  const answer = await send(node, method, call, token)
  expect(answer.status === 200 && answer.body?.status !== 'fail', what, answer)
  return answer.body?.data
}

/** A file the teacher uploads to the scene's form (staged until a case is saved); resolves with its path. */
export async function stageUpload(s: Scene, node: Node): Promise<string> {
  const staged = await done(
    node,
    'POST',
    {
      path: '/data/form/upload/files',
      fields: { data: s.formKey, field: 'adjunto', new_version: 'false', foldertype: 'files' },
      upload: { field: 'file', bytes: pdf('staged') },
    },
    s.tokens.teacher,
    'a form upload'
  )
  return staged[0].path as string
}

/** A case the student starts on the scene's form, and its pending step (the Académica area's). */
export async function startCase(s: Scene, node: Node): Promise<{ caseKey: string; taskToken: string }> {
  const started = await done(
    node,
    'POST',
    { path: '/data/form/flows/process', fields: { data: s.formKey, flow_values: JSON.stringify({ nombre: 'Ana' }) } },
    s.tokens.student,
    'the student starts a case'
  )
  const pending = await done(
    node,
    'GET',
    { path: '/inside/inbox/pending', fields: { process: s.formKey } },
    s.tokens.teacher,
    'the teacher’s pending steps'
  )
  const row = pending.rows.find((r: any) => r.key_process === started.key_process) ?? pending.rows[0]
  return { caseKey: started.key_process, taskToken: row.token }
}

/** The people, and the teacher's objects, made through node A. */
export async function ownershipScene(cluster: Cluster): Promise<Scene> {
  const [a] = cluster.apps as [Node, Node]
  const admin = await signIn(a, 'admin')
  const password = 'Otra#Clave2026'
  for (const [username, role] of [
    ['supervisor2', 'supervisor'],
    ['teacher2', 'teacher'],
  ] as const) {
    // Made once per cluster; a second run of the check sets their password again.
    const [existing] = await cluster.query<{ id: number }>('SELECT id FROM users WHERE username = ?', [username])
    if (existing) {
      const fields = { password, confirmation: password }
      await done(a, 'PUT', { path: `/inside/users/${existing.id}/password`, fields }, admin, `${username}'s password`)
      continue
    }
    const [roleRow] = await cluster.query<{ id: number }>('SELECT id FROM roles WHERE name = ?', [role])
    await done(
      a,
      'POST',
      {
        path: '/inside/users',
        fields: {
          username,
          first_name: username,
          last_name: 'Ensayo',
          email: `${username}@tramita.local`,
          password,
          roles: JSON.stringify([roleRow.id]),
        },
      },
      admin,
      `the administrator creates ${username}`
    )
  }
  const tokens = {} as Record<Who, string>
  for (const who of PEOPLE) {
    if (who === 'supervisor2' || who === 'teacher2') {
      tokens[who] = await signInWith(a, who, password)
    } else {
      tokens[who] = who === 'admin' ? admin : await signIn(a, who)
    }
  }
  const users = await cluster.query<{ id: number; username: string }>(
    `SELECT id, username FROM users WHERE username IN (${PEOPLE.map(() => '?').join(', ')})`,
    [...PEOPLE]
  )
  const ids = Object.fromEntries(users.map((u) => [u.username, Number(u.id)])) as Record<Person, number>
  expect(Object.keys(ids).length === PEOPLE.length, 'every caller has an account', ids)

  const teacher = tokens.teacher
  const tag = randomUUID().slice(0, 8)
  const made = (path: string, fields: Record<string, string>, what: string, file?: Buffer) =>
    done(
      a,
      'POST',
      { path, fields, upload: file && { field: 'files', bytes: file } },
      teacher,
      `the teacher makes ${what}`
    )
  const folder = await made('/api/documents/folders', { name: `Carpeta ${tag}` }, 'a folder')
  const stored = (data: any) => data.results[0].file.id as number
  const file = stored(await made('/api/documents/files', {}, 'a file', pdf('v1')))
  await made('/api/documents/files', { new_version_of: String(file) }, 'its second version', pdf('v2'))
  await made(`/api/documents/files/${file}/comments`, { text: 'Revisar' }, 'a comment')
  const label = (await made('/api/documents/labels', { name: `Urgente ${tag}`, color: '#AA0000' }, 'a label')).id
  await done(
    a,
    'PUT',
    { path: `/api/documents/files/${file}/labels`, fields: { label_ids: JSON.stringify([label]) } },
    teacher,
    'the label on the file'
  )
  const index = (await made('/api/documents/indexes', { name: `Expedientes ${tag}`, columns: COLUMNS }, 'an index')).id
  await done(
    a,
    'PUT',
    {
      path: `/api/documents/files/${file}/indexes/${index}`,
      fields: { values: JSON.stringify({ expediente: 'E-1' }) },
    },
    teacher,
    'the file filed under the index'
  )
  const link = (await made('/api/documents/links', { file_id: String(file), mode: 'direct' }, 'a link')).link.id
  const second = stored(await made('/api/documents/files', {}, 'a second file', pdf('shared')))
  const shared = await made(
    '/api/documents/shares',
    {
      type: 'file',
      id: String(second),
      grantees: JSON.stringify([{ type: 'user', id: ids.student }]),
      permission: 'read',
    },
    'a share with the student'
  )
  await done(a, 'PUT', { path: `/inside/users/${ids.teacher}/api`, fields: { enabled: 'true' } }, admin, 'API use on')
  const apiToken = (
    await done(a, 'POST', { path: '/inside/users/me/api_tokens', fields: { name: 'Mía' } }, teacher, 'an API token')
  ).id
  // A form the teacher's area fills (its uploads and cases are made once the scene is whole).
  const formKey = await publishForm(cluster, admin, `Propiedad ${tag}`, 'Académica')
  // Two agents; agent B's machine (assigned to the teacher), print and scan jobs and file calls, written
  // as the server writes them when it hands work to a connected agent (none is connected here).
  const agentA = await done(a, 'POST', { path: '/api/devices/agents', fields: { name: `A ${tag}` } }, admin, 'agent A')
  const agentB = await done(a, 'POST', { path: '/api/devices/agents', fields: { name: `B ${tag}` } }, admin, 'agent B')
  const now = new Date()
  await cluster.query(
    'INSERT INTO devices_machines (agent_id, name, token, uid, can_print, can_scan, created_at, updated_at) VALUES (?, ?, ?, ?, 1, 1, ?, ?)',
    [agentB.agent.id, `Impresora ${tag}`, randomUUID(), `ipp://b/${tag}`, now, now]
  )
  const [machine] = await cluster.query<{ id: number; token: string }>(
    'SELECT id, token FROM devices_machines WHERE uid = ?',
    [`ipp://b/${tag}`]
  )
  await cluster.query('INSERT INTO devices_machine_people (machine_id, user_id) VALUES (?, ?)', [
    machine.id,
    ids.teacher,
  ])
  // The print job's file, stored where the devices plugin keeps its objects.
  const bytes = pdf('print')
  const key = `plugins/devices/${now.getUTCFullYear()}/${String(now.getUTCMonth() + 1).padStart(2, '0')}/${randomUUID()}.pdf`
  const s3 = new S3Client({
    endpoint: cluster.env.S3_ENDPOINT,
    region: cluster.env.S3_REGION,
    forcePathStyle: true,
    credentials: { accessKeyId: cluster.env.S3_ACCESS_KEY_ID!, secretAccessKey: cluster.env.S3_SECRET_ACCESS_KEY! },
  })
  await s3.send(new PutObjectCommand({ Bucket: cluster.env.S3_BUCKET, Key: key, Body: bytes }))
  s3.destroy()
  const job = (kind: string) => ({
    id: randomUUID(),
    kind,
    agent_id: agentB.agent.id,
    machine_id: machine.id,
    user_id: ids.teacher,
    orders: '{}',
    status: 'sent',
    created_at: now,
    updated_at: now,
  })
  const printJob = job('print')
  // The scan goes to the teacher's form's file field.
  const scanJob = { ...job('scan'), form_key: formKey, field: 'adjunto' }
  for (const row of [printJob, scanJob]) await cluster.query('INSERT INTO devices_jobs SET ?', [row])
  await cluster.query('INSERT INTO devices_job_files SET ?', [
    { job_id: printJob.id, n: 0, storage_key: key, name: 'a.pdf', mime: 'application/pdf', size: bytes.length },
  ])
  // A synchronized folder's calls: a write waiting for the agent to fetch its bytes, a listing for its answer.
  const fileCall = (op: string, storageKey: string | null) => ({
    id: randomUUID(),
    agent_id: agentB.agent.id,
    op,
    status: 'sent',
    storage_key: storageKey,
    created_at: now,
  })
  const writeCall = fileCall('write', key)
  const listCall = fileCall('list', null)
  for (const row of [writeCall, listCall]) await cluster.query('INSERT INTO devices_file_calls SET ?', [row])
  tokens.agentA = agentA.token
  tokens.agentB = agentB.token

  const scene: Scene = {
    tokens,
    ids,
    file,
    folder: folder.id,
    label,
    index,
    link,
    share: shared.shares?.[0]?.id ?? shared.id,
    apiToken,
    staged: '',
    formKey,
    caseKey: '',
    taskToken: '',
    machineToken: machine.token,
    printJob: printJob.id,
    scanJob: scanJob.id,
    writeCall: writeCall.id,
    listCall: listCall.id,
    fresh: {},
  }
  scene.staged = await stageUpload(scene, a)
  Object.assign(scene, await startCase(scene, a))
  return scene
}

/** A new file of the teacher's (for calls that use one up: trash, empty). */
export async function teachersNewFile(s: Scene, node: Node, trashed = false): Promise<number> {
  const stored = await done(
    node,
    'POST',
    { path: '/api/documents/files', fields: {}, upload: { field: 'files', bytes: pdf('fresh') } },
    s.tokens.teacher,
    'a new file'
  )
  const id = stored.results[0].file.id as number
  if (trashed) {
    const fields = { files: JSON.stringify([id]) }
    await done(node, 'POST', { path: '/api/documents/trash', fields }, s.tokens.teacher, 'the new file in the trash')
  }
  return id
}
