import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { mailsTo, waitForMail } from '../../../../core/server/tests/helpers/smtp_listener.js'
import { SHARING_ROUTES, type ShareList } from '../../shared/sharing.js'
import {
  areaWith,
  call,
  fail,
  file,
  folder,
  person,
  resetSharing,
  roleId,
  sharingCounts,
  text,
  trash,
  type Client,
} from './sharing_fixtures.js'

const SHARES = SHARING_ROUTES.share.path
const LIST = SHARING_ROUTES.list.path
const EMAIL = SHARING_ROUTES.shareByEmail.path
const shareUrl = (id: number) => `/api/documents/shares/${id}`
const fileUrl = (id: number) => `/api/documents/files/${id}`
const sharedView = '/api/documents/library/shared'

async function setUp(client: Client) {
  const ana = await person(client, 'ana_owner', 'teacher')
  const beto = await person(client, 'beto_peer', 'student')
  const carla = await person(client, 'carla_other', 'student')
  const doc = await file(ana.id, 'informe.txt')
  return { ana, beto, carla, doc }
}

test.group('documents sharing: with people and by e-mail', (group) => {
  group.each.setup(async () => {
    await resetSharing()
  })

  test('the owner shares a file with a user, who then reads it and finds it under Shared; revoking ends it', async ({
    client,
    assert,
  }) => {
    const { ana, beto, carla, doc } = await setUp(client)
    // Before: beto cannot see the file, and is told it does not exist.
    const before = await call(client, 'get', fileUrl(doc.id), beto.token)
    assert.equal(before.status(), 404)

    const shared = await call(client, 'post', SHARES, ana.token, {
      type: 'file',
      id: String(doc.id),
      grantees: [{ type: 'user', id: beto.id }],
      permission: 'read',
    })
    shared.assertStatus(200)
    const list = shared.body().data as ShareList
    assert.equal(list.owner.id, ana.id)
    assert.deepEqual(
      list.shares.map((s) => [s.grantee_type, s.grantee_id, s.permission, s.name]),
      [['user', beto.id, 'read', 'beto_peer Test']]
    )

    const opened = await call(client, 'get', fileUrl(doc.id), beto.token)
    opened.assertStatus(200)
    assert.equal(opened.body().data.permission, 'read')
    const view = await call(client, 'get', sharedView, beto.token)
    view.assertStatus(200)
    assert.deepEqual(
      view.body().data.files.map((f: { id: number }) => f.id),
      [doc.id]
    )
    // Someone else still reaches nothing.
    assert.equal((await call(client, 'get', fileUrl(doc.id), carla.token)).status(), 404)
    assert.deepEqual((await call(client, 'get', sharedView, carla.token)).body().data.files, [])

    // Sharing again changes the permission instead of adding a second share.
    const again = await call(client, 'post', SHARES, ana.token, {
      type: 'file',
      id: String(doc.id),
      grantees: [{ type: 'user', id: beto.id }],
      permission: 'all',
    })
    assert.deepEqual(
      (again.body().data as ShareList).shares.map((s) => s.permission),
      ['all']
    )

    const shareId = (again.body().data as ShareList).shares[0].id
    const revoked = await call(client, 'delete', shareUrl(shareId), ana.token)
    revoked.assertStatus(200)
    assert.deepEqual((revoked.body().data as ShareList).shares, [])
    assert.equal((await call(client, 'get', fileUrl(doc.id), beto.token)).status(), 404)
    // Revoking what is gone: a clear 404.
    const twice = await call(client, 'delete', shareUrl(shareId), ana.token)
    assert.equal(twice.status(), 404)
    assert.deepEqual(twice.body(), fail('access_not_found'))
  })

  test('a folder shared with an area reaches its members, down its subfolders; a role share reaches the role', async ({
    client,
    assert,
  }) => {
    const { ana, beto, carla } = await setUp(client)
    const area = await areaWith('Contabilidad', [beto.id])
    const top = await folder(ana.id, 'Proyectos')
    const inner = await folder(ana.id, 'Dentro', top)
    const deep = await file(ana.id, 'plan.txt', { folderId: inner })

    const byArea = await call(client, 'post', SHARES, ana.token, {
      type: 'folder',
      id: String(top),
      grantees: [{ type: 'area', id: area }],
      permission: 'read',
    })
    byArea.assertStatus(200)
    assert.equal((byArea.body().data as ShareList).shares[0].name.startsWith('Contabilidad'), true)
    const reached = await call(client, 'get', fileUrl(deep.id), beto.token)
    reached.assertStatus(200)
    assert.equal(reached.body().data.permission, 'read')
    assert.equal((await call(client, 'get', fileUrl(deep.id), carla.token)).status(), 404)

    // The students' role: carla (a student) now reads it too, with all permissions.
    const byRole = await call(client, 'post', SHARES, ana.token, {
      type: 'file',
      id: String(deep.id),
      grantees: [{ type: 'role', id: await roleId('student') }],
      permission: 'all',
    })
    byRole.assertStatus(200)
    const carlaSees = await call(client, 'get', fileUrl(deep.id), carla.token)
    carlaSees.assertStatus(200)
    assert.equal(carlaSees.body().data.permission, 'all')
    // Beto holds read through his area and all through his role: the higher wins.
    assert.equal((await call(client, 'get', fileUrl(deep.id), beto.token)).body().data.permission, 'all')

    // A trashed folder takes its content out of every grantee's reach.
    await trash('documents_folders', top, ana.id)
    await trash('documents_folders', inner, ana.id)
    await trash('documents_files', deep.id, ana.id)
    assert.equal((await call(client, 'get', fileUrl(deep.id), carla.token)).status(), 404)
  })

  test('only the owner shares: a grantee gets 403, a stranger 404, bad grantees 400; nothing changes', async ({
    client,
    assert,
  }) => {
    const { ana, beto, carla, doc } = await setUp(client)
    await call(client, 'post', SHARES, ana.token, {
      type: 'file',
      id: String(doc.id),
      grantees: [{ type: 'user', id: beto.id }],
      permission: 'all',
    })
    const counts = await sharingCounts()
    const shareTo = (token: string, grantees: unknown, extra: Record<string, unknown> = {}) =>
      call(client, 'post', SHARES, token, { type: 'file', id: String(doc.id), grantees, permission: 'read', ...extra })

    const byGrantee = await shareTo(beto.token, [{ type: 'user', id: carla.id }])
    assert.equal(byGrantee.status(), 403)
    assert.deepEqual(byGrantee.body(), fail('share_owner_only'))
    const byStranger = await shareTo(carla.token, [{ type: 'user', id: carla.id }])
    assert.equal(byStranger.status(), 404)
    assert.deepEqual(byStranger.body(), fail('access_not_found'))
    assert.equal((await call(client, 'get', LIST, carla.token, { type: 'file', id: String(doc.id) })).status(), 404)

    for (const [grantees, extra, key] of [
      [[{ type: 'user', id: 999_999 }], {}, 'share_bad_grantee'],
      [[{ type: 'area', id: 999_999 }], {}, 'share_bad_grantee'],
      [[{ type: 'group', id: beto.id }], {}, 'share_bad_request'],
      [[{ type: 'user', id: ana.id }], {}, 'share_self'],
      [[], {}, 'share_bad_request'],
      [[{ type: 'user', id: carla.id }], { permission: 'owner' }, 'share_bad_request'],
      [[{ type: 'user', id: carla.id }], { type: 'disk' }, 'share_bad_request'],
      [[{ type: 'user', id: carla.id }], { id: '../1' }, 'share_bad_request'],
    ] as const) {
      const response = await shareTo(ana.token, grantees, extra)
      assert.equal(response.status(), 400, JSON.stringify([grantees, extra]))
      assert.deepEqual(response.body(), fail(key))
    }
    // A foreign id: someone else's file is not found, whoever owns it.
    const other = await file(carla.id, 'privado.txt')
    const foreign = await call(client, 'post', SHARES, ana.token, {
      type: 'file',
      id: String(other.id),
      grantees: [{ type: 'user', id: beto.id }],
      permission: 'read',
    })
    assert.equal(foreign.status(), 404)
    // Beto may not revoke his own share either.
    const shareId = Number((await db.from('documents_shares').firstOrFail()).id)
    assert.equal((await call(client, 'delete', shareUrl(shareId), beto.token)).status(), 403)
    assert.deepEqual(await sharingCounts(), counts)
  })

  test('by e-mail: a user’s address becomes a user share and is mailed; another address is mailed a public link', async ({
    client,
    assert,
  }) => {
    const { ana, beto, doc } = await setUp(client)
    const toUser = await call(client, 'post', EMAIL, ana.token, {
      type: 'file',
      id: String(doc.id),
      email: beto.email.toUpperCase(),
      permission: 'read',
    })
    toUser.assertStatus(200)
    assert.deepEqual(
      (toUser.body().data as ShareList).shares.map((s) => [s.grantee_type, s.grantee_id]),
      [['user', beto.id]]
    )
    const userMail = await waitForMail(beto.email, (m) => m.text.includes('informe.txt'))
    assert.include(userMail.text, '/documents/shared')

    const outsider = 'lucia.externa@example.org'
    const toOutsider = await call(client, 'post', EMAIL, ana.token, {
      type: 'file',
      id: String(doc.id),
      email: outsider,
      permission: 'read',
      language: 'en',
    })
    toOutsider.assertStatus(200)
    const emailShare = (toOutsider.body().data as ShareList).shares.find((s) => s.grantee_type === 'email')!
    assert.equal(emailShare.grantee_email, outsider)
    assert.isNumber(emailShare.link_id)
    const mail = await waitForMail(outsider)
    const token = /\/static\/public\/([A-Za-z0-9_-]+)/.exec(mail.text)?.[1]
    assert.isString(token)
    assert.equal(mail.subject, text('en', 'share_mail_subject', { owner: 'ana_owner Test', name: 'informe.txt' }))
    // The mailed link opens the document directly.
    const verified = await call(client, 'post', SHARING_ROUTES.verify.path, null, { token: token! })
    verified.assertStatus(200)
    assert.deepEqual(verified.body().data, { estado: 'active', pass: 'direct', name: 'informe.txt' })

    // Revoking the e-mail share revokes its link.
    const revoked = await call(client, 'delete', shareUrl(emailShare.id), ana.token)
    revoked.assertStatus(200)
    const gone = await call(client, 'post', SHARING_ROUTES.verify.path, null, { token: token! })
    assert.equal(gone.status(), 404)
    assert.deepEqual(gone.body(), fail('link_missing'))

    // A folder goes by e-mail only to users; a bad address is refused; nothing changed by either.
    const counts = await sharingCounts()
    const sent = mailsTo(outsider).length
    const top = await folder(ana.id, 'Carpeta')
    const folderOut = await call(client, 'post', EMAIL, ana.token, {
      type: 'folder',
      id: String(top),
      email: outsider,
      permission: 'read',
    })
    assert.equal(folderOut.status(), 400)
    assert.deepEqual(folderOut.body(), fail('share_email_folder'))
    // Not an address, or one a mail header would read apart.
    for (const email of ['no es correo', 'ana <x@ejemplo.org>', 'a@b', `${'a'.repeat(250)}@ejemplo.org`]) {
      const bad = await call(client, 'post', EMAIL, ana.token, {
        type: 'file',
        id: String(doc.id),
        email,
        permission: 'read',
      })
      assert.equal(bad.status(), 400, email)
      assert.deepEqual(bad.body(), fail('share_bad_email'))
    }
    assert.deepEqual(await sharingCounts(), counts)
    assert.equal(mailsTo(outsider).length, sent)
  })
})
