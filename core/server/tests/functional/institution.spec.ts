import { test } from '@japa/runner'
import { translate } from '@tramita/i18n'
import Institution from '#models/institution'
import { makeUser, resetAuthTables, tokenFor } from '#tests/helpers/auth'

/** The institution settings the login screen reads: name, logo, background and panel images. */
test.group('institution settings', (group) => {
  group.each.setup(async () => {
    await resetAuthTables()
    await Institution.query().delete()
    await Institution.create({ name: 'Colegio', logo: null })
  })

  test('a superuser sets the login images and infocompany answers them', async ({ client, assert }) => {
    await makeUser({ username: 'raiz', role: 'superuser' })
    const token = await tokenFor(client, 'raiz')
    const put = await client.put('/inside/config/institution').header('token', token).json({
      logo: '/files/logo.png',
      login_background: 'https://cdn.example.test/fondo.jpg',
      login_panel: '/files/panel.webp',
    })
    assert.equal(put.body().status, 'done')
    const info = await client.get('/data/config/infocompany')
    assert.include(info.body().data, {
      company: 'Colegio',
      url_img: '/files/logo.png',
      login_background: 'https://cdn.example.test/fondo.jpg',
      login_panel: '/files/panel.webp',
    })
    // An empty value clears one image and leaves the others.
    await client.put('/inside/config/institution').header('token', token).json({ login_panel: '' })
    const after = await client.get('/data/config/infocompany')
    assert.equal(after.body().data.login_panel, '')
    assert.equal(after.body().data.login_background, 'https://cdn.example.test/fondo.jpg')
  })

  test('values that could escape a CSS url() are refused and nothing changes', async ({ client, assert }) => {
    await makeUser({ username: 'raiz', role: 'superuser' })
    const token = await tokenFor(client, 'raiz')
    for (const bad of [
      '/a.png") ; x',
      'javascript:alert(1)',
      '//evil.test/a.png',
      'data:image/png;base64,AA',
      '/a b.png',
    ]) {
      const res = await client.put('/inside/config/institution').header('token', token).json({ login_background: bad })
      assert.equal(res.status(), 422, bad)
      assert.equal(res.body().status, 'fail')
    }
    const info = await client.get('/data/config/infocompany')
    assert.equal(info.body().data.login_background, '')
  })

  test('a supervisor may not change the institution', async ({ client, assert }) => {
    await makeUser({ username: 'jefe', role: 'supervisor' })
    const token = await tokenFor(client, 'jefe')
    const res = await client.put('/inside/config/institution').header('token', token).json({ name: 'Otro' })
    assert.equal(res.status(), 403)
    assert.deepEqual(res.body(), { status: 'fail', message: translate('es', 'auth.forbidden') })
    assert.equal((await Institution.firstOrFail()).name, 'Colegio')
  })
})
