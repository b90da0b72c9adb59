import { test } from '@japa/runner'
import { fillTemplate, templatePlaceholders, validateConfig } from '../src/index.js'

const config = (documents: unknown, actions: unknown[] = []) => ({
  form: { pages: [{ name: 'Datos', layout: [['nombre', 'monto']] }] },
  fields: [
    { field_name: 'nombre', type: 'text' },
    { field_name: 'monto', type: 'number' },
  ],
  validations: { actions },
  documents,
})

const CERTIFICADO = {
  pageSize: 'LETTER',
  content: [
    { text: 'Certificado ${CODE_PROCESS}', style: 'title' },
    { text: 'Se certifica que ${nombre} pagó ${ monto }.' },
    { table: { body: [['Nombre', '${nombre}']] } },
  ],
  styles: { title: { fontSize: 18, bold: true } },
}

test.group('document templates', () => {
  test('a template naming fields and the case code passes; a create_doc step may name it', ({ assert }) => {
    const step = { type: 'create_doc', config: { template: 'certificado' } }
    assert.deepEqual(validateConfig(config({ certificado: CERTIFICADO }, [{ name: 'doc', actions: [step] }])), [])
    // Configs without documents stay valid.
    assert.deepEqual(validateConfig(config(undefined)), [])
  })

  test('a placeholder naming no field is a problem at its path', ({ assert }) => {
    const bad = { content: [{ text: 'ok ${nombre}' }, { columns: [{ text: 'x ${apellido}' }] }] }
    assert.deepEqual(validateConfig(config({ carta: bad })), [
      { path: '/documents/carta/content/1/columns/0/text', message: '"apellido" is not a field of this form' },
    ])
  })

  test('a create_doc step naming no template, bad names, no content, files and URLs are refused', ({ assert }) => {
    const step = { type: 'create_doc', config: { template: 'nada' } }
    assert.deepEqual(validateConfig(config({ carta: { content: 'x' } }, [{ name: 'doc', actions: [step] }])), [
      { path: '/validations/actions/0/actions/0/config/template', message: 'no document template named "nada"' },
    ])
    assert.deepEqual(validateConfig(config({ 'a b': { content: 'x' } })), [
      { path: '/documents/a b', message: 'a template name is 1 to 64 letters, digits, "_" or "-"' },
    ])
    assert.deepEqual(validateConfig(config({ carta: { pageSize: 'A4' } })), [
      { path: '/documents/carta/content', message: 'is required' },
    ])
    const resources = {
      content: [{ image: '/etc/passwd' }, { image: 'logo' }, { image: 'data:image/png;base64,iVBORw0KGgo=' }],
      images: { logo: 'https://example.com/logo.png' },
      files: { a: { src: '/etc/hosts' } },
    }
    assert.deepEqual(
      validateConfig(config({ carta: resources })).map((p) => p.path),
      [
        '/documents/carta/content/0/image',
        '/documents/carta/content/1/image',
        '/documents/carta/images/logo',
        '/documents/carta/files',
      ]
    )
  })

  test('placeholders are found with their paths and filled as text, once', ({ assert }) => {
    assert.deepEqual(
      templatePlaceholders(CERTIFICADO).map((p) => `${p.name}@${p.path.join('/')}`),
      [
        'CODE_PROCESS@content/0/text',
        'nombre@content/1/text',
        'monto@content/1/text',
        'nombre@content/2/table/body/0/1',
      ]
    )
    const filled = fillTemplate(CERTIFICADO, { nombre: 'Ana ${monto}', monto: '10', CODE_PROCESS: 'C-1' })
    assert.equal(filled.content[1]!.text, 'Se certifica que Ana ${monto} pagó 10.')
    assert.equal(filled.content[0]!.text, 'Certificado C-1')
    assert.deepEqual(filled.content[2], { table: { body: [['Nombre', 'Ana ${monto}']] } })
    assert.equal(
      CERTIFICADO.content[1]!.text,
      'Se certifica que ${nombre} pagó ${ monto }.',
      'the template is unchanged'
    )
    assert.equal(fillTemplate({ content: '${nombre}' }, {}).content, '')
  })
})
