import { test } from '@japa/runner'
import type { ApiResponse } from '@japa/api-client'
import type { Assert } from '@japa/assert'
import db from '@adonisjs/lucid/services/db'
import { translate } from '@tramita/i18n'
import { DECODE_LIMITS } from '@tramita/plugin-api/pdf-limits'
import { PDFDocument } from 'pdf-lib'
import PizZip from 'pizzip'
import Area from '#models/area'
import { CREATE_DOC_PER_MINUTE, ID_CARD_PER_MINUTE } from '#controllers/generated_files_controller'
import { fillDocx } from '#services/generated_files/word'
import { publishForm } from '#services/process/forms'
import { taskToken } from '#services/process/engine'
import { seedBase } from '#services/seed_service'
import { makeUser, resetAuthTables, tokenFor } from '#tests/helpers/auth'
import { paddedPdf } from '#tests/helpers/padded_pdf'
import { blankPng } from '#tests/helpers/blank_png'
import { MAX_FACE_PIXELS } from '#services/generated_files/idcard'
import { areaReviewProcess, resetProcessTables } from '#tests/helpers/process'

type Client = Parameters<typeof tokenFor>[0]

const BASE = () => `http://${process.env.HOST}:${process.env.PORT}`
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64'
)
const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64')

/** A one-page PDF (a scanner's face), made with pdf-lib. */
async function onePagePdf(): Promise<Buffer> {
  const doc = await PDFDocument.create()
  doc.addPage([243, 153]).drawRectangle({ x: 10, y: 10, width: 100, height: 50 })
  return Buffer.from(await doc.save())
}

/** The smallest Word document LibreOffice opens: one paragraph with `text`. */
function docx(text: string): Buffer {
  const zip = new PizZip()
  zip.file(
    '[Content_Types].xml',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>'
  )
  zip.file(
    '_rels/.rels',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>'
  )
  zip.file(
    'word/document.xml',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t xml:space="preserve">${text}</w:t></w:r></w:p></w:body></w:document>`
  )
  return zip.generate({ type: 'nodebuffer' })
}

/** A certificate request: the applicant starts it, an area fills the review and issues the documents. */
async function publishCertificate() {
  await seedBase()
  const area = (await Area.findBy('name', 'Registro')) ?? (await Area.create({ name: 'Registro', color: '#336699' }))
  const published = await publishForm({
    name: 'Certificados',
    userId: null,
    jsonconfig: {
      form: { pages: [{ name: 'Datos', layout: [['nombre', 'monto'], ['cedula'], ['plantilla']] }] },
      fields: [
        { field_name: 'nombre', type: 'text', data: { label: { value: 'Nombre' } } },
        { field_name: 'monto', type: 'number', data: { label: { value: 'Monto' } } },
        { field_name: 'cedula', type: 'file', data: { label: { value: 'Cédula' }, ext: ['pdf'], idcard: true } },
        { field_name: 'plantilla', type: 'file', data: { label: { value: 'Plantilla' }, ext: ['docx', 'pdf'] } },
      ],
      documents: {
        certificado: {
          info: { title: 'Certificado de ${nombre} (${CODE_PROCESS})' },
          content: [{ text: 'Certificado', fontSize: 18 }, { text: 'Se certifica que ${nombre} pagó ${monto}.' }],
        },
        // Lays out only with a font this server does not have: pdfmake refuses it when rendering.
        roto: { content: 'x', defaultStyle: { font: 'Inexistente' } },
      },
    },
    process: areaReviewProcess('Certificados', area.id),
  })
  return { ...published, area }
}

test.group('generated documents and the ID card', (group) => {
  group.each.setup(async () => {
    await db.from('uploads').delete()
    await resetProcessTables()
    await resetAuthTables()
  })

  async function people(client: Client, areaId: number) {
    await makeUser({ username: 'solicitante', role: 'student' })
    const reviewer = await makeUser({ username: 'registradora', role: 'teacher' })
    await reviewer.related('areas').attach([areaId])
    await makeUser({ username: 'ajeno', role: 'teacher' })
    return {
      applicant: await tokenFor(client, 'solicitante'),
      reviewer: await tokenFor(client, 'registradora'),
      outsider: await tokenFor(client, 'ajeno'),
    }
  }

  const endpoint = (name: string) => `/inside/forms/create/search_endpoint/${name}`

  function post(
    client: Client,
    path: string,
    token: string | null,
    fields: Record<string, string>,
    files: Record<string, { bytes: Buffer; name: string }> = {}
  ) {
    let request = client.post(path)
    if (token) request = request.header('token', token)
    for (const [name, value] of Object.entries({ case: 'POST', ...fields })) request = request.field(name, value)
    for (const [name, file] of Object.entries(files)) request = request.file(name, file.bytes, { filename: file.name })
    return request
  }

  /** The stored bytes, read back through GET /data/files/* as the given user. */
  async function download(path: string, token: string): Promise<Buffer> {
    const response = await fetch(BASE() + path, { headers: { token } })
    if (!response.ok) throw new Error(`GET ${path}: ${response.status}`)
    return Buffer.from(await response.arrayBuffer())
  }

  /** Starts a case as the applicant; its pending review task's token. */
  async function started(client: Client, formKey: string, token: string) {
    const res = await post(client, '/data/form/flows/process', token, {
      data: formKey,
      flow_values: JSON.stringify({ nombre: 'Ana' }),
    })
    res.assertStatus(200)
    const { id, key_process: key } = res.body().data
    const task = await db.from('tasks').where('case_id', id).where('status', 'pending').first()
    return { id: Number(id), key: key as string, task: taskToken(task.id) }
  }

  test('create_doc renders the template with the values and attaches the PDF to the case', async ({
    client,
    assert,
  }) => {
    const form = await publishCertificate()
    const t = await people(client, form.area.id)
    const kase = await started(client, form.key, t.applicant)
    const code = (await db.from('cases').where('id', kase.id).first()).code

    const res = await post(client, endpoint('create_doc'), t.reviewer, {
      data: form.key,
      key_process: kase.key,
      token: kase.task,
      template: 'certificado',
      file_name: 'Certificado Ana',
      values: JSON.stringify({ nombre: 'Ana María', monto: 1500 }),
    })
    res.assertStatus(200)
    assert.equal(res.body().status, 'done')
    const { path, real_name } = res.body().data
    assert.match(path, /^\/data\/files\/[0-9a-f-]{36}\.pdf$/)
    assert.equal(real_name, 'Certificado Ana.pdf')
    assert.equal(res.body().data.message, 'Documento subido correctamente')

    const row = await db.from('uploads').where('path', path).first()
    assert.include(row, { status: 'promoted', foldertype: 'documents', field: '', mime: 'application/pdf' })
    assert.equal(Number(row.case_id), kase.id)

    // The case's people read it; the placeholders were filled (the title carries two of them).
    const pdf = await PDFDocument.load(await download(path, t.applicant))
    assert.equal(pdf.getPageCount(), 1)
    assert.equal(pdf.getTitle(), `Certificado de Ana María (${code})`)
    const outsiderRead = await client.get(path).header('token', t.outsider)
    outsiderRead.assertStatus(403)
    outsiderRead.assertBody({ status: 'fail', message: translate('es', 'upload.not_allowed') })

    // The form's doc tab: info/user/token answers the case's newest document.
    const info = await post(client, '/data/form/info/user/token', t.applicant, { type: 'see', key_process: kase.key })
    info.assertStatus(200)
    assert.equal(info.body().data.doc_path, path)
  })

  test('create_doc on a new form: the caller’s file until a case exists', async ({ client, assert }) => {
    const form = await publishCertificate()
    const t = await people(client, form.area.id)
    const res = await post(client, endpoint('create_doc'), t.applicant, {
      data: form.key,
      template: 'certificado',
      values: JSON.stringify({ nombre: 'Luis' }),
    })
    res.assertStatus(200)
    const row = await db.from('uploads').where('path', res.body().data.path).first()
    assert.include(row, { status: 'staged', real_name: 'certificado.pdf' })
    assert.isNull(row.case_id)
    assert.equal((await PDFDocument.load(await download(row.path, t.applicant))).getTitle(), 'Certificado de Luis ()')
  })

  test('create_doc refuses bad input with a message, never a 500', async ({ client, assert }) => {
    const form = await publishCertificate()
    const t = await people(client, form.area.id)
    const kase = await started(client, form.key, t.applicant)
    const base = { data: form.key, key_process: kase.key, token: kase.task, template: 'certificado', values: '{}' }
    const cases: [string, string | null, Record<string, string>, number, RegExp][] = [
      ['unknown template', t.reviewer, { template: 'nada' }, 404, /no tiene la plantilla de documento «nada»/],
      ['inherited name', t.reviewer, { template: 'constructor' }, 404, /plantilla/],
      ['values not JSON', t.reviewer, { values: '{nombre:' }, 400, /values no es un JSON válido/],
      ['values a list', t.reviewer, { values: '[1,2]' }, 400, /objeto JSON/],
      ['no such case', t.reviewer, { key_process: `${kase.id + 99}.forgedforgedforged` }, 404, /no existe/],
      ['not the assignee', t.outsider, {}, 403, /no está asignada/],
      ['no session', null, {}, 401, /.+/],
      ['a template pdfmake refuses', t.reviewer, { template: 'roto' }, 422, /No se pudo generar el documento «roto»/],
    ]
    for (const [name, token, fields, status, text] of cases) {
      const res = await post(client, endpoint('create_doc'), token, { ...base, ...fields })
      assert.equal(res.status(), status, name)
      assert.equal(res.body().status, 'fail', name)
      assert.match(res.body().message, text, name)
    }
    assert.equal(Number((await db.from('uploads').count('* as n').first()).n), 0, 'nothing stored')
  })

  test('dev_word_to_pdf fills a Word template and converts it with LibreOffice', async ({ client, assert }) => {
    const form = await publishCertificate()
    const t = await people(client, form.area.id)
    const uploaded = await post(
      client,
      '/data/form/upload/files',
      t.applicant,
      { data: form.key, field: 'plantilla', foldertype: 'files', new_version: 'false' },
      { file: { bytes: docx('Hola {nombre}, su saldo es {saldo}.'), name: 'carta.docx' } }
    )
    uploaded.assertStatus(200)
    const pathdoc = uploaded.body().data[0].path

    const res = await post(client, endpoint('dev_word_to_pdf'), t.applicant, {
      pathdoc,
      datosvalues: JSON.stringify({ nombre: 'Ana', saldo: '10 COP' }),
    })
    assert.equal(res.body().status, 'done', res.body().message)
    const { ruta, real_name } = res.body().data
    assert.match(ruta, /^\/data\/files\/[0-9a-f-]{36}\.pdf$/)
    assert.equal(real_name, 'carta.pdf')
    const bytes = await download(ruta, t.applicant)
    assert.equal(bytes.subarray(0, 5).toString(), '%PDF-')
    assert.equal((await PDFDocument.load(bytes)).getPageCount(), 1)
    const outsider = await client.get(ruta).header('token', t.outsider)
    outsider.assertStatus(403)
    outsider.assertBody({ status: 'fail', message: translate('es', 'upload.not_allowed') })
    // What LibreOffice converted: the tags replaced by the values (missing ones empty).
    const filled = new PizZip(fillDocx(docx('Hola {nombre}, {nada}.'), { nombre: 'Ana' }))
    assert.include(filled.file('word/document.xml')!.asText(), '>Hola Ana, .<')
  })

  test('dev_word_to_pdf refuses bad input, and says so when LibreOffice is missing', async ({ client, assert }) => {
    const form = await publishCertificate()
    const t = await people(client, form.area.id)
    const up = async (bytes: Buffer, name: string) => {
      const res = await post(
        client,
        '/data/form/upload/files',
        t.applicant,
        { data: form.key, field: 'plantilla', foldertype: 'files', new_version: 'false' },
        { file: { bytes, name } }
      )
      res.assertStatus(200)
      return res.body().data[0].path as string
    }
    const good = await up(docx('Hola {nombre}'), 'carta.docx')
    const broken = await up(docx('Hola {nombre'), 'rota.docx')
    const pdf = await up(await onePagePdf(), 'cara.pdf')
    const cases: [string, string | null, Record<string, string>, number, RegExp][] = [
      ['not a path', t.applicant, { pathdoc: '../../etc/passwd' }, 400, /ruta del archivo no es válida/],
      ['someone else’s file', t.outsider, { pathdoc: good }, 403, /No tienes permiso/],
      ['no session', null, { pathdoc: good }, 401, /.+/],
      ['values not JSON', t.applicant, { pathdoc: good, datosvalues: '{' }, 400, /datosvalues no es un JSON/],
      ['a PDF is no Word template', t.applicant, { pathdoc: pdf }, 400, /no es una plantilla de Word/],
      ['an unclosed tag', t.applicant, { pathdoc: broken }, 422, /plantilla de Word tiene un error/],
    ]
    for (const [name, token, fields, status, text] of cases) {
      const res = await post(client, endpoint('dev_word_to_pdf'), token, fields)
      assert.equal(res.status(), status, name)
      assert.equal(res.body().status, 'fail', name)
      assert.match(res.body().message, text, name)
    }
    const before = process.env.SOFFICE_PATH
    process.env.SOFFICE_PATH = '/nonexistent/soffice'
    try {
      const res = await post(client, endpoint('dev_word_to_pdf'), t.applicant, { pathdoc: good })
      assert.equal(res.body().status, 'fail')
      assert.match(res.body().message, /LibreOffice no está instalado/)
    } finally {
      if (before === undefined) delete process.env.SOFFICE_PATH
      else process.env.SOFFICE_PATH = before
    }
  })

  test('cardim_preview stores each face; cardim_full joins them into one 2-page PDF the save attaches', async ({
    client,
    assert,
  }) => {
    const form = await publishCertificate()
    const t = await people(client, form.area.id)
    const context = { data: form.key, field: 'cedula' }
    const front = await post(
      client,
      endpoint('cardim_preview'),
      t.applicant,
      { ...context, ampliar: 'true' },
      {
        pdf_one: { bytes: PNG, name: 'frente.png' },
      }
    )
    assert.equal(front.body().status, 'done', front.body().message)
    assert.include(front.body().data, { ext: 'png', width: 128.4, height: 80.97 })
    const back = await post(
      client,
      endpoint('cardim_preview'),
      t.applicant,
      { ...context, ampliar: 'false' },
      {
        pdf_one: { bytes: await onePagePdf(), name: 'reverso.pdf' },
      }
    )
    assert.include(back.body().data, { ext: 'pdf', width: 85.6, height: 53.98 })

    const full = await post(client, endpoint('cardim_full'), t.applicant, {
      ...context,
      pdf_one: front.body().data.path,
      pdf_two: back.body().data.path,
      ampliar: 'true',
    })
    assert.equal(full.body().status, 'done', full.body().message)
    const entry = full.body().data
    assert.deepEqual(Object.keys(entry).sort(), ['ext', 'ip', 'path', 'real_name', 'status'])
    assert.include(entry, { ext: 'pdf', real_name: 'cedula.pdf', status: 'good' })
    const pdf = await PDFDocument.load(await download(entry.path, t.applicant))
    assert.equal(pdf.getPageCount(), 2)

    // The dialog puts the entry in the field; the save makes it the case's.
    const saved = await post(client, '/data/form/flows/process', t.applicant, {
      data: form.key,
      flow_values: JSON.stringify({ nombre: 'Ana', cedula: [entry] }),
    })
    saved.assertStatus(200)
    const row = await db.from('uploads').where('path', entry.path).first()
    assert.include(row, { status: 'promoted', field: 'cedula' })
    assert.equal(Number(row.case_id), Number(saved.body().data.id))
  })

  test('cardim_* refuse bad input with a message', async ({ client, assert }) => {
    const form = await publishCertificate()
    const t = await people(client, form.area.id)
    const face = { pdf_one: { bytes: PNG, name: 'frente.png' } }
    const preview = (token: string | null, fields: Record<string, string>, files = face) =>
      post(client, endpoint('cardim_preview'), token, { data: form.key, ...fields }, files)
    const mine = (await preview(t.applicant, { field: 'cedula' })).body().data.path
    const theirs = (await preview(t.reviewer, { field: 'cedula' })).body().data.path

    const refusals: [string, Promise<{ status(): number; body(): any }>, number, RegExp][] = [
      ['not a file field', preview(t.applicant, { field: 'nombre' }), 400, /no es un campo de archivo que acepte PDF/],
      ['a field without PDF', preview(t.applicant, { field: 'nada' }), 400, /«nada»/],
      ['no face', preview(t.applicant, { field: 'cedula' }, {} as typeof face), 400, /No se recibió ningún archivo/],
      [
        'a GIF face',
        preview(t.applicant, { field: 'cedula' }, { pdf_one: { bytes: GIF, name: 'cara.gif' } }),
        400,
        /Solo se permiten las extensiones: png, jpg, jpeg, pdf/,
      ],
      ['no session', preview(null, { field: 'cedula' }), 401, /.+/],
      [
        'someone else’s face',
        post(client, endpoint('cardim_full'), t.applicant, {
          data: form.key,
          field: 'cedula',
          pdf_one: mine,
          pdf_two: theirs,
        }),
        404,
        /Falta la cara pdf_two/,
      ],
      [
        'a missing face',
        post(client, endpoint('cardim_full'), t.applicant, { data: form.key, field: 'cedula', pdf_one: mine }),
        404,
        /Falta la cara pdf_two/,
      ],
      [
        'ampliar not a boolean',
        post(client, endpoint('cardim_full'), t.applicant, {
          data: form.key,
          field: 'cedula',
          pdf_one: mine,
          pdf_two: mine,
          ampliar: 'quizá',
        }),
        400,
        /ampliar/,
      ],
    ]
    for (const [name, request, status, text] of refusals) {
      const res = await request
      assert.equal(res.status(), status, name)
      assert.equal(res.body().status, 'fail', name)
      assert.match(res.body().message, text, name)
    }
  })

  test('cardim_full refuses a face that decodes past its limits (padded PDFs, a PNG of too many pixels); the same face unpadded joins', async ({
    client,
    assert,
  }) => {
    const form = await publishCertificate()
    const t = await people(client, form.area.id)
    const context = { data: form.key, field: 'cedula' }
    const face = async (bytes: Uint8Array, name = 'cara.pdf') => {
      const res = await post(client, endpoint('cardim_preview'), t.applicant, context, {
        pdf_one: { bytes: Buffer.from(bytes), name },
      })
      assert.equal(res.body().status, 'done', res.body().message)
      return res.body().data.path as string
    }
    const full = async (one: Uint8Array, name?: string) =>
      post(client, endpoint('cardim_full'), t.applicant, {
        ...context,
        pdf_one: await face(one, name),
        pdf_two: await face(paddedPdf(0)),
      })
    const assertRefused = (refused: ApiResponse, what: string) => {
      assert.equal(refused.status(), 422, what)
      assert.deepEqual(refused.body(), { status: 'fail', message: translate('es', 'scan_IDcard_error') })
    }
    // Under 200 KB on disk, 80 MB decoded, where the upload's check does not inflate: the page's
    // content (inflated when the face is drawn) and a hex-encoded object stream. Stored, not joined.
    const pad = DECODE_LIMITS.streamBytes + 16 * 1024 * 1024
    for (const options of [{ padded: 'content' as const }, { hex: true }]) {
      const bomb = paddedPdf(pad, options)
      assert.isBelow(bomb.length, 200 * 1024)
      assertRefused(await full(bomb), JSON.stringify(options))
    }
    // 7000 × 7000: under the upload's 50 MP, about 200 KB, and 800 MB of memory once pdf-lib decoded it.
    assert.isAbove(7000 * 7000, MAX_FACE_PIXELS)
    assertRefused(await full(blankPng(7000, 7000), 'frente.png'), 'a 49 MP PNG face')
    const joined = await full(paddedPdf(1024, { padded: 'content' }))
    assert.equal(joined.body().status, 'done', joined.body().message)
  }).timeout(90_000) // four joins, each decoding up to 64 MB in a worker: seconds, more on a loaded machine

  const uploadCount = async () => Number((await db.from('uploads').count('* as n').first()).n)

  /** A refusal for the caller's rate: 429, the reason, when to retry. */
  function assertRateRefused(assert: Assert, res: ApiResponse) {
    assert.equal(res.status(), 429)
    assert.deepEqual(res.body(), { status: 'fail', message: translate('es', 'auth.too_many_requests') })
    assert.isAbove(Number(res.header('retry-after')), 0)
  }

  test('create_doc answers 429 past its rate per caller and renders nothing', async ({ client, assert }) => {
    const form = await publishCertificate()
    const t = await people(client, form.area.id)
    const kase = await started(client, form.key, t.applicant)
    const call = (token: string, fields: Record<string, string>) =>
      post(client, endpoint('create_doc'), token, { template: 'certificado', values: '{}', ...fields })
    for (let i = 0; i < CREATE_DOC_PER_MINUTE; i++) {
      const res = await call(t.applicant, { data: form.key, template: 'nada' })
      assert.equal(res.status(), 404, `call ${i + 1} is only refused for its unknown template`)
    }
    assertRateRefused(assert, await call(t.applicant, { data: form.key }))
    assert.equal(await uploadCount(), 0, 'nothing stored')
    // Another caller has their own count.
    const reviewer = await call(t.reviewer, { data: form.key, key_process: kase.key, token: kase.task })
    assert.equal(reviewer.body().status, 'done', reviewer.body().message)
  })

  test('cardim_preview answers 429 past its rate and stores no face', async ({ client, assert }) => {
    const form = await publishCertificate()
    const t = await people(client, form.area.id)
    const preview = (fieldName: string) =>
      post(
        client,
        endpoint('cardim_preview'),
        t.applicant,
        { data: form.key, field: fieldName },
        { pdf_one: { bytes: PNG, name: 'frente.png' } }
      )
    for (let i = 0; i < ID_CARD_PER_MINUTE; i++) {
      assert.equal((await preview('nada')).status(), 400, `call ${i + 1} is only refused for its field`)
    }
    assertRateRefused(assert, await preview('cedula'))
    assert.equal(await uploadCount(), 0, 'nothing stored')
  })

  test('cardim_full answers 429 past its rate and joins nothing', async ({ client, assert }) => {
    const form = await publishCertificate()
    const t = await people(client, form.area.id)
    const context = { data: form.key, field: 'cedula' }
    const faces: string[] = []
    for (const name of ['frente.png', 'reverso.png']) {
      const res = await post(client, endpoint('cardim_preview'), t.applicant, context, {
        pdf_one: { bytes: PNG, name },
      })
      assert.equal(res.body().status, 'done', res.body().message)
      faces.push(res.body().data.path)
    }
    const full = (fields: Record<string, string>) => post(client, endpoint('cardim_full'), t.applicant, fields)
    for (let i = 0; i < ID_CARD_PER_MINUTE; i++) {
      const res = await full({ ...context, pdf_one: faces[0]! })
      assert.equal(res.status(), 404, `call ${i + 1} is only refused for its missing face`)
    }
    assertRateRefused(assert, await full({ ...context, pdf_one: faces[0]!, pdf_two: faces[1]! }))
    assert.equal(await uploadCount(), 2, 'only the two faces are stored')
    assert.isNull(await db.from('uploads').where('ext', 'pdf').first(), 'no card PDF')
  })
})
