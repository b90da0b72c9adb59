import { test } from '@japa/runner'
import { openDocument, validateDocument } from '../src/model/index.js'
import {
  documentText,
  importText,
  parseJson,
  positionOf,
  readDocumentText,
  readTypeMapText,
} from '../src/json/document_text.js'
import { sampleDocument } from './model_fixture.js'

test.group('JSON view', () => {
  test('the text is the exported document and reads back to the same document', ({ assert }) => {
    const doc = sampleDocument()
    const read = readDocumentText(documentText(doc))
    assert.isTrue(read.ok)
    if (read.ok) assert.deepEqual(openDocument(read.value), doc)
  })

  test('parse errors carry their line and column', ({ assert }) => {
    assert.deepEqual(positionOf('ab\ncd', 4), { line: 2, column: 2 })
    const read = parseJson('{\n  "name": "x",\n  "jsonconfig": }')
    assert.isFalse(read.ok)
    if (!read.ok) assert.include(read.error, { line: 3, column: 17 })
  })

  test('a text that is not a document says what is missing', ({ assert }) => {
    const cases: [string, RegExp][] = [
      ['[1]', /expected an object/],
      ['{"name":"x","jsonconfig":{},"process":[]}', /"process" must be an object/],
      ['{"name":" ","jsonconfig":{},"process":{}}', /"name"/],
    ]
    for (const [text, message] of cases) {
      const read = readDocumentText(text)
      assert.isFalse(read.ok, text)
      if (!read.ok) assert.match(read.error.message, message)
    }
  })

  test('a Form.io form replaces the jsonconfig, keeps name and process, and lists what it could not carry', ({
    assert,
  }) => {
    const doc = sampleDocument()
    const formio = JSON.stringify({
      components: [
        { type: 'textfield', key: 'nombre', label: 'Nombre', input: true, validate: { required: true } },
        { type: 'weird', key: 'raro' },
      ],
    })
    const read = importText(formio, doc)
    assert.isTrue(read.ok)
    if (!read.ok) return
    assert.equal(read.value.format, 'formio')
    assert.deepEqual(
      read.value.unmapped.map((u) => u.path),
      ['/components/1']
    )
    assert.equal(read.value.next.name, doc.name)
    assert.deepEqual(read.value.next.process, doc.process)
    const config = read.value.next.jsonconfig as { fields: { field_name: string }[] }
    assert.deepEqual(
      config.fields.map((f) => f.field_name),
      ['nombre']
    )
  })

  test('a SurveyJS survey and an exported form import; an unknown file is refused', ({ assert }) => {
    const doc = sampleDocument()
    const survey = JSON.stringify({
      pages: [{ name: 'p1', elements: [{ type: 'text', name: 'edad', inputType: 'number' }] }],
    })
    const read = importText(survey, doc)
    assert.isTrue(read.ok)
    if (read.ok) assert.equal(read.value.format, 'surveyjs')
    const exported = importText(documentText(doc), openDocument({ name: 'Otro', jsonconfig: {}, process: {} }))
    assert.isTrue(exported.ok)
    if (exported.ok) {
      assert.equal(exported.value.next.name, doc.name)
      assert.deepEqual(validateDocument(openDocument(exported.value.next)), validateDocument(doc))
    }
    const unknown = importText('{"hola": 1}', doc)
    assert.isFalse(unknown.ok)
    if (!unknown.ok) assert.match(unknown.error.message, /Unknown form format/)
  })

  test('a mapping file of custom types is read for the import; a bad one is refused with its reason', ({ assert }) => {
    const doc = sampleDocument()
    const map = readTypeMapText('{"formio": {"yesNo": "checkbox"}}')
    assert.isTrue(map.ok)
    const formio = JSON.stringify({ components: [{ type: 'yesNo', key: 'acepta', input: true }] })
    const withMap = importText(formio, doc, undefined, map.ok ? map.value : undefined)
    const byShape = importText(formio, doc)
    assert.isTrue(withMap.ok && byShape.ok)
    if (withMap.ok)
      assert.deepEqual(
        withMap.value.unmapped.map((u) => u.mapped),
        ['checkbox']
      )
    if (byShape.ok)
      assert.deepEqual(
        byShape.value.unmapped.map((u) => u.mapped),
        ['radio']
      )
    const badTarget = readTypeMapText('{"formio": {"yesNo": "interruptor"}}')
    assert.isFalse(badTarget.ok)
    if (!badTarget.ok) assert.match(badTarget.error.message, /"formio.yesNo": "interruptor" is not a Form.io type/)
    const notJson = readTypeMapText('{"formio": ')
    assert.isFalse(notJson.ok)
    if (!notJson.ok) assert.equal(notJson.error.line, 1)
  })
})
