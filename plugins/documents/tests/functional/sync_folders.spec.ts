import { randomUUID } from 'node:crypto'
import { chmod, chown, mkdir, readFile, readdir, rm, stat, symlink, unlink } from 'node:fs/promises'
import { join } from 'node:path'
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { waitUntil } from '../../../../core/server/tests/helpers/wait.js'
import {
  agentIs,
  attachSockets,
  newAgent,
  resetDevices,
  serverUrl,
} from '../../../devices/tests/functional/devices_fixtures.js'
import { SYNC_ROUTES } from '../../shared/sync.js'
import {
  api,
  assertFail,
  call,
  person,
  resetLibrary,
  uploadFiles,
  type Client,
  type Person,
} from './library_fixtures.js'
import { agentDir, put, startAgentAsNobody, type SyncAgent } from '../helpers/sync_agent.js'

/**
 * Issue 21 item 5: synchronized folders against a real `tramita agent` process and a real directory.
 * The tests run as root, for whom every permission check passes, so the agent runs as `nobody`
 * (helpers/sync_agent.ts): a directory with mode 000 is then really unreadable to it.
 */

type Agent = SyncAgent
const startAgent = (token: string, args: string[] = []) => startAgentAsNobody(serverUrl(), token, args)

async function onDisk(root: string, rel: string): Promise<string | null> {
  return readFile(join(root, rel), 'utf8').catch(() => null)
}

/** The folder's live documents by their path under it, with their current content's size and version. */
async function documents(folderId: number): Promise<Map<string, { id: number; version: number; size: number }>> {
  const found = new Map<string, { id: number; version: number; size: number }>()
  const walk = async (id: number, prefix: string) => {
    for (const f of await db.from('documents_files').where('folder_id', id).whereNull('trashed_at')) {
      found.set(prefix + f.name, { id: Number(f.id), version: Number(f.current_version), size: Number(f.size) })
    }
    for (const sub of await db.from('documents_folders').where('parent_id', id).whereNull('trashed_at')) {
      await walk(Number(sub.id), `${prefix}${sub.name}/`)
    }
  }
  await walk(folderId, '')
  return found
}

async function content(fileId: number): Promise<string> {
  const { default: drive } = await import('@adonisjs/drive/services/main')
  const row = await db.from('documents_files').where('id', fileId).first()
  return drive.use().get(row.storage_key)
}

function makeSynced(client: Client, who: Person, fields: Record<string, unknown>) {
  return api(client, 'makeFolder', who.token, {}, { name: 'Sincronizada', type: 'synchronized', ...fields })
}

/** "Sync now", then the wait for a run (the folder counts its runs) that ended well, none holding it. */
async function syncNow(client: Client, who: Person, folderId: number): Promise<void> {
  const runs = async () => (await db.from('documents_folders').where('id', folderId).first()) as any
  const before = Number((await runs()).sync_runs)
  const path = SYNC_ROUTES.syncNow.path.replace(':id', String(folderId))
  ;(await call(client, 'post', path, who.token)).assertStatus(200)
  await waitUntil(
    async () => {
      const row = await runs()
      return Number(row.sync_runs) > before && row.sync_lease_until === null && row.sync_error === null
    },
    30_000,
    `a sync of folder ${folderId}`
  )
}

test.group('documents: synchronized folders with a real agent', (group) => {
  const running: Agent[] = []
  const dirs: string[] = []
  group.setup(async () => {
    await attachSockets()
  })
  group.each.setup(async () => {
    await resetLibrary()
    await resetDevices()
    return async () => {
      for (const agent of running.splice(0)) await agent.stop()
      for (const dir of dirs.splice(0)) {
        await chmod(dir, 0o700).catch(() => undefined)
        await rm(dir, { recursive: true, force: true })
      }
    }
  })
  group.each.timeout(120_000)

  /** An agent connected, and a directory of its user's; `allowed` are its `--files-root`s. */
  async function connected(client: Client, allowed: (root: string) => string[] = () => []) {
    const admin = await person(client, 'admin_sync', 'superuser')
    const made = await newAgent(client, { id: admin.id, token: admin.token }, 'Archivo')
    const root = await agentDir()
    dirs.push(root)
    const agent = startAgent(
      made.token,
      allowed(root).flatMap((dir) => ['--files-root', dir])
    )
    running.push(agent)
    await agentIs(client, { id: admin.id, token: admin.token }, made.agent.id, 'ACTIVE')
    return { admin, agentId: made.agent.id, agent, root, token: made.token }
  }

  test('a folder is bound only to an existing directory the agent may use, while it is on', async ({
    client,
    assert,
  }) => {
    const { admin, agentId, agent, root } = await connected(client)
    const teacher = await person(client, 'teacher_sync', 'teacher')

    assertFail(
      await makeSynced(client, admin, { agent_id: agentId, path: join(root, 'missing') }),
      400,
      'agent_path_missing'
    )
    await put(root, 'note.txt', 'a file')
    assertFail(
      await makeSynced(client, admin, { agent_id: agentId, path: join(root, 'note.txt') }),
      400,
      'agent_not_directory'
    )
    const locked = join(root, 'locked')
    await mkdir(locked)
    await chown(locked, 0, 0)
    await chmod(locked, 0o000)
    assertFail(await makeSynced(client, admin, { agent_id: agentId, path: locked }), 403, 'agent_no_permission')
    // A person who may not bind folders is offered no agent, and one named is as good as off.
    const offered = await call(client, 'get', SYNC_ROUTES.agents.path, teacher.token)
    assert.deepEqual(offered.body().data.agents, [])
    assertFail(await makeSynced(client, teacher, { agent_id: agentId, path: root }), 409, 'agent_offline')
    const listed = (await call(client, 'get', SYNC_ROUTES.agents.path, admin.token)).body().data.agents
    assert.deepEqual(listed, [{ id: agentId, name: 'Archivo', online: true }])

    await agent.stop()
    await agentIs(client, { id: admin.id, token: admin.token }, agentId, 'INACTIVE')
    assertFail(await makeSynced(client, admin, { agent_id: agentId, path: root }), 409, 'agent_offline')
    assert.equal(
      await db
        .from('documents_folders')
        .where('type', 'synchronized')
        .count('* as n')
        .first()
        .then((r) => Number(r.n)),
      0
    )
  })

  test('files move both ways, deletions too, a conflict keeps both, and a second run changes nothing', async ({
    client,
    assert,
  }) => {
    const { admin, root, agent, token, agentId } = await connected(client)
    await put(root, 'acta.txt', 'acta v1')
    await put(root, 'informes/enero.txt', 'enero v1')
    await put(root, '.oculto', 'never synced')

    const res = await makeSynced(client, admin, { agent_id: agentId, path: root })
    res.assertStatus(200)
    const folderId = res.body().data.id as number
    assert.equal(res.body().data.type, 'synchronized')

    // The agent's files arrive as documents (its sub-folder made); a dotfile does not.
    await waitUntil(async () => (await documents(folderId)).size === 2, 30_000, 'the agent’s files in the library')
    const docs = await documents(folderId)
    assert.sameMembers([...docs.keys()], ['acta.txt', 'informes/enero.txt'])
    assert.equal(await content(docs.get('informes/enero.txt')!.id), 'enero v1')

    // A file made on disk arrives by itself (the agent watches the path).
    await put(root, 'informes/febrero.txt', 'febrero')
    await waitUntil(async () => (await documents(folderId)).has('informes/febrero.txt'), 30_000, 'febrero.txt arrived')

    // A document uploaded in Tramita appears on disk.
    const informes = Number(
      (await db.from('documents_folders').where('parent_id', folderId).where('name', 'informes').first()).id
    )
    ;(
      await uploadFiles(client, admin.token, [{ name: 'marzo.txt', bytes: Buffer.from('marzo desde Tramita') }], {
        folder_id: String(informes),
      })
    ).assertStatus(200)
    // The upload itself asks for a sync: no "Sync now" needed.
    await waitUntil(
      async () => (await onDisk(root, 'informes/marzo.txt')) === 'marzo desde Tramita',
      30_000,
      'marzo.txt on disk'
    )

    // Deleted on disk: the document goes to the trash, recoverable.
    const acta = docs.get('acta.txt')!.id
    await unlink(join(root, 'acta.txt'))
    await waitUntil(
      async () => (await db.from('documents_files').where('id', acta).first()).trashed_at !== null,
      30_000,
      'acta.txt in the trash'
    )
    // Deleted in Tramita: removed on disk.
    const marzo = (await documents(folderId)).get('informes/marzo.txt')!.id
    ;(await api(client, 'trash', admin.token, {}, { files: [marzo] })).assertStatus(200)
    await waitUntil(async () => (await onDisk(root, 'informes/marzo.txt')) === null, 30_000, 'marzo.txt gone from disk')

    // Changed on both sides while the agent was off: when it is back, the library's stays and the agent's
    // is kept beside it, on both sides.
    await agent.stop()
    await agentIs(client, { id: admin.id, token: admin.token }, agentId, 'INACTIVE')
    const enero = docs.get('informes/enero.txt')!.id
    ;(
      await uploadFiles(client, admin.token, [{ name: 'enero.txt', bytes: Buffer.from('enero en Tramita') }], {
        new_version_of: String(enero),
      })
    ).assertStatus(200)
    await put(root, 'informes/enero.txt', 'enero en disco')
    running.push(startAgent(token))
    const copyName = `enero (agent conflict ${new Date().toISOString().slice(0, 10)}).txt`
    await waitUntil(async () => (await documents(folderId)).has(`informes/${copyName}`), 30_000, 'the conflict copy')
    await waitUntil(
      async () => (await onDisk(root, `informes/${copyName}`)) === 'enero en disco',
      30_000,
      'the copy on disk'
    )
    assert.equal(await content((await documents(folderId)).get(`informes/${copyName}`)!.id), 'enero en disco')
    await waitUntil(
      async () => (await onDisk(root, 'informes/enero.txt')) === 'enero en Tramita',
      30_000,
      'the library’s enero.txt on disk'
    )
    assert.equal(await content(enero), 'enero en Tramita')
    await waitUntil(
      async () => Boolean(await db.from('documents_sync_events').where('kind', 'conflict').first()),
      30_000,
      'the conflict said'
    )
    const events = (
      await call(client, 'get', SYNC_ROUTES.info.path.replace(':id', String(folderId)), admin.token)
    ).body().data
    assert.equal(events.events[0].kind, 'conflict')
    assert.equal(events.events[0].detail, `informes/${copyName}`)

    // Settled, a run more changes nothing on either side.
    await syncNow(client, admin, folderId)
    const snapshot = async () => ({
      docs: [...(await documents(folderId))].sort(),
      versions: Number((await db.from('documents_versions').count('* as n').first()).n),
      entries: await db
        .from('documents_sync_entries')
        .where('folder_id', folderId)
        .orderBy('rel_path')
        .select('rel_path', 'file_id', 'version', 'agent_size', 'agent_mtime_ms'),
      disk: await Promise.all(
        (await readdir(root, { recursive: true }))
          .sort()
          .map(async (rel) => [rel, (await stat(join(root, rel))).mtimeMs])
      ),
    })
    const before = await snapshot()
    await syncNow(client, admin, folderId)
    assert.deepEqual(await snapshot(), before)
  })

  test('an agent started with --files-root binds folders only under it', async ({ client, assert }) => {
    const { admin, agentId, root } = await connected(client, (dir) => [join(dir, 'permitida')])
    await put(root, 'permitida/dentro/a.txt', 'a')
    await put(root, 'otra/b.txt', 'b')
    assertFail(
      await makeSynced(client, admin, { agent_id: agentId, path: join(root, 'otra') }),
      403,
      'agent_no_permission'
    )
    // A way around through a link still ends outside: the real path is compared.
    await symlink(join(root, 'otra'), join(root, 'permitida', 'atajo'))
    assertFail(
      await makeSynced(client, admin, { agent_id: agentId, path: join(root, 'permitida', 'atajo') }),
      403,
      'agent_no_permission'
    )
    const made = await makeSynced(client, admin, { agent_id: agentId, path: join(root, 'permitida', 'dentro') })
    made.assertStatus(200)
    assert.equal(made.body().data.type, 'synchronized')
  })

  test('the agent serves nothing outside the bound root', async ({ client, assert }) => {
    const { root } = await connected(client)
    const agent = await db.from('devices_agents').first()
    const outside = await agentDir()
    dirs.push(outside)
    await put(outside, 'secreto.txt', 'fuera')
    await symlink(outside, join(root, 'enlace'))
    await put(root, 'dentro.txt', 'dentro')

    const { platform } = (await import('../../../../core/server/app/services/platform.js' as string)) as {
      platform: () => { peers: { send(peerId: string, message: unknown): Promise<void> } }
    }
    /** One file call straight to the agent's connection, answered over HTTP as the capability's are. */
    const ask = async (op: string, path?: string) => {
      const id = randomUUID()
      await db
        .table('devices_file_calls')
        .insert({ id, agent_id: agent.id, op, status: 'sent', created_at: new Date() })
      await platform().peers.send(`devices:${agent.id}.${agent.session}`, {
        type: 'files',
        id,
        op,
        root,
        path,
        maxBytes: 1024,
      })
      let answer: any = null
      await waitUntil(
        async () => {
          const row = await db.from('devices_file_calls').where('id', id).first()
          answer = row.status === 'done' ? JSON.parse(row.answer) : null
          return answer !== null
        },
        15_000,
        `the agent’s answer to ${op} ${path}`
      )
      return answer
    }
    assert.deepEqual(await ask('read', '../' + outside.split('/').pop() + '/secreto.txt'), { error: 'outside_root' })
    assert.deepEqual(await ask('read', 'enlace/secreto.txt'), { error: 'outside_root' })
    assert.deepEqual(await ask('read', outside + '/secreto.txt'), { error: 'outside_root' })
    assert.deepEqual(await ask('write', 'enlace/nuevo.txt'), { error: 'outside_root' })
    assert.deepEqual(await ask('remove', 'enlace/secreto.txt'), { error: 'outside_root' })
    // The list skips the link: nothing under it is offered.
    const listed = await ask('list')
    assert.deepEqual(
      listed.files.map((f: { path: string }) => f.path),
      ['dentro.txt']
    )
    assert.equal(await onDisk(outside, 'secreto.txt'), 'fuera')
  })
})
