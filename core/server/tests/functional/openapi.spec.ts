import { readFileSync, writeFileSync } from 'node:fs'
import { test } from '@japa/runner'
import { testPluginIds } from '#plugins/enabled'
import { buildDocument, collectRoutes, documentText, OPENAPI_FILE } from '#services/openapi/document'

/** The document generated from the code as it is now (the test-only fixture plugins left out). */
async function generated(): Promise<string> {
  const { version } = JSON.parse(readFileSync(new URL('../../../../package.json', import.meta.url), 'utf8'))
  return documentText(await buildDocument(collectRoutes(testPluginIds()), version))
}

test.group('openapi: the committed description is the code’s', () => {
  test('core/server/openapi.json equals a fresh generation (else run `npm run openapi`)', async ({ assert }) => {
    const fresh = await generated()
    // `npm run openapi` runs this test with TRAMITA_OPENAPI_WRITE=1 to rewrite the committed copy.
    if (process.env.TRAMITA_OPENAPI_WRITE === '1') writeFileSync(OPENAPI_FILE, fresh)
    const committed = readFileSync(OPENAPI_FILE, 'utf8')
    assert.isTrue(committed === fresh, 'core/server/openapi.json is out of date: run `npm run openapi` and commit it')
  })

  test('every route but the web app’s catch-all has an operation, with its guard', async ({ assert }) => {
    const document = JSON.parse(await generated())
    const routes = collectRoutes(testPluginIds())
    assert.isAbove(routes.length, 80)
    for (const route of routes) {
      if (route.pattern === '/*') continue
      const path = route.pattern.replace(/:(\w+)/g, '{$1}')
      const operation = document.paths[path]?.[route.method.toLowerCase()]
      assert.exists(operation, `${route.method} ${route.pattern}`)
      assert.deepEqual(operation['x-tramita-auth'], route.auth)
    }
    const users = document.paths['/inside/users/{id}'].put
    assert.deepEqual(users['x-tramita-auth'], { roles: ['superuser', 'supervisor'] })
    // The VineJS validator's fields are in the body.
    const schemaOf = (operation: any) => {
      const ref: string = operation.requestBody.content['multipart/form-data'].schema.$ref
      return document.components.schemas[ref.split('/').pop()!]
    }
    const body = schemaOf(users)
    assert.include(Object.keys(body.properties), 'first_name')
    // field(ctx, 'user', { max: 150 })-style reads carry their limits.
    const login = schemaOf(document.paths['/data/login'].put)
    assert.deepEqual(login.properties.user, { type: 'string', maxLength: 200 })
  })

  test('GET /openapi.json answers the committed document to anyone', async ({ client, assert }) => {
    const response = await client.get('/openapi.json')
    response.assertStatus(200)
    const body = response.body()
    assert.equal(body.openapi, '3.1.0')
    assert.exists(body.paths['/inside/users/{id}'])
    assert.isArray(body['x-tramita-undescribed'])
  })
})
