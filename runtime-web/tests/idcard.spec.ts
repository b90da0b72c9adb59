import { test } from '@japa/runner'
import { canSaveIdCard, idCardCalls, initialIdCard, previewSize, type FacePreview } from '../src/form/idcard/idcard.js'

const face = (path: string): FacePreview => ({ path, real_name: 'cara.png', ext: 'png', width: 85.6, height: 53.98 })

test.group('ID card scan', () => {
  test('save only when both faces exist; the preview follows the size (150 % enlarged)', ({ assert }) => {
    assert.isFalse(canSaveIdCard(initialIdCard))
    assert.isFalse(canSaveIdCard({ enlarged: false, faces: { front: face('/a') } }))
    assert.isFalse(canSaveIdCard({ enlarged: false, faces: { back: face('/b') } }))
    assert.isTrue(canSaveIdCard({ enlarged: true, faces: { front: face('/a'), back: face('/b') } }))
    assert.deepEqual(previewSize({ enlarged: false, faces: {} }), { width: 85.6, height: 53.98 })
    assert.deepEqual(previewSize({ enlarged: true, faces: {} }), { width: 128.4, height: 80.97 })
  })

  test('the calls name the field, the faces and the size; full refuses with a face missing', async ({ assert }) => {
    const sent: [string, Record<string, unknown>][] = []
    const endpoint = async <T>(name: string, fields: Record<string, string | Blob>) => {
      sent.push([name, fields])
      return { path: '/data/files/x.pdf' } as T
    }
    const calls = idCardCalls(endpoint, 'cedula')
    await calls.preview('front', new Blob(['x'], { type: 'image/png' }), 'frente.png', true)
    const [name, fields] = sent[0]!
    assert.equal(name, 'cardim_preview')
    assert.include(fields, { field: 'cedula', ampliar: 'true' })
    assert.equal((fields.pdf_one as File).name, 'frente.png')

    await assert.rejects(() => calls.full({ enlarged: false, faces: { front: face('/a') } }))
    await calls.full({ enlarged: true, faces: { front: face('/a'), back: face('/b') } })
    assert.deepEqual(sent[1], ['cardim_full', { field: 'cedula', ampliar: 'true', pdf_one: '/a', pdf_two: '/b' }])
  })
})
