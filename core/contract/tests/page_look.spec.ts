import { test } from '@japa/runner'
import { bodyStyleWithDefaults, pageLook, pageWithDefaults } from '../src/index.js'

const page = (extra: Record<string, unknown> = {}) => pageWithDefaults({ name: 'P', layout: [], ...extra })
const body = bodyStyleWithDefaults({ maxwidth: 640, background: '#101010', background_image: 'body.png' })

test.group('pageLook: a page as the runtime and the designer draw it', () => {
  test('defaults: width per device, max width, margins, radius, shadow on, no border or blur', ({ assert }) => {
    const own = page({ style_from_body: false })
    const look = pageLook(own, undefined, 'computer')
    assert.deepEqual(look.card, {
      width: '70%',
      maxWidth: 800,
      marginTop: 50,
      marginBottom: 50,
      borderRadius: 10,
      background: '#ffffff',
      opacity: 1,
    })
    assert.deepEqual(look.wrap, {})
    assert.isUndefined(look.image)
    assert.isFalse(look.pagebar)
    assert.equal(pageLook(own, undefined, 'tablet').card.width, '90%')
    assert.equal(pageLook(own, undefined, 'mobile').card.width, '100%')
  })

  test('the page style: paddings, look, pagebar', ({ assert }) => {
    const styled = page({
      style_from_body: false,
      style: {
        lateral_paddings: 24,
        pagebar: true,
        maxwidth: 500,
        responsive: { computer: 60 },
        page_style: { background: '#eeeeee', opacity: 0.5, shadow: false, border: true, blur_backdrop: true },
      },
    })
    const look = pageLook(styled, body, 'computer')
    assert.include(look.card, {
      width: '60%',
      maxWidth: 500,
      paddingLeft: 24,
      paddingRight: 24,
      background: '#eeeeee',
      opacity: 0.5,
      boxShadow: 'none',
      border: '1px solid var(--border)',
      backdropFilter: 'blur(8px)',
    })
    assert.isTrue(look.pagebar)
  })

  test('the image per type_page takes 1/proportion, half on tablets; a phone moves side images to the top', ({
    assert,
  }) => {
    const at = (type_page: string, device: 'mobile' | 'tablet' | 'computer') =>
      pageLook(
        page({ style_from_body: false, style: { type_page, background_image: 'a b.png', background: '#abcdef' } }),
        body,
        device
      )
    const left = at('left', 'computer')
    assert.deepEqual(left.image, { placement: 'left', box: { backgroundImage: 'url("a%20b.png")', flexBasis: '25%' } })
    assert.deepEqual(left.wrap, { backgroundColor: '#abcdef' })
    assert.equal(at('side', 'tablet').image?.box.flexBasis, '50%')
    assert.deepEqual(at('right', 'mobile').image, {
      placement: 'top',
      box: { backgroundImage: 'url("a%20b.png")', height: '50vh' },
    })
    const center = at('center', 'mobile')
    assert.equal(center.image?.placement, 'center')
    assert.equal(center.wrap.backgroundImage, 'url("a%20b.png")')
  })

  test('style_from_body: the body gives max width, background colour and image', ({ assert }) => {
    const fromBody = page({ style: { background_image: 'page.png', maxwidth: 900, type_page: 'left' } })
    const look = pageLook(fromBody, body, 'computer')
    assert.equal(look.card.maxWidth, 640)
    assert.deepEqual(look.wrap, { backgroundColor: '#101010' })
    assert.equal(look.image?.box.backgroundImage, 'url("body.png")')
    assert.equal(look.image?.placement, 'left', 'the page still says where the image goes')
    // Without the body (a modal's page), the page's own style is used.
    assert.equal(pageLook(fromBody, undefined, 'computer').card.maxWidth, 900)
  })
})
