import { test } from '@japa/runner'
import { validateConfig } from '../../src/index.js'
import { importFormio } from '../../src/importers/index.js'
import { hasTags, htmlAsMarkdown, htmlAsText } from '../../src/importers/html-text.js'
import { itemOf } from './helpers.js'

test.group('HTML from a source form, read as text (issue 24)', () => {
  test('simple text markup becomes markdown; the words are escaped', ({ assert }) => {
    assert.equal(htmlAsMarkdown('<p>Hola <b>mundo</b> &amp; <em>todos</em></p>'), 'Hola **mundo** & *todos*')
    assert.equal(htmlAsMarkdown('<ul><li>uno</li><li>dos</li></ul>'), '- uno\n- dos')
    assert.equal(htmlAsMarkdown('<ol><li>a</li><li>b</li></ol><p>fin</p>'), '1. a\n2. b\n\nfin')
    assert.equal(htmlAsMarkdown('<h3>Datos</h3><p>línea<br>otra</p>'), '### Datos\n\nlínea  \notra')
    assert.equal(
      htmlAsMarkdown('<p class="x">Ver <a href="https://ejemplo.co/a b" target="_blank">aquí</a></p>'),
      'Ver [aquí](https://ejemplo.co/a%20b)'
    )
    assert.equal(htmlAsMarkdown('<p>2 * 3 = 6 _no_</p>'), '2 \\* 3 = 6 \\_no\\_')
  })

  test('anything more than text markup is not guessed at', ({ assert }) => {
    for (const html of [
      '<table><tr><td>1</td></tr></table>',
      '<p style="color:red">rojo</p>',
      '<img src="x.png">',
      '<p><u>subrayado</u></p>',
      '<a href="javascript:alert(1)">x</a>',
      '<script>x()</script>',
      'a < b',
    ])
      assert.isUndefined(htmlAsMarkdown(html), html)
  })

  test('descriptions keep their words, a block per line', ({ assert }) => {
    assert.isTrue(hasTags('<p>x</p>'))
    assert.isFalse(hasTags('a < b > c'))
    assert.equal(htmlAsText('<p>Seleccione <em>uno</em>&nbsp;solo</p><p>Gracias</p>'), 'Seleccione uno solo\nGracias')
  })

  test('Form.io content and html elements become text elements; descriptions lose their tags', ({ assert }) => {
    const result = importFormio({
      components: [
        { type: 'content', key: 'aviso', html: '<p>Lea <strong>todo</strong></p>' },
        { type: 'htmlelement', key: 'titulo', tag: 'h2', content: 'Datos' },
        { type: 'content', key: 'tabla', html: '<table><tr><td>1</td></tr></table>' },
        { type: 'textfield', key: 'nombre', label: 'Nombre', description: '<p>Como en su <b>cédula</b></p>' },
      ],
    })
    assert.deepEqual(itemOf(result, 'aviso').data, { value: 'Lea **todo**' })
    assert.equal(itemOf(result, 'aviso').type, 'text')
    assert.deepEqual(itemOf(result, 'titulo').data, { value: '## Datos' })
    assert.equal(itemOf(result, 'tabla').type, 'html')
    assert.equal(itemOf(result, 'nombre').data.label.description, 'Como en su cédula')
    assert.deepEqual(validateConfig(result.config), [])
  })
})
