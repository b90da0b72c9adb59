/**
 * Malformed requests for every operation of the OpenAPI document, drawn with fast-check: per field,
 * left out, plausible, or wrong (wrong types, huge and unicode strings, negative and huge numbers, bad
 * ids, broken or deep JSON text, injection-looking text), plus extra fields, a wrong `case`, bad
 * path ids, and the body sent as JSON, urlencoded, multipart, broken JSON, under a wrong content type,
 * or over the server's size limits.
 */
import fc from 'fast-check'

/** Lengths past common column sizes (varchar 100/191/200/255/500) and past the field limits. */
const LONG = [101, 192, 201, 256, 501, 1_000, 1_001, 10_000, 70_000, 300_000]
/** Larger than the JSON and form body limit (1 MB). */
export const OVERSIZED_CHARS = 1_200_000

const badId = fc.constantFrom(
  '0',
  '-1',
  '-0',
  '1.5',
  '1e3',
  '0x10',
  '9007199254740993',
  '99999999999999999999',
  '2147483648',
  '999999',
  'abc',
  ' 1',
  '1 ',
  '%00',
  '%2e%2e',
  '..',
  '١٢',
  'null',
  'undefined',
  '[]',
  '{}',
  'NaN',
  'Infinity',
  'ñ',
  '💥',
  'a'.repeat(300)
)

const badJsonText = fc.constantFrom(
  '{',
  '[1,',
  '{"a":',
  '"x',
  'nul',
  '{}',
  '[]',
  'null',
  'true',
  '0',
  '"text"',
  '{"__proto__":{"x":1}}',
  '{"constructor":{"prototype":{"x":1}}}',
  `${'['.repeat(3000)}${']'.repeat(3000)}`,
  `${'{"a":'.repeat(500)}1${'}'.repeat(500)}`,
  '[' + '1,'.repeat(20000) + '1]',
  '\u0000',
  '\uD800'
)

const nastyText = fc.constantFrom(
  "' OR 1=1 --",
  '"; DROP TABLE users; --',
  '../../../../etc/passwd',
  '/data/files/../../x',
  '<script>x</script>',
  '${7*7}',
  '{{7*7}}',
  '\u0000',
  '\r\n\r\nX: y',
  '\uFEFF',
  '\uD83D',
  'ｆｕｌｌ',
  'é'.normalize('NFD'),
  'true',
  '1',
  '/data/files/00000000-0000-0000-0000-000000000000.pdf',
  'https://127.0.0.1:1/x',
  'javascript:alert(1)'
)

const wrongValue = fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom('', ' ', '\t') },
  { weight: 3, arbitrary: fc.string({ maxLength: 24 }) },
  { weight: 3, arbitrary: fc.string({ unit: 'grapheme', maxLength: 24 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 16 }) },
  { weight: 2, arbitrary: fc.constantFrom(...LONG).map((n) => '😀ä'.repeat(Math.ceil(n / 2)).slice(0, n)) },
  { weight: 3, arbitrary: fc.integer({ min: -(2 ** 31), max: 2 ** 31 }) },
  { weight: 2, arbitrary: fc.constantFrom(-1, 0, 2 ** 53, -(2 ** 53), 1e308, -1e308, 0.5, 2 ** 31) },
  { weight: 1, arbitrary: fc.double() },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 2, arbitrary: fc.array(fc.oneof(fc.string({ maxLength: 8 }), fc.integer()), { maxLength: 4 }) },
  { weight: 2, arbitrary: fc.dictionary(fc.string({ maxLength: 6 }), fc.string({ maxLength: 8 }), { maxKeys: 3 }) },
  { weight: 3, arbitrary: badJsonText },
  { weight: 3, arbitrary: badId },
  { weight: 3, arbitrary: nastyText }
)

/** A value of about the right shape, to get past the first checks. */
function plausible(schema = {}) {
  if (Array.isArray(schema.enum) && schema.enum.length) return fc.constantFrom(...schema.enum)
  const types = [schema.type].flat().filter(Boolean)
  if (schema.contentMediaType === 'application/json') return fc.constantFrom('{}', '[]', '{"a":1}', '[1,2]')
  if (schema.pattern === '^\\d{1,10}$' || types.includes('integer') || types.includes('number')) {
    return fc.integer({ min: 1, max: 5 }).map(String)
  }
  if (types.includes('array')) return fc.array(fc.integer({ min: 1, max: 5 }), { maxLength: 3 })
  if (types.includes('boolean')) return fc.boolean()
  const max = Math.min(schema.maxLength ?? 30, 30)
  return fc.string({ minLength: Math.min(schema.minLength ?? 0, max), maxLength: max })
}

/** Real values the server answered (known.mjs): form keys, case keys, task tokens, ids, names. */
function realValue(known) {
  return known.length ? fc.constantFrom(...known) : fc.constant('1')
}

/** JSON text of an object keyed by real names (a form's field names) holding wrong values. */
function realObject(known) {
  return fc
    .dictionary(realValue(known), fc.oneof(wrongValue, realValue(known)), { minKeys: 1, maxKeys: 6 })
    .map((o) => JSON.stringify(o))
}

function fieldValue(schema, known) {
  const json = schema.contentMediaType === 'application/json'
  return fc.oneof(
    { weight: 2, arbitrary: plausible(schema) },
    { weight: 2, arbitrary: realValue(known) },
    { weight: json ? 3 : 0, arbitrary: realObject(known) },
    { weight: 5, arbitrary: wrongValue }
  )
}

/** Body fields: each described one left out, plausible or wrong; a few extra ones. */
function fieldsFor(properties, known) {
  const entries = Object.entries(properties).filter(([, s]) => s.format !== 'binary' && s.items?.format !== 'binary')
  const described = fc.tuple(
    ...entries.map(([name, schema]) =>
      fc
        .oneof({ weight: 1, arbitrary: fc.constant(undefined) }, { weight: 4, arbitrary: fieldValue(schema, known) })
        .map((v) => [name, v])
    )
  )
  const extra = fc.array(
    fc.tuple(
      fc.oneof(fc.string({ maxLength: 10 }), fc.constantFrom('__proto__', 'constructor', 'a[b]', 'case', 'id')),
      wrongValue
    ),
    { maxLength: 2 }
  )
  return fc.tuple(described, extra).map(([d, e]) => [...d.filter(([, v]) => v !== undefined), ...e])
}

const fileArb = fc.record({
  name: fc.constantFrom(
    'a.pdf',
    'foto.png',
    '../../etc/passwd',
    'x.exe',
    'doc.docx',
    'ñandú.jpg',
    '',
    '.htaccess',
    'a'.repeat(300) + '.pdf',
    'x.pdf\u0000.exe'
  ),
  type: fc.constantFrom('application/pdf', 'image/png', 'text/html', 'application/octet-stream', ''),
  bytes: fc.oneof(
    { weight: 6, arbitrary: fc.uint8Array({ maxLength: 64 }) },
    { weight: 2, arbitrary: fc.constant(new TextEncoder().encode('%PDF-1.4\n%garbage')) },
    { weight: 1, arbitrary: fc.constant(new Uint8Array(0)) },
    // Past UPLOAD_MAX_MB (the fuzz server runs with 1 MB).
    { weight: 1, arbitrary: fc.constant(new Uint8Array(1024 * 1024 + 10)) }
  ),
})

const encodingArb = fc.constantFrom(
  ...['multipart', 'multipart', 'multipart', 'form', 'form', 'json', 'json', 'badjson', 'wrongtype', 'none']
)

const wrongContent = fc.record({
  type: fc.constantFrom(
    'text/plain',
    'application/xml',
    'multipart/form-data',
    'application/json; charset=utf-16',
    'application/x-www-form-urlencoded; charset=latin1',
    'image/png'
  ),
  body: fc.oneof(fc.string({ maxLength: 200 }), badJsonText, fc.constant('a=1&a=2&a[b]=3&' + 'x'.repeat(2000))),
})

/**
 * The requests of one operation as one role: `{ op, role, method, path, query, encoding, fields,
 * files, raw, token }`; `token` is 'role' (the role's own), 'garbage' or null (anonymous).
 */
export function requestArb(op, role, known = []) {
  const properties = op.body?.properties ?? {}
  const fileFields = Object.entries(properties)
    .filter(([, s]) => s.format === 'binary' || s.items?.format === 'binary')
    .map(([name]) => name)
  const params = op.pathParams.map((p) =>
    fc.oneof(
      { weight: 3, arbitrary: badId },
      { weight: 1, arbitrary: plausible(p.schema) },
      { weight: 2, arbitrary: realValue(known) },
      { weight: 1, arbitrary: fc.uuid().map((u) => `${u}.pdf`) }
    )
  )
  const caseValue = fc.oneof(
    { weight: 6, arbitrary: fc.constant(op.method) },
    { weight: 1, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'get', '', 'x', ['PUT', 'POST']) }
  )
  return fc
    .record({
      params: fc.tuple(...params),
      // `case` is drawn on its own (caseValue): the call contract's field, right most of the time.
      fields: fieldsFor(
        Object.fromEntries(
          Object.entries({
            ...properties,
            ...Object.fromEntries((op.query ?? []).map((q) => [q.name, q.schema])),
          }).filter(([name]) => name !== 'case')
        ),
        known
      ),
      caseValue,
      encoding: op.method === 'GET' ? fc.constant('query') : encodingArb,
      files: fc.array(fc.tuple(fc.constantFrom(...(fileFields.length ? fileFields : ['file'])), fileArb), {
        maxLength: fileFields.length ? 2 : 1,
      }),
      wrong: wrongContent,
      oversized: fc.integer({ min: 0, max: 199 }).map((n) => n === 0),
      token:
        role === 'anonymous'
          ? fc.constant(null)
          : fc.oneof({ weight: 19, arbitrary: fc.constant('role') }, { weight: 1, arbitrary: fc.constant('garbage') }),
    })
    .map((r) => {
      let i = 0
      const path = op.path.replace(/\{(\w+)\}/g, () => encodeURIComponent(String(r.params[i++])))
      const fields = op.contract && r.caseValue !== undefined ? [['case', r.caseValue], ...r.fields] : r.fields
      if (r.oversized && op.method !== 'GET') fields.push(['padding', 'x'.repeat(OVERSIZED_CHARS)])
      return {
        label: `${op.method} ${op.pattern}`,
        op,
        role,
        method: op.method,
        path,
        fields,
        encoding: r.encoding,
        files: r.files,
        wrong: r.wrong,
        token: r.token,
      }
    })
}

/** The operations of an OpenAPI document, with their path parameters and body schema resolved. */
export function operationsOf(document) {
  const schemas = document.components?.schemas ?? {}
  const resolve = (s) => (s?.$ref ? schemas[s.$ref.split('/').pop()] : s)
  const out = []
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries(operations)) {
      const parameters = op.parameters ?? []
      out.push({
        method: method.toUpperCase(),
        path,
        pattern: path.replace(/\{(\w+)\}/g, ':$1'),
        auth: op['x-tramita-auth'],
        contract: /^\/(data|inside|getPublicFile)\//.test(path),
        pathParams: parameters.filter((p) => p.in === 'path'),
        query: parameters.filter((p) => p.in === 'query'),
        body: resolve(op.requestBody?.content?.['multipart/form-data']?.schema),
      })
    }
  }
  // The web app's catch-all: any other GET path.
  out.push({
    method: 'GET',
    path: '/{page}',
    pattern: '/*',
    auth: 'public',
    contract: false,
    pathParams: [{ name: 'page', schema: {} }],
    query: [],
    body: undefined,
  })
  return out
}

/** Encodes a drawn request as fetch options (the role's token filled in by the caller). */
export function encode(request, baseUrl, token, clientIp) {
  const headers = { 'x-forwarded-for': clientIp, accept: 'application/json' }
  if (token) headers.token = token
  const url = new URL(request.path, baseUrl)
  const text = (v) => (typeof v === 'string' ? v : (JSON.stringify(v) ?? String(v)))
  /** Form encodings of a value: lists repeat the key, objects become key[sub] (qs's own syntax). */
  const pairs = (name, value) =>
    Array.isArray(value)
      ? value.map((v) => [name, text(v)])
      : value && typeof value === 'object'
        ? Object.entries(value).map(([k, v]) => [`${name}[${k}]`, text(v)])
        : [[name, value === null ? '' : text(value)]]
  const flat = request.fields.flatMap(([name, value]) => pairs(name, value))
  let body
  switch (request.encoding) {
    case 'query':
      for (const [k, v] of flat) url.searchParams.append(k, v)
      break
    case 'json':
      headers['content-type'] = 'application/json'
      body = JSON.stringify(Object.fromEntries(request.fields))
      break
    case 'form':
      headers['content-type'] = 'application/x-www-form-urlencoded'
      body = new URLSearchParams(flat).toString()
      break
    case 'multipart': {
      const form = new FormData()
      for (const [k, v] of flat) form.append(k, v)
      for (const [field, file] of request.files)
        form.append(field, new Blob([file.bytes], { type: file.type }), file.name)
      body = form
      break
    }
    case 'badjson':
      headers['content-type'] = 'application/json'
      body = `{"case":"${request.method}",${flat.map(([k]) => `"${k}":`).join('')}`
      break
    case 'wrongtype':
      headers['content-type'] = request.wrong.type
      body = request.wrong.body
      break
    default:
      break
  }
  return { url: url.href, init: { method: request.method, headers, body } }
}
