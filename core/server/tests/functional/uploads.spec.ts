import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { test } from '@japa/runner'
import type { Assert } from '@japa/assert'
import type { ApiResponse } from '@japa/api-client'
import { translate } from '@tramita/i18n'
import db from '@adonisjs/lucid/services/db'
import Area from '#models/area'
import { UPLOADS_PER_MINUTE } from '#controllers/uploads_controller'
import { dataSubdir, uploadTempDir } from '#lib/paths'
import { signId } from '#lib/signed_id'
import { pruneUploadsJob } from '#services/maintenance_jobs'
import { publishForm } from '#services/process/forms'
import { taskToken } from '#services/process/engine'
import { seedBase } from '#services/seed_service'
import { makeUser, resetAuthTables, tokenFor } from '#tests/helpers/auth'
import { resetProcessTables } from '#tests/helpers/process'

type Client = Parameters<typeof tokenFor>[0]

/** A refusal: its status and exactly the message the caller reads. */
function assertRefused(response: ApiResponse, status: number, key: string) {
  response.assertStatus(status)
  response.assertBody({ status: 'fail', message: translate('es', key) })
}

/** Real file contents: file-type sniffs these as what they are. */
const PDF = Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n')
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64'
)
const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64')
/** A Windows program's header (MZ … PE). */
const EXE = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(510)])

const storageDir = () => dataSubdir('storage')
const onDisk = (key: string) => existsSync(join(storageDir(), key))

/**
 * A document delivery: the applicant attaches files, a reviewer in an area adds some and names a
 * supplier by e-mail, the supplier (no account) completes it through the mailed link.
 */
async function publishDelivery() {
  await seedBase()
  const area =
    (await Area.findBy('name', 'Talento humano')) ?? (await Area.create({ name: 'Talento humano', color: '#336699' }))
  const published = await publishForm({
    name: 'Entrega de documentos',
    userId: null,
    jsonconfig: {
      form: { pages: [{ name: 'Datos', layout: [['nombre'], ['soporte', 'foto'], ['firma'], ['correo_proveedor']] }] },
      fields: [
        { field_name: 'nombre', type: 'text', data: { label: { value: 'Nombre' }, validate: { required: true } } },
        {
          field_name: 'soporte',
          type: 'file',
          data: { label: { value: 'Soporte' }, ext: ['pdf', '.PNG'], ref: { limit: 3 } },
        },
        { field_name: 'foto', type: 'image', data: { label: { value: 'Foto' } } },
        { field_name: 'firma', type: 'signature', data: { label: { value: 'Firma' } } },
        { field_name: 'correo_proveedor', type: 'email', data: { label: { value: 'Correo del proveedor' } } },
      ],
    },
    process: {
      label: 'Entrega de documentos',
      color: '#1C1066',
      states: [
        { id: 'init', label: 'Iniciado' },
        { id: 'end', label: 'Finalizado' },
      ],
      start: { step: 'revision' },
      steps: [
        {
          id: 'revision',
          label: 'Revisión',
          kind: 'fill',
          assign: { type: 'area', id: area.id },
          next: { step: 'proveedor' },
        },
        {
          id: 'proveedor',
          label: 'Proveedor',
          kind: 'fill',
          assign: { type: 'field', field: 'correo_proveedor' },
          next: { step: null },
        },
      ],
      external_consultation: { enable: true },
    },
  })
  return { ...published, area }
}

/** A 64 KB file system over `folder` (root, as the suite runs in CI), unmounted after the test. */
function mountSmallDisk(folder: string, assert: Assert, cleanup: (fn: () => void) => void): void {
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', folder], { encoding: 'utf8' })
  assert.equal(mounted.status, 0, `mounting a small tmpfs needs root: ${mounted.stderr}`)
  cleanup(() => {
    spawnSync('umount', [folder])
  })
}

test.group('form uploads', (group) => {
  group.each.setup(async () => {
    await db.from('uploads').delete()
    await resetProcessTables()
    await resetAuthTables()
  })

  async function people(client: Client, areaId: number) {
    await makeUser({ username: 'solicitante', role: 'student' })
    const revisor = await makeUser({ username: 'revisora', role: 'teacher' })
    await revisor.related('areas').attach([areaId])
    await makeUser({ username: 'jefa', role: 'supervisor' })
    await makeUser({ username: 'ajeno', role: 'teacher' })
    return {
      applicant: await tokenFor(client, 'solicitante'),
      reviewer: await tokenFor(client, 'revisora'),
      approver: await tokenFor(client, 'jefa'),
      outsider: await tokenFor(client, 'ajeno'),
    }
  }

  /** POST upload/files as the runtime sends it: form-data with case, the context and the files. */
  function upload(
    client: Client,
    token: string | null,
    fields: Record<string, string>,
    files: { name: string; bytes: Buffer }[]
  ) {
    let request = client.post('/data/form/upload/files')
    if (token) request = request.header('token', token)
    for (const [name, value] of Object.entries({
      case: 'POST',
      new_version: 'false',
      foldertype: 'files',
      ...fields,
    })) {
      request = request.field(name, value)
    }
    for (const file of files) request = request.file('file', file.bytes, { filename: file.name })
    return request
  }

  const post = (client: Client, path: string, token: string | null, fields: Record<string, string>) => {
    const request = client.post(path)
    return (token ? request.header('token', token) : request).form({ case: 'POST', ...fields })
  }

  const uploadRow = (path: string) => db.from('uploads').where('path', path).first()
  const uploadCount = async () => Number((await db.from('uploads').count('* as n').first()).n)

  /** Everything under the storage dir: a refused upload must leave nothing behind. */
  function storedFiles(): string[] {
    return readdirSync(storageDir(), { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => e.name)
  }

  test('a good file is staged and answered as an uploaded file entry', async ({ client, assert }) => {
    const form = await publishDelivery()
    const t = await people(client, form.area.id)
    const before = storedFiles().length

    const res = await upload(client, t.applicant, { data: form.key, field: 'soporte' }, [
      { name: 'Cédula escaneada.pdf', bytes: PDF },
      { name: 'recibo.png', bytes: PNG },
    ])
    res.assertStatus(200)
    assert.equal(res.body().status, 'done')
    const [pdf, png] = res.body().data
    assert.deepEqual(Object.keys(pdf).sort(), ['ext', 'ip', 'path', 'real_name', 'status'])
    assert.include(pdf, { ext: 'pdf', real_name: 'Cédula escaneada.pdf', status: 'good' })
    assert.match(pdf.path, /^\/data\/files\/[0-9a-f-]{36}\.pdf$/)
    // The client and the server share the loopback address the suite binds (HOST).
    assert.equal(pdf.ip, process.env.HOST)
    assert.include(png, { ext: 'png', real_name: 'recibo.png', status: 'good' })

    const row = await uploadRow(pdf.path)
    assert.include(row, { status: 'staged', field: 'soporte', foldertype: 'files', mime: 'application/pdf' })
    assert.equal(row.case_id, null)
    assert.equal(Number(row.size), PDF.length)
    assert.match(row.storage_key, /^files\/\d{4}\/\d{2}\/[0-9a-f-]{36}\.pdf$/)
    assert.isTrue(onDisk(row.storage_key))
    assert.equal(storedFiles().length, before + 2)

    // The uploader reads it back; nobody else may while it is staged; no session is a 401.
    const mine = await client.get(pdf.path).header('token', t.applicant)
    mine.assertStatus(200)
    assert.equal(mine.header('content-type'), 'application/pdf')
    assert.equal(mine.header('x-content-type-options'), 'nosniff')
    assert.match(
      mine.header('content-disposition') ?? '',
      /^inline; filename="C_dula escaneada.pdf"; filename\*=UTF-8''C%C3%A9dula/
    )
    const bytes = await fetch(`http://${process.env.HOST}:${process.env.PORT}${pdf.path}`, {
      headers: { token: t.applicant },
    })
    assert.deepEqual(Buffer.from(await bytes.arrayBuffer()), PDF, 'the same bytes come back')
    assertRefused(await client.get(pdf.path).header('token', t.outsider), 403, 'upload.not_allowed')
    assertRefused(await client.get(pdf.path).header('token', t.approver), 403, 'upload.not_allowed')
    assertRefused(await client.get(pdf.path), 401, 'error.unauthorized')
  })

  // Issue 22: the disk of a staged upload full. A 64 KB file system is mounted over the uploads' folder
  // (the suite runs as root, as CI does): the file that does not fit is refused with a reason, and no
  // row or partial file is left; one that fits is stored.
  test('a disk too full for the file: a 507 with a reason, and nothing stored; a file that fits is', async ({
    client,
    assert,
    cleanup,
  }) => {
    const form = await publishDelivery()
    const t = await people(client, form.area.id)
    const folder = join(storageDir(), 'files')
    mkdirSync(folder, { recursive: true })
    mountSmallDisk(folder, assert, cleanup)
    const rowsBefore = await uploadCount()

    const big = Buffer.concat([PDF.subarray(0, 9), Buffer.from(`%${'x'.repeat(200_000)}\n`), PDF.subarray(9)])
    const full = await upload(client, t.applicant, { data: form.key, field: 'soporte' }, [
      { name: 'grande.pdf', bytes: big },
    ])
    full.assertStatus(507)
    assert.equal(full.body().status, 'fail')
    assert.equal(full.body().message, translate('es', 'error.storage_full'))
    assert.equal(await uploadCount(), rowsBefore)
    assert.deepEqual(
      readdirSync(folder, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()),
      []
    )

    const fits = await upload(client, t.applicant, { data: form.key, field: 'soporte' }, [
      { name: 'pequeño.pdf', bytes: PDF },
    ])
    fits.assertStatus(200)
    const row = await uploadRow(fits.body().data[0].path)
    assert.isTrue(existsSync(join(storageDir(), row.storage_key)))
  })

  // The disk of the body parser's temporary copies full: it writes every file of a request there before
  // any controller runs. The 64 KB file system goes over the app's own temporary folder, not the
  // system's /tmp, which suites running at the same time use.
  test('a full temporary folder: a 507 with a reason, nothing stored or left in it; a file that fits is', async ({
    client,
    assert,
    cleanup,
  }) => {
    const form = await publishDelivery()
    const t = await people(client, form.area.id)
    const folder = uploadTempDir()
    mountSmallDisk(folder, assert, cleanup)
    const rowsBefore = await uploadCount()
    const storedBefore = storedFiles().length
    const leftInFolder = () => readdirSync(folder, { recursive: true })

    // A file that fits comes first: the parser keeps the files before the one that failed.
    const big = Buffer.concat([PDF.subarray(0, 9), Buffer.from(`%${'x'.repeat(200_000)}\n`), PDF.subarray(9)])
    const full = await upload(client, t.applicant, { data: form.key, field: 'soporte' }, [
      { name: 'primero.pdf', bytes: PDF },
      { name: 'grande.pdf', bytes: big },
    ])
    assertRefused(full, 507, 'error.storage_full')
    assert.equal(await uploadCount(), rowsBefore)
    assert.equal(storedFiles().length, storedBefore)
    assert.deepEqual(leftInFolder(), [])

    const fits = await upload(client, t.applicant, { data: form.key, field: 'soporte' }, [
      { name: 'pequeño.pdf', bytes: PDF },
    ])
    fits.assertStatus(200)
    const row = await uploadRow(fits.body().data[0].path)
    assert.isTrue(onDisk(row.storage_key))
    assert.deepEqual(leftInFolder(), [])
  })

  test('refused uploads: blocked, not allowed, disguised, too large, not an image', async ({ client, assert }) => {
    const form = await publishDelivery()
    const t = await people(client, form.area.id)
    const before = storedFiles().length
    const big = Buffer.concat([PDF, Buffer.alloc(21 * 1024 * 1024)])
    const cases: [string, Record<string, string>, { name: string; bytes: Buffer }[], RegExp][] = [
      ['blocked extension', { field: 'soporte' }, [{ name: 'setup.exe', bytes: EXE }], /no está permitido/],
      ['blocked, with a trailing dot', { field: 'soporte' }, [{ name: 'setup.exe.', bytes: EXE }], /no está permitido/],
      ['not in the field list', { field: 'soporte' }, [{ name: 'notas.txt', bytes: Buffer.from('hola') }], /pdf, png/],
      ['an .exe renamed .png', { field: 'soporte' }, [{ name: 'foto.png', bytes: EXE }], /programa/],
      [
        'a text file named .pdf',
        { field: 'soporte' },
        [{ name: 'falso.pdf', bytes: Buffer.from('hola') }],
        /no corresponde/,
      ],
      ['over the size limit', { field: 'soporte' }, [{ name: 'grande.pdf', bytes: big }], /supera el límite de 20 MB/],
      ['empty', { field: 'soporte' }, [{ name: 'vacio.pdf', bytes: Buffer.alloc(0) }], /vacío/],
      [
        'images foldertype with a PDF',
        { field: 'soporte', foldertype: 'images' },
        [{ name: 'a.pdf', bytes: PDF }],
        /no es una imagen/,
      ],
      [
        'an image field with a PDF',
        { field: 'foto', foldertype: 'images' },
        [{ name: 'a.pdf', bytes: PDF }],
        /no es una imagen/,
      ],
      [
        'a signature that is a GIF',
        { field: 'firma', foldertype: 'signatures' },
        [{ name: 'f.gif', bytes: GIF }],
        /PNG o JPEG/,
      ],
      [
        'two files for an image field',
        { field: 'foto', foldertype: 'images' },
        [
          { name: 'a.png', bytes: PNG },
          { name: 'b.png', bytes: PNG },
        ],
        /máximo/,
      ],
      [
        'one good and one bad file',
        { field: 'soporte' },
        [
          { name: 'a.pdf', bytes: PDF },
          { name: 'b.bat', bytes: Buffer.from('@echo off') },
        ],
        /no está permitido/,
      ],
      ['an unknown field', { field: 'nombre' }, [{ name: 'a.pdf', bytes: PDF }], /no tiene un campo/],
      ['a bad foldertype', { field: 'soporte', foldertype: '../tmp' }, [{ name: 'a.pdf', bytes: PDF }], /foldertype/],
      ['no file', { field: 'soporte' }, [], /ningún archivo/],
    ]
    for (const [label, fields, files, reason] of cases) {
      const res = await upload(client, t.applicant, { data: form.key, ...fields }, files)
      assert.equal(res.status(), 400, label)
      assert.equal(res.body().status, 'fail', label)
      assert.match(res.body().message, reason, label)
    }
    assert.equal(await uploadCount(), 0)
    assert.equal(storedFiles().length, before, 'nothing half-written')

    // Good ones for the same fields pass (the checks are not simply refusing everything).
    const image = await upload(client, t.applicant, { data: form.key, field: 'foto', foldertype: 'images' }, [
      { name: 'yo.png', bytes: PNG },
    ])
    image.assertStatus(200)
    const signature = await upload(client, t.applicant, { data: form.key, field: 'firma', foldertype: 'signatures' }, [
      { name: 'firma.png', bytes: PNG },
    ])
    signature.assertStatus(200)
  })

  test('who may upload: a session (401 without), a starter, the assignee of the task', async ({ client, assert }) => {
    const form = await publishDelivery()
    const t = await people(client, form.area.id)
    const file = [{ name: 'a.pdf', bytes: PDF }]
    const anonymous = await upload(client, null, { data: form.key, field: 'soporte' }, file)
    anonymous.assertStatus(401)
    assert.equal(anonymous.body().message, 'Unauthorized')
    assertRefused(
      await upload(client, 'not-a-session', { data: form.key, field: 'soporte' }, file),
      401,
      'error.unauthorized'
    )
    assertRefused(await upload(client, t.applicant, { data: 'nope', field: 'soporte' }, file), 404, 'engine.not_found')

    const started = await post(client, '/data/form/flows/process', t.applicant, {
      data: form.key,
      flow_values: JSON.stringify({ nombre: 'Ana' }),
    })
    const { id, key_process: key } = started.body().data
    const task = await db.from('tasks').where('case_id', id).where('status', 'pending').first()
    const context = { key_process: key, token: taskToken(task.id), field: 'soporte' }
    assertRefused(await upload(client, t.outsider, context, file), 403, 'engine.not_yours')
    assertRefused(await upload(client, null, context, file), 401, 'error.unauthorized')
    const forged = { ...context, token: `${task.id}.forgedforgedforgedforge` }
    assertRefused(await upload(client, t.reviewer, forged, file), 404, 'engine.not_found')
    assert.equal(await uploadCount(), 0, 'no refused upload left a row')
    ;(await upload(client, t.reviewer, context, file)).assertStatus(200)
    assert.equal(await uploadCount(), 1)
  })

  test('an upload past the caller’s rate is refused with 429 and a reason, and nothing is stored', async ({
    client,
    assert,
  }) => {
    const form = await publishDelivery()
    const t = await people(client, form.area.id)
    const before = storedFiles().length
    const context = { data: form.key, field: 'soporte' }
    for (let i = 0; i < UPLOADS_PER_MINUTE; i++) {
      assertRefused(await upload(client, t.applicant, context, []), 400, 'upload.no_file')
    }
    const refused = await upload(client, t.applicant, context, [{ name: 'a.pdf', bytes: PDF }])
    assertRefused(refused, 429, 'auth.too_many_requests')
    assert.isAbove(Number(refused.header('retry-after')), 0)
    assert.equal(await uploadCount(), 0, 'no row')
    assert.equal(storedFiles().length, before, 'no file')
  })

  test('unlink removes only the caller’s own staged file', async ({ client, assert }) => {
    const form = await publishDelivery()
    const t = await people(client, form.area.id)
    const up = async (token: string) =>
      (await upload(client, token, { data: form.key, field: 'soporte' }, [{ name: 'a.pdf', bytes: PDF }])).body()
        .data[0]
    const mine = await up(t.applicant)
    const theirs = await up(t.reviewer)
    const mineKey = (await uploadRow(mine.path)).storage_key
    const theirKey = (await uploadRow(theirs.path)).storage_key

    const refused = await post(client, '/data/form/upload/files/unlink', t.applicant, { path: theirs.path })
    refused.assertStatus(403)
    assert.equal(refused.body().message, 'Este archivo no lo subiste tú')
    for (const path of [
      '../../tramita.sqlite3',
      '/data/files/../../tramita.sqlite3',
      `/data/files/../files/${theirs.path.split('/').pop()}`,
      '/data/files/%2e%2e%2ftramita.sqlite3',
      '/data/files/..%2F..%2Ftramita.sqlite3',
      '/etc/passwd',
      theirKey,
      `${theirs.path}/`,
      `http://evil.test${theirs.path}`,
      '',
    ]) {
      const res = await post(client, '/data/form/upload/files/unlink', t.applicant, { path })
      assert.equal(res.status(), 400, path)
      assert.equal(res.body().message, 'La ruta del archivo no es válida', path)
    }
    const unknown = await post(client, '/data/form/upload/files/unlink', t.applicant, {
      path: '/data/files/00000000-0000-0000-0000-000000000000.pdf',
    })
    assertRefused(unknown, 404, 'upload.not_found')
    assertRefused(
      await post(client, '/data/form/upload/files/unlink', null, { path: mine.path }),
      401,
      'error.unauthorized'
    )
    assert.isTrue(onDisk(theirKey), 'nothing of theirs was deleted')
    assert.isTrue(onDisk(mineKey))
    assert.equal(await uploadCount(), 2)

    const removed = await post(client, '/data/form/upload/files/unlink', t.applicant, {
      path: mine.path,
      new_version: 'false',
    })
    removed.assertStatus(200)
    assert.deepEqual(removed.body().data, { path: mine.path, removed: true })
    assert.isFalse(onDisk(mineKey), 'the file is gone from disk')
    assert.isNull(await uploadRow(mine.path))
    ;(await client.get(mine.path).header('token', t.applicant)).assertStatus(404)
    assert.isTrue(onDisk(theirKey))
  })

  test('a save promotes its staged files; the case’s viewers read them', async ({ client, assert }) => {
    const form = await publishDelivery()
    const t = await people(client, form.area.id)
    const [entry] = (
      await upload(client, t.applicant, { data: form.key, field: 'soporte' }, [{ name: 'a.pdf', bytes: PDF }])
    ).body().data
    const [photo] = (
      await upload(client, t.applicant, { data: form.key, field: 'foto', foldertype: 'images' }, [
        { name: 'yo.png', bytes: PNG },
      ])
    ).body().data

    // A save that fails validation leaves the uploads staged.
    const invalid = await post(client, '/data/form/flows/process', t.applicant, {
      data: form.key,
      flow_values: JSON.stringify({ soporte: [entry], foto: photo }),
    })
    invalid.assertStatus(400)
    assert.equal((await uploadRow(entry.path)).status, 'staged')
    assert.equal(Number((await db.from('cases').count('* as n').first()).n), 0)

    const started = await post(client, '/data/form/flows/process', t.applicant, {
      data: form.key,
      flow_values: JSON.stringify({ nombre: 'Ana', soporte: [entry], foto: photo }),
    })
    started.assertStatus(200)
    const { id, key_process: key } = started.body().data
    for (const path of [entry.path, photo.path]) {
      const row = await uploadRow(path)
      assert.equal(row.status, 'promoted')
      assert.equal(Number(row.case_id), id)
      assert.isNotNull(row.promoted_at)
    }
    assert.deepEqual(JSON.parse((await db.from('cases').where('id', id).first()).values).soporte, [entry])

    // The approver (an administrator), the reviewer (a task on the case) and the starter read it.
    for (const who of [t.approver, t.reviewer, t.applicant]) {
      const res = await client.get(entry.path).header('token', who)
      res.assertStatus(200)
      assert.equal(res.header('content-type'), 'application/pdf')
    }
    const image = await client.get(photo.path).header('token', t.reviewer)
    image.assertStatus(200)
    assert.equal(image.header('content-type'), 'image/png')
    ;(await client.get(entry.path).header('token', t.outsider)).assertStatus(403)

    // A promoted file stays with its case: unlink keeps it.
    const kept = await post(client, '/data/form/upload/files/unlink', t.applicant, { path: entry.path })
    kept.assertStatus(200)
    assert.isFalse(kept.body().data.removed)
    assert.equal((await uploadRow(entry.path)).status, 'promoted')
    // The reviewer may not unlink the applicant's file either.
    ;(await post(client, '/data/form/upload/files/unlink', t.reviewer, { path: entry.path })).assertStatus(403)

    // The public consultation shows the file to a visitor holding the case's idflow.
    const visitor = await client.get(entry.path).qs({ id_flow: signId('consult', id) })
    visitor.assertStatus(200)
    ;(await client.get(entry.path).qs({ id_flow: signId('consult', id + 1) })).assertStatus(403)

    // Editing values (an administrator) promotes a new upload made in the edit context.
    const [added] = (
      await upload(client, t.approver, { key_process: key, field: 'soporte' }, [{ name: 'b.png', bytes: PNG }])
    ).body().data
    const edited = await post(client, '/data/form/flows/process/edit', t.approver, {
      key_process: key,
      flow_values: JSON.stringify({ soporte: [entry, added] }),
    })
    edited.assertStatus(200)
    assert.include(await uploadRow(added.path), { status: 'promoted' })
    assert.equal(Number((await uploadRow(added.path)).case_id), id)
  })

  test('a save may not attach someone else’s upload, and nothing is stored', async ({ client, assert }) => {
    const form = await publishDelivery()
    const t = await people(client, form.area.id)
    const [theirs] = (
      await upload(client, t.reviewer, { data: form.key, field: 'soporte' }, [{ name: 'a.pdf', bytes: PDF }])
    ).body().data
    const [mine] = (
      await upload(client, t.applicant, { data: form.key, field: 'soporte' }, [{ name: 'b.pdf', bytes: PDF }])
    ).body().data
    const [photo] = (
      await upload(client, t.applicant, { data: form.key, field: 'foto', foldertype: 'images' }, [
        { name: 'yo.png', bytes: PNG },
      ])
    ).body().data

    const attempts = [
      { soporte: [mine, theirs] },
      { soporte: [{ ...mine, path: '/data/files/00000000-0000-0000-0000-000000000000.pdf' }] },
      { soporte: [{ ...mine, path: 'files/2026/01/x.pdf' }] },
      // An image upload placed in another field.
      { soporte: [{ ...photo, ext: 'png' }] },
    ]
    for (const values of attempts) {
      const res = await post(client, '/data/form/flows/process', t.applicant, {
        data: form.key,
        flow_values: JSON.stringify({ nombre: 'Ana', ...values }),
      })
      res.assertStatus(400)
      assert.match(res.body().message, /no se puede adjuntar/)
    }
    assert.equal(Number((await db.from('cases').count('* as n').first()).n), 0, 'no case stored')
    assert.equal(Number((await db.from('activities').count('* as n').first()).n), 0)
    for (const entry of [theirs, mine, photo]) assert.equal((await uploadRow(entry.path)).status, 'staged')
  })

  test('an external assignee uploads through the task link; a rolled-back save promotes nothing', async ({
    client,
    assert,
  }) => {
    const form = await publishDelivery()
    const t = await people(client, form.area.id)
    const started = await post(client, '/data/form/flows/process', t.applicant, {
      data: form.key,
      flow_values: JSON.stringify({ nombre: 'Ana' }),
    })
    const { id, key_process: key } = started.body().data
    const review = await db.from('tasks').where('case_id', id).where('status', 'pending').first()
    const reviewContext = { key_process: key, token: taskToken(review.id) }
    const [byReviewer] = (
      await upload(client, t.reviewer, { ...reviewContext, field: 'soporte' }, [{ name: 'acta.pdf', bytes: PDF }])
    ).body().data

    // The next step's assignee comes from an empty field: the save fails inside its transaction.
    const failed = await post(client, '/data/form/asignar/process/info', t.reviewer, {
      ...reviewContext,
      flow_values: JSON.stringify({ soporte: [byReviewer] }),
    })
    failed.assertStatus(400)
    assert.equal((await uploadRow(byReviewer.path)).status, 'staged', 'the rollback promoted nothing')
    assert.equal((await db.from('tasks').where('id', review.id).first()).status, 'pending')

    const reviewed = await post(client, '/data/form/asignar/process/info', t.reviewer, {
      ...reviewContext,
      flow_values: JSON.stringify({ soporte: [byReviewer], correo_proveedor: 'prov@example.test' }),
    })
    reviewed.assertStatus(200)
    assert.equal((await uploadRow(byReviewer.path)).status, 'promoted')

    // The supplier has no account: the task link is the credential.
    const supplier = await db.from('tasks').where('case_id', id).where('status', 'pending').first()
    assert.equal(supplier.assignee_type, 'external')
    const link = { key_process: key, token: taskToken(supplier.id) }
    const [bySupplier] = (
      await upload(client, null, { ...link, field: 'soporte' }, [{ name: 'factura.pdf', bytes: PDF }])
    ).body().data
    assert.equal((await uploadRow(bySupplier.path)).owner_task_id, supplier.id)
    ;(await client.get(bySupplier.path).qs({ token: link.token })).assertStatus(200)
    ;(await client.get(bySupplier.path).header('token', t.reviewer)).assertStatus(403)
    ;(await client.get(byReviewer.path).qs({ token: link.token })).assertStatus(200)
    ;(await client.get(byReviewer.path).qs({ token: taskToken(review.id) })).assertStatus(403)
    const notTheirs = await post(client, '/data/form/upload/files/unlink', null, { ...link, path: byReviewer.path })
    notTheirs.assertStatus(403)

    const done = await post(client, '/data/form/asignar/process/info', null, {
      ...link,
      flow_values: JSON.stringify({ soporte: [byReviewer, bySupplier] }),
    })
    done.assertStatus(200)
    assert.isTrue(done.body().data.ended)
    assert.equal((await uploadRow(bySupplier.path)).status, 'promoted')
    ;(await client.get(bySupplier.path).header('token', t.reviewer)).assertStatus(200)
    // The case has ended: the link uploads no more.
    ;(await upload(client, null, { ...link, field: 'soporte' }, [{ name: 'x.pdf', bytes: PDF }])).assertStatus(409)
  })

  test('the maintenance job deletes abandoned staged uploads only', async ({ client, assert }) => {
    const form = await publishDelivery()
    const t = await people(client, form.area.id)
    const send = async (name: string) =>
      (await upload(client, t.applicant, { data: form.key, field: 'soporte' }, [{ name, bytes: PDF }])).body().data[0]
    const old = await send('viejo.pdf')
    const fresh = await send('nuevo.pdf')
    const kept = await send('guardado.pdf')
    await post(client, '/data/form/flows/process', t.applicant, {
      data: form.key,
      flow_values: JSON.stringify({ nombre: 'Ana', soporte: [kept] }),
    })
    const dayAgo = new Date(Date.now() - 25 * 3_600_000)
    await db.from('uploads').whereIn('path', [old.path, kept.path]).update({ created_at: dayAgo })
    const oldKey = (await uploadRow(old.path)).storage_key

    assert.deepEqual(await pruneUploadsJob.handle(), { deleted: 1 })
    assert.isNull(await uploadRow(old.path))
    assert.isFalse(onDisk(oldKey))
    assert.equal((await uploadRow(fresh.path)).status, 'staged')
    assert.equal((await uploadRow(kept.path)).status, 'promoted')
    assert.deepEqual(await pruneUploadsJob.handle(), { deleted: 0 }, 'a second run finds nothing')
  })
})
