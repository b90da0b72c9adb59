import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import Area from '#models/area'
import { publishForm } from '#services/process/forms'
import { seedBase } from '#services/seed_service'
import { makeUser, resetAuthTables, tokenFor } from '#tests/helpers/auth'
import { resetProcessTables } from '#tests/helpers/process'

type Client = Parameters<typeof tokenFor>[0]
type Answer = Awaited<ReturnType<Client['get']>>

const PDF = Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n')
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64'
)

/** The policy's directives by name: `{ 'script-src': "'self' 'wasm-unsafe-eval'", sandbox: '' }`. */
function directives(answer: Answer): Record<string, string> {
  const policy = answer.header('content-security-policy') ?? ''
  return Object.fromEntries(
    policy
      .split(';')
      .map((part) => part.trim())
      .filter(Boolean)
      .map((part) => [part.split(' ')[0], part.split(' ').slice(1).join(' ')])
  )
}

/** What every answer carries, whoever serves it. */
function assertCommon(assert: { equal: (a: unknown, b: unknown, m?: string) => void }, answer: Answer) {
  assert.equal(answer.header('x-content-type-options'), 'nosniff')
  assert.equal(answer.header('referrer-policy'), 'same-origin')
  assert.equal(answer.header('permissions-policy'), 'camera=(self), microphone=(), geolocation=(), payment=(), usb=()')
  // The suite's APP_URL is http: no HSTS (a browser would pin https for a host that has none).
  assert.equal(answer.header('strict-transport-security'), undefined)
}

test.group('security headers', (group) => {
  group.each.setup(async () => {
    await db.from('uploads').delete()
    await resetProcessTables()
    await resetAuthTables()
  })

  test('the apps: a strict script policy; only the runtime’s /preview may be framed, by us', async ({
    client,
    assert,
  }) => {
    for (const path of ['/forms/new', '/designer/forms', '/preview']) {
      const page = await client.get(path)
      // npm test builds the web apps before the suites run.
      page.assertStatus(200)
      assert.include(page.header('content-type'), 'text/html', path)
      assertCommon(assert, page)
      const csp = directives(page)
      assert.equal(csp['script-src'], "'self' 'wasm-unsafe-eval'", path)
      assert.equal(csp['object-src'], "'none'")
      assert.equal(csp['base-uri'], "'none'")
      for (const sources of Object.values(csp)) {
        assert.notInclude(sources.split(' '), "'unsafe-eval'", 'only wasm may be compiled')
      }
      assert.notInclude(csp['script-src'].split(' '), "'unsafe-inline'", 'no inline script')
      const preview = path === '/preview'
      assert.equal(csp['frame-ancestors'], preview ? "'self'" : "'none'", path)
      assert.equal(page.header('x-frame-options'), preview ? 'SAMEORIGIN' : 'DENY', path)
    }
  })

  test('JSON answers: locked down and never stored, a refused one too', async ({ client, assert }) => {
    for (const answer of [await client.get('/data/config/infocompany'), await client.get('/inside/session')]) {
      assertCommon(assert, answer)
      assert.include(answer.header('content-type'), 'application/json')
      assert.deepEqual(directives(answer), {
        'default-src': "'none'",
        'frame-ancestors': "'none'",
        'base-uri': "'none'",
        'form-action': "'none'",
      })
      assert.equal(answer.header('x-frame-options'), 'DENY')
      assert.equal(answer.header('cache-control'), 'no-store')
    }
    ;(await client.get('/inside/session')).assertStatus(401)
  })

  test('stored files: sandboxed whatever they claim to be; a PDF may still open in the browser’s viewer', async ({
    client,
    assert,
  }) => {
    await seedBase()
    const area = (await Area.findBy('name', 'Archivo')) ?? (await Area.create({ name: 'Archivo', color: '#336699' }))
    const form = await publishForm({
      name: 'Anexos',
      userId: null,
      jsonconfig: {
        form: { pages: [{ name: 'Datos', layout: [['soporte']] }] },
        fields: [{ field_name: 'soporte', type: 'file', data: { label: { value: 'Soporte' }, ext: ['pdf', 'png'] } }],
      },
      process: {
        label: 'Anexos',
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
            next: { step: null },
          },
        ],
      },
    })
    await makeUser({ username: 'solicitante', role: 'student' })
    const token = await tokenFor(client, 'solicitante')
    const uploaded = await client
      .post('/data/form/upload/files')
      .header('token', token)
      .fields({ case: 'POST', new_version: 'false', foldertype: 'files', data: form.key, field: 'soporte' })
      .file('file', PNG, { filename: 'foto.png' })
      .file('file', PDF, { filename: 'acta.pdf' })
    uploaded.assertStatus(200)
    const [png, pdf] = uploaded.body().data as { path: string }[]

    const image = await client.get(png.path).header('token', token)
    image.assertStatus(200)
    assertCommon(assert, image)
    assert.deepEqual(directives(image), { 'default-src': "'none'", 'frame-ancestors': "'self'", sandbox: '' })
    assert.equal(image.header('x-frame-options'), 'SAMEORIGIN')
    assert.equal(image.header('cache-control'), 'private, no-cache')

    const document = await client.get(pdf.path).header('token', token)
    document.assertStatus(200)
    assertCommon(assert, document)
    assert.deepEqual(directives(document), { 'frame-ancestors': "'self'" })
    assert.equal(document.header('content-type'), 'application/pdf')
  })
})
