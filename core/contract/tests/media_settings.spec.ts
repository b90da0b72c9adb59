import { test } from '@japa/runner'
import { validateConfig, withDefaults } from '../src/index.js'

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
})
