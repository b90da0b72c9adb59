import { test } from '@japa/runner'
import MarkdownIt from 'markdown-it'
import { fillPlaceholders } from '@tramita/contract'
import { escapeMarkdown } from '../src/form/renderers/elements/escape_markdown.js'
import {
  fitWithin,
  photoFileName,
  refusalMessage,
  signatureDate,
} from '../src/form/renderers/fields/media/media_rules.js'
import { fileKindOf } from '../src/lib/preview.js'

test.group('media names and dates', () => {
  test('a photo is named by the moment it was taken', ({ assert }) => {
    assert.equal(photoFileName(new Date(2026, 10, 3, 9, 5, 7)), 'foto_20261103_090507.jpg')
  })

  test('a signature date reads YYYY/MM/DD HH:mm:ss', ({ assert }) => {
    assert.equal(signatureDate(new Date(2026, 0, 31, 23, 59, 1)), '2026/01/31 23:59:01')
  })

  test('each refusal has its message and names the file', ({ assert }) => {
    assert.deepEqual(refusalMessage('blocked_extension', 'a.exe', []), {
      key: 'media_ui.refused.blocked',
      vars: { file: 'a.exe' },
    })
    assert.deepEqual(refusalMessage('extension_not_allowed', 'a.doc', ['pdf', 'png']), {
      key: 'media_ui.refused.extension',
      vars: { file: 'a.doc', extensions: 'pdf, png' },
    })
    assert.equal(refusalMessage('limit_reached', 'b.pdf', []).key, 'media_ui.refused.limit')
    assert.equal(refusalMessage('not_an_image', 'c.pdf', []).key, 'media_ui.refused.not_image')
  })
})

test.group('text block values', () => {
  const markdown = new MarkdownIt({ html: false, linkify: true, breaks: true })
  const render = (template: string, values: Record<string, string>) =>
    markdown.render(fillPlaceholders(template, (name) => (name in values ? escapeMarkdown(values[name]!) : undefined)))

  test('a value is shown as typed, never read as markdown', ({ assert }) => {
    const html = render('Hola **${nombre}**', { nombre: '*Ana* [x](javascript:alert(1)) # 1. _b_' })
    assert.include(html, '<strong>*Ana* [x](javascript:alert(1)) # 1. _b_</strong>')
    assert.notInclude(html, '<a ')
    assert.notInclude(html, '<em>')
  })

  test('HTML in the text or in a value is escaped', ({ assert }) => {
    const html = render('<b>x</b> ${v}', { v: '<img src=x onerror=alert(1)>' })
    assert.notInclude(html, '<b>')
    assert.notInclude(html, '<img')
    assert.include(html, '&lt;img')
  })

  test('the designer’s own markdown still works, and script links are refused', ({ assert }) => {
    const html = render('# Título\n[sitio](https://example.test) [malo](javascript:alert(1))', {})
    assert.include(html, '<h1>Título</h1>')
    assert.include(html, 'href="https://example.test"')
    assert.notInclude(html, 'href="javascript:')
  })
})

test.group('pictures and previews', () => {
  test('a large picture fits the longest side, a small one is kept', ({ assert }) => {
    assert.deepEqual(fitWithin(4000, 3000, 1600), { width: 1600, height: 1200 })
    assert.deepEqual(fitWithin(1000, 3000, 1600), { width: 533, height: 1600 })
    assert.deepEqual(fitWithin(800, 600, 1600), { width: 800, height: 600 })
  })

  const kinds: [string, string][] = [
    ['foto.JPG', 'image'],
    ['/uploads/a/b/informe.pdf?v=2', 'pdf'],
    ['clip.webm', 'video'],
    ['nota.mp3', 'audio'],
    ['.png', 'image'],
    ['png', 'image'],
    ['datos.xlsx', 'other'],
    ['sin_extension', 'other'],
  ]
  for (const [name, kind] of kinds) {
    test(`${name} previews as ${kind}`, ({ assert }) => {
      assert.equal(fileKindOf(name), kind)
    })
  }
})
