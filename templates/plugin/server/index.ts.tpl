import { definePlugin } from '@tramita/plugin-api'

/** __TITLE__: describe what this plugin adds. */
export default definePlugin({
  id: '__ID__',
  version: '0.1.0',
  description: '__TITLE__',
  // migrations: fileURLToPath(new URL('./migrations/', import.meta.url)),
  // jobs: [{ name: 'example', handle: async (payload) => { ... } }],
  routes(router, ctx) {
    router.get(`${ctx.namespace}/ping`, () => ({ status: 'done', data: { plugin: ctx.id } }))
  },
})
