import { createHash } from 'node:crypto'
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { WebSocket } from 'ws'
import { waitUntil } from '../../../../core/server/tests/helpers/wait.js'
import { SHARING_LIMITS, SHARING_ROUTES, type CreatedLink, type LinkAccessRow } from '../../shared/sharing.js'
import {
  attachSockets,
  call,
  fail,
  file,
  person,
  resetSharing,
  sharingCounts,
  trash,
  type Client,
} from './sharing_fixtures.js'

const VERIFY = SHARING_ROUTES.verify.path
const LINKS = SHARING_ROUTES.links.path
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex')

const VISITOR = {
  name_company: '',
  name: 'Lucía Pérez',
  email: 'lucia@example.org',
  phone: '+57 300 123 4567',
  accept: true,
}

async function setUp(client: Client) {
  const ana = await person(client, 'ana_links', 'teacher')
  const doc = await file(ana.id, 'contrato.txt', { bytes: 'Cláusula primera' })
  return { ana, doc }
}

async function makeLink(client: Client, token: string, fileId: number, fields: Record<string, string>) {
  const response = await call(client, 'post', LINKS, token, { file_id: String(fileId), ...fields })
  response.assertStatus(200)
  return response.body().data as CreatedLink
}

function open(client: Client, token: string, fields: Record<string, string> = {}) {
  return call(client, 'get', `/getPublicFile/${encodeURIComponent(token)}`, null, fields)
}

/** The grant's path on this server (the answer's address is absolute, on the app's configured URL). */
function pathOf(rute: string): string {
  return new URL(rute).pathname
}

async function accesses(client: Client, token: string, linkId: number): Promise<LinkAccessRow[]> {
  const response = await call(client, 'get', `/api/documents/links/${linkId}/accesses`, token)
  response.assertStatus(200)
  return response.body().data
}

test.group('documents public links: verify, open, serve', (group) => {
  group.each.setup(async () => {
    await resetSharing()
  })

  test('a direct link: verified, opened, served inline and as a download; every access recorded for the owner', async ({
    client,
    assert,
  }) => {
    const { ana, doc } = await setUp(client)
    const made = await makeLink(client, ana.token, doc.id, { mode: 'direct' })
    assert.match(made.url, /\/static\/public\/[A-Za-z0-9_-]{40,}$/)
    assert.isAtLeast(made.token.length, 22) // ≥ 128 bits in base64url
    // Only the token's hash is stored.
    const stored = await db.from('documents_links').where('id', made.link.id).firstOrFail()
    assert.notEqual(stored.token_hash, made.token)
    assert.notInclude(JSON.stringify(stored), made.token)

    const verified = await call(client, 'post', VERIFY, null, { token: made.token })
    verified.assertStatus(200)
    assert.deepEqual(verified.body(), {
      status: 'done',
      data: { estado: 'active', pass: 'direct', name: 'contrato.txt' },
    })

    const opened = await open(client, made.token, { type: 'direct', socketID: '' })
    opened.assertStatus(200)
    const rute = opened.body().data.rute as string
    assert.match(rute, /\/api\/documents\/public\/[A-Za-z0-9_-]+$/)
    const inline = await client.get(pathOf(rute))
    inline.assertStatus(200)
    assert.equal(inline.text(), 'Cláusula primera')
    assert.match(String(inline.header('content-disposition')), /^inline/)
    const download = await client.get(pathOf(rute)).qs({ download: '1' })
    download.assertStatus(200)
    assert.match(String(download.header('content-disposition')), /^attachment/)

    const rows = await accesses(client, ana.token, made.link.id)
    assert.deepEqual(
      rows.map((r) => r.outcome),
      ['downloaded', 'opened']
    )
    const listed = await call(client, 'get', LINKS, ana.token, { file_id: String(doc.id) })
    assert.equal(listed.body().data[0].accesses, 2)
    assert.equal(listed.body().data[0].state, 'active')
  })

  test('a password link: "Invalid password" for a wrong one, the file for the right one, and guessing is throttled', async ({
    client,
    assert,
  }) => {
    const { ana, doc } = await setUp(client)
    const made = await makeLink(client, ana.token, doc.id, { mode: 'password', password: 'Secreto#1' })
    const verified = await call(client, 'post', VERIFY, null, { token: made.token })
    assert.equal(verified.body().data.pass, 'password')
    // The stored password is a hash, never the password nor its SHA-256.
    const stored = await db.from('documents_links').where('id', made.link.id).firstOrFail()
    assert.notInclude(String(stored.password_hash), 'Secreto#1')
    assert.notInclude(String(stored.password_hash), sha256('Secreto#1'))

    for (const data of [sha256('secreto#1'), 'Secreto#1', '']) {
      const wrong = await open(client, made.token, { type: 'password', data })
      assert.equal(wrong.status(), 403)
      assert.deepEqual(wrong.body(), fail('link_wrong_password'))
    }
    // The visitor step is not this link's.
    assert.equal((await open(client, made.token, { type: 'public', data: JSON.stringify(VISITOR) })).status(), 400)
    // The screen tunnels this GET through POST (the spec's dispatcher): the hash travels in the body.
    const right = await client
      .post(`/getPublicFile/${made.token}`)
      .form({ case: 'GET', type: 'password', data: sha256('Secreto#1') })
    right.assertStatus(200)
    assert.equal((await client.get(pathOf(right.body().data.rute))).text(), 'Cláusula primera')

    // Wrong passwords up to the link's limit, then even the right one waits.
    for (let i = 3; i < SHARING_LIMITS.wrongPasswordsPerLink; i++) {
      assert.equal((await open(client, made.token, { type: 'password', data: sha256(`intento ${i}`) })).status(), 403)
    }
    const throttled = await open(client, made.token, { type: 'password', data: sha256('Secreto#1') })
    assert.equal(throttled.status(), 429)
    assert.deepEqual(throttled.body(), fail('link_throttled'))
    const outcomes = (await accesses(client, ana.token, made.link.id)).map((r) => r.outcome)
    assert.equal(outcomes.filter((o) => o === 'wrong_password').length, SHARING_LIMITS.wrongPasswordsPerLink)
    assert.deepEqual(outcomes.slice(0, 1), ['throttled'])
    assert.equal(outcomes.filter((o) => o === 'opened').length, 1)
  })

  test('guesses sent side by side are throttled as if sent one by one: no more than the limit are checked', async ({
    client,
    assert,
  }) => {
    const { ana, doc } = await setUp(client)
    const made = await makeLink(client, ana.token, doc.id, { mode: 'password', password: 'Secreto#1' })
    const limit = SHARING_LIMITS.wrongPasswordsPerLink
    // Twice the limit at once (the route's own limit per address, 30 a minute, is not reached).
    const answers = await Promise.all(
      Array.from({ length: 2 * limit }, (_, i) =>
        open(client, made.token, { type: 'password', data: sha256(`intento ${i}`) })
      )
    )
    const statuses = answers.map((a) => a.status())
    assert.equal(statuses.filter((s) => s === 403).length, limit, statuses.join(' '))
    assert.equal(statuses.filter((s) => s === 429).length, limit, statuses.join(' '))
    const right = await open(client, made.token, { type: 'password', data: sha256('Secreto#1') })
    assert.deepEqual(right.body(), fail('link_throttled'))
    const rows = await db.from('documents_link_accesses').where('link_id', made.link.id)
    const outcomes = rows.map((r: { outcome: string }) => r.outcome)
    assert.equal(outcomes.filter((o) => o === 'wrong_password').length, limit)
    assert.equal(outcomes.filter((o) => o === 'throttled').length, limit + 1)
    assert.lengthOf(outcomes, 2 * limit + 1)
  })

  test('a visitor link: the form is checked as spec 001 §5 says and the visitor’s data recorded', async ({
    client,
    assert,
  }) => {
    const { ana, doc } = await setUp(client)
    const made = await makeLink(client, ana.token, doc.id, { mode: 'visitor' })
    assert.equal((await call(client, 'post', VERIFY, null, { token: made.token })).body().data.pass, 'visitor')
    const before = await sharingCounts()
    for (const [change, fields] of [
      [{ email: 'lucia@ejemplo' }, ['email']],
      [{ phone: '+57 300 12' }, ['phone']],
      [{ phone: '300 123 456' }, ['phone']],
      [{ accept: false }, ['accept']],
      [{ name: '  ' }, ['name']],
      [{ name: '', email: '', phone: '', accept: false }, ['name', 'email', 'phone', 'accept']],
    ] as const) {
      const response = await open(client, made.token, {
        type: 'public',
        data: JSON.stringify({ ...VISITOR, ...change }),
      })
      assert.equal(response.status(), 400, JSON.stringify(change))
      assert.equal(response.body().message, fail('visitor_invalid').message)
      assert.deepEqual(response.body().fields, fields)
    }
    assert.equal((await open(client, made.token, { type: 'public', data: '{not json' })).status(), 400)
    assert.deepEqual(await sharingCounts(), before)

    // The company is optional; the phone keeps its country code.
    const ok = await open(client, made.token, { type: 'public', data: JSON.stringify(VISITOR) })
    ok.assertStatus(200)
    const withCompany = await open(client, made.token, {
      type: 'public',
      data: JSON.stringify({ ...VISITOR, name_company: 'Acme SAS' }),
    })
    withCompany.assertStatus(200)
    const rows = await accesses(client, ana.token, made.link.id)
    assert.deepEqual(
      rows.map((r) => r.visitor),
      [
        { ...VISITOR, name_company: 'Acme SAS' },
        { ...VISITOR, name_company: '' },
      ]
    )
  })

  test('dates are the server’s: not yet active, then closed, and a grant does not outlive its link', async ({
    client,
    assert,
  }) => {
    const { ana, doc } = await setUp(client)
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString()
    const later = await makeLink(client, ana.token, doc.id, { mode: 'direct', starts_at: tomorrow })
    assert.equal((await call(client, 'post', VERIFY, null, { token: later.token })).body().data.estado, 'not_active')
    const early = await open(client, later.token, { type: 'direct' })
    assert.equal(early.status(), 403)
    assert.deepEqual(early.body(), fail('link_not_active'))

    const now = await makeLink(client, ana.token, doc.id, { mode: 'direct', ends_at: tomorrow })
    const opened = await open(client, now.token, { type: 'direct' })
    opened.assertStatus(200)
    // Its end passes (written as the clock would make it).
    await db
      .from('documents_links')
      .where('id', now.link.id)
      .update({ ends_at: new Date(Date.now() - 1000) })
    assert.equal((await call(client, 'post', VERIFY, null, { token: now.token })).body().data.estado, 'closed')
    const closed = await open(client, now.token, { type: 'direct' })
    assert.equal(closed.status(), 403)
    assert.deepEqual(closed.body(), fail('link_closed'))
    const stale = await client.get(pathOf(opened.body().data.rute))
    assert.equal(stale.status(), 403)
    assert.deepEqual(stale.body(), fail('link_closed'))
    assert.deepEqual(
      (await accesses(client, ana.token, later.link.id)).map((r) => r.outcome),
      ['not_active']
    )
  })

  test('a no-download link serves the file inline and refuses the attachment', async ({ client, assert }) => {
    const { ana, doc } = await setUp(client)
    const made = await makeLink(client, ana.token, doc.id, { mode: 'direct', allow_download: '0' })
    const opened = await open(client, made.token, { type: 'direct' })
    assert.isFalse(opened.body().data.allow_download)
    const path = pathOf(opened.body().data.rute)
    const inline = await client.get(path)
    inline.assertStatus(200)
    assert.match(String(inline.header('content-disposition')), /^inline/)
    const download = await client.get(path).qs({ download: '1' })
    assert.equal(download.status(), 403)
    assert.deepEqual(download.body(), fail('link_no_download'))
    assert.isUndefined(download.header('content-disposition'))
  })

  test('a revoked link, a trashed file or an unknown token: "This document does not exist"', async ({
    client,
    assert,
  }) => {
    const { ana, doc } = await setUp(client)
    const made = await makeLink(client, ana.token, doc.id, { mode: 'direct' })
    const opened = await open(client, made.token, { type: 'direct' })
    const revoked = await call(client, 'delete', `/api/documents/links/${made.link.id}`, ana.token)
    revoked.assertStatus(200)
    assert.equal(revoked.body().data.state, 'closed')
    for (const token of [made.token, 'x'.repeat(43), '../../etc/passwd']) {
      const verified = await call(client, 'post', VERIFY, null, { token })
      assert.equal(verified.status(), 404)
      assert.deepEqual(verified.body(), fail('link_missing'))
    }
    assert.deepEqual((await open(client, made.token, { type: 'direct' })).body(), fail('link_missing'))
    assert.equal((await client.get(pathOf(opened.body().data.rute))).status(), 404)

    const other = await makeLink(client, ana.token, doc.id, { mode: 'direct' })
    await trash('documents_files', doc.id, ana.id)
    assert.deepEqual((await call(client, 'post', VERIFY, null, { token: other.token })).body(), fail('link_missing'))
  })

  test('links are the owner’s: others are refused, bad settings are 400, and nothing is stored', async ({
    client,
    assert,
  }) => {
    const { ana, doc } = await setUp(client)
    const beto = await person(client, 'beto_links')
    const before = await sharingCounts()
    const byStranger = await call(client, 'post', LINKS, beto.token, { file_id: String(doc.id), mode: 'direct' })
    assert.equal(byStranger.status(), 404)
    assert.equal((await call(client, 'get', LINKS, beto.token, { file_id: String(doc.id) })).status(), 404)
    const past = new Date(Date.now() - 86_400_000).toISOString()
    const soon = new Date(Date.now() + 3_600_000).toISOString()
    const later = new Date(Date.now() + 7_200_000).toISOString()
    for (const [fields, key] of [
      [{ mode: 'secret' }, 'link_bad_mode'],
      [{ mode: 'password', password: 'abc' }, 'link_password_length'],
      [{ mode: 'password' }, 'link_password_length'],
      [{ mode: 'direct', ends_at: past }, 'link_dates'],
      [{ mode: 'direct', starts_at: later, ends_at: soon }, 'link_dates'],
      [{ mode: 'direct', ends_at: 'mañana' }, 'link_dates'],
      [{ mode: 'direct', ends_at: '2099-01-01T00:00:00Z' }, 'link_dates'],
    ] as const) {
      const response = await call(client, 'post', LINKS, ana.token, { file_id: String(doc.id), ...fields })
      assert.equal(response.status(), 400, JSON.stringify(fields))
      assert.deepEqual(response.body(), fail(key))
    }
    assert.equal((await call(client, 'post', LINKS, ana.token, { file_id: 'abc', mode: 'direct' })).status(), 400)
    assert.deepEqual(await sharingCounts(), before)
    // Beto cannot revoke or read the accesses of ana's link.
    const made = await makeLink(client, ana.token, doc.id, { mode: 'direct' })
    assert.equal((await call(client, 'delete', `/api/documents/links/${made.link.id}`, beto.token)).status(), 404)
    assert.equal((await call(client, 'get', `/api/documents/links/${made.link.id}/accesses`, beto.token)).status(), 404)
    assert.isNull((await db.from('documents_links').where('id', made.link.id).firstOrFail()).revoked_at)
  })

  test('the file’s address also arrives as fileReady on the socket named by socketID', async ({ client, assert }) => {
    await attachSockets()
    const { ana, doc } = await setUp(client)
    const made = await makeLink(client, ana.token, doc.id, { mode: 'direct' })
    const ws = new WebSocket(`ws://${process.env.HOST}:${process.env.PORT}/ws?token=${encodeURIComponent(ana.token)}`)
    const messages: { case: string; data: any }[] = []
    ws.on('message', (raw) => messages.push(JSON.parse(String(raw))))
    try {
      await waitUntil(() => messages.some((m) => m.case === 'init'), 10_000, 'the socket’s init')
      const socketId = messages.find((m) => m.case === 'init')!.data.token as string
      const opened = await open(client, made.token, { type: 'direct', socketID: socketId })
      opened.assertStatus(200)
      await waitUntil(() => messages.some((m) => m.case === 'fileReady'), 10_000, 'fileReady')
      assert.deepEqual(messages.find((m) => m.case === 'fileReady')!.data, { rute: opened.body().data.rute })
    } finally {
      ws.close()
    }
  })
})
