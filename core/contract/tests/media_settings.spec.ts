import { test } from '@japa/runner'
import { validateConfig, withDefaults } from '../src/index.js'
import { fileType } from '../src/types/media.js'

/** The settings the media renderers read: the image source, the image element's height. */
test.group('media settings', () => {
  const config = withDefaults({
    form: { pages: [{ name: 'P', layout: [['foto', 'logo']] }] },
    fields: [{ field_name: 'foto', type: 'image' }],
    elements: [{ field_name: 'logo', type: 'image', data: { src: '/logo.png' } }],
  })

  test('an image comes from an upload unless the designer says camera or both', ({ assert }) => {
    assert.equal(config.fields[0]!.data.source, 'upload')
  })

  test('an image element is 180 px high by default, like an image field', ({ assert }) => {
    assert.equal(config.elements[0]!.data.height, 180)
  })

  test('camera and both are accepted; anything else is refused', ({ assert }) => {
    const withSource = (source: string) => ({
      form: { pages: [{ name: 'P', layout: [['foto']] }] },
      fields: [{ field_name: 'foto', type: 'image', data: { source } }],
    })
    assert.deepEqual(validateConfig(withSource('camera')), [])
    assert.deepEqual(validateConfig(withSource('both')), [])
    assert.isNotEmpty(validateConfig(withSource('scanner')))
  })

  test('a file field refuses active content unless allowActiveContent says so; a saved .html follows it', ({
    assert,
  }) => {
    const withFile = (data: Record<string, unknown>) => ({
      form: { pages: [{ name: 'P', layout: [['adjunto']] }] },
      fields: [{ field_name: 'adjunto', type: 'file', data }],
    })
    assert.isFalse(withDefaults(withFile({})).fields[0]!.data.allowActiveContent)
    assert.deepEqual(validateConfig(withFile({ allowActiveContent: true })), [])
    assert.isNotEmpty(validateConfig(withFile({ allowActiveContent: 'yes' })))
    const entry = { ext: 'html', ip: '', path: '/data/files/x.html', real_name: 'pagina.html', status: 'good' }
    const item = (allowActiveContent: boolean) => withDefaults(withFile({ allowActiveContent })).fields[0]!
    assert.lengthOf(fileType.validate(item(false), [entry], {}), 1)
    assert.deepEqual(fileType.validate(item(true), [entry], {}), [])
  })
})
