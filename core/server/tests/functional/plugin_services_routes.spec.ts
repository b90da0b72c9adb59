import { createHash, randomUUID } from 'node:crypto'
import { createWriteStream, existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pipeline } from 'node:stream/promises'
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { translate } from '@tramita/i18n'
import Area from '#models/area'
import { dataSubdir, uploadTempDir } from '#lib/paths'
import { makeUser, resetAuthTables, tokenFor } from '#tests/helpers/auth'

type Client = Parameters<typeof tokenFor>[0]

const PDF = Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n')
/** A Windows program's header (MZ … PE), named as a PDF. */
const EXE = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(510)])

/** The test plugin's stored objects on the local disk. */
function storedFiles(): string[] {
  const root = join(dataSubdir('storage'), 'plugins', 'testkit')
  if (!existsSync(root)) return []
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => entry.name)
}

/** A binary answer's bytes as text (superagent buffers non-text types into the body). */
function bytesOf(response: { body(): unknown; text(): string }): string {
  const body = response.body()
  return Buffer.isBuffer(body) ? body.toString('latin1') : response.text()
}

async function fileRows(): Promise<number> {
  return Number((await db.from('testkit_files').count('* as n').first())?.n ?? 0)
}

async function signIn(client: Client, username: string, role: string) {
  const user = await makeUser({ username, role })
  return { user, token: await tokenFor(client, username) }
}

test.group('plugin routes (ctx.http.route): auth, answers, failures, uploads, files', (group) => {
  group.each.setup(async () => {
    await db.from('testkit_files').delete()
    await resetAuthTables()
  })

  test('each auth kind: public (with or without a session), signed-in, roles', async ({ client, assert }) => {
    const student = await signIn(client, 'ana', 'student')
    const supervisor = await signIn(client, 'sofia', 'supervisor')
    const superuser = await signIn(client, 'root', 'superuser')
    const area = await Area.create({ name: 'Archivo', color: '#123456' })
    await student.user.related('areas').attach([area.id])

    const anonymous = await client.get('/api/testkit/public')
    anonymous.assertStatus(200)
    anonymous.assertBody({ status: 'done', data: { who: null } })
    const known = await client.get('/api/testkit/public').header('token', student.token)
    known.assertBody({ status: 'done', data: { who: student.user.id } })

    const refused = await client.get('/api/testkit/me')
    refused.assertStatus(401)
    refused.assertBody({ status: 'fail', message: translate('es', 'error.unauthorized') })
    const me = await client.get('/api/testkit/me').header('token', student.token).header('accept-language', 'en')
    me.assertStatus(200)
    me.assertBody({
      status: 'done',
      data: {
        userId: student.user.id,
        roles: ['student'],
        roleIds: [(await db.from('roles').where('name', 'student').firstOrFail()).id],
        areaIds: [area.id],
        impersonatorId: null,
        language: 'en',
      },
    })

    const forbidden = await client.get('/api/testkit/supervise').header('token', student.token)
    forbidden.assertStatus(403)
    forbidden.assertBody({ status: 'fail', message: translate('es', 'auth.forbidden') })
    for (const token of [supervisor.token, superuser.token]) {
      const allowed = await client.get('/api/testkit/supervise').header('token', token)
      allowed.assertBody({ status: 'done', data: 'ok' })
    }
    assert.equal((await client.get('/api/testkit/supervise')).status(), 401)
  })

  test("a PluginFailure answers its status and the plugin's text in the caller's language; a crash says nothing", async ({
    client,
    assert,
  }) => {
    const { token } = await signIn(client, 'ana', 'student')
    const es = await client.post('/api/testkit/refuse').header('token', token).form({ name: 'Ana' })
    es.assertStatus(409)
    es.assertBody({ status: 'fail', message: 'No puedes hacer eso con Ana', name: 'Ana' })
    const zh = await client
      .post('/api/testkit/refuse')
      .header('token', token)
      .header('accept-language', 'zh-CN')
      .form({ name: 'Ana' })
    assert.equal(zh.body().message, '您不能对 Ana 这样做')

    const crash = await client.post('/api/testkit/crash').header('token', token)
    crash.assertStatus(500)
    crash.assertBody({ status: 'fail', message: translate('es', 'error.internal') })
    assert.notInclude(crash.text(), 'internal detail')
  })

  test('an upload over the route maxBytes is a 413 fail and stores nothing; a program is refused', async ({
    client,
    assert,
  }) => {
    const { token } = await signIn(client, 'ana', 'student')
    const objects = storedFiles()
    const over = await client
      .post('/api/testkit/files')
      .header('token', token)
      .file('file', Buffer.concat([PDF, Buffer.alloc(70 * 1024)]), { filename: 'grande.pdf' })
    over.assertStatus(413)
    over.assertBody({ status: 'fail', message: translate('es', 'error.too_large') })

    const program = await client
      .post('/api/testkit/files')
      .header('token', token)
      .file('file', EXE, { filename: 'factura.pdf' })
    program.assertStatus(400)
    program.assertBody({
      status: 'fail',
      message: translate('es', 'upload.content_blocked', { name: 'factura.pdf' }),
    })
    assert.equal(await fileRows(), 0)
    assert.deepEqual(storedFiles(), objects)
  })

  test('a body cut off at the limit half-way leaves no temporary file of the parts it had finished', async ({
    client,
    assert,
  }) => {
    const { token } = await signIn(client, 'ana', 'student')
    // Unique bytes, so the search below finds only this request's copy among other processes' files.
    const marker = Buffer.concat([PDF, Buffer.from(randomUUID())])
    const boundary = `b${randomUUID()}`
    const head = (name: string) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/pdf\r\n\r\n`
    // Chunked, without Content-Length: the limit is met while parsing, after the first file was written.
    const answer = await new Promise<{ status: number; body: string }>((done, fail) => {
      const request = httpRequest(
        {
          host: process.env.HOST,
          port: Number(process.env.PORT),
          path: '/api/testkit/files',
          method: 'POST',
          headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, token },
        },
        (response) => {
          let body = ''
          response.on('data', (chunk: Buffer) => (body += chunk.toString()))
          response.on('end', () => done({ status: response.statusCode ?? 0, body }))
        }
      )
      request.on('error', fail)
      request.write(head('uno.pdf'))
      request.write(marker)
      request.write(`\r\n${head('dos.pdf')}`)
      const piece = Buffer.alloc(16 * 1024, 1)
      let sent = 0
      const more = () => {
        while (sent < 40) {
          sent++
          if (!request.write(piece)) return void request.once('drain', more)
        }
        request.end(`\r\n--${boundary}--\r\n`)
      }
      more()
    })
    assert.equal(answer.status, 413)
    assert.deepEqual(JSON.parse(answer.body), { status: 'fail', message: translate('es', 'error.too_large') })
    // The temporary folder of uploads and the request folders in it the parser writes to.
    const folders = [
      uploadTempDir(),
      ...readdirSync(uploadTempDir(), { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => join(uploadTempDir(), entry.name)),
    ]
    // A request's folder may vanish while this reads it.
    const list = (folder: string) => {
      try {
        return readdirSync(folder, { withFileTypes: true })
      } catch {
        return []
      }
    }
    const leftovers = folders.flatMap((folder) =>
      list(folder)
        .map((entry) => join(folder, entry.name))
        .filter((path) => {
          const stat = statSync(path, { throwIfNoEntry: false })
          return stat?.isFile() && stat.size === marker.length && readFileSync(path).equals(marker)
        })
    )
    assert.deepEqual(leftovers, [])
    assert.equal(await fileRows(), 0)
  })

  test('a stored upload comes back whole, by HTTP range, with the stored-file headers', async ({ client, assert }) => {
    const { token } = await signIn(client, 'ana', 'student')
    const upload = await client
      .post('/api/testkit/files')
      .header('token', token)
      .file('file', PDF, { filename: '../../acta ñ.pdf' })
    upload.assertStatus(200)
    const [stored] = upload.body().data as { id: number; key: string; size: number; sha256: string; mime: string }[]
    assert.match(stored!.key, /^plugins\/testkit\/\d{4}\/\d{2}\/[0-9a-f-]{36}\.pdf$/)
    assert.deepInclude(stored!, {
      size: PDF.length,
      mime: 'application/pdf',
      sha256: createHash('sha256').update(PDF).digest('hex'),
    })
    assert.equal((await db.from('testkit_files').where('id', stored!.id).first()).name, 'acta ñ.pdf')

    const whole = await client.get(`/api/testkit/files/${stored!.id}`).header('token', token)
    whole.assertStatus(200)
    assert.equal(bytesOf(whole), PDF.toString('latin1'))
    assert.equal(whole.header('content-type'), 'application/pdf')
    assert.equal(whole.header('accept-ranges'), 'bytes')
    assert.equal(whole.header('x-content-type-options'), 'nosniff')
    assert.equal(whole.header('content-security-policy'), "frame-ancestors 'self'")
    assert.equal(
      whole.header('content-disposition'),
      `inline; filename="acta _.pdf"; filename*=UTF-8''${encodeURIComponent('acta ñ.pdf')}`
    )

    const part = await client
      .get(`/api/testkit/files/${stored!.id}`)
      .header('token', token)
      .header('range', 'bytes=1-3')
    part.assertStatus(206)
    assert.equal(bytesOf(part), 'PDF')
    assert.equal(part.header('content-range'), `bytes 1-3/${PDF.length}`)
    assert.equal(part.header('content-length'), '3')

    const tail = await client.get(`/api/testkit/files/${stored!.id}`).header('token', token).header('range', 'bytes=-6')
    tail.assertStatus(206)
    assert.equal(bytesOf(tail), '%%EOF\n')

    const outside = await client
      .get(`/api/testkit/files/${stored!.id}`)
      .header('token', token)
      .header('range', `bytes=${PDF.length}-`)
    outside.assertStatus(416)
    assert.equal(outside.header('content-range'), `bytes */${PDF.length}`)
  })

  test('a stream the plugin makes is sent as an attachment, sandboxed', async ({ client, assert }) => {
    const { token } = await signIn(client, 'ana', 'student')
    const made = await client.get('/api/testkit/made').header('token', token)
    made.assertStatus(200)
    assert.equal(made.text(), 'uno,dos')
    assert.equal(
      made.header('content-disposition'),
      `attachment; filename="lista _.csv"; filename*=UTF-8''${encodeURIComponent('lista ñ.csv')}`
    )
    assert.equal(made.header('content-security-policy'), "default-src 'none'; frame-ancestors 'self'; sandbox")
  })

  test('a rate-limited route answers 429 with Retry-After past its count', async ({ client, assert }) => {
    await db.from('rate_limits').delete()
    const answers = []
    for (let i = 0; i < 3; i++) answers.push(await client.post('/api/testkit/limited'))
    assert.deepEqual(
      answers.map((a) => a.status()),
      [200, 200, 429]
    )
    answers[2]!.assertBody({ status: 'fail', message: translate('es', 'auth.too_many_requests') })
    assert.isAbove(Number(answers[2]!.header('retry-after')), 0)
  })

  test('a spec path goes through the call contract: case, tunnelling and JSON fields', async ({ client }) => {
    const direct = await client.put('/data/testkit/echo').form({ case: 'PUT', x: 'uno', list: '[1,2]' })
    direct.assertBody({ status: 'done', data: { x: 'uno', list: [1, 2] } })
    const tunnelled = await client.post('/data/testkit/echo').form({ case: 'PUT', x: 'dos' })
    tunnelled.assertBody({ status: 'done', data: { x: 'dos', list: null } })
    const mismatch = await client.put('/data/testkit/echo').form({ case: 'DELETE' })
    mismatch.assertStatus(400)
    mismatch.assertBody({ status: 'fail', message: translate('es', 'error.case_mismatch', { value: 'DELETE' }) })
    const broken = await client.put('/data/testkit/echo').form({ case: 'PUT', list: '[1,' })
    broken.assertStatus(400)
    broken.assertBody({ status: 'fail', message: translate('es', 'engine.bad_json', { field: 'list' }) })
  })

  // Over the body parser's global limit (50 MB with the default UPLOAD_MAX_MB): only the route's maxBytes lets it in.
  test('a route allowing more than the global multipart limit takes a 60 MB upload', async ({ client, assert }) => {
    const { token } = await signIn(client, 'ana', 'student')
    const dir = await mkdtemp(join(tmpdir(), 'tramita-big-'))
    const path = join(dir, 'grande.bin')
    const chunk = Buffer.alloc(1024 * 1024, 7)
    await pipeline(
      (function* () {
        for (let i = 0; i < 60; i++) yield chunk
      })(),
      createWriteStream(path)
    )
    try {
      const response = await client.post('/api/testkit/big').header('token', token).file('file', path)
      response.assertStatus(200)
      const hash = createHash('sha256')
      for (let i = 0; i < 60; i++) hash.update(chunk)
      assert.deepInclude(response.body().data, { size: 60 * 1024 * 1024, sha256: hash.digest('hex') })
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})
