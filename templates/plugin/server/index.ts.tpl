import { definePlugin } from '@tramita/plugin-api'

/** __TITLE__: describe what this plugin adds. */
export default definePlugin({
  id: '__ID__',
  version: '0.1.0',
  description: '__TITLE__',
  // migrations: fileURLToPath(new URL('./migrations/', import.meta.url)),  (tables prefixed with __ID___)
  // jobs: [{ name: 'example', handle: async (payload) => { ... } }],       (queued as __ID__:example)
  routes(router, ctx) {
    router.get(`${ctx.namespace}/ping`, () => ({ status: 'done', data: { plugin: ctx.id } }))
  },
  commands: [
    {
      name: 'hello',
      description: 'say hello (run as `tramita __ID__:hello [name] [--loud]`)',
      options: [{ flags: '--loud', description: 'shout' }],
      run(args, options, ctx) {
        const text = `Hello ${args[0] ?? 'world'} from ${ctx.id}`
        console.log(options.loud ? text.toUpperCase() : text)
      },
    },
  ],
})
