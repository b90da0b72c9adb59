/**
 * The ownership table (issue 22): for every route that takes an id, what each caller gets when the id
 * names someone else's object (ownership_scene.ts makes them), allowed or refused with which status and
 * message. The route-policy table (core/server/tests/functional/route_policy.spec.ts) says which roles
 * may call a route at all; this one says whose objects they reach through it.
 */
import { randomUUID } from 'node:crypto'
import type { Node } from './cluster.ts'
import {
  CALLERS,
  type Call,
  COLUMNS,
  NEW_PASSWORD,
  type Person,
  type Scene,
  type Who,
  done,
  pdf,
  signInWith,
  stageUpload,
  startCase,
  teachersNewFile,
} from './ownership_scene.ts'
import { text } from './texts.ts'

/** Allowed: any 2xx. Refused: this status and this message (Spanish, the default language). */
export type Outcome = 'allowed' | { status: number; message: string }

export interface Entry {
  /** `METHOD /path/{param}` as /openapi.json names the route. */
  route: string
  /** What every caller gets. */
  outcomes: Record<Who, Outcome>
  /** The call, on the scene's objects (or on `s.fresh`'s). */
  call: (s: Scene) => Call
  /** Builds a new object for the refused calls and each allowed one (a delete, a revocation): `call` reads it from `fresh`. */
  fresh?: (s: Scene, node: Node) => Promise<Record<string, string | number>>
  /** Allowed calls start work in the background (a job): the database is let settle before the next route. */
  background?: boolean
  /** Runs after the allowed calls (a session they ended is opened again). */
  then?: (s: Scene, node: Node) => Promise<void>
}

/**
 * Routes whose id names something nobody owns: the institution's areas, roles, forms, retention
 * schedules, plugin settings and devices are every administrator's, so who may call them is the role
 * table's matter alone (route_policy.spec.ts), and the id names no one's object.
 */
export const INSTITUTION_WIDE: Record<string, string> = {
  'PUT /inside/areas/{id}': 'areas are the institution’s',
  'DELETE /inside/areas/{id}': 'areas are the institution’s',
  'PUT /inside/roles/{id}': 'roles are the institution’s',
  'DELETE /inside/roles/{id}': 'roles are the institution’s',
  'GET /inside/designer/forms/{id}': 'forms belong to the institution, every designer edits them',
  'PUT /inside/designer/forms/{id}/draft': 'forms belong to the institution, every designer edits them',
  'POST /inside/designer/forms/{id}/publish': 'forms belong to the institution, every designer edits them',
  'GET /inside/designer/forms/{id}/versions/{version}': 'forms belong to the institution, every designer edits them',
  'PUT /inside/plugin_settings/{plugin}': 'a plugin’s settings are the institution’s',
  'PUT /api/documents/retention/schedules/{id}': 'retention schedules are the institution’s',
  'DELETE /api/documents/retention/schedules/{id}': 'retention schedules are the institution’s',
  'PUT /api/devices/agents/{id}': 'agents are the institution’s (superusers only)',
  'POST /api/devices/agents/{id}/revoke': 'agents are the institution’s (superusers only)',
  'PUT /api/devices/machines/{id}': 'machines are the institution’s (superusers only)',
  'PUT /data/forgetPassword/{user}': 'answers the same for any user name: it names no one',
  'GET /data/changePassword/{token}': 'the token is the key (mailed to its user); no session is involved',
  'PUT /data/changePassword/{token}': 'the token is the key (mailed to its user); no session is involved',
  'GET /getPublicFile/{token}': 'the link’s token is the key; its password and limits are checked across nodes',
  'GET /api/documents/public/{grant}': 'the grant is the key a link hands out',
  'GET /api/documents/retention/preview/{grant}': 'the grant is the key the conservation card hands out',
  'GET /confirmretention/document/{code}':
    'the mailed code is the key, bound to its user (retention_confirm.spec.ts refuses another’s)',
  'POST /inside/forms/create/document/external/upload_signature/{file}':
    'the signing pad’s one-time file name is the key (signatures.spec.ts)',
  'PUT /inside/forms/create/document/external/upload_signature/{file}':
    'the signing pad’s one-time file name is the key (signatures.spec.ts)',
}

export const OK = 'allowed' as const
const refused = (status: number, key: string): Outcome => ({ status, message: text(key) })
const UNAUTHORIZED = refused(401, 'error.unauthorized')
const FORBIDDEN = refused(403, 'auth.forbidden')

/** A person's object that only they and a superuser reach (the documents' rule): others are told it is not there. */
function ownersAndSuperusers(owner: Person, others: Outcome): Record<Who, Outcome> {
  const out = {} as Record<Who, Outcome>
  for (const who of CALLERS)
    out[who] = who === owner || who === 'admin' ? OK : who.startsWith('agent') ? UNAUTHORIZED : others
  return out
}
const TEACHERS_DOCUMENT = ownersAndSuperusers('teacher', refused(404, 'documents.access_not_found'))
/** The documents operations of the action engine say the spec's message for each operation instead. */
const operation = (key: string) => ownersAndSuperusers('teacher', refused(404, `documents.${key}`))
/** The same, where who reaches the item is then told something else (there is no OCR'd PDF yet, say). */
const reached = (outcome: Outcome) => ({ ...TEACHERS_DOCUMENT, teacher: outcome, admin: outcome })
/** Labels are each person's own: nobody else, a superuser neither, sees or uses them. */
const TEACHERS_LABEL = only('teacher', refused(404, 'documents.label_not_found'))
/** Indexes are seen by everyone; only their creator or a superuser changes one. */
const TEACHERS_INDEX = ownersAndSuperusers('teacher', refused(403, 'documents.index_not_yours'))
/** A share of the teacher's file with the student: the student is told only the owner changes it. */
const SHARE_WITH_STUDENT = { ...TEACHERS_DOCUMENT, student: refused(403, 'documents.share_owner_only') }

/** Something of one person's alone (their own API tokens, their staged uploads): a superuser is refused too. */
function only(owner: Person, others: Outcome): Record<Who, Outcome> {
  return { ...ownersAndSuperusers(owner, others), admin: others }
}

/** An agent's work: reached only with that agent's token; a person's session is no agent's. */
const AGENT_B_WORK: Record<Who, Outcome> = {
  admin: refused(404, 'devices.agent_refused'),
  supervisor: refused(404, 'devices.agent_refused'),
  supervisor2: refused(404, 'devices.agent_refused'),
  teacher: refused(404, 'devices.agent_refused'),
  teacher2: refused(404, 'devices.agent_refused'),
  student: refused(404, 'devices.agent_refused'),
  agentA: refused(404, 'devices.job_not_found'),
  agentB: OK,
}

/** A supervisor's account: superusers act on it; an equal rank or lower does not. */
const SUPERVISOR2_ACCOUNT: Record<Who, Outcome> = {
  admin: OK,
  supervisor: FORBIDDEN,
  supervisor2: FORBIDDEN,
  teacher: FORBIDDEN,
  teacher2: FORBIDDEN,
  student: FORBIDDEN,
  agentA: UNAUTHORIZED,
  agentB: UNAUTHORIZED,
}

const fileRoute = (suffix: string, fields?: Record<string, string>) => (s: Scene) => ({
  path: `/api/documents/files/${s.file}${suffix}`,
  fields,
})

/** A step assigned to the Académica area: its members (the teacher, the supervisor) take it; nobody else. */
const STEP_OF_THE_AREA: Record<Who, Outcome> = {
  ...ownersAndSuperusers('teacher', refused(403, 'engine.not_yours')),
  admin: refused(403, 'engine.not_yours'),
  supervisor: OK,
}
/** A case is seen by who started it (the student), its step's area and the administrators (access.ts). */
const CASE_SEEN: Record<Who, Outcome> = { ...STEP_OF_THE_AREA, admin: OK, supervisor2: OK, student: OK }
/** A case's values are edited outside a step by the administrators alone (spec 000 §5; access.ts). */
const CASE_EDITED: Record<Who, Outcome> = {
  ...STEP_OF_THE_AREA,
  admin: OK,
  supervisor2: OK,
  teacher: refused(403, 'engine.not_yours'),
}

/** A machine assigned to the teacher (and every machine a superuser's): others are told there is no such machine; those who reach it, that its agent is off. */
const MACHINE_OF_THE_TEACHER: Record<Who, Outcome> = {
  ...ownersAndSuperusers('teacher', refused(404, 'devices.machine_not_found')),
  teacher: refused(409, 'devices.error.agent_off'),
  admin: refused(409, 'devices.error.agent_off'),
}

/** A trash is its owner's alone: nobody else, a superuser neither, restores or empties what is in it. */
const IN_THE_TEACHERS_TRASH = only('teacher', refused(404, 'documents.not_in_trash'))

/** Something the teacher makes through `node` (a fresh object of an entry): what the route answered. */
const teacherPosts = (s: Scene, node: Node, path: string, fields: Record<string, string>, what: string) =>
  done(node, 'POST', { path, fields }, s.tokens.teacher, `the teacher makes ${what}`)

const op = (name: string) => `/inside/forms/create/search_endpoint/${name}`

/**
 * Routes that take the id of someone's object in their fields rather than their path. /openapi.json does
 * not say which fields are ids, so these are listed by hand: the library's, the documents operations',
 * a case's and its step's, a staged upload's, a machine's.
 */
const BODY_ENTRIES: Entry[] = [
  {
    route: 'GET /api/documents/library/{view}',
    outcomes: TEACHERS_DOCUMENT,
    call: (s) => ({ path: '/api/documents/library/mine', fields: { folder: String(s.folder) } }),
  },
  {
    route: 'POST /api/documents/folders',
    outcomes: TEACHERS_DOCUMENT,
    call: (s) => ({
      path: '/api/documents/folders',
      fields: { name: `Sub ${randomUUID()}`, parent_id: String(s.folder) },
    }),
  },
  {
    route: 'POST /api/documents/files',
    outcomes: TEACHERS_DOCUMENT,
    call: (s) => ({
      path: '/api/documents/files',
      fields: { new_version_of: String(s.file) },
      upload: { field: 'files', bytes: pdf('version') },
    }),
  },
  {
    route: 'GET /api/documents/links',
    outcomes: TEACHERS_DOCUMENT,
    call: (s) => ({ path: '/api/documents/links', fields: { file_id: String(s.file) } }),
  },
  {
    route: 'POST /api/documents/links',
    outcomes: TEACHERS_DOCUMENT,
    call: (s) => ({ path: '/api/documents/links', fields: { file_id: String(s.file), mode: 'direct' } }),
  },
  {
    route: 'GET /api/documents/shares',
    outcomes: TEACHERS_DOCUMENT,
    call: (s) => ({ path: '/api/documents/shares', fields: { type: 'file', id: String(s.file) } }),
  },
  {
    route: 'POST /api/documents/shares',
    outcomes: TEACHERS_DOCUMENT,
    call: (s) => ({
      path: '/api/documents/shares',
      fields: {
        type: 'file',
        id: String(s.fresh.file),
        grantees: JSON.stringify([{ type: 'user', id: s.ids.supervisor2 }]),
        permission: 'read',
      },
    }),
    // A file of its own: the share an allowed call makes would open the scene's file to a caller.
    fresh: async (s, node) => ({ file: await teachersNewFile(s, node) }),
  },
  {
    route: 'POST /api/documents/shares/email',
    outcomes: TEACHERS_DOCUMENT,
    call: (s) => ({
      path: '/api/documents/shares/email',
      fields: { type: 'file', id: String(s.file), email: 'visitante@ejemplo.org', permission: 'read' },
    }),
    background: true,
  },
  {
    route: 'POST /api/documents/trash',
    outcomes: TEACHERS_DOCUMENT,
    call: (s) => ({ path: '/api/documents/trash', fields: { files: JSON.stringify([s.fresh.file]) } }),
    fresh: async (s, node) => ({ file: await teachersNewFile(s, node) }),
  },
  {
    route: 'POST /api/documents/trash/restore',
    outcomes: IN_THE_TEACHERS_TRASH,
    call: (s) => ({ path: '/api/documents/trash/restore', fields: { files: JSON.stringify([s.fresh.file]) } }),
    fresh: async (s, node) => ({ file: await teachersNewFile(s, node, true) }),
  },
  {
    route: 'POST /api/documents/trash/empty',
    outcomes: IN_THE_TEACHERS_TRASH,
    call: (s) => ({ path: '/api/documents/trash/empty', fields: { files: JSON.stringify([s.fresh.file]) } }),
    fresh: async (s, node) => ({ file: await teachersNewFile(s, node, true) }),
  },
  {
    // A sub-index is its maker's, under an index everyone sees: anyone may add one under another's index.
    route: 'POST /api/documents/indexes',
    outcomes: { ...ownersAndSuperusers('teacher', OK) },
    call: (s) => ({
      path: '/api/documents/indexes',
      fields: { name: `Sub ${randomUUID()}`, parent_id: String(s.index), columns: COLUMNS },
    }),
  },
  {
    route: `POST ${op('info_doc')}`,
    outcomes: operation('no_search'),
    call: (s) => ({ path: op('info_doc'), fields: { id_doc: String(s.file) } }),
  },
  {
    route: `POST ${op('info_folder')}`,
    outcomes: operation('no_search'),
    call: (s) => ({ path: op('info_folder'), fields: { id_folder: String(s.folder) } }),
  },
  {
    route: `POST ${op('rename_doc')}`,
    outcomes: operation('no_rename'),
    call: (s) => ({
      path: op('rename_doc'),
      fields: { id_doc: String(s.file), name_doc: `Renombrado ${randomUUID()}` },
    }),
  },
  {
    route: `POST ${op('rename_folder')}`,
    outcomes: operation('no_rename'),
    call: (s) => ({
      path: op('rename_folder'),
      fields: { id_folder: String(s.folder), name_folder: `Renombrada ${randomUUID()}` },
    }),
  },
  {
    route: `POST ${op('copy_doc')}`,
    outcomes: operation('no_copy_or_cut'),
    call: (s) => ({ path: op('copy_doc'), fields: { type: 'copy', id_doc: JSON.stringify([s.file]) } }),
  },
  {
    route: `POST ${op('merge_doc')}`,
    outcomes: operation('no_copy_or_cut'),
    call: (s) => ({ path: op('merge_doc'), fields: { type_merge: 'zip_docs', rutes_merge: JSON.stringify([s.file]) } }),
    background: true,
  },
  {
    route: `POST ${op('search_doc_folder')}`,
    outcomes: operation('no_search'),
    call: (s) => ({ path: op('search_doc_folder'), fields: { type_search: 'doc', id_folder: String(s.folder) } }),
  },
  {
    route: `POST ${op('print')}`,
    outcomes: MACHINE_OF_THE_TEACHER,
    call: (s) => ({ path: op('print'), fields: { token: s.machineToken, files: JSON.stringify([s.staged]) } }),
  },
  {
    route: `POST ${op('scan')}`,
    outcomes: MACHINE_OF_THE_TEACHER,
    call: (s) => ({
      path: op('scan'),
      fields: { token_machine: s.machineToken, token_form: `adjunto$$$${randomUUID()}$$$front`, data: s.formKey },
    }),
  },
  {
    route: 'POST /data/form/upload/files/unlink',
    outcomes: only('teacher', refused(403, 'upload.not_yours')),
    call: (s) => ({ path: '/data/form/upload/files/unlink', fields: { path: String(s.fresh.staged) } }),
    fresh: async (s, node) => ({ staged: await stageUpload(s, node) }),
  },
  {
    route: 'POST /data/form/info/user/token',
    outcomes: CASE_SEEN,
    call: (s) => ({ path: '/data/form/info/user/token', fields: { type: 'see', key_process: s.caseKey } }),
  },
  {
    route: 'PUT /inside/inbox/claim',
    outcomes: STEP_OF_THE_AREA,
    background: true,
    call: (s) => ({ path: '/inside/inbox/claim', fields: { token: String(s.fresh.taskToken) } }),
    fresh: async (s, node) => ({ taskToken: (await startCase(s, node)).taskToken }),
  },
  {
    route: 'PUT /inside/inbox/release',
    // Its claimer gives a step back, or an administrator does (a claim left by someone away).
    outcomes: { ...CASE_EDITED, teacher: OK },
    call: (s) => ({ path: '/inside/inbox/release', fields: { token: String(s.fresh.taskToken) } }),
    // A new case's step, claimed by the teacher.
    fresh: async (s, node) => {
      const { taskToken } = await startCase(s, node)
      await done(
        node,
        'PUT',
        { path: '/inside/inbox/claim', fields: { token: taskToken } },
        s.tokens.teacher,
        'a claim'
      )
      return { taskToken }
    },
    background: true,
  },
  {
    route: `POST ${op('dev_word_to_pdf')}`,
    // A staged upload is its uploader's alone; the teacher's (a PDF) reaches the converter, which wants a Word file.
    outcomes: {
      ...only('teacher', refused(403, 'upload.not_allowed')),
      teacher: refused(400, 'generated_files.word.not_docx'),
    },
    call: (s) => ({ path: op('dev_word_to_pdf'), fields: { pathdoc: s.staged } }),
  },
  {
    route: 'POST /data/form/asignar/process/info',
    outcomes: STEP_OF_THE_AREA,
    background: true,
    call: (s) => ({
      path: '/data/form/asignar/process/info',
      fields: {
        key_process: String(s.fresh.caseKey),
        token: String(s.fresh.taskToken),
        flow_values: JSON.stringify({ nombre: 'Ana' }),
      },
    }),
    fresh: async (s, node) => startCase(s, node),
  },
  {
    route: 'POST /data/form/flows/process/edit',
    outcomes: CASE_EDITED,
    call: (s) => ({
      path: '/data/form/flows/process/edit',
      fields: { key_process: s.caseKey, flow_values: JSON.stringify({ nombre: 'Ana María' }) },
    }),
  },
]

export const ENTRIES: Entry[] = [
  ...BODY_ENTRIES,
  { route: 'GET /api/documents/files/{id}', outcomes: TEACHERS_DOCUMENT, call: fileRoute('') },
  { route: 'GET /api/documents/files/{id}/content', outcomes: TEACHERS_DOCUMENT, call: fileRoute('/content') },
  { route: 'GET /api/documents/files/{id}/versions', outcomes: TEACHERS_DOCUMENT, call: fileRoute('/versions') },
  {
    route: 'POST /api/documents/files/{id}/versions/{number}/restore',
    outcomes: TEACHERS_DOCUMENT,
    call: fileRoute('/versions/1/restore'),
  },
  { route: 'GET /api/documents/files/{id}/comments', outcomes: TEACHERS_DOCUMENT, call: fileRoute('/comments') },
  {
    route: 'POST /api/documents/files/{id}/comments',
    outcomes: TEACHERS_DOCUMENT,
    call: fileRoute('/comments', { text: 'Visto' }),
  },
  {
    route: 'PUT /api/documents/files/{id}/labels',
    // A superuser reaches the file, but the label is the teacher's.
    outcomes: { ...TEACHERS_DOCUMENT, admin: refused(404, 'documents.label_not_found') },
    call: (s) => ({ path: `/api/documents/files/${s.file}/labels`, fields: { label_ids: JSON.stringify([s.label]) } }),
  },
  { route: 'GET /api/documents/files/{id}/indexes', outcomes: TEACHERS_DOCUMENT, call: fileRoute('/indexes') },
  {
    route: 'PUT /api/documents/files/{id}/indexes/{index}',
    outcomes: TEACHERS_DOCUMENT,
    call: (s) => ({
      path: `/api/documents/files/${s.file}/indexes/${s.index}`,
      fields: { values: JSON.stringify({ expediente: 'E-2' }) },
    }),
  },
  {
    route: 'DELETE /api/documents/files/{id}/indexes/{index}',
    outcomes: TEACHERS_DOCUMENT,
    call: (s) => ({ path: `/api/documents/files/${s.file}/indexes/${s.index}` }),
    fresh: async (s, node) => {
      await done(
        node,
        'PUT',
        { path: `/api/documents/files/${s.file}/indexes/${s.index}`, fields: { values: '{"expediente":"E-3"}' } },
        s.tokens.teacher,
        'the file filed again'
      )
      return {}
    },
  },
  { route: 'GET /api/documents/files/{id}/ocr', outcomes: TEACHERS_DOCUMENT, call: fileRoute('/ocr') },
  {
    route: 'POST /api/documents/files/{id}/ocr',
    outcomes: TEACHERS_DOCUMENT,
    call: fileRoute('/ocr'),
    background: true,
  },
  {
    route: 'GET /api/documents/files/{id}/ocr/pdf',
    outcomes: reached(refused(404, 'documents.ocr_no_pdf')),
    call: fileRoute('/ocr/pdf'),
  },
  {
    route: 'GET /api/documents/folders/{id}/sync',
    outcomes: reached(refused(404, 'documents.sync_not_synchronized')),
    call: (s) => ({ path: `/api/documents/folders/${s.folder}/sync` }),
  },
  {
    route: 'POST /api/documents/folders/{id}/sync',
    outcomes: reached(refused(404, 'documents.sync_not_synchronized')),
    call: (s) => ({ path: `/api/documents/folders/${s.folder}/sync` }),
  },
  {
    route: 'PUT /api/documents/indexes/{id}',
    outcomes: TEACHERS_INDEX,
    call: (s) => ({
      path: `/api/documents/indexes/${s.index}`,
      fields: { name: `Índice ${s.index}`, columns: COLUMNS },
    }),
  },
  {
    route: 'DELETE /api/documents/indexes/{id}',
    outcomes: TEACHERS_INDEX,
    call: (s) => ({ path: `/api/documents/indexes/${s.fresh.index}` }),
    fresh: async (s, node) => ({
      index: (
        await teacherPosts(
          s,
          node,
          '/api/documents/indexes',
          { name: `Borrable ${randomUUID()}`, columns: COLUMNS },
          'an index to delete'
        )
      ).id,
    }),
  },
  {
    route: 'PUT /api/documents/labels/{id}',
    outcomes: TEACHERS_LABEL,
    call: (s) => ({
      path: `/api/documents/labels/${s.label}`,
      fields: { name: `Etiqueta ${s.label}`, color: '#00AA00' },
    }),
  },
  {
    route: 'DELETE /api/documents/labels/{id}',
    outcomes: TEACHERS_LABEL,
    call: (s) => ({ path: `/api/documents/labels/${s.fresh.label}` }),
    fresh: async (s, node) => ({
      label: (
        await teacherPosts(
          s,
          node,
          '/api/documents/labels',
          { name: `Borrable ${randomUUID()}`, color: '#0000AA' },
          'a label to delete'
        )
      ).id,
    }),
  },
  {
    route: 'GET /api/documents/links/{id}/accesses',
    outcomes: TEACHERS_DOCUMENT,
    call: (s) => ({ path: `/api/documents/links/${s.link}/accesses` }),
  },
  {
    route: 'DELETE /api/documents/links/{id}',
    outcomes: TEACHERS_DOCUMENT,
    call: (s) => ({ path: `/api/documents/links/${s.fresh.link}` }),
    fresh: async (s, node) => ({
      link: (
        await teacherPosts(
          s,
          node,
          '/api/documents/links',
          { file_id: String(s.file), mode: 'direct' },
          'a link to revoke'
        )
      ).link.id,
    }),
  },
  {
    route: 'PUT /api/documents/shares/{id}',
    outcomes: SHARE_WITH_STUDENT,
    call: (s) => ({ path: `/api/documents/shares/${s.share}`, fields: { permission: 'read' } }),
  },
  {
    route: 'DELETE /api/documents/shares/{id}',
    // The share revoked is with the second teacher.
    outcomes: { ...TEACHERS_DOCUMENT, teacher2: refused(403, 'documents.share_owner_only') },
    call: (s) => ({ path: `/api/documents/shares/${s.fresh.share}` }),
    fresh: async (s, node) => {
      const made = await teacherPosts(
        s,
        node,
        '/api/documents/shares',
        {
          type: 'file',
          id: String(s.file),
          grantees: JSON.stringify([{ type: 'user', id: s.ids.teacher2 }]),
          permission: 'read',
        },
        'a share to revoke'
      )
      return { share: made.shares.find((x: any) => x.grantee_id === s.ids.teacher2).id }
    },
  },
  {
    route: 'DELETE /inside/users/me/api_tokens/{id}',
    outcomes: only('teacher', refused(404, 'auth.api_token_not_found')),
    call: (s) => ({ path: `/inside/users/me/api_tokens/${s.fresh.apiToken}` }),
    fresh: async (s, node) => ({
      apiToken: (await teacherPosts(s, node, '/inside/users/me/api_tokens', { name: 'Otra' }, 'a token')).id,
    }),
  },
  {
    route: 'GET /data/files/{name}',
    outcomes: only('teacher', refused(403, 'upload.not_allowed')),
    call: (s) => ({ path: s.staged }),
  },
  {
    route: 'GET /api/devices/agent/files/{id}',
    outcomes: AGENT_B_WORK,
    call: (s) => ({ path: `/api/devices/agent/files/${s.writeCall}` }),
  },
  {
    route: 'POST /api/devices/agent/files/{id}',
    outcomes: AGENT_B_WORK,
    call: (s) => ({ path: `/api/devices/agent/files/${s.listCall}`, fields: { error: 'not_found' } }),
  },
  {
    route: 'GET /api/devices/agent/jobs/{id}/files/{n}',
    outcomes: AGENT_B_WORK,
    call: (s) => ({ path: `/api/devices/agent/jobs/${s.printJob}/files/0` }),
  },
  {
    route: 'POST /api/devices/agent/jobs/{id}/result',
    outcomes: AGENT_B_WORK,
    call: (s) => ({
      path: `/api/devices/agent/jobs/${s.scanJob}/result`,
      upload: { field: 'file', bytes: pdf('scan') },
    }),
  },
  {
    route: 'POST /inside/users/{id}/impersonate',
    outcomes: {
      ...SUPERVISOR2_ACCOUNT,
      supervisor: refused(403, 'auth.impersonate_refused'),
      supervisor2: refused(403, 'auth.impersonate_refused'),
    },
    call: (s) => ({ path: `/inside/users/${s.ids.supervisor2}/impersonate`, fields: { reason: 'Revisar su bandeja' } }),
  },
  {
    route: 'PUT /inside/users/{id}/password',
    outcomes: SUPERVISOR2_ACCOUNT,
    call: (s) => ({
      path: `/inside/users/${s.ids.supervisor2}/password`,
      fields: { password: NEW_PASSWORD, confirmation: NEW_PASSWORD },
    }),
    // The change ends the account's sessions: it signs in again with the new password.
    then: async (s, node) => {
      s.tokens.supervisor2 = await signInWith(node, 'supervisor2', NEW_PASSWORD)
    },
  },
  {
    // Reading an account is the directory's (any administrator lists every user); acting on it is by rank.
    route: 'GET /inside/users/{id}',
    outcomes: { ...SUPERVISOR2_ACCOUNT, supervisor: OK, supervisor2: OK },
    call: (s) => ({ path: `/inside/users/${s.ids.supervisor2}` }),
  },
  ...(
    [
      ['PUT /inside/users/{id}', '', { first_name: 'Sergia', last_name: 'Dos' }],
      ['PUT /inside/users/{id}/api', '/api', { enabled: 'false' }],
      ['PUT /inside/users/{id}/block', '/block', { blocked: 'false' }],
      ['PUT /inside/users/{id}/two_fa/reset', '/two_fa/reset'],
      // Last: it ends the account's sessions (its own refused calls come first).
      ['PUT /inside/users/{id}/sessions/close', '/sessions/close'],
    ] as [string, string, Record<string, string>?][]
  ).map(([route, suffix, fields]): Entry => ({
    route,
    outcomes: SUPERVISOR2_ACCOUNT,
    call: (s) => ({ path: `/inside/users/${s.ids.supervisor2}${suffix}`, fields }),
  })),
]
